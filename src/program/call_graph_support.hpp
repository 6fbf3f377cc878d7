// program/call_graph_support (private): the call graph's lookups that need no builder state: which
// method names are too generic to link by name, KV-cache calls, the index of runnable scripts.
#pragma once
#include <string>
#include <vector>

#include "program/model.hpp"

namespace tr2audit::program {

/// Method names too generic to link by name alone (`x.step()`, `req.wait()`): framework verbs, methods of
/// tensors, modules, optimizers, containers and of handles to asynchronous work.
bool is_generic_method(const std::string& name);
/// `loss.backward()` / `torch.autograd.backward(...)`.
bool runs_backward(const facts::CallFact& call);
/// `optimizer.step()`, `scaler.step(optimizer)`, a DeepSpeed engine's `model_engine.step()` / `model.step()`,
/// `xm.optimizer_step(optimizer)`.
bool steps_optimizer(const facts::CallFact& call);
/// `self.kv_cache(input_pos, k, v)`: a KV cache runs only while decoding.
bool calls_kv_cache(const facts::CallFact& call);

/// Per file: a runnable script (a `__main__` block, a notebook), and one that no other non-test file of
/// the repo imports: the classes such a script defines are built only by its own code.
struct ScriptIndex {
  std::vector<bool> script;
  std::vector<bool> private_script;
};
ScriptIndex index_scripts(const Program::Impl& impl);

}  // namespace tr2audit::program
