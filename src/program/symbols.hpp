// program/symbols (private): the repo's own modules, top-level functions and classes, methods, package
// re-exports (`from .x import f` in __init__.py, `from .ops import *`), and import origins.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tr2audit/core/fact_string.hpp"
#include "tr2audit/program/program.hpp"

namespace tr2audit::program {

/// A repo class: its file and index in FileFacts::classes.
struct ClassId {
  FileId file;
  std::int32_t index = -1;
  friend bool operator==(ClassId, ClassId) = default;
};

/// A method name called on a receiver of unknown type links to the repo's methods of that name only
/// when at most this many classes define it (program/call_graph).
inline constexpr std::size_t k_max_name_candidates = 3;

/// What a dotted name of the repo denotes.
struct Symbol {
  enum class Kind { none, function, klass, module } kind = Kind::none;
  FunctionId function;
  ClassId klass;
  FileId module;
  /// `Fn.apply` of a torch.autograd.Function (`klass`): `function` is its forward, and calling it runs the
  /// backward too.
  bool autograd_apply = false;
};

class Symbols {
 public:
  explicit Symbols(const std::vector<facts::FileFacts>& files);

  /// The repo function, class or module a fully qualified name denotes, following re-exports.
  Symbol lookup(std::string_view dotted) const;
  /// lookup() of a name as one file imports it: a module beside the file comes first (beside()).
  Symbol lookup_from(FileId from, std::string_view dotted) const;
  /// module() of a name as one file imports it (beside()).
  std::optional<FileId> module_from(FileId from, std::string_view dotted) const;
  /// `from utils import DataCollator` in examples/eva/train.py: a script's folder is the first entry of
  /// sys.path, so a module or package beside the importing file is what its first segment names
  /// (`examples.eva.utils.DataCollator`), written to buffer; otherwise the name itself.
  std::string_view beside(FileId from, std::string_view dotted, std::string& buffer) const;
  /// `dinov2.fsdp.ShardedGradScaler` after `from torch.distributed.fsdp.sharded_grad_scaler import
  /// ShardedGradScaler` in dinov2/fsdp/__init__.py: the library name a repo module re-exports (through an
  /// import or a module-level alias, over repo re-exports), or "" when the name is not one.
  std::string_view library_name(std::string_view dotted) const;
  /// A name bound at the top level of one file: its own def/class, or what its import of that name denotes.
  Symbol lookup_in_file(FileId file, std::string_view name) const;
  /// A method of a class or of its repo base classes (breadth-first, bounded).
  std::optional<FunctionId> method(ClassId klass, std::string_view name) const;
  /// What calling an instance runs: a module's `forward`, else a callable's `__call__`.
  std::optional<FunctionId> run_method(ClassId klass) const {
    if (auto forward = method(klass, "forward")) return forward;
    return method(klass, "__call__");
  }
  /// method(), but over base classes already resolved only: what lookup() uses while the constructor is
  /// still resolving bases (resolving one there could lead back to the class being resolved).
  std::optional<FunctionId> known_method(ClassId klass, std::string_view name) const;
  /// The repo class a class's base denotes.
  std::optional<ClassId> base_class(ClassId klass, std::size_t base_index) const;
  /// The one repo method with this name, when exactly one class defines it.
  std::optional<FunctionId> unique_method(std::string_view name) const;
  /// The repo methods with this name when 1..k_max_name_candidates classes define it, else empty.
  std::vector<FunctionId> methods_named(std::string_view name) const;
  /// When more classes define it: those whose class name shares a word (3+ letters) with the receiver's last
  /// attribute (`self.actor_rollout_wg.init_model()` → `ActorRolloutRefWorker.init_model`), if 1..k_max of them.
  std::vector<FunctionId> methods_named_for(std::string_view name, std::string_view receiver) const;
  /// True when some repo class that derives from no torch class defines a method of this name (however many do).
  bool defines_method(std::string_view name) const { return m_plain_methods.contains(name); }
  std::optional<FileId> module(std::string_view dotted) const;
  /// True when a dotted module is a package of the repo (a folder with modules below it).
  bool is_package(std::string_view dotted) const;
  bool is_local_root(std::string_view top) const;
  const std::vector<std::vector<ImportOrigin>>& origins() const { return m_origins; }
  /// True when `from m import name` binds a name the file calls (`evaluate_cuda_setup()`) and never reads an
  /// attribute of: a function or class of `m`, not a module (a module object is not callable), whatever its name.
  bool imports_callable(FileId file, std::size_t import_index) const;
  /// True when a later definition of the same name in the same scope replaces the function before any
  /// code runs it (see shadowed_definitions); such a definition denotes nothing.
  bool shadowed(FunctionId fn) const;

 private:
  void index_file(FileId id);
  void resolve_origins(FileId id);
  /// True when the package's __init__ defines, imports or may star-import `name` (then it is Python).
  bool package_may_define(std::string_view package, std::string_view name) const;
  Symbol lookup_bounded(std::string_view dotted, int depth) const;
  std::optional<FunctionId> method_in_bases(ClassId klass, std::string_view name, bool resolve) const;
  /// A repo class deriving from torch.autograd.Function (its `apply` runs its forward).
  bool is_autograd_function(ClassId klass) const;
  void find_project_packages();
  void add_declared_packages();
  void index_folders();
  /// The dotted name with a project package's short name expanded (`densepose.engine` ->
  /// `projects.DensePose.densepose.engine`), written to buffer when it changes.
  std::string_view canonical(std::string_view dotted, std::string& buffer) const;
  std::optional<ClassId> resolve_base(ClassId klass, std::size_t base_index) const;

  const std::vector<facts::FileFacts>& m_files;
  /// A method by its class and name.
  struct MethodKey {
    std::uint32_t file = 0;
    std::int32_t klass = -1;
    std::string_view name;
    bool operator==(const MethodKey&) const = default;
  };
  struct MethodKeyHash {
    std::size_t operator()(const MethodKey& key) const {
      return std::hash<std::string_view>{}(key.name) ^ (std::size_t{key.file} * 0x9e3779b97f4a7c15ULL) ^
             static_cast<std::size_t>(key.klass);
    }
  };
  // The tables below key on views: of the facts' own strings (module, function and class names, import
  // targets), which live as long as the files, or of m_keys (the "module.name" joins).
  StringPool m_keys;
  std::vector<std::string_view> m_modules;  // sorted dotted module names
  /// First segments of the repo's module names (is_local_root): a dotted name starting elsewhere
  /// (torch.*, numpy.*) denotes nothing of the repo, and is rejected before any table is searched.
  std::unordered_set<std::string_view> m_roots;
  std::unordered_map<std::string_view, FileId> m_module_file;
  /// Per folder of modules ("examples.eva"): the sorted names of the modules and packages in it.
  std::unordered_map<std::string_view, std::vector<std::string_view>> m_folder_children;
  /// Per file: its folder's entry of m_folder_children, or null for top-level files (beside()).
  std::vector<const std::pair<const std::string_view, std::vector<std::string_view>>*> m_file_folder;
  /// A package nested in a project folder, by the name the project's files import it under
  /// (find_project_packages): "densepose" -> "projects.DensePose.densepose".
  std::unordered_map<std::string_view, std::string_view> m_project_packages;
  std::unordered_map<std::string_view, Symbol> m_top;                                  // "mod.name" -> def/class
  std::unordered_map<std::string_view, std::string_view> m_reexport;                   // "pkg.name" -> "pkg.x.name"
  std::unordered_map<std::string_view, std::vector<std::string_view>> m_star_sources;  // "pkg" -> ["pkg.ops", ...]
  std::unordered_map<MethodKey, std::int32_t, MethodKeyHash> m_methods;
  std::unordered_map<std::string_view, std::vector<FunctionId>> m_methods_by_name;
  std::unordered_set<std::string_view> m_plain_methods;  ///< defines_method()
  std::vector<std::vector<ImportOrigin>> m_origins;
  /// Per file, per class, per base: the repo class it denotes (resolved once: method lookups and the
  /// type inference walk base chains many times over).
  std::vector<std::vector<std::vector<std::optional<ClassId>>>> m_bases;
  /// Module names the repo's build declares with `CUDAExtension(name=...)` (any setup.py, any folder).
  std::set<std::string> m_cuda_extensions;
  bool declared_cuda_extension(const facts::ImportFact& fact) const;
  /// Per file, per function: shadowed_definitions(file).
  std::vector<std::vector<bool>> m_shadowed;
};

/// Per function of a file: a module-level function or a method whose name a later definition in the same
/// scope binds again, both written directly in the scope's body (not under an if/try/with/loop), with no
/// code of that scope between them naming it and no decorator of the later one naming it (`@x.setter`).
/// Python binds the name to the last definition, so every call runs that one: the earlier is dead.
std::vector<bool> shadowed_definitions(const facts::FileFacts& file);

}  // namespace tr2audit::program
