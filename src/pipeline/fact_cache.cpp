// Entry layout: "T2AFACTS" | u32 format | 32-byte key | 32-byte SHA-256 of the payload | u64 payload
// size | payload (facts_binary). Integers little-endian. The temporary file is created with O_EXCL
// next to the entry and renamed over it; no fsync (a torn entry fails its checksum and is rewritten).
#include "tr2audit/pipeline/fact_cache.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "tr2audit/core/file.hpp"
#include "tr2audit/facts/facts_binary.hpp"

namespace tr2audit::pipeline {
namespace {

constexpr std::string_view k_magic = "T2AFACTS";
constexpr std::uint32_t k_entry_format = 1;
constexpr std::size_t k_header_size = 8 + 4 + 32 + 32 + 8;

void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_le(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

Digest digest_of(std::string_view bytes) {
  Hasher h;
  return h.add(bytes).finish();
}

int note_build_id(dl_phdr_info* info, std::size_t, void* data) {
  auto& out = *static_cast<std::string*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* at = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    const char* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const char* name = at + sizeof note;
      const char* desc = name + ((note.n_namesz + 3) & ~3u);
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0 &&
          desc + note.n_descsz <= end) {
        out.assign(desc, note.n_descsz);
        return 1;
      }
      at = desc + ((note.n_descsz + 3) & ~3u);
    }
  }
  return 1;  // the first object is the executable: stop either way
}

bool write_all(int fd, std::string_view bytes) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::optional<std::string> read_whole_file(const std::filesystem::path& path, bool follow_symlinks) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (follow_symlinks ? 0 : O_NOFOLLOW));
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return std::nullopt;
  }
  std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (done != bytes.size()) return std::nullopt;  // changed while read: not a stable input
  return bytes;
}

Hasher::Hasher() : m_ctx(EVP_MD_CTX_new()) {
  EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(m_ctx), EVP_sha256(), nullptr);
}

Hasher::~Hasher() {
  EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(m_ctx));
}

Hasher& Hasher::add(std::string_view part) {
  std::string size;
  put_le(size, part.size(), 8);
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(m_ctx), size.data(), size.size());
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(m_ctx), part.data(), part.size());
  return *this;
}

Digest Hasher::finish() {
  Digest out{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(m_ctx), out.data(), &size);
  return out;
}

std::string to_hex(const Digest& digest) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char byte : digest) {
    out.push_back(k_hex[byte >> 4]);
    out.push_back(k_hex[byte & 15]);
  }
  return out;
}

std::string build_identity() {
  std::string id;
  dl_iterate_phdr(note_build_id, &id);
  if (id.empty()) {
    const std::optional<std::string> exe = read_file("/proc/self/exe");
    id = exe ? std::string("exe:") + to_hex(digest_of(*exe)) : std::string("unknown");
  }
  return std::string(TR2AUDIT_VERSION) + "+" + to_hex(digest_of(id));
}

FactCache::FactCache(std::filesystem::path dir, std::string_view scope)
    : m_dir(std::move(dir) / ("facts-v" + std::to_string(k_entry_format))) {
  Hasher h;
  h.add("tr2audit facts cache").add(std::to_string(facts::k_facts_binary_version)).add(scope);
  const Digest d = h.finish();
  m_scope.assign(reinterpret_cast<const char*>(d.data()), d.size());
}

Digest FactCache::key(const discover::SourceFile& file, const discover::LoadedSource& source) const {
  Hasher h;
  h.add(m_scope).add(file.rel_path).add(discover::to_string(file.kind)).add(file.is_test ? "test" : "-");
  std::string cells;
  for (std::size_t i = 0; i < source.cell_first_lines.size(); ++i) {
    put_le(cells, source.cell_first_lines[i], 4);
    put_le(cells, i < source.cell_numbers.size() ? source.cell_numbers[i] : 0, 4);
  }
  for (const FilePlace& place : source.notebook_places) {  // the facts hold them: a moved cell is a new entry
    put_le(cells, place.line, 4);
    put_le(cells, place.column, 4);
  }
  for (const JsonEscape& escape : source.notebook_escapes) {
    put_le(cells, escape.line, 4);
    put_le(cells, escape.column, 4);
    put_le(cells, escape.extra, 4);
  }
  return h.add(cells).add(source.text).finish();
}

std::filesystem::path FactCache::entry_path(const Digest& key) const {
  const std::string hex = to_hex(key);
  return m_dir / hex.substr(0, 2) / hex.substr(2);
}

std::optional<facts::FileFacts> FactCache::load(const Digest& key) {
  const std::optional<std::string> bytes = read_whole_file(entry_path(key), false);
  if (!bytes) {
    ++m_counters.misses;
    return std::nullopt;
  }
  const std::string_view in(*bytes);
  const auto bad = [&]() -> std::optional<facts::FileFacts> {
    ++m_counters.bad;
    ++m_counters.misses;
    return std::nullopt;
  };
  if (in.size() < k_header_size || in.substr(0, 8) != k_magic || get_le(in, 8, 4) != k_entry_format ||
      std::memcmp(in.data() + 12, key.data(), key.size()) != 0 || get_le(in, 76, 8) != in.size() - k_header_size)
    return bad();
  const std::string_view payload = in.substr(k_header_size);
  const Digest sum = digest_of(payload);
  if (std::memcmp(in.data() + 44, sum.data(), sum.size()) != 0) return bad();
  std::optional<facts::FileFacts> facts = facts::from_bytes(payload);
  if (!facts) return bad();
  ++m_counters.hits;
  return facts;
}

void FactCache::store(const Digest& key, const facts::FileFacts& facts) {
  if (m_counters.write_failed) return;
  const std::string payload = facts::to_bytes(facts);
  std::string entry(k_magic);
  put_le(entry, k_entry_format, 4);
  entry.append(reinterpret_cast<const char*>(key.data()), key.size());
  const Digest sum = digest_of(payload);
  entry.append(reinterpret_cast<const char*>(sum.data()), sum.size());
  put_le(entry, payload.size(), 8);
  entry += payload;

  const std::filesystem::path target = entry_path(key);
  std::error_code ec;
  if (!std::filesystem::is_directory(target.parent_path(), ec)) {
    const std::filesystem::path root = m_dir.parent_path();
    if (!std::filesystem::exists(root, ec) && std::filesystem::create_directories(root, ec))
      std::filesystem::permissions(root, std::filesystem::perms::owner_all, ec);  // only a folder we created
    std::filesystem::create_directories(target.parent_path(), ec);
  }
  const std::string temp =
      (target.parent_path() / (".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(++m_temp_counter))).string();
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  bool ok = fd >= 0 && write_all(fd, entry);
  if (fd >= 0) ok = ::close(fd) == 0 && ok;
  ok = ok && std::rename(temp.c_str(), target.c_str()) == 0;
  if (!ok) {
    if (fd >= 0) ::unlink(temp.c_str());
    m_counters.write_failed = true;
    return;
  }
  ++m_counters.writes;
}

}  // namespace tr2audit::pipeline
