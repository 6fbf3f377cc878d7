// discover/load_source: reads one discovered file and checks it before parsing: size (again: the
// file may have grown since discovery), binary content (any NUL byte), UTF-8 validity. A UTF-8 BOM
// is dropped, and line ends are normalised ("\r\n" and lone "\r" become "\n") so that line numbers
// agree with editors; byte offsets of later stages therefore refer to the normalised text.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "discover/classify.hpp"
#include "discover/newlines.hpp"
#include "tr2audit/core/text.hpp"
#include "tr2audit/discover/discover.hpp"

namespace tr2audit::discover {
namespace {

constexpr std::string_view k_utf8_bom = "\xEF\xBB\xBF";

std::string os_error(int error) {
  return std::system_category().message(error);
}

/// Closes a POSIX file descriptor on scope exit.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : m_fd(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (m_fd >= 0) ::close(m_fd);
  }
  int get() const { return m_fd; }

 private:
  int m_fd;
};

LoadResult fail(const SourceFile& file, ProblemKind kind, std::string message, std::uint32_t line = 0) {
  LoadResult result;
  result.problem = Problem{kind, file.rel_path, line, 0, std::move(message)};
  return result;
}

std::string too_large_message(std::uint64_t size, std::uint64_t limit) {
  return "file is " + format_size(size) + ", over the " + format_size(limit) + " limit (--max-file-size)";
}

/// Reads the whole file into bytes, or returns the problem that prevented it.
std::optional<LoadResult> read_bytes(const SourceFile& file, std::uint64_t max_file_size, std::string& bytes) {
  FileDescriptor fd(::open(file.abs_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return fail(file, ProblemKind::unreadable, "cannot open file: " + os_error(errno));
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return fail(file, ProblemKind::unreadable, "cannot stat file: " + os_error(errno));
  if (S_ISDIR(info.st_mode)) return fail(file, ProblemKind::unreadable, "is a directory, not a file");
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size > max_file_size) return fail(file, ProblemKind::too_large, too_large_message(size, max_file_size));
  // One byte more than the file: the read that finds the end needs no larger (zero-filled) buffer.
  bytes.resize(static_cast<std::size_t>(std::min<std::uint64_t>(size, SIZE_MAX - 1)) + 1);
  std::size_t filled = 0;
  while (true) {
    if (filled == bytes.size()) {
      if (bytes.size() > max_file_size) break;
      // The file grew since fstat: read on, one byte past the limit at most (no overflow at UINT64_MAX).
      const std::uint64_t cap = max_file_size == UINT64_MAX ? max_file_size : max_file_size + 1;
      bytes.resize(static_cast<std::size_t>(std::min<std::uint64_t>(cap, bytes.size() * 2 + 4096)));
    }
    const ssize_t got = ::read(fd.get(), bytes.data() + filled, bytes.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(file, ProblemKind::unreadable, "cannot read file: " + os_error(errno));
    if (got == 0) break;
    filled += static_cast<std::size_t>(got);
  }
  bytes.resize(filled);
  if (filled > max_file_size) return fail(file, ProblemKind::too_large, too_large_message(filled, max_file_size));
  return std::nullopt;
}

std::optional<LoadResult> check_binary(const SourceFile& file, std::string_view bytes) {
  const void* nul = std::memchr(bytes.data(), '\0', bytes.size());
  if (nul == nullptr) return std::nullopt;
  const auto offset = static_cast<std::size_t>(static_cast<const char*>(nul) - bytes.data());
  std::string message = "binary file (NUL byte at offset " + std::to_string(offset) + ")";
  if (starts_with(bytes, "\xFF\xFE") || starts_with(bytes, "\xFE\xFF")) {
    message += "; it looks like UTF-16, which is not supported: convert it to UTF-8";
  }
  return fail(file, ProblemKind::binary, std::move(message));
}

std::optional<LoadResult> check_utf8(const SourceFile& file, std::string_view text, std::size_t bom_size) {
  std::size_t bad = 0;
  if (is_valid_utf8(text, &bad)) return std::nullopt;
  bad = std::min(bad, text.size());
  const auto line =
      static_cast<std::uint32_t>(1 + std::count(text.begin(), text.begin() + static_cast<long>(bad), '\n'));
  return fail(
      file, ProblemKind::not_utf8,
      "not valid UTF-8 at byte offset " + std::to_string(bad + bom_size) + " (line " + std::to_string(line) + ")",
      line);
}

}  // namespace

std::string normalize_newlines(std::string_view text) {
  if (text.find('\r') == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out.push_back(text[i]);
      continue;
    }
    out.push_back('\n');
    if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
  }
  return out;
}

LoadResult load_source(const SourceFile& file, std::uint64_t max_file_size) {
  std::string bytes;
  if (auto problem = read_bytes(file, max_file_size, bytes)) return std::move(*problem);
  if (auto problem = check_binary(file, bytes)) return std::move(*problem);
  std::string_view text = bytes;
  const std::size_t bom_size = starts_with(text, k_utf8_bom) ? k_utf8_bom.size() : 0;
  text.remove_prefix(bom_size);
  if (auto problem = check_utf8(file, text, bom_size)) return std::move(*problem);
  if (file.kind == FileKind::notebook) return notebook_to_python(normalize_newlines(text), file.rel_path);
  LoadResult result;
  result.ok = true;
  if (bom_size == 0 && text.find('\r') == std::string_view::npos)
    result.source.text = std::move(bytes);  // nothing to normalise: no copy
  else
    result.source.text = normalize_newlines(text);
  if (file.kind == FileKind::python) neutralize_databricks_magics(result.source.text, result.source.shell_lines);
  return result;
}

}  // namespace tr2audit::discover
