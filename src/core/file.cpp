#include "tr2audit/core/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace tr2audit {

std::optional<std::string> read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return buffer.str();
}

std::string write_file_atomically(const std::filesystem::path& file, std::string_view content) {
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  std::string pattern = (folder / ("." + file.filename().string() + ".tmp-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) return "cannot create a temporary file next to " + file.string() + ": " + std::strerror(errno);
  const std::string temp(name.data());
  std::string error;
  for (std::size_t done = 0; done < content.size() && error.empty();) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) error = "cannot write " + file.string() + ": " + std::strerror(errno);
    done += n > 0 ? static_cast<std::size_t>(n) : 0;
  }
  // mkstemp creates 0600; a report is an ordinary file (0644 minus the umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (error.empty() && ::fchmod(fd, 0666 & ~mask) != 0) error = "cannot set the mode of " + file.string();
  if (error.empty() && ::fsync(fd) != 0) error = "cannot flush " + file.string() + ": " + std::strerror(errno);
  if (::close(fd) != 0 && error.empty()) error = "cannot close " + file.string() + ": " + std::strerror(errno);
  if (error.empty() && std::rename(temp.c_str(), file.c_str()) != 0)
    error = "cannot rename the report into place at " + file.string() + ": " + std::strerror(errno);
  if (!error.empty()) ::unlink(temp.c_str());
  return error;
}

}  // namespace tr2audit
