// Where GPU-only code starts in the repo's own functions: calls through a compiled extension's handle
// (an import of a module the repo builds with CUDAExtension or does not ship as source, the value of a
// CUDA `cpp_extension.load`, a dynamic import of `pkg._ext`, a repo helper that loads one), calls the
// rules call GPU-only (LockinKnowledge::kernel_call), CUDA builds and loads, and Triton-style kernels.
#include "program/lockin_seeds.hpp"

#include <algorithm>

#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

const facts::Argument* argument(const facts::CallFact& call, std::string_view keyword, std::size_t position) {
  std::size_t positional = 0;
  for (const auto& arg : call.args) {
    if (arg.keyword == keyword) return &arg;
    if (arg.keyword.empty() && !arg.is_splat && positional++ == position) return &arg;
  }
  return nullptr;
}

bool is_cuda_file_argument(const facts::Argument& arg) {
  for (std::string_view ext : {".cu\"", ".cu'", ".cuh\"", ".cuh'"}) {
    if (arg.value.find(ext) != std::string::npos) return true;
  }
  return ends_with(arg.value, ".cu") || ends_with(arg.value, ".cuh");
}

// `cpp_extension.load(...)` builds CUDA when it is given .cu sources, CUDA flags or with_cuda=True; with
// C++ sources only (or sources in a variable and no CUDA flag) it builds a CPU extension.
bool is_cuda_build(const facts::CallFact& call) {
  const FactString& callee = call.callee.dotted();
  if (callee != "torch.utils.cpp_extension.load" && callee != "torch.utils.cpp_extension.load_inline") return false;
  for (const auto& arg : call.args) {
    if (arg.keyword == "extra_cuda_cflags" || arg.keyword == "cuda_sources") return true;
    if (arg.keyword == "with_cuda" && arg.value == "True") return true;
    if (is_cuda_file_argument(arg)) return true;
  }
  return false;
}

// `importlib.import_module(pkg + "._ext")`: a module name built at run time that names a compiled extension.
bool is_extension_import_call(const facts::CallFact& call) {
  if (call.callee.dotted() != "importlib.import_module" && call.callee_text != "__import__") return false;
  const facts::Argument* name = argument(call, "name", 0);
  if (!name) return false;
  const std::string& text = name->value;
  return text.find("_ext") != std::string::npos || text.find("_C") != std::string::npos ||
         text.find("cuda") != std::string::npos;
}

}  // namespace

bool is_loader(const Loaders& loaders, FunctionId id) {
  return id.index >= 0 && loaders[id.file.value][static_cast<std::size_t>(id.index)] != 0;
}

namespace {

/// The one string a module-level name is bound to (`PACKAGE_NAME = "flash_attn_3"`), else "".
std::string module_constant(const facts::FileFacts& file, std::string_view name) {
  std::string value;
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function >= 0 || assign.ctx.klass >= 0 || assign.target.dotted() != name) continue;
    if (!value.empty() || assign.value.kind != facts::LiteralKind::string) return {};  // reassigned
    value = assign.value.value;
  }
  return value;
}

/// `f"{PACKAGE_NAME}._C"` with every placeholder a module constant of the file; "" otherwise.
std::string expand_fstring(const facts::FileFacts& file, std::string_view text) {
  if (text.size() < 3 || (text[0] != 'f' && text[0] != 'F') || (text[1] != '"' && text[1] != '\'') ||
      text.back() != text[1])
    return {};
  const std::string_view body = text.substr(2, text.size() - 3);
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '{') {
      if (body[i] == '}') return {};
      out += body[i];
      continue;
    }
    const std::size_t close = body.find('}', i);
    if (close == std::string_view::npos) return {};
    const std::string value = module_constant(file, body.substr(i + 1, close - i - 1));
    if (value.empty()) return {};
    out += value;
    i = close;
  }
  return out;
}

}  // namespace

std::string ExtensionNames::declared_name(const facts::CallFact& call, const facts::FileFacts& file) {
  const facts::Argument* name = argument(call, "name", 0);
  if (!name) return {};
  if (name->kind == facts::LiteralKind::string) return name->value;
  return expand_fstring(file, name->value);
}

ExtensionNames collect_extension_names(const std::vector<facts::FileFacts>& files) {
  ExtensionNames out;
  for (const auto& file : files) {
    for (const auto& call : file.calls) {
      const std::string_view last = call.callee.last_segment();
      if (last != "CUDAExtension" && last != "CppExtension") continue;
      std::string name = ExtensionNames::declared_name(call, file);
      if (!name.empty()) (last == "CUDAExtension" ? out.cuda : out.cpu).insert(name);
    }
  }
  for (const auto& name : out.cuda) out.cpu.erase(name);  // a CUDA build that also has a C++ fallback name
  return out;
}

SeedFinder::SeedFinder(const Program::Impl& impl, const ExtensionNames& names, FileId file)
    : m_impl(impl), m_names(names), m_file(file), m_facts(impl.files[file.value]) {
  collect_extension_modules();
}

void SeedFinder::collect_extension_modules() {
  const auto& origins = m_impl.symbols->origins()[m_file.value];
  for (std::size_t i = 0; i < m_facts.imports.size(); ++i) {
    const auto& fact = m_facts.imports[i];
    // Repo Python (detectron2's config `_C = CfgNode()`) is never an extension, whatever its name.
    if (fact.module.first_segment() == "torch" || i >= origins.size() ||
        origins[i] == facts::ImportOrigin::local_source)
      continue;
    const FactString& target = fact.target.dotted();
    const FactString& mod = fact.module.dotted();
    // Declared by its full dotted name in the repo's setup, or named like one (the rules' list).
    const auto& named = m_impl.lockin_knowledge.extension_module;
    const auto cuda = [&](const QualifiedName& name) {
      return m_names.cuda.count(name.dotted()) != 0 ||
             (named && named(name, origins[i]) && m_names.cpu.count(name.dotted()) == 0);
    };
    // (`from .random import model_parallel_cuda_manual_seed`, called: a function, named like an extension or not.)
    if (cuda(fact.target) && !m_impl.symbols->imports_callable(m_file, i)) {
      m_modules.push_back(target);
    } else if (cuda(fact.module)) {
      m_modules.push_back(mod);
    } else if (origins[i] == facts::ImportOrigin::local_missing && m_names.cpu.count(target) == 0 &&
               m_names.cpu.count(mod) == 0) {
      const bool module_is_repo =
          m_impl.symbols->module(fact.module.dotted()) || m_impl.symbols->is_package(fact.module.dotted());
      m_modules.push_back(module_is_repo || fact.target == fact.module ? fact.target.dotted() : fact.module.dotted());
    }
  }
}

bool SeedFinder::loads_extension(const facts::CallFact& call) const {
  return is_cuda_build(call) || is_extension_import_call(call);
}

void SeedFinder::add_handle(const facts::CallFact& call) {
  for (const auto& bound : m_facts.bound_calls) {
    if (bound.call_start_byte == call.at.start_byte && bound.ctx.function == call.ctx.function)
      m_handles.push_back(bound.target_text);
  }
}

void SeedFinder::collect_handles(const Loaders& loaders) {
  std::vector<char> calls_loader(m_facts.calls.size(), 0);  // one pass over the file's edges
  for (const auto& edges : m_impl.edges[m_file.value]) {
    for (const auto& edge : edges) {
      if (edge.call >= 0 && edge.by_name && is_loader(loaders, edge.target))
        calls_loader[static_cast<std::size_t>(edge.call)] = 1;
    }
  }
  for (std::size_t c = 0; c < m_facts.calls.size(); ++c) {
    if (calls_loader[c] || loads_extension(m_facts.calls[c])) add_handle(m_facts.calls[c]);
  }
}

std::string SeedFinder::extension_call(const facts::CallFact& call, const Loaders& loaders) const {
  const FactString& callee = call.callee.dotted();
  for (const auto& mod : m_modules) {
    if (!callee.empty() && call.callee.starts_with(mod) && callee.size() > mod.size()) return callee;
  }
  if (call.method.empty() || call.receiver_text.empty()) return {};
  const FactString& receiver = call.receiver_text;
  if (std::find(m_handles.begin(), m_handles.end(), receiver) != m_handles.end()) return receiver + "." + call.method;
  // `_load_ext().op(x)`: the receiver is a call of a repo helper that loads the extension.
  if (ends_with(receiver, "()") && receiver.find('(') == receiver.size() - 2) {
    const Symbol s = m_impl.symbols->lookup_in_file(m_file, receiver.substr(0, receiver.size() - 2));
    if (s.kind == Symbol::Kind::function && is_loader(loaders, s.function)) return receiver + "." + call.method;
  }
  return {};
}

}  // namespace tr2audit::program
