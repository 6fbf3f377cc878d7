#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"

using tr2audit::testing::run_tr2audit;
using tr2audit::testing::TempDir;
using Json = nlohmann::json;

namespace {

const std::string k_root = TR2AUDIT_SOURCE_DIR;

Json scan_json(const std::string& path, const std::string& extra = "") {
  const auto result = run_tr2audit("scan --format json " + extra + " '" + path + "'");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return Json::parse(result.out);
}

}  // namespace

TEST_CASE("cli::scan writes the JSON report contract for an example repo", "[cli]") {
  const Json report = scan_json(k_root + "/examples/mixed-with-fallbacks");
  CHECK(report["schema_version"] == "1.0");
  CHECK(report["tool"]["name"] == "tr2audit");
  CHECK(report["target"]["profile"] == "native");
  const Json& files = report["scan"]["files"];
  CHECK(files["scanned"] == 9);
  CHECK(files["skipped"] == 0);
  CHECK(files["with_syntax_errors"] == 0);
  CHECK(files["by_kind"]["python"] == 7);
  CHECK(files["by_kind"]["notebook"] == 1);
  CHECK(files["by_kind"]["pyproject"] == 1);
  CHECK(report["scan"]["lines"].get<int>() > 300);
  CHECK(report["problems"].empty());
  REQUIRE(report["findings"].is_array());
  for (const Json& finding : report["findings"]) {
    CHECK(finding["location"]["path"].get<std::string>().front() != '/');
    CHECK(finding["fingerprint"].get<std::string>().size() == 16);
  }
}

TEST_CASE("cli::scan output is byte-identical across thread counts", "[cli]") {
  const std::string path = "'" + k_root + "/examples/cuda-kernels'";
  auto one = run_tr2audit("scan --format json --jobs 1 " + path);
  auto four = run_tr2audit("scan --format json --jobs 4 " + path);
  REQUIRE(one.exit_code == 0);
  REQUIRE(four.exit_code == 0);
  Json a = Json::parse(one.out), b = Json::parse(four.out);
  for (Json* j : {&a, &b}) {
    (*j)["scan"].erase("started_at");
    (*j)["scan"].erase("duration_ms");
  }
  CHECK(a.dump() == b.dump());
}

TEST_CASE("cli::scan names every bad file as a problem and goes on", "[cli]") {
  TempDir repo;
  repo.write("train.py", "import torch\ntorch.cuda.synchronize()\n");
  repo.write("broken.py", "def f(:\n    pass\n");
  repo.write("latin1.py", std::string("x = '\xe9t\xe9'\n"));
  repo.write("blob.py", std::string("abc\0def", 7));
  repo.write("huge.py", std::string(2 * 1024 * 1024, '#'));
  std::filesystem::create_directories(repo.path() / "pkg");
  std::filesystem::create_directory_symlink(repo.path(), repo.path() / "pkg" / "loop");
  const Json report = scan_json(repo.path().string(), "--max-file-size 1048576");
  std::map<std::string, std::string> kinds;
  for (const Json& p : report["problems"]) kinds[p["path"].get<std::string>()] = p["kind"].get<std::string>();
  CHECK(kinds["broken.py"] == "syntax-errors");
  CHECK(kinds["latin1.py"] == "not-utf8");
  CHECK(kinds["blob.py"] == "binary");
  CHECK(kinds["huge.py"] == "too-large");
  CHECK(kinds["pkg/loop"] == "symlink-loop");
  CHECK(report["scan"]["files"]["scanned"] == 2);
  CHECK(report["scan"]["files"]["with_syntax_errors"] == 1);
}

TEST_CASE("cli::scan rejects bad usage with exit code 2 and a clear message", "[cli]") {
  const auto missing = run_tr2audit("scan /no/such/repo");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("/no/such/repo") != std::string::npos);
  const auto typo = run_tr2audit("scan --format jsno '" + k_root + "/examples/cuda-kernels'");
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("did you mean 'json'") != std::string::npos);
  const auto target = run_tr2audit("scan --target gpu '" + k_root + "/examples/cuda-kernels'");
  CHECK(target.exit_code == 2);
  const auto flag = run_tr2audit("scan --no-such-flag .");
  CHECK(flag.exit_code == 2);
}

TEST_CASE("cli::debug facts prints resolved callees as JSON", "[cli]") {
  TempDir repo;
  const auto file = repo.write("model.py",
                               "import torch.nn.functional as F\n"
                               "class Net(torch.nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        return F.gelu(x).item()\n");
  const auto result = run_tr2audit("debug facts '" + file.string() + "'");
  REQUIRE(result.exit_code == 0);
  const Json facts = Json::parse(result.out);
  REQUIRE(facts["calls"].size() == 2);
  CHECK(facts["calls"][1]["callee"] == "torch.nn.functional.gelu");
  CHECK(facts["calls"][0]["method"] == "item");
  CHECK(facts["calls"][0]["context"]["region"] == "forward");
  const auto tree = run_tr2audit("debug tree '" + file.string() + "'");
  CHECK(tree.exit_code == 0);
  CHECK(tree.out.find("function_definition") != std::string::npos);
}

TEST_CASE("cli::rules test passes every built-in rule over its annotated fixture", "[cli][rules]") {
  const auto result = run_tr2audit("rules test '" + k_root + "/rules' --fixtures '" + k_root + "/tests/rules'");
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.find(" 0 failed") != std::string::npos);
  CHECK(result.out.find("FAIL ") == std::string::npos);
}

TEST_CASE("cli::scan --target xla changes severities the profile documents", "[cli]") {
  const Json native = scan_json(k_root + "/examples/mixed-with-fallbacks");
  const Json xla = scan_json(k_root + "/examples/mixed-with-fallbacks", "--target xla");
  CHECK(xla["target"]["profile"] == "xla");
  const auto severity_of = [](const Json& report, const std::string& rule) {
    for (const Json& f : report["findings"]) {
      if (f["rule_id"] == rule) return f["severity"].get<std::string>();
    }
    return std::string("<none>");
  };
  CHECK(severity_of(native, "dynamic-graph.item-in-training-step") == "medium");
  CHECK(severity_of(xla, "dynamic-graph.item-in-training-step") == "high");
}

TEST_CASE("cli::scan writes several formats in one run, one -o per --format", "[cli]") {
  TempDir out;
  const std::string example = "'" + k_root + "/examples/llama-lora-fixed-shapes'";
  const auto sarif = (out.path() / "r.sarif").string(), json = (out.path() / "r.json").string();
  const auto result = run_tr2audit("scan " + example + " -f sarif -o '" + sarif + "' -f json -o '" + json +
                                   "' -f text -o - --no-color");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("Scanned 7 files") != std::string::npos);
  CHECK(Json::parse(tr2audit::testing::slurp(json))["schema_version"] == "1.0");
  CHECK(Json::parse(tr2audit::testing::slurp(sarif))["version"] == "2.1.0");
  const auto mismatch = run_tr2audit("scan " + example + " -f sarif -f json");
  CHECK(mismatch.exit_code == 2);
  CHECK(mismatch.err.find("one -o FILE per --format") != std::string::npos);
}
