// Which CUDA sources the repo's builds compile, and which Python code runs them. A `.cu` file takes the
// roles of the functions that call into the extension built from it (`CUDAExtension("sam2._C",
// ["sam2/csrc/connected_components.cu"])`, called only from inference post-processing: an inference
// kernel). A `.cu` file no build names, in a repo whose builds list their sources by name, is not built
// (the examples of a vendored header library beside an extension's own sources).
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "program/lockin_seeds.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

// (A device branch counts: stylegan3's `if impl == 'cuda' and x.device.type == 'cuda' and _init():` builds the
// plugin only for CUDA tensors, and the reference implementation beside it runs everywhere else.)
constexpr std::uint16_t k_gates = facts::guard_bit(facts::Guard::cuda_available) |
                                  facts::guard_bit(facts::Guard::device_branch) |
                                  facts::guard_bit(facts::Guard::import_error_fallback) |
                                  facts::guard_bit(facts::Guard::opt_in) | facts::guard_bit(facts::Guard::not_training);
constexpr std::array<std::string_view, 5> k_native_loaders{"ctypes.CDLL", "ctypes.cdll.LoadLibrary", "ctypes.PyDLL",
                                                           "torch.ops.load_library", "torch.classes.load_library"};

std::string_view base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view folder(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

bool is_python(const facts::FileFacts& file) {
  return !file.is_test && (file.kind == discover::FileKind::python || file.kind == discover::FileKind::notebook);
}

bool is_cu(std::string_view path) {
  return ends_with(path, ".cu");
}

/// A build of compiled code: `CUDAExtension(...)`, `CppExtension(...)`, `setuptools.Extension(...)`,
/// `cpp_extension.load(...)` / `load_inline(...)`.
bool is_build(const facts::CallFact& call) {
  const std::string_view last = call.callee.last_segment();
  if (last == "CUDAExtension" || last == "CppExtension" || last == "Extension") return true;
  return call.callee.starts_with("torch.utils.cpp_extension") && (last == "load" || last == "load_inline");
}

/// The code a call site's roles come from: its innermost function with roles, or the module body.
FunctionId role_owner(const Program::Impl& impl, FileId file, const facts::Context& ctx) {
  const auto& functions = impl.files[file.value].functions;
  for (std::int32_t fn = ctx.function; fn >= 0; fn = functions[static_cast<std::size_t>(fn)].parent) {
    if (impl.at(FunctionId{file, fn}).roles.any()) return FunctionId{file, fn};
  }
  return FunctionId{file, -1};
}

class CompiledSources {
 public:
  explicit CompiledSources(Program::Impl& impl) : m_impl(impl) {}

  void run() {
    read_builds();
    if (!m_named.empty() && !m_unnamed_mention && !m_native_loader && !unaccounted_extension_import()) mark_unbuilt();
    read_users();
    std::unordered_map<std::string_view, std::vector<std::string_view>> sources_in;  // folder -> its `.cu` files
    for (const auto& file : m_impl.files) {
      if (file.kind == discover::FileKind::cuda_source && is_cu(file.path))
        sources_in[folder(file.path)].push_back(file.path);
    }
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.kind != discover::FileKind::cuda_source || file.is_test || m_impl.dead_module[f] != DeadCode::live)
        continue;
      std::vector<std::pair<FileId, facts::Context>> users = users_of(base_name(file.path));
      // A header no build names takes the users of the built sources beside it.
      if (users.empty() && !is_cu(file.path) && !m_named.count(std::string(base_name(file.path)))) {
        for (const std::string_view source : sources_in[folder(file.path)]) {
          auto more = users_of(base_name(source));
          users.insert(users.end(), more.begin(), more.end());
        }
      }
      give_roles(FileId{f}, users);
    }
  }

 private:
  // The sources each build names, the extension name it declares, and whether the repo's Python lists
  // CUDA sources it does not name (`glob("*.cu")`, `f"{name}.cu"`) or loads native code another build makes.
  void read_builds() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (!is_python(file)) continue;
      std::vector<std::string> in_file;
      for (const FactString& text : file.source_file_strings) facts::cuda_source_names(text, in_file);
      for (const std::string& name : in_file) {
        if (name.empty())
          m_unnamed_mention = true;
        else
          m_named.insert(std::string(base_name(name)));
      }
      for (const facts::CallFact& call : file.calls) {
        if (std::any_of(k_native_loaders.begin(), k_native_loaders.end(),
                        [&](std::string_view name) { return call.callee.dotted() == name; }))
          m_native_loader = true;
        if (!is_build(call)) {
          // `custom_ops.get_plugin(module_name="bias_act_plugin", sources=["bias_act.cpp", "bias_act.cu"])`: a repo
          // function handed CUDA sources by name wraps a JIT build (stylegan3's `torch.utils.cpp_extension.load`
          // of its `sources` parameter); the build runs where this call runs.
          if (call.callee.empty() ||
              m_impl.symbols->lookup_from(FileId{f}, call.callee.dotted()).kind != Symbol::Kind::function)
            continue;
          std::vector<std::string> handed;
          for (const facts::Argument& arg : call.args) facts::cuda_source_names(arg.value, handed);
          for (const std::string& source : handed) {
            if (source.empty()) continue;
            const std::string base(base_name(source));
            m_jit_files[base].insert(f);
            m_users[base].emplace_back(FileId{f}, call.ctx);
          }
          continue;
        }
        const std::string name = ExtensionNames::declared_name(call, file);
        std::vector<std::string> sources;
        for (const facts::Argument& arg : call.args) facts::cuda_source_names(arg.value, sources);
        // Sources in a variable (`CUDAExtension(name, sources)`): the CUDA files the build script names.
        if (std::none_of(sources.begin(), sources.end(), [](const std::string& s) { return !s.empty(); }))
          sources = in_file;
        const bool jit = call.callee.last_segment() == "load" || call.callee.last_segment() == "load_inline";
        if (!name.empty()) m_declared.insert(name);
        for (const std::string& source : sources) {
          if (source.empty()) continue;
          const std::string base(base_name(source));
          if (!name.empty()) m_extensions_of[base].insert(name);
          // A JIT build's value is the handle its file calls through; building it runs where the call runs.
          if (jit) {
            m_jit_files[base].insert(f);
            m_users[base].emplace_back(FileId{f}, call.ctx);
          }
        }
      }
    }
  }

  // A compiled module the repo imports but does not ship nor declare a build of: some other build
  // (CMake, a Makefile) makes it, from sources no Python names.
  bool unaccounted_extension_import() const {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (!is_python(file)) continue;
      const auto& origins = m_impl.symbols->origins()[f];
      for (std::size_t i = 0; i < file.imports.size() && i < origins.size(); ++i) {
        if (origins[i] != facts::ImportOrigin::local_missing) continue;
        const auto declared = [&](const QualifiedName& name) {
          return std::any_of(m_declared.begin(), m_declared.end(), [&](const std::string& ext) {
            return name.dotted() == ext || name.starts_with(ext + ".");
          });
        };
        if (!declared(file.imports[i].target) && !declared(file.imports[i].module)) return true;
      }
    }
    return false;
  }

  void mark_unbuilt() {
    std::map<std::string_view, std::pair<int, int>> per_folder;  // folder -> (.cu files, unbuilt ones)
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.kind != discover::FileKind::cuda_source || file.is_test || !is_cu(file.path) || m_impl.vendored[f])
        continue;
      auto& counts = per_folder[folder(file.path)];
      ++counts.first;
      if (m_named.count(std::string(base_name(file.path)))) continue;
      ++counts.second;
      m_impl.dead_module[f] = DeadCode::unbuilt_source;
    }
    // A header no build names, beside `.cu` files none of which is built (an example's shared header).
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      const auto& file = m_impl.files[f];
      if (file.kind != discover::FileKind::cuda_source || file.is_test || is_cu(file.path) || m_impl.vendored[f] ||
          m_named.count(std::string(base_name(file.path))))
        continue;
      const auto it = per_folder.find(folder(file.path));
      if (it != per_folder.end() && it->second.first > 0 && it->second.first == it->second.second)
        m_impl.dead_module[f] = DeadCode::unbuilt_source;
    }
  }

  // The code that calls through each declared extension (`sam2._C.get_connected_componnets(...)`), and
  // through the handles of the files that build one at run time.
  void read_users() {
    for (std::uint32_t f = 0; f < m_impl.files.size(); ++f) {
      if (m_impl.files[f].is_test) continue;
      for (const facts::PatternFact& pattern : m_impl.derived[f]) {
        if (pattern.kind != "extension-call") continue;
        const std::string_view called = pattern.detail.view();
        bool by_module = false;
        for (const std::string& ext : m_declared) {
          if (starts_with(called, ext) && called.size() > ext.size() && called[ext.size()] == '.') {
            m_by_extension[ext].emplace_back(FileId{f}, pattern.ctx);
            by_module = true;
          }
        }
        if (!by_module) m_by_handle[f].emplace_back(FileId{f}, pattern.ctx);
      }
    }
  }

  std::vector<std::pair<FileId, facts::Context>> users_of(std::string_view base) const {
    std::vector<std::pair<FileId, facts::Context>> out;
    const std::string key(base);
    if (const auto it = m_extensions_of.find(key); it != m_extensions_of.end()) {
      for (const std::string& ext : it->second) {
        if (const auto u = m_by_extension.find(ext); u != m_by_extension.end())
          out.insert(out.end(), u->second.begin(), u->second.end());
      }
    }
    if (const auto it = m_users.find(key); it != m_users.end())
      out.insert(out.end(), it->second.begin(), it->second.end());
    if (const auto it = m_jit_files.find(key); it != m_jit_files.end()) {
      for (const std::uint32_t f : it->second) {
        if (const auto u = m_by_handle.find(f); u != m_by_handle.end())
          out.insert(out.end(), u->second.begin(), u->second.end());
      }
    }
    return out;
  }

  // The source's module body takes the union of its users' roles; its chain runs through a training user
  // when one exists. The gates every call into it sits behind (an opt-in option, a CUDA check) gate it too.
  void give_roles(FileId source, const std::vector<std::pair<FileId, facts::Context>>& users) {
    FunctionState& state = m_impl.at(FunctionId{source, -1});
    if (state.roles.any()) return;
    std::optional<FunctionId> via;
    std::uint16_t gates = k_gates;
    std::string option;
    // The gates of the users some entry point reaches; of all users when none is reached.
    std::uint16_t unreached_gates = k_gates;
    std::string unreached_option;
    for (const auto& [file, ctx] : users) {
      const FunctionId owner = role_owner(m_impl, file, ctx);
      const FunctionState& user = m_impl.at(owner);
      if (user.roles.none()) {
        unreached_gates &= guards_at(m_impl, file, ctx);
        if (unreached_option.empty()) unreached_option = opt_in_option(m_impl, file, ctx);
        continue;
      }
      gates &= guards_at(m_impl, file, ctx);
      if (option.empty()) option = opt_in_option(m_impl, file, ctx);
      state.roles |= user.roles;
      state.training_reached = state.training_reached || user.training_reached;
      state.called_in_training = state.called_in_training || user.called_in_training;
      state.repeats = state.repeats || user.repeats;
      for (const std::uint32_t e : user.entries) {
        if (std::find(state.entries.begin(), state.entries.end(), e) == state.entries.end()) state.entries.push_back(e);
      }
      if (!via || ((user.roles & training_roles()).any() && (m_impl.at(*via).roles & training_roles()).none()))
        via = owner;
    }
    std::sort(state.entries.begin(), state.entries.end());
    const std::size_t slot = m_impl.slot(FunctionId{source, -1});
    // (The gates hold whether or not an entry point reaches the users: AQLM's inference library builds its kernel
    // only behind `codebooks.device.type == "cuda"`, code no training run calls.)
    if (!via) {
      if (!users.empty()) m_impl.inherited_guards[source.value][slot] |= unreached_gates;
      if (!users.empty() && (unreached_gates & facts::guard_bit(facts::Guard::opt_in)))
        m_impl.inherited_option[source.value][slot] = unreached_option;
      return;
    }
    state.via = *via;
    state.has_via = true;
    m_impl.inherited_guards[source.value][slot] |= gates;
    if (gates & facts::guard_bit(facts::Guard::opt_in)) m_impl.inherited_option[source.value][slot] = option;
  }

  Program::Impl& m_impl;
  std::unordered_set<std::string> m_named;  // base names of the CUDA sources the repo's Python names
  bool m_unnamed_mention = false;
  bool m_native_loader = false;
  std::set<std::string> m_declared;                                        // extension names the builds declare
  std::unordered_map<std::string, std::set<std::string>> m_extensions_of;  // source base name -> extensions
  std::unordered_map<std::string, std::set<std::uint32_t>> m_jit_files;    // source base name -> files JIT-building it
  std::unordered_map<std::string, std::vector<std::pair<FileId, facts::Context>>> m_users;  // JIT build sites
  std::unordered_map<std::string, std::vector<std::pair<FileId, facts::Context>>> m_by_extension;
  std::unordered_map<std::uint32_t, std::vector<std::pair<FileId, facts::Context>>> m_by_handle;
};

}  // namespace

void link_compiled_sources(Program::Impl& impl) {
  CompiledSources(impl).run();
}

}  // namespace tr2audit::program
