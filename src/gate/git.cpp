#include "tr2audit/gate/git.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "tr2audit/core/text.hpp"

namespace tr2audit::gate {
namespace {

[[noreturn]] void exec_child(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                             const std::filesystem::path& stdin_file, int out_fd, int err_fd) {
  const int in_fd = open(stdin_file.empty() ? "/dev/null" : stdin_file.c_str(), O_RDONLY);
  if (in_fd < 0 || dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) _exit(127);
  if (!cwd.empty() && chdir(cwd.c_str()) != 0) {
    const std::string message = "cannot enter " + cwd.string() + ": " + std::strerror(errno) + "\n";
    (void)!write(2, message.data(), message.size());
    _exit(127);
  }
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  const std::string message = "cannot run " + argv[0] + ": " + std::strerror(errno) + "\n";
  (void)!write(2, message.data(), message.size());
  _exit(127);
}

/// Reads both pipes until they close (poll, so a full stderr pipe cannot block a large stdout).
void drain(int out_fd, int err_fd, ProcessResult& result) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[k].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[k]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[k].fd);
        fds[k].fd = -1;
        --open_count;
      }
    }
  }
}

/// The repo-relative paths worth exporting: what discovery reads, plus the .gitignore files it honours.
bool worth_exporting(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const std::string name = to_lower(slash == std::string_view::npos ? path : path.substr(slash + 1));
  for (std::string_view ext : {".py", ".pyi", ".ipynb", ".cu", ".cuh"}) {
    if (ends_with(name, ext)) return true;
  }
  if (ends_with(name, ".txt"))
    return starts_with(name, "requirements") || to_lower(path).find("requirements/") != std::string::npos;
  return name == "pyproject.toml" || name == "setup.cfg" || name == ".gitignore";
}

struct TreeEntry {
  std::string object;
  std::string path;
};

/// Parses `git ls-tree -r -z --full-tree <commit>`: "<mode> <type> <object>\t<path>\0" per entry.
std::vector<TreeEntry> blobs_under(std::string_view listing, const std::string& prefix) {
  std::vector<TreeEntry> out;
  for (std::string_view record : split(listing, '\0')) {
    const std::size_t tab = record.find('\t');
    if (tab == std::string_view::npos) continue;
    const auto fields = split(record.substr(0, tab), ' ');
    const std::string_view path = record.substr(tab + 1);
    if (fields.size() < 3 || fields[1] != "blob" || fields[0] == "120000") continue;
    if (!starts_with(path, prefix) || !worth_exporting(path)) continue;
    out.push_back(TreeEntry{std::string(fields[2]), std::string(path.substr(prefix.size()))});
  }
  return out;
}

/// Splits `git cat-file --batch` output ("<object> blob <size>\n<bytes>\n" per request) into files.
std::string write_blobs(std::string_view batch, const std::vector<TreeEntry>& entries,
                        const std::filesystem::path& dest) {
  std::size_t pos = 0;
  for (const TreeEntry& entry : entries) {
    const std::size_t eol = batch.find('\n', pos);
    if (eol == std::string_view::npos) return "truncated git cat-file output";
    const auto header = split(batch.substr(pos, eol - pos), ' ');
    if (header.size() != 3 || header[1] != "blob") return "unexpected git cat-file output for " + entry.path;
    const std::size_t size = std::stoull(std::string(header[2]));
    if (eol + 1 + size > batch.size()) return "truncated git cat-file output";
    const std::filesystem::path target = dest / entry.path;
    std::error_code ec;
    std::filesystem::create_directories(target.parent_path(), ec);
    std::ofstream out(target, std::ios::binary);
    out.write(batch.data() + eol + 1, static_cast<std::streamsize>(size));
    if (!out) return "cannot write " + target.string();
    pos = eol + 1 + size + 1;
  }
  return "";
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::filesystem::path& stdin_file) {
  ProcessResult result;
  int out_pipe[2], err_pipe[2];
  if (argv.empty() || pipe(out_pipe) != 0) return result;
  if (pipe(err_pipe) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return result;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    exec_child(argv, cwd, stdin_file, out_pipe[1], err_pipe[1]);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (pid < 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    return result;
  }
  drain(out_pipe[0], err_pipe[0], result);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::vector<std::string> git_safety_options() {
  return {"-c", "core.fsmonitor=",      "-c", "diff.external=", "-c", "core.hooksPath=/dev/null",
          "-c", "core.quotePath=false", "-c", "core.pager=cat"};
}

ProcessResult run_git(const std::vector<std::string>& args, const std::filesystem::path& cwd) {
  std::vector<std::string> argv{"git", "--no-pager"};
  for (auto& option : git_safety_options()) argv.push_back(std::move(option));
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, cwd);
}

std::string export_tree(const std::filesystem::path& cwd, const std::string& commit, const std::string& prefix,
                        const std::filesystem::path& dest) {
  const ProcessResult listing = run_git({"ls-tree", "-r", "-z", "--full-tree", commit}, cwd);
  if (listing.exit_code != 0) return "git ls-tree " + commit + " failed: " + std::string(trim(listing.err));
  const std::vector<TreeEntry> entries = blobs_under(listing.out, prefix);
  std::filesystem::create_directories(dest);
  if (entries.empty()) return "";
  const std::filesystem::path requests = dest.parent_path() / (dest.filename().string() + ".requests");
  {
    std::ofstream out(requests, std::ios::binary);
    for (const TreeEntry& entry : entries) out << entry.object << '\n';
  }
  std::vector<std::string> argv{"git", "--no-pager"};
  for (auto& option : git_safety_options()) argv.push_back(std::move(option));
  argv.insert(argv.end(), {"cat-file", "--batch"});
  const ProcessResult batch = run_process(argv, cwd, requests);
  std::error_code ec;
  std::filesystem::remove(requests, ec);
  if (batch.exit_code != 0) return "git cat-file failed: " + std::string(trim(batch.err));
  return write_blobs(batch.out, entries, dest);
}

}  // namespace tr2audit::gate
