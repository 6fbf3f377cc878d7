// Ops the repo defines in Python with torch.library (PyTorch >= 2.4), for the call graph and lock-in:
// - `@torch.library.custom_op("ns::op")` / `@torch.library.triton_op("ns::op")` on a repo function: a call
//   `torch.ops.ns.op(...)` runs it (`python_op_called`); unless it declares `device_types="cuda"`, it is the
//   repo's own portable code, not a CUDA op (`portable_python_op_called`);
// - `op.register_autograd(backward, setup_context=setup)` (or `torch.library.register_autograd("ns::op",
//   ...)`): the backward runs wherever the op runs under autograd (`autograd_registration`); registering
//   runs neither, nor does `register_fake` (`registers_op_function`).
#include <string>
#include <utility>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

// "ns::op" -> "ns.op", the key of Impl::python_ops (as `torch.ops.ns.op` names it); "" for another shape.
std::string op_key(std::string_view name) {
  const auto colons = name.find("::");
  if (colons == std::string_view::npos) return {};
  return std::string(name.substr(0, colons)) + "." + std::string(name.substr(colons + 2));
}

// The function `@torch.library.custom_op("ns::op", ...)` defines.
std::optional<FunctionId> custom_op_named(const Program::Impl& impl, std::string_view name) {
  const auto it = impl.python_ops.find(op_key(name));
  return it == impl.python_ops.end() ? std::nullopt : std::optional<FunctionId>(it->second.function);
}

}  // namespace

bool registers_op_function(const facts::CallFact& call) {
  const std::string_view callee = call.callee.dotted();
  return ((call.method == "register_autograd" || call.method == "register_fake") &&
          is_identifier(call.receiver_text)) ||
         callee == "torch.library.register_autograd" || callee == "torch.library.register_fake";
}

std::optional<AutogradRegistration> autograd_registration(const Program::Impl& impl, FileId file,
                                                          const facts::CallFact& call) {
  const bool method = call.method == "register_autograd" && is_identifier(call.receiver_text);
  if (!method && call.callee.dotted() != "torch.library.register_autograd") return std::nullopt;
  std::optional<FunctionId> op;
  if (method) {
    const Symbol s = impl.symbols->lookup_in_file(file, call.receiver_text);
    if (s.kind == Symbol::Kind::function) op = s.function;
  } else if (!call.args.empty() && call.args[0].kind == facts::LiteralKind::string) {
    op = custom_op_named(impl, call.args[0].value);
  }
  if (!op || op->index < 0) return std::nullopt;
  AutogradRegistration out{*op, {}};
  for (const auto& arg : call.args) {
    const bool named = arg.keyword.empty() || arg.keyword == "backward" || arg.keyword == "setup_context";
    if (arg.kind != facts::LiteralKind::name || !named) continue;
    const Symbol s = impl.symbols->lookup_in_file(file, arg.value);
    if (s.kind == Symbol::Kind::function) out.functions.push_back(s.function);
  }
  return out;
}

const Program::Impl::PythonOp* python_op_called(const Program::Impl& impl, std::string_view callee) {
  if (impl.python_ops.empty() || !starts_with(callee, "torch.ops.")) return nullptr;
  const std::string_view rest = callee.substr(10);  // "ns.op" or "ns.op.overload"
  const auto dot = rest.find('.');
  if (dot == std::string_view::npos) return nullptr;
  const auto it = impl.python_ops.find(std::string(rest.substr(0, rest.find('.', dot + 1))));
  return it == impl.python_ops.end() ? nullptr : &it->second;
}

bool portable_python_op_called(const Program::Impl& impl, std::string_view callee) {
  const Program::Impl::PythonOp* op = python_op_called(impl, callee);
  return op != nullptr && !op->cuda_only;
}

// `@torch.library.custom_op("ns::op")` / `@torch.library.triton_op("ns::op")` on a repo function.
void index_python_ops(Program::Impl& impl) {
  for (std::uint32_t f = 0; f < impl.files.size(); ++f) {
    for (const auto& decorator : impl.files[f].decorators) {
      const FactString& name = decorator.decorator.dotted();
      if ((name != "torch.library.custom_op" && name != "torch.library.triton_op") || decorator.args.empty() ||
          decorator.args[0].kind != facts::LiteralKind::string)
        continue;
      std::string key = op_key(decorator.args[0].value);
      const Symbol s = impl.symbols->lookup_in_file(FileId{f}, decorator.decorated);
      if (key.empty() || s.kind != Symbol::Kind::function) continue;
      // `device_types="cuda"` (or a list naming CUDA and not the CPU): no implementation for other devices.
      bool cuda_only = false;
      for (const auto& arg : decorator.args) {
        if (arg.keyword == "device_types")
          cuda_only = arg.value.view().find("cuda") != std::string_view::npos &&
                      arg.value.view().find("cpu") == std::string_view::npos;
      }
      impl.python_ops.emplace(std::move(key), Program::Impl::PythonOp{s.function, cuda_only});
    }
  }
}

}  // namespace tr2audit::program
