#include <catch2/catch.hpp>
#include <set>

#include "sample_report.hpp"

using namespace tr2audit::report;

TEST_CASE("report::formats lists every format once with a renderer", "[report]") {
  std::set<std::string_view> names, extensions;
  for (const Format& format : formats()) {
    CHECK(names.insert(format.name).second);
    CHECK(extensions.insert(format.extension).second);
    CHECK_FALSE(format.description.empty());
    REQUIRE(format.render != nullptr);
    CHECK_FALSE(testing::render_to_string(format.render, testing::sample_report()).empty());
  }
  CHECK(names == std::set<std::string_view>{"text", "json", "sarif", "markdown", "html", "plan"});
  CHECK(find_format("sarif") != nullptr);
  CHECK(find_format("sarif")->extension == "sarif");
  CHECK(find_format("pdf") == nullptr);
}

TEST_CASE("report::formats render the same report to the same bytes", "[report]") {
  for (const Format& format : formats()) {
    INFO(format.name);
    CHECK(testing::render_to_string(format.render, testing::sample_report()) ==
          testing::render_to_string(format.render, testing::sample_report()));
  }
}
