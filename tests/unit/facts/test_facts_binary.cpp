#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

#include "support/extract_helpers.hpp"
#include "support/run_binary.hpp"
#include "tr2audit/facts/facts_binary.hpp"

namespace fs = std::filesystem;
using namespace tr2audit;
using tr2audit::testing::facts_of;

namespace {

/// Every Python file the tests and examples hold: realistic facts of every kind.
std::vector<fs::path> python_fixtures() {
  std::vector<fs::path> out;
  const fs::path root = TR2AUDIT_SOURCE_DIR;
  for (const char* dir : {"examples", "tests/rules", "tests/fuzz"}) {
    if (!fs::is_directory(root / dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".py") out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

constexpr std::string_view k_sample = R"(import torch
from torch.utils.cpp_extension import load_inline as build  # tr2audit: ignore[cuda-extension.load-inline] vendored

class Net(torch.nn.Module):
    def forward(self, x, mode="fast"):
        if torch.cuda.is_available():
            x = x.cuda()
        for i in range(3):
            if x.sum() > 0:
                x = x * 2
        return x.item()

@torch.no_grad()
def step(model, batch, opt):
    loss = model(batch)
    loss.backward()
    opt.step()
    torch.backends.cudnn.benchmark = True
    return [y for y in batch if y]
)";

}  // namespace

TEST_CASE("facts_binary: facts read back equal to what was written, for every fixture", "[facts][cache]") {
  const auto files = python_fixtures();
  REQUIRE(files.size() > 50);
  std::size_t with_calls = 0;
  std::size_t conditional_args = 0;  // boxed `A if c else B` values
  for (const auto& path : files) {
    const facts::FileFacts original =
        facts_of(tr2audit::testing::slurp(path), fs::relative(path, TR2AUDIT_SOURCE_DIR).generic_string());
    with_calls += original.calls.empty() ? 0 : 1;
    for (const auto& call : original.calls) {
      for (const auto& arg : call.args) conditional_args += arg.conditional ? 1 : 0;
    }
    const std::string bytes = facts::to_bytes(original);
    const std::optional<facts::FileFacts> back = facts::from_bytes(bytes);
    INFO(path);
    REQUIRE(back);
    CHECK(*back == original);
    CHECK(facts::to_bytes(*back) == bytes);
  }
  CHECK(with_calls > 50);
  CHECK(conditional_args > 0);
}

TEST_CASE("facts_binary: every field of a rich file survives, directives included", "[facts][cache]") {
  const facts::FileFacts original = facts_of(k_sample);
  REQUIRE(!original.calls.empty());
  REQUIRE(!original.functions.empty());
  REQUIRE(!original.loops.empty());
  REQUIRE(!original.branches.empty());
  REQUIRE(original.directives.size() == 1);
  const auto back = facts::from_bytes(facts::to_bytes(original));
  REQUIRE(back);
  CHECK(*back == original);
}

TEST_CASE("facts_binary: truncated, padded or damaged bytes give nullopt or facts, never a crash", "[facts][cache]") {
  const std::string bytes = facts::to_bytes(facts_of(k_sample));
  for (std::size_t n = 0; n < bytes.size(); ++n) CHECK_FALSE(facts::from_bytes(std::string_view(bytes).substr(0, n)));
  CHECK_FALSE(facts::from_bytes(bytes + '\0'));
  std::mt19937 random(14);
  for (int round = 0; round < 2000; ++round) {
    std::string damaged = bytes;
    for (int k = 0; k < 1 + round % 4; ++k) damaged[random() % damaged.size()] = static_cast<char>(random());
    const auto read = facts::from_bytes(damaged);  // consistent or refused; the indices are checked
    if (!read) continue;
    for (const auto& call : read->calls) {
      CHECK(call.ctx.function < static_cast<std::int32_t>(read->functions.size()));
      CHECK(call.ctx.branch < static_cast<std::int32_t>(read->branches.size()));
    }
  }
}

TEST_CASE("facts_binary: a context index past its table is refused", "[facts][cache]") {
  facts::FileFacts file = facts_of(k_sample);
  REQUIRE(!file.calls.empty());
  file.calls.front().ctx.function = static_cast<std::int32_t>(file.functions.size());
  CHECK_FALSE(facts::from_bytes(facts::to_bytes(file)));
}

TEST_CASE("facts_binary: a config file's settings survive", "[facts][cache][settings]") {
  facts::FileFacts original;
  original.path = "configs/optimizer/adamw.yaml";
  original.kind = discover::FileKind::config;
  original.settings = facts::extract_settings(original.path, "optimizer:\n  _target_: apex.optimizers.FusedAdam\n");
  REQUIRE(original.settings.size() == 1);
  const auto back = facts::from_bytes(facts::to_bytes(original));
  REQUIRE(back);
  CHECK(*back == original);
  CHECK(back->settings.front().key == "optimizer._target_");
}
