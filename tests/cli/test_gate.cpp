// The CI gate end to end: a throwaway git repo, a baseline, a commit that adds a CUDA kernel, PR-diff
// mode, and suppressions with and without a reason or an expired date (TR2AUDIT_TODAY fixes "today").
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"

using tr2audit::testing::run_tr2audit;
using tr2audit::testing::TempDir;
using Json = nlohmann::json;

namespace {

const std::string k_clean =
    "import torch\n"
    "\n"
    "\n"
    "def main():\n"
    "    model = torch.nn.Linear(4, 4)\n"
    "    x = torch.randn(2, 4)\n"
    "    print(model(x).sum())\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    main()\n";

std::string with_kernel(const std::string& comment_above) {
  return "import torch\n"
         "from torch.utils.cpp_extension import load_inline\n"
         "\n"
         "\n"
         "def main():\n"
         "    model = torch.nn.Linear(4, 4)\n" +
         comment_above +
         "    ext = load_inline(name=\"k\", cpp_sources=[\"int f();\"], cuda_sources=[\"__global__ void k() {}\"])\n"
         "    x = torch.randn(2, 4)\n"
         "    print(model(x).sum(), ext)\n"
         "\n"
         "\n"
         "if __name__ == \"__main__\":\n"
         "    main()\n";
}

void git(const TempDir& repo, const std::string& args) {
  const std::string command = "git -C '" + repo.path().string() + "' " + args + " >/dev/null 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
}

/// Runs the binary with TR2AUDIT_TODAY set (stdout and stderr together in out).
tr2audit::testing::RunResult run_on(const std::string& today, const std::string& args) {
  TempDir scratch;
  const std::string command = "TR2AUDIT_TODAY=" + today + " '" TR2AUDIT_BINARY "' " + args + " </dev/null >'" +
                              (scratch.path() / "out").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, tr2audit::testing::slurp(scratch.path() / "out"), ""};
}

std::string in(const TempDir& repo) {
  return "'" + repo.path().string() + "'";
}

}  // namespace

TEST_CASE("cli::scan gate: baseline, PR diff, suppressions with reason and expiry", "[cli][gate]") {
  TempDir repo;
  git(repo, "init -q");
  git(repo, "config user.name tr2audit-test");
  git(repo, "config user.email test@example.invalid");
  repo.write("train.py", k_clean);
  git(repo, "add train.py");
  git(repo, "commit -q -m clean");

  const std::string baseline = (repo.path() / "baseline.json").string();
  const auto written = run_tr2audit("scan --write-baseline '" + baseline + "' --fail-on high " + in(repo));
  INFO(written.err);
  REQUIRE(written.exit_code == 0);
  const Json recorded = Json::parse(tr2audit::testing::slurp(baseline));
  CHECK(recorded["schema_version"] == 1);
  CHECK(recorded["findings"].empty());

  repo.write("train.py", with_kernel(""));
  git(repo, "commit -q -a -m kernel");
  const std::string gate = "scan --format json --diff-base HEAD~1 --fail-on high --baseline '" + baseline + "' ";
  const auto failed = run_tr2audit(gate + in(repo));
  INFO(failed.err);
  REQUIRE(failed.exit_code == 1);
  const Json report = Json::parse(failed.out);
  std::vector<Json> gated;
  for (const Json& f : report["findings"]) {
    // The import of torch.utils.cpp_extension adds a low toolchain finding; the gate is about high and above.
    const bool severe = f["severity"] == "blocker" || f["severity"] == "high";
    if (f["in_diff"] == true && f["suppressed"].is_null() && severe) gated.push_back(f);
  }
  REQUIRE(gated.size() == 1);
  CHECK(gated[0]["rule_id"] == "cuda-extension.cuda-inline-extension-build");
  CHECK(gated[0]["location"]["line"] == 7);
  CHECK(gated[0]["baseline"] == "new");
  CHECK(report["baseline"]["new"] == 2);
  CHECK(report["gate"]["status"] == "failed");
  CHECK(report["diff"]["added"]["blocker"] == 1);

  const auto text = run_tr2audit("scan --diff-base HEAD~1 --fail-on high " + in(repo));
  CHECK(text.exit_code == 1);
  CHECK(text.out.find("this change adds 1 blocker, 1 low and removes nothing") != std::string::npos);

  repo.write("train.py", with_kernel("    # tr2audit: ignore[cuda-extension.cuda-inline-extension-build] "
                                     "until=2027-01-31 GPU-only benchmark path, ported in #42\n"));
  git(repo, "commit -q -a -m suppress");
  const std::string diff_gate = "scan --diff-base HEAD~2 --fail-on high " + in(repo);
  const auto before = run_tr2audit("--version");  // warm-up: the binary exists
  REQUIRE(before.exit_code == 0);
  const auto on_time = run_on("2027-01-31", diff_gate);
  INFO(on_time.out);
  CHECK(on_time.exit_code == 0);
  const auto late = run_on("2027-02-01", diff_gate);
  CHECK(late.exit_code == 1);
  CHECK(late.out.find("tr2audit.expired-suppression") != std::string::npos);

  repo.write("train.py", with_kernel("    # tr2audit: ignore[cuda-extension.cuda-inline-extension-build]\n"));
  const auto no_reason = run_tr2audit("scan --fail-on high --format json " + in(repo));
  CHECK(no_reason.exit_code == 1);
  CHECK(Json::parse(no_reason.out)["problems"][0]["message"].get<std::string>().find("no reason") != std::string::npos);
}

TEST_CASE("cli::scan gate: usage errors exit 2 with a clear message", "[cli][gate]") {
  TempDir plain;
  plain.write("train.py", k_clean);
  const auto outside = run_tr2audit("scan --diff-base main " + in(plain));
  CHECK(outside.exit_code == 2);
  CHECK(outside.err.find("not inside a git work tree") != std::string::npos);

  git(plain, "init -q");
  git(plain, "config user.name t");
  git(plain, "config user.email t@example.invalid");
  git(plain, "add train.py");
  git(plain, "commit -q -m one");
  const auto bad_ref = run_tr2audit("scan --diff-base no-such-branch " + in(plain));
  CHECK(bad_ref.exit_code == 2);
  CHECK(bad_ref.err.find("unknown git ref 'no-such-branch'") != std::string::npos);

  const auto typo = run_tr2audit("scan --fail-on blockr " + in(plain));
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("did you mean 'blocker'") != std::string::npos);

  plain.write(".tr2audit.yaml", "target: native\nfail_on: high\n");
  const auto config = run_tr2audit("scan " + in(plain));
  CHECK(config.exit_code == 2);
  CHECK(config.err.find(".tr2audit.yaml:2:1: unknown setting 'fail_on'; did you mean 'fail-on'?") != std::string::npos);

  plain.write(".tr2audit.yaml", "fail-on: blocker\n");
  plain.write("train.py", with_kernel(""));
  CHECK(run_tr2audit("scan " + in(plain)).exit_code == 1);
  CHECK(run_tr2audit("scan --fail-on info --no-config " + in(plain)).exit_code == 1);
  CHECK(run_tr2audit("scan --no-config " + in(plain)).exit_code == 0);

  const auto baseline = run_tr2audit("scan --baseline '" + (plain.path() / "missing.json").string() + "' " + in(plain));
  CHECK(baseline.exit_code == 2);
}

TEST_CASE("cli::config show prints each setting and where it came from", "[cli][gate]") {
  TempDir repo;
  repo.write(".git/HEAD", "ref: refs/heads/main\n");
  repo.write(".tr2audit.yaml", "target: xla\nfail-on: high\n");
  const auto shown = run_tr2audit("config show --jobs 3 " + in(repo));
  INFO(shown.err);
  REQUIRE(shown.exit_code == 0);
  CHECK(shown.out.find("target") != std::string::npos);
  CHECK(shown.out.find(".tr2audit.yaml:1") != std::string::npos);
  CHECK(shown.out.find("flag --jobs") != std::string::npos);
  CHECK(shown.out.find("default") != std::string::npos);
}
