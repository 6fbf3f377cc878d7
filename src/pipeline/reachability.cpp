#include "tr2audit/pipeline/reachability.hpp"

#include <deque>
#include <map>
#include <string>
#include <unordered_map>

#include "tr2audit/facts/region.hpp"

namespace tr2audit::pipeline {
namespace {

struct FunctionRef {
  std::uint32_t file;
  std::int32_t function;
};

// Method names too generic to link by name alone.
bool is_generic_method(const std::string& name) {
  static constexpr std::string_view k_generic[] = {
      "forward", "__init__", "__call__", "step", "update", "get",    "run",    "apply",    "train",     "eval", "to",
      "reset",   "build",    "load",     "save", "item",   "append", "extend", "backward", "zero_grad", "call"};
  if (name.size() < 4 || name.front() == '_') return true;
  for (std::string_view generic : k_generic) {
    if (name == generic) return true;
  }
  return false;
}

class CallGraph {
 public:
  explicit CallGraph(const std::vector<facts::FileFacts>& files) : m_files(files) {
    for (std::uint32_t f = 0; f < files.size(); ++f) {
      for (std::int32_t i = 0; i < static_cast<std::int32_t>(files[f].functions.size()); ++i) {
        const auto& fn = files[f].functions[i];
        if (fn.parent < 0 && fn.klass < 0) m_by_module_name[files[f].module_name + "." + fn.qualname] = {f, i};
        if (fn.parent < 0 && fn.klass < 0) m_by_file_name[{f, fn.name}] = {f, i};
        if (fn.klass >= 0) {
          m_methods_in_class[{f, fn.klass, fn.name}] = {f, i};
          auto& owners = m_methods_by_name[fn.name];
          if (owners.size() < 2) owners.push_back({f, i});
        }
      }
    }
  }

  /// The repo functions a call inside `caller` (file f) may run.
  std::vector<FunctionRef> targets(std::uint32_t f, const facts::CallFact& call) const {
    std::vector<FunctionRef> out;
    const auto& file = m_files[f];
    if (!call.callee.empty()) {
      if (auto it = m_by_module_name.find(call.callee.dotted()); it != m_by_module_name.end())
        out.push_back(it->second);
      return out;
    }
    if (call.method.empty()) {
      if (auto it = m_by_file_name.find({f, call.callee_text}); it != m_by_file_name.end()) out.push_back(it->second);
      return out;
    }
    if (call.receiver_is_self && call.ctx.klass >= 0) {
      auto it = m_methods_in_class.find({f, call.ctx.klass, call.method});
      if (it != m_methods_in_class.end()) out.push_back(it->second);
      return out;
    }
    if (is_generic_method(call.method)) return out;
    if (auto it = m_methods_by_name.find(call.method); it != m_methods_by_name.end() && it->second.size() == 1)
      out.push_back(it->second.front());
    return out;
  }

 private:
  const std::vector<facts::FileFacts>& m_files;
  std::unordered_map<std::string, FunctionRef> m_by_module_name;
  std::map<std::pair<std::uint32_t, std::string>, FunctionRef> m_by_file_name;
  std::map<std::tuple<std::uint32_t, std::int32_t, std::string>, FunctionRef> m_methods_in_class;
  std::unordered_map<std::string, std::vector<FunctionRef>> m_methods_by_name;
};

std::string describe(const facts::FileFacts& file, std::int32_t function) {
  return file.path + ":" + (function >= 0 ? file.functions[function].qualname : std::string("<module>"));
}

void propagate(std::vector<facts::FileFacts>& files, const CallGraph& graph, facts::Region region) {
  const auto seeds_call = [&](const facts::FileFacts& file, const facts::CallFact& call) {
    if (file.is_test) return false;
    if (region == facts::Region::training_step && facts::in_training_loop(file, call.ctx)) return true;
    for (std::int32_t fn = call.ctx.function; fn >= 0; fn = file.functions[fn].parent) {
      const auto role = facts::function_role(file, fn);
      if (role) return *role == region;
      if (file.functions[fn].reached_region == static_cast<std::int8_t>(region)) return true;
    }
    return false;
  };
  std::deque<FunctionRef> queue;
  const auto visit_calls = [&](std::uint32_t f, std::int32_t only_function) {
    const auto& file = files[f];
    for (const auto& call : file.calls) {
      if (only_function >= 0 && call.ctx.function != only_function) continue;
      if (only_function < 0 && !seeds_call(file, call)) continue;
      for (const FunctionRef target : graph.targets(f, call)) {
        auto& fn = files[target.file].functions[target.function];
        if (fn.reached_region >= 0 || facts::function_role(files[target.file], target.function)) continue;
        fn.reached_region = static_cast<std::int8_t>(region);
        fn.reached_from = describe(file, call.ctx.function);
        queue.push_back(target);
      }
    }
  };
  for (std::uint32_t f = 0; f < files.size(); ++f) visit_calls(f, -1);
  while (!queue.empty()) {
    const FunctionRef next = queue.front();
    queue.pop_front();
    visit_calls(next.file, next.function);
  }
}

}  // namespace

void mark_reachable_functions(std::vector<facts::FileFacts>& files) {
  const CallGraph graph(files);
  propagate(files, graph, facts::Region::forward);
  propagate(files, graph, facts::Region::training_step);
}

}  // namespace tr2audit::pipeline
