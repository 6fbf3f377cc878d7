// Hostile repositories, generated in a temp folder (nothing is committed as a blob): every case
// runs the real binary and checks the documented exit code, that the bad file is a named problem,
// that the rest is still scanned, that nothing ran or was written, and bounded time and memory.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"

using tr2audit::testing::slurp;
using tr2audit::testing::TempDir;
using Json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr long k_max_rss_kb = 3L << 20;  // ASan's shadow memory and quarantine
constexpr double k_max_seconds = 90;
#else
constexpr long k_max_rss_kb = 1L << 20;  // 1 GiB
constexpr double k_max_seconds = 30;
#endif

struct Scan {
  int exit_code = -1;
  Json report;
  std::string err;
  std::string text;  ///< every report format the scan wrote, concatenated
};

/// Everything under root with its size and mtime, to prove the scan wrote nothing there.
std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> snapshot(const fs::path& root) {
  std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code stat_ec;
    const auto size = it->is_regular_file(stat_ec) ? it->file_size(stat_ec) : 0;
    out[it->path().string()] = {size, it->symlink_status(stat_ec).type() == fs::file_type::symlink
                                          ? fs::file_time_type{}
                                          : it->last_write_time(stat_ec)};
  }
  return out;
}

/// Runs `tr2audit <args>` through /bin/sh like run_tr2audit, and also returns the peak resident
/// set of that one run (wait4 gives the child's own rusage, its shell's children included).
struct Measured {
  int exit_code = -1;
  std::string err;
  long max_rss_kb = 0;
};
Measured run_measured(const std::string& args) {
  TempDir scratch;
  const auto err = scratch.path() / "err";
  const std::string command =
      std::string("'") + TR2AUDIT_BINARY + "' " + args + " </dev/null >/dev/null 2>'" + err.string() + "'";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  return Measured{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(err), usage.ru_maxrss};
}

/// Scans root writing JSON, SARIF and text reports outside it; checks time, memory and that the
/// repo is unchanged. `prefix` goes before the binary (e.g. setpriv), `extra` after `scan`.
Scan scan_repo(const fs::path& root, const std::string& extra = "", const std::string& prefix = "") {
  TempDir out;
  fs::permissions(out.path(), fs::perms::all);
  const auto json = out.path() / "r.json", sarif = out.path() / "r.sarif", text = out.path() / "r.txt";
  const auto before = snapshot(root);
  const auto start = std::chrono::steady_clock::now();
  const auto result = run_measured(prefix + "scan " + extra + " -f json -o '" + json.string() + "' -f sarif -o '" +
                                   sarif.string() + "' -f text -o '" + text.string() + "' '" + root.string() + "'");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(result.err);
  CHECK(seconds < k_max_seconds);
  CHECK(result.max_rss_kb < k_max_rss_kb);
  CHECK(snapshot(root) == before);
  Scan scan;
  scan.exit_code = result.exit_code;
  scan.err = result.err;
  if (fs::exists(json)) scan.report = Json::parse(slurp(json));
  scan.text = slurp(json) + slurp(sarif) + slurp(text);
  return scan;
}

std::string problem_kind(const Json& report, const std::string& path) {
  for (const Json& p : report["problems"]) {
    if (p["path"] == path) return p["kind"].get<std::string>();
  }
  return "<none>";
}

int findings_in(const Json& report, const std::string& path) {
  int n = 0;
  for (const Json& f : report["findings"]) n += f["location"]["path"] == path ? 1 : 0;
  return n;
}

std::string repeat(std::string_view unit, std::size_t times) {
  std::string out;
  out.reserve(unit.size() * times);
  for (std::size_t i = 0; i < times; ++i) out.append(unit);
  return out;
}

const std::string k_cuda_line = "torch.cuda.synchronize()\n";
const std::string k_good = "import torch\n" + k_cuda_line;

}  // namespace

TEST_CASE("hostile: huge, deep and odd Python files are named problems and the rest is scanned", "[hostile]") {
  TempDir repo;
  repo.write("good.py", k_good);
  repo.write("big50mb.py", repeat("x = 1  # padding padding padding padding padding padding padding\n", 50 << 14));
  repo.write("brackets.py", "x = " + repeat("(", 100000) + "1" + repeat(")", 100000) + "\n");
  repo.write("chain.py", "import torch\nx = 1" + repeat(" + 1", 100000) + "\n" + k_cuda_line);
  repo.write("oneline.py", "x = [" + repeat("1, ", (10 << 20) / 3) + "]\n");  // a 10 MB line
  repo.write("py2.py", "import torch\nprint \"hello\"\nexec \"x = 1\"\n" + k_cuda_line);
  repo.write("nul.py", std::string("import torch\n\0\0\0", 16));
  std::string binary(4096, '\0');
  for (std::size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>((i * 131 + 7) % 256);
  repo.write("binary.py", binary);
  repo.write("badutf8.py", "import torch\nx = '\xff\xfe\xc3'\n");
  std::string utf16 = "\xff\xfe";
  for (char c : k_good) utf16 += std::string{c, '\0'};
  repo.write("utf16.py", utf16);
  repo.write("crlf.py", "import torch\r\ntorch.cuda.synchronize()\r\n");
  repo.write("lonecr.py", "import torch\rtorch.cuda.synchronize()\r");
  const Scan scan = scan_repo(repo.path());
  REQUIRE(scan.exit_code == 0);
  const Json& r = scan.report;
  CHECK(problem_kind(r, "big50mb.py") == "too-large");  // --max-file-size (5 MiB): never read
  CHECK(problem_kind(r, "oneline.py") == "too-large");
  CHECK(problem_kind(r, "nul.py") == "binary");
  CHECK(problem_kind(r, "binary.py") == "binary");
  CHECK(problem_kind(r, "badutf8.py") == "not-utf8");
  CHECK(problem_kind(r, "utf16.py") == "binary");
  // tree-sitter-python still parses Python 2 print/exec statements: py2.py is scanned like the rest.
  CHECK(findings_in(r, "good.py") == 1);
  CHECK(findings_in(r, "chain.py") == 1);
  CHECK(findings_in(r, "py2.py") == 1);
  CHECK(findings_in(r, "crlf.py") == 1);
  CHECK(findings_in(r, "lonecr.py") == 1);
  for (const Json& f : r["findings"]) {
    if (f["location"]["path"] == "crlf.py" || f["location"]["path"] == "lonecr.py") CHECK(f["location"]["line"] == 2);
  }
  CHECK(r["scan"]["files"]["scanned"] == 6);  // good, brackets, chain, py2, crlf, lonecr
}

TEST_CASE("hostile: the per-file parse time limit stops a slow parse and names the file", "[hostile]") {
  TempDir repo;
  repo.write("good.py", k_good);
  repo.write("slow.py", repeat("x = foo(a, b)[1].c + bar(d) * 2\n", 800000));
  repo.write("oneline.py", "x = [" + repeat("1, ", (10 << 20) / 3) + "]\n");  // a 10 MB line, read this time
  const Scan scan = scan_repo(repo.path(), "--max-file-size 33554432 --parse-timeout-ms 500");
  REQUIRE(scan.exit_code == 3);  // a parse timeout makes the scan incomplete (docs/ci.md)
  CHECK(problem_kind(scan.report, "slow.py") == "parse-timeout");
  CHECK(problem_kind(scan.report, "oneline.py") == "parse-timeout");
  CHECK(findings_in(scan.report, "good.py") == 1);
}

TEST_CASE("hostile: symlinks never lead outside the root and loops end", "[hostile][symlink]") {
  TempDir outside;
  outside.write("secret_dir/creds.py", "import torch\nTOKEN = 'OUTSIDE-SECRET-7f3a'\ntorch.cuda.synchronize()\n");
  outside.write("secret_file.py", "import torch\nTOKEN = 'OUTSIDE-SECRET-7f3a'\ntorch.cuda.synchronize()\n");
  TempDir repo;
  repo.write("pkg/model.py", k_good);
  fs::create_directory_symlink(outside.path() / "secret_dir", repo.path() / "outside");
  fs::create_symlink(outside.path() / "secret_file.py", repo.path() / "leak.py");
  fs::create_directory_symlink("pkg", repo.path() / "alias");    // inside: followed once
  fs::create_symlink("pkg/model.py", repo.path() / "again.py");  // a file inside: scanned under its name
  // A relative link that climbs out of the root, into a folder the test owns: "../.." itself would
  // be the system temp folder, which --follow-external-symlinks below would then scan whole.
  fs::create_directory_symlink(fs::relative(outside.path(), repo.path() / "pkg"), repo.path() / "pkg" / "up");
  fs::create_symlink("loop_b.py", repo.path() / "loop_a.py");
  fs::create_symlink("loop_a.py", repo.path() / "loop_b.py");
  const Scan scan = scan_repo(repo.path());
  REQUIRE(scan.exit_code == 0);
  CHECK(problem_kind(scan.report, "outside") == "outside-root");
  CHECK(problem_kind(scan.report, "leak.py") == "outside-root");
  CHECK(problem_kind(scan.report, "loop_a.py") == "symlink-loop");
  CHECK(problem_kind(scan.report, "pkg/up") == "outside-root");
  CHECK(scan.text.find("OUTSIDE-SECRET") == std::string::npos);
  CHECK(scan.text.find("creds.py") == std::string::npos);
  CHECK(findings_in(scan.report, "pkg/model.py") == 1);
  CHECK(findings_in(scan.report, "again.py") == 1);
  CHECK(problem_kind(scan.report, "alias") == "symlink-loop");  // already scanned as pkg

  const Scan opted = scan_repo(repo.path(), "--follow-external-symlinks");
  CHECK(findings_in(opted.report, "outside/creds.py") == 1);
  CHECK(findings_in(opted.report, "leak.py") == 1);
}

TEST_CASE("hostile: an unreadable folder is a problem; the rest is scanned", "[hostile]") {
  TempDir repo;
  fs::permissions(repo.path(), fs::perms::all);
  repo.write("good.py", k_good);
  repo.write("locked/hidden.py", k_good);
  fs::permissions(repo.path() / "locked", fs::perms::none);
  // Root reads any folder: run the scan as nobody when the tests run as root.
  const std::string prefix = ::geteuid() == 0 ? "--help >/dev/null; setpriv --reuid=65534 --regid=65534 "
                                                "--clear-groups '" TR2AUDIT_BINARY "' "
                                              : "";
  const Scan scan = scan_repo(repo.path(), "", prefix);
  fs::permissions(repo.path() / "locked", fs::perms::owner_all);
  REQUIRE(scan.exit_code == 0);
  CHECK(problem_kind(scan.report, "locked") == "unreadable");
  CHECK(findings_in(scan.report, "good.py") == 1);
}

TEST_CASE("hostile: 20,000 tiny files are all scanned in bounded time", "[hostile]") {
  TempDir repo;
  for (int i = 0; i < 20000; ++i)
    repo.write("d" + std::to_string(i % 100) + "/f" + std::to_string(i) + ".py", "x = 1\n");
  repo.write("good.py", k_good);
  const Scan scan = scan_repo(repo.path());
  REQUIRE(scan.exit_code == 0);
  CHECK(scan.report["scan"]["files"]["scanned"] == 20001);
}

TEST_CASE("hostile: notebooks that are not JSON, have 10,000 cells or 50 MB of outputs", "[hostile]") {
  TempDir repo;
  repo.write("good.py", k_good);
  repo.write("notjson.ipynb", "import torch\nthis is not json {{{");
  std::string cells = "{\"cells\": [";
  for (int i = 0; i < 10000; ++i) {
    cells +=
        std::string(i ? "," : "") +
        R"({"cell_type": "code", "metadata": {}, "outputs": [], "source": ["import torch\n", "torch.cuda.synchronize()\n"]})";
  }
  repo.write("many.ipynb", cells + R"(], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})");
  const std::string output =
      R"({"output_type": "stream", "name": "stdout", "text": [")" + repeat("x", 50 << 20) + R"("]})";
  repo.write("outputs.ipynb", R"({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [)" + output +
                                  R"(], "source": ["import torch\n", "torch.cuda.synchronize()\n"]}], "metadata": {}, )"
                                  R"("nbformat": 4, "nbformat_minor": 5})");
  const Scan scan = scan_repo(repo.path(), "--max-file-size 67108864");
  REQUIRE(scan.exit_code == 0);
  CHECK(problem_kind(scan.report, "notjson.ipynb") == "invalid-notebook");
  CHECK(problem_kind(scan.report, "many.ipynb") == "limit-reached");
  CHECK(findings_in(scan.report, "many.ipynb") == 100);  // --max-findings-per-rule default
  CHECK(scan.report["scan"]["findings_capped"].get<int>() >= 9900);
  CHECK(findings_in(scan.report, "outputs.ipynb") == 1);
  CHECK(findings_in(scan.report, "good.py") == 1);

  const Scan capped = scan_repo(repo.path(), "--max-file-size 67108864 --max-findings-per-file 5");
  CHECK(findings_in(capped.report, "many.ipynb") == 5);

  // The additive scan.findings_capped key is in docs/report.schema.json (ajv, when installed).
  TempDir check;
  std::ofstream(check.path() / "capped.json") << capped.report.dump(2);
  const std::string validate = "bash '" TR2AUDIT_SOURCE_DIR "/tests/tools/validate_json.sh' '" TR2AUDIT_SOURCE_DIR
                               "/docs/report.schema.json' '" +
                               (check.path() / "capped.json").string() + "' >/dev/null 2>&1";
  const int status = std::system(validate.c_str());
  if (WEXITSTATUS(status) == 77) {
    WARN("SKIPPED: ajv is not installed (./.ci/bootstrap installs it)");
  } else {
    CHECK(WEXITSTATUS(status) == 0);
  }
}

TEST_CASE("hostile: setup.py and conftest.py are read, never executed", "[hostile][safety]") {
  TempDir marker_dir;
  const fs::path marker = marker_dir.path() / "executed";
  const std::string payload = "import os, torch\nopen(" + Json(marker.string()).dump() +
                              ", 'w').write('ran')\nos.system('touch " + marker.string() + "')\n" + k_cuda_line;
  TempDir repo;
  repo.write("setup.py", payload + "from setuptools import setup\nsetup(name='x', install_requires=['torch'])\n");
  repo.write("conftest.py", payload);
  repo.write("pkg/__init__.py", payload);
  repo.write("pyproject.toml", "[build-system]\nrequires = ['setuptools']\nbuild-backend = 'setuptools.build_meta'\n");
  const Scan scan = scan_repo(repo.path());
  REQUIRE(scan.exit_code == 0);
  CHECK_FALSE(fs::exists(marker));
  CHECK(findings_in(scan.report, "setup.py") >= 1);
}

TEST_CASE("hostile: rule files that are bombs, deep, mistyped or stray are named; no hang", "[hostile][rules]") {
  const std::map<std::string, std::string> cases{
      {"comma.yaml", ","},
      {"comma-after.yaml", "- a\n,\n"},
      {"two-docs.yaml", "id: a.b\n---\nid: c.d\n"},
      {"bomb.yaml",
       "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
       "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nid: [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n"},
      {"deep.yaml", "id: " + repeat("[", 10000) + repeat("]", 10000) + "\n"},
      {"deep-block.yaml",
       [] {
         std::string s;
         for (int i = 0; i < 10000; ++i) s += std::string(static_cast<std::size_t>(i), ' ') + "k:\n";
         return s;
       }()},
      {"types.yaml", "id: [1, 2]\ntitle: {a: b}\ncategory: 7\nseverity: [high]\nmatch: just-text\n"},
      {"pattern.yaml",
       "id: cuda-api.bad-pattern\ntitle: t\ncategory: cuda-api\nseverity: low\nconfidence: low\n"
       "message: m\nwhy: w\nfix: f\nsources: [x]\nmatch:\n  call: ['torch.[cuda', '(']\n"},
  };
  for (const auto& [name, text] : cases) {
    DYNAMIC_SECTION(name) {
      TempDir rules;
      rules.write("bad/" + name, text);
      TempDir repo;
      repo.write("good.py", k_good);
      const Scan scan = scan_repo(repo.path(), "--rules '" + rules.path().string() + "'");
      CHECK(scan.exit_code == 2);  // rule-file problems are configuration errors
      CHECK_THAT(scan.err, Catch::Contains(name));
    }
  }
}

TEST_CASE("hostile: a repo's own config reaches the bounded loader, unknown keys are named", "[hostile][config]") {
  TempDir repo;
  repo.write("good.py", k_good);
  repo.write("myrules/evil.yaml", ",");
  repo.write(".tr2audit.yaml", "rules: [myrules]\n");
  const Scan scan = scan_repo(repo.path());
  CHECK(scan.exit_code == 2);
  CHECK_THAT(scan.err, Catch::Contains("evil.yaml"));

  repo.write(".tr2audit.yaml", "exclude: [build]\nno_such_key: 1\n");
  const Scan unknown = scan_repo(repo.path());
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("no_such_key"));

  repo.write(".tr2audit.yaml", ",");
  const Scan stray = scan_repo(repo.path());
  CHECK(stray.exit_code == 2);
  CHECK_THAT(stray.err, Catch::Contains(".tr2audit.yaml"));
}

TEST_CASE("hostile: a repo cannot point tr2audit at files outside it", "[hostile][config][symlink]") {
  TempDir repo;
  repo.write("good.py", k_good);
  fs::create_symlink("/dev/zero", repo.path() / ".gitignore");  // never read: would never end
  repo.write(".tr2audit.yaml", "rules: [/etc]\n");
  const Scan outside = scan_repo(repo.path());
  CHECK(outside.exit_code == 2);
  CHECK_THAT(outside.err, Catch::Contains("outside the folder of the config file"));

  repo.write(".tr2audit.yaml", "rules: [../]\n");
  CHECK(scan_repo(repo.path()).exit_code == 2);

  fs::remove(repo.path() / ".tr2audit.yaml");
  const Scan scan = scan_repo(repo.path());
  REQUIRE(scan.exit_code == 0);
  CHECK(findings_in(scan.report, "good.py") == 1);
}
