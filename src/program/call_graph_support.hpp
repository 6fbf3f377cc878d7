// program/call_graph_support (private): the call graph's lookups that need no builder state: which
// method names are too generic to link by name, KV-cache calls, the index of runnable scripts.
#pragma once
#include <string>
#include <unordered_map>
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

/// A method of the class calls a function bound from a library in a try that falls back when the import
/// fails (`flash_attn_varlen_func` after `try: from flash_attn import ...`): the class is the variant for
/// where that library imports.
bool calls_optional_library(const Program::Impl& impl, ClassId klass);

/// The repo classes and functions each module-level dispatch table holds (`CONFIG_TO_MODEL_CLASS =
/// {"LlamaConfig": LlamaForTraining, ...}`, facts::DispatchEntry), by table name, with the file that binds
/// the table: `CONFIG_TO_MODEL_CLASS[name](config=...)` may build any of them.
struct DispatchTableIndex {
  struct Entry {
    FileId file;  ///< the file that binds the table
    Symbol symbol;
    bool optional_library = false;  ///< a class that calls an optional library (calls_optional_library)
  };
  std::unordered_map<std::string, std::vector<Entry>> tables;
};
DispatchTableIndex index_dispatch_tables(const Program::Impl& impl);

/// What a call of a dispatch table's entry by a computed key (`CONFIG_TO_MODEL_CLASS[name](config=...)`) may
/// build or run: every entry of the table the file binds, else of the one it imports by that name. A class
/// among alternatives that needs an optional library (`"flash_attention_2": FlashAttention2`) is built only
/// where that library imports: its target carries the ImportError fallback. Empty for other calls.
struct TableTarget {
  Symbol symbol;
  std::uint16_t guards = 0;
};
std::vector<TableTarget> table_targets(const Program::Impl& impl, const DispatchTableIndex& tables, FileId file,
                                       const facts::CallFact& call);

}  // namespace tr2audit::program
