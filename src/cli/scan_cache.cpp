// cli/scan_cache: the whole-scan result cache (see the header).
#include "cli/scan_cache.hpp"

#include <atomic>
#include <thread>

#include "tr2audit/core/file.hpp"
#include "tr2audit/core/problem.hpp"

namespace tr2audit::cli {
namespace {

constexpr std::string_view k_magic = "T2ASCAN1";
constexpr std::size_t k_header = 8 + 32 + 32;  // magic, key, SHA-256 of the payload

/// Length-prefixed fields: the payload of an entry.
class Writer {
 public:
  void number(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) m_out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void text(std::string_view s) {
    number(s.size());
    m_out.append(s);
  }
  const std::string& bytes() const { return m_out; }

 private:
  std::string m_out;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : m_in(in) {}
  bool number(std::uint64_t& v) {
    if (m_in.size() - m_at < 8) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(m_in[m_at + i])) << (8 * i);
    m_at += 8;
    return true;
  }
  bool text(std::string& s) {
    std::uint64_t n = 0;
    if (!number(n) || n > m_in.size() - m_at) return false;
    s.assign(m_in.substr(m_at, n));
    m_at += n;
    return true;
  }
  bool done() const { return m_at == m_in.size(); }

 private:
  std::string_view m_in;
  std::size_t m_at = 0;
};

std::filesystem::path entry_path(const std::filesystem::path& cache_dir, const pipeline::Digest& key) {
  return cache_dir / "scans-v1" / (pipeline::to_hex(key) + ".scan");
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

}  // namespace

std::optional<pipeline::Digest> scan_key(const ScanKeyParts& parts, const discover::DiscoveryResult& discovered,
                                         unsigned jobs) {
  const std::size_t count = discovered.files.size();
  std::vector<pipeline::Digest> digests(count);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> unreadable{false};
  const auto work = [&] {
    for (std::size_t i = next++; i < count && !unreadable; i = next++) {
      const auto bytes = pipeline::read_whole_file(discovered.files[i].abs_path, true);
      if (!bytes) {
        unreadable = true;
        return;
      }
      pipeline::Hasher h;
      digests[i] = h.add(*bytes).finish();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::max(1u, jobs) && t < count; ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  if (unreadable) return std::nullopt;

  pipeline::Hasher key;
  key.add("tr2audit scan cache v1").add(pipeline::build_identity());
  for (const auto& part : parts.parts) key.add(part);
  key.add(std::to_string(count));
  for (std::size_t i = 0; i < count; ++i) {
    const auto& file = discovered.files[i];
    key.add(file.rel_path).add(discover::to_string(file.kind)).add(file.is_test ? "test" : "code").add(file.cpu_twin);
    key.add(std::string_view(reinterpret_cast<const char*>(digests[i].data()), digests[i].size()));
  }
  key.add(std::to_string(discovered.skipped));
  for (const auto& problem : discovered.problems) key.add(format_problem(problem));
  return key.finish();
}

std::optional<CachedScan> load_cached_scan(const std::filesystem::path& cache_dir, const pipeline::Digest& key) {
  const auto bytes = pipeline::read_whole_file(entry_path(cache_dir, key), false);
  if (!bytes || bytes->size() < k_header || std::string_view(*bytes).substr(0, 8) != k_magic) return std::nullopt;
  if (std::string_view(*bytes).substr(8, 32) != std::string_view(reinterpret_cast<const char*>(key.data()), 32))
    return std::nullopt;
  const std::string_view payload = std::string_view(*bytes).substr(k_header);
  pipeline::Hasher check;
  const pipeline::Digest sum = check.add(payload).finish();
  if (std::string_view(*bytes).substr(40, 32) != std::string_view(reinterpret_cast<const char*>(sum.data()), 32))
    return std::nullopt;
  Reader in(payload);
  CachedScan scan;
  std::uint64_t exit_code = 0, outputs = 0, lines = 0, text_on_stdout = 0;
  if (!in.number(exit_code) || !in.text(scan.started_at) || !in.number(scan.duration_ms) ||
      !in.number(text_on_stdout) || !in.number(outputs) || outputs > 64)
    return std::nullopt;
  scan.exit_code = static_cast<int>(exit_code);
  scan.text_on_stdout = text_on_stdout != 0;
  for (std::uint64_t i = 0; i < outputs; ++i) {
    CachedOutput out;
    if (!in.text(out.format) || !in.text(out.destination) || !in.text(out.bytes)) return std::nullopt;
    scan.outputs.push_back(std::move(out));
  }
  if (!in.number(lines) || lines > 1024) return std::nullopt;
  for (std::uint64_t i = 0; i < lines; ++i) {
    std::string line;
    if (!in.text(line)) return std::nullopt;
    scan.stderr_lines.push_back(std::move(line));
  }
  if (!in.done()) return std::nullopt;
  return scan;
}

bool store_cached_scan(const std::filesystem::path& cache_dir, const pipeline::Digest& key, const CachedScan& scan) {
  Writer out;
  out.number(static_cast<std::uint64_t>(scan.exit_code));
  out.text(scan.started_at);
  out.number(scan.duration_ms);
  out.number(scan.text_on_stdout ? 1 : 0);
  out.number(scan.outputs.size());
  for (const auto& o : scan.outputs) {
    out.text(o.format);
    out.text(o.destination);
    out.text(o.bytes);
  }
  out.number(scan.stderr_lines.size());
  for (const auto& line : scan.stderr_lines) out.text(line);
  pipeline::Hasher check;
  const pipeline::Digest sum = check.add(out.bytes()).finish();
  std::string entry(k_magic);
  entry.append(reinterpret_cast<const char*>(key.data()), key.size());
  entry.append(reinterpret_cast<const char*>(sum.data()), sum.size());
  entry += out.bytes();
  const std::filesystem::path path = entry_path(cache_dir, key);
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return false;
  return write_file_atomically(path, entry).empty();
}

std::string restamp(std::string bytes, const CachedScan& cached, const std::string& started_at,
                    std::uint64_t duration_ms) {
  replace_all(bytes, cached.started_at, started_at);
  for (const std::string sep : {": ", ":"}) {
    replace_all(bytes, "\"duration_ms\"" + sep + std::to_string(cached.duration_ms),
                "\"duration_ms\"" + sep + std::to_string(duration_ms));
  }
  return bytes;
}

}  // namespace tr2audit::cli
