// Defaults of names used as values: what `drop_last=self.drop_last`, `backend=backend` or
// `group_by_length=group_by_length` is unless someone sets it. A bare name is its enclosing
// functions' parameter default, the fallback of the environment lookup its function binds it to
// (`backend = os.environ.get("TORCH_COMPILE_BACKEND", "inductor")`), else the file's one module constant; an attribute
// (`self.x`, `args.x`, `cfg.train.x`) is the one default the repo gives option `x`: a class-level field (dataclasses,
// config classes), an argparse flag, or an __init__ parameter.
#include <algorithm>

#include "program/model.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::program {
namespace {

bool is_constant(const facts::Argument& value) {
  return value.kind == facts::LiteralKind::string || value.kind == facts::LiteralKind::integer ||
         value.kind == facts::LiteralKind::floating || value.kind == facts::LiteralKind::boolean ||
         value.kind == facts::LiteralKind::null;
}

std::string flag_name(std::string flag) {
  flag = flag.substr(flag.rfind('.') == std::string::npos ? 0 : flag.rfind('.') + 1);
  while (!flag.empty() && flag.front() == '-') flag.erase(flag.begin());
  std::replace(flag.begin(), flag.end(), '-', '_');
  return flag;
}

void add(Program::Impl& impl, const std::string& name, const facts::Argument& value) {
  if (!name.empty()) impl.option_defaults[name].push_back(value);
}

void collect_file(Program::Impl& impl, const facts::FileFacts& file) {
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function < 0 && assign.ctx.klass >= 0)
      add(impl, std::string(assign.target.last_segment()), assign.value);
  }
  for (const auto& fn : file.functions) {
    if (fn.name != "__init__") continue;
    for (const auto& param : fn.param_defaults) add(impl, param.keyword, param);
  }
  for (const auto& call : file.calls) {
    if (call.method != "add_argument") continue;
    std::string flag;
    const facts::Argument* value = nullptr;
    for (const auto& arg : call.args) {
      if (arg.keyword.empty() && arg.kind == facts::LiteralKind::string && starts_with(arg.value, "--") && flag.empty())
        flag = flag_name(arg.value);
      if (arg.keyword == "dest" && arg.kind == facts::LiteralKind::string) flag = arg.value;
      if (arg.keyword == "default") value = &arg;
    }
    if (value != nullptr) add(impl, flag, *value);
    if (value != nullptr && !flag.empty()) impl.cli_defaults[flag].push_back(*value);
  }
}

/// `backend = os.environ.get("TORCH_COMPILE_BACKEND", "inductor")` in function `fn`: the literal default the
/// environment lookup falls back to, when that binding is the name's only one in the function.
std::optional<facts::Argument> env_default(const facts::FileFacts& file, std::int32_t fn, std::string_view name) {
  const facts::BoundCall* binding = nullptr;
  for (const auto& bound : file.bound_calls) {
    if (bound.ctx.function != fn || bound.target_text != name) continue;
    if (binding != nullptr) return std::nullopt;  // rebound from another call
    binding = &bound;
  }
  if (binding == nullptr) return std::nullopt;
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function == fn && assign.target.dotted() == name) return std::nullopt;  // also set to a literal
  }
  const auto call = std::find_if(file.calls.begin(), file.calls.end(), [&](const facts::CallFact& c) {
    return c.at.start_byte == binding->call_start_byte && c.ctx.function == fn;
  });
  if (call == file.calls.end()) return std::nullopt;
  const FactString& callee = call->callee.dotted();
  if (callee != "os.environ.get" && callee != "os.getenv") return std::nullopt;
  std::size_t positional = 0;
  for (const auto& arg : call->args) {
    const bool is_default = arg.keyword == "default" || (arg.keyword.empty() && !arg.is_splat && positional++ == 1);
    if (is_default) return is_constant(arg) ? std::optional(arg) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

void collect_option_defaults(Program::Impl& impl) {
  for (const auto& file : impl.files) collect_file(impl, file);
}

std::optional<facts::Argument> Program::local_value_of(FileId file_id, const facts::Context& ctx,
                                                       std::string_view name) const {
  // (In a function, or in a module's body; not in a class's.)
  if ((ctx.function < 0 && ctx.klass >= 0) || name.find('.') != std::string_view::npos) return std::nullopt;
  const facts::FileFacts& file = m_impl->files[file_id.value];
  std::optional<facts::Argument> value;
  for (const auto& assign : file.assigns) {
    if (assign.ctx.function != ctx.function || (ctx.function < 0 && assign.ctx.klass >= 0) || assign.target_is_import ||
        assign.target.dotted() != name)
      continue;
    if (value || !(is_constant(assign.value) || assign.value.conditional)) return std::nullopt;  // reassigned
    value = assign.value;
  }
  return value;
}

std::optional<facts::Argument> Program::default_of(FileId file_id, const facts::Context& ctx,
                                                   std::string_view name) const {
  const facts::FileFacts& file = m_impl->files[file_id.value];
  if (name.find('.') == std::string_view::npos) {
    for (std::int32_t fn = ctx.function; fn >= 0; fn = file.functions[static_cast<std::size_t>(fn)].parent) {
      for (const auto& param : file.functions[static_cast<std::size_t>(fn)].param_defaults) {
        if (param.keyword == name) return is_constant(param) ? std::optional(param) : std::nullopt;
      }
      // `grad_scaler_enabled = fp16` (bound once in the function, from another name): that name's default, a
      // parameter's (a chain of such aliases is followed a few steps; a local bound otherwise has none).
      std::string_view local = name;
      for (int step = 0; step < 4; ++step) {
        const facts::AssignFact* alias = nullptr;
        bool several = false;
        for (const auto& assign : file.assigns) {
          if (assign.ctx.function != fn || assign.target_text != local) continue;
          several = alias != nullptr;
          alias = &assign;
        }
        if (alias == nullptr) break;
        if (several || alias->value.kind != facts::LiteralKind::name || !alias->value.resolved.empty() ||
            alias->value.value.find('.') != std::string::npos)
          return std::nullopt;
        local = alias->value.value.view();
        for (const auto& param : file.functions[static_cast<std::size_t>(fn)].param_defaults) {
          if (param.keyword == local) return is_constant(param) ? std::optional(param) : std::nullopt;
        }
        if (step == 3) return std::nullopt;
      }
      if (local != name) return std::nullopt;
      if (fn == ctx.function) {
        if (auto fallback = env_default(file, fn, name)) return fallback;
      }
    }
    if (ctx.function < 0) {
      if (auto fallback = env_default(file, -1, name)) return fallback;
    }
    std::optional<facts::Argument> constant;
    for (const auto& assign : file.assigns) {
      if (assign.ctx.function >= 0 || assign.ctx.klass >= 0 || assign.target.dotted() != name) continue;
      if (constant || !is_constant(assign.value)) return std::nullopt;  // reassigned: no single default
      constant = assign.value;
    }
    return constant;
  }
  const std::string option(name.substr(name.rfind('.') + 1));
  // `self.x` inside a class: that class's own field or __init__ default decides.
  if (starts_with(name, "self.") && ctx.klass >= 0) {
    for (const auto& fn : file.functions) {
      if (fn.klass != ctx.klass || fn.name != "__init__") continue;
      for (const auto& param : fn.param_defaults) {
        if (param.keyword == option) return is_constant(param) ? std::optional(param) : std::nullopt;
      }
    }
    for (const auto& assign : file.assigns) {
      if (assign.ctx.klass == ctx.klass && assign.ctx.function < 0 && assign.target.dotted() == option)
        return is_constant(assign.value) ? std::optional(assign.value) : std::nullopt;
    }
  }
  // `args.dtype`: an argparse namespace's attribute is its flag's, when the repo declares that flag.
  const bool namespace_read = starts_with(name, "args.") || starts_with(name, "opt.") || starts_with(name, "opts.");
  const std::vector<facts::Argument>* values = nullptr;
  if (const auto cli = m_impl->cli_defaults.find(option); namespace_read && cli != m_impl->cli_defaults.end())
    values = &cli->second;
  else if (const auto any = m_impl->option_defaults.find(option); any != m_impl->option_defaults.end())
    values = &any->second;
  if (values == nullptr || values->empty()) return std::nullopt;
  const facts::Argument& first = values->front();
  const bool agree = std::all_of(values->begin(), values->end(),
                                 [&](const facts::Argument& v) { return is_constant(v) && v.value == first.value; });
  return agree ? std::optional(first) : std::nullopt;
}

std::optional<std::vector<std::string>> Program::choices_of(FileId file_id, const facts::Context& ctx,
                                                            std::string_view name) const {
  if (name.find('.') != std::string_view::npos) return std::nullopt;
  const facts::FileFacts& file = m_impl->files[file_id.value];
  for (std::int32_t fn = ctx.function; fn >= 0; fn = file.functions[static_cast<std::size_t>(fn)].parent) {
    for (const FactString& text : file.functions[static_cast<std::size_t>(fn)].params) {
      const std::string_view param = text;
      const auto colon = param.find(':');
      if (colon == std::string_view::npos || trim(param.substr(0, colon)) != name) continue;
      // `strategy: Literal["auto", "ddp", "fsdp"] = "fsdp"`: the quoted strings inside the brackets.
      const auto open = param.find("Literal[", colon);
      const auto close = open == std::string_view::npos ? open : param.find(']', open);
      if (close == std::string_view::npos) return std::nullopt;
      std::vector<std::string> out;
      const std::string_view inside = param.substr(open + 8, close - open - 8);
      for (std::size_t at = 0; at < inside.size(); ++at) {
        const char quote = inside[at];
        if (quote != '"' && quote != '\'') continue;
        const auto end = inside.find(quote, at + 1);
        if (end == std::string_view::npos) return std::nullopt;
        out.emplace_back(inside.substr(at + 1, end - at - 1));
        at = end;
      }
      if (out.empty()) return std::nullopt;  // `Literal[1, 2]`, `Literal[Mode.A]`: not strings
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace tr2audit::program
