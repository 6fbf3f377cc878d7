// score/setup: training-setup facts from one file's calls, imports, assignments and loops. Each
// recogniser is a small table-driven check; evidence is "path:line" and kept sorted and capped.
#include "tr2audit/score/setup.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

#include "tr2audit/core/text.hpp"

namespace tr2audit::score {
namespace {

using report::SetupFact;
using report::TrainingSetup;
constexpr std::size_t k_max_evidence = 3;

struct Family {
  std::string_view token;  // lower-case substring of a model name or class
  std::string_view value;
};
constexpr Family k_families[] = {
    {"llama", "llama"}, {"mixtral", "mixtral"}, {"mistral", "mistral"}, {"qwen", "qwen"}, {"gpt2", "gpt2"},
    {"gemma", "gemma"}, {"phi", "phi"},         {"falcon", "falcon"},   {"bert", "bert"}, {"t5", "t5"}};

/// Orders "path:line" naturally: by path, then by the trailing number.
bool evidence_less(const std::string& a, const std::string& b) {
  const auto split = [](const std::string& s) {
    const auto colon = s.rfind(':');
    if (colon == std::string::npos) return std::pair<std::string_view, unsigned long>(s, 0);
    const std::string_view number = std::string_view(s).substr(colon + 1);
    unsigned long value = 0;
    for (char c : number) value = std::isdigit(static_cast<unsigned char>(c)) ? value * 10 + (c - '0') : value;
    return std::pair<std::string_view, unsigned long>(std::string_view(s).substr(0, colon), value);
  };
  return split(a) < split(b);
}

void add(std::vector<SetupFact>& facts, std::string_view value, const std::string& where) {
  auto it = std::find_if(facts.begin(), facts.end(), [&](const SetupFact& f) { return f.value == value; });
  if (it == facts.end()) it = facts.insert(facts.end(), SetupFact{std::string(value), {}});
  auto& ev = it->evidence;
  if (std::find(ev.begin(), ev.end(), where) != ev.end()) return;
  ev.insert(std::upper_bound(ev.begin(), ev.end(), where, evidence_less), where);
  if (ev.size() > k_max_evidence) ev.resize(k_max_evidence);  // the smallest three: order-independent
}

std::string where(const facts::FileFacts& file, std::uint32_t line) {
  const auto& firsts = file.cell_first_lines;
  if (!firsts.empty() && firsts.size() == file.cell_numbers.size()) {
    const auto after = std::upper_bound(firsts.begin(), firsts.end(), line);
    if (after != firsts.begin()) {
      const std::size_t i = static_cast<std::size_t>(after - firsts.begin()) - 1;
      return file.path + ":cell " + std::to_string(file.cell_numbers[i]) + ":" + std::to_string(line - firsts[i] + 1);
    }
  }
  return file.path + ":" + std::to_string(line);
}

/// A call's "path:line", made only when the call is evidence of something (most calls are not).
class Place {
 public:
  Place(const facts::FileFacts& file, std::uint32_t line) : m_file(file), m_line(line) {}
  operator const std::string&() const {
    if (!m_text) m_text = where(m_file, m_line);
    return *m_text;
  }

 private:
  const facts::FileFacts& m_file;
  std::uint32_t m_line;
  mutable std::optional<std::string> m_text;
};

bool any_glob(std::string_view name, std::initializer_list<std::string_view> globs) {
  return std::any_of(globs.begin(), globs.end(), [&](std::string_view g) { return glob_match(g, name); });
}

const facts::Argument* keyword(const facts::CallFact& call, std::string_view name) {
  for (const auto& arg : call.args) {
    if (arg.keyword == name) return &arg;
  }
  return nullptr;
}

bool arg_is(const facts::Argument* arg, std::string_view value) {
  return arg != nullptr && (arg->value == value || arg->resolved.dotted() == value);
}

/// The argument's value as a lower-case text, resolved name preferred.
std::string arg_text(const facts::Argument& arg) {
  return to_lower(arg.resolved.empty() ? arg.value : arg.resolved.dotted());
}

void precision_of_value(const std::string& text, TrainingSetup& setup, const std::string& at) {
  if (text.find("bfloat16") != std::string::npos || text == "bf16") add(setup.precision, "bf16", at);
  if (text.find("float8") != std::string::npos) add(setup.precision, "fp8", at);
  bool plain_f16 = false;  // "float16" not preceded by 'b' (bfloat16)
  for (auto at = text.find("float16"); at != std::string::npos && !plain_f16; at = text.find("float16", at + 1)) {
    plain_f16 = at == 0 || text[at - 1] != 'b';
  }
  if (plain_f16 || text == "torch.half" || text == "fp16") add(setup.precision, "fp16", at);
}

void fine_tuning_call(const facts::CallFact& call, const std::string& callee, TrainingSetup& setup, const Place& at) {
  if (any_glob(callee, {"peft.LoraConfig", "peft.get_peft_model", "peft.LoraModel", "peft.tuners.lora.*"})) {
    add(setup.fine_tuning, "lora", at);
  }
  const bool four_bit = arg_is(keyword(call, "load_in_4bit"), "True");
  // Lightning / LitGPT: BitsandbytesPrecision("nf4") and quantize="bnb.nf4" are 4-bit base weights too.
  const auto* mode =
      call.args.empty() || !call.args.front().keyword.empty() ? keyword(call, "mode") : &call.args.front();
  const bool bnb_precision =
      any_glob(callee, {"lightning.*BitsandbytesPrecision", "lightning_fabric.*BitsandbytesPrecision"}) &&
      mode != nullptr && (starts_with(mode->value, "nf4") || starts_with(mode->value, "fp4"));
  const auto* quantize = keyword(call, "quantize");
  const bool bnb_quantize = quantize != nullptr && quantize->kind == facts::LiteralKind::string &&
                            (starts_with(quantize->value, "bnb.nf4") || starts_with(quantize->value, "bnb.fp4"));
  if ((four_bit && any_glob(callee, {"transformers.BitsAndBytesConfig", "*.from_pretrained"})) ||
      callee == "peft.prepare_model_for_kbit_training" || bnb_precision || bnb_quantize) {
    add(setup.fine_tuning, "qlora", at);
  }
  const bool model_class =
      any_glob(callee, {"transformers.AutoModel*.from_pretrained", "transformers.*For*.from_pretrained",
                        "transformers.*Model.from_pretrained"});
  if (model_class) add(setup.fine_tuning, "full", at);
  // transformers.DataCollatorForSeq2Seq / ForLanguageModeling build batches, not a model.
  if (any_glob(callee,
               {"transformers.AutoModel*.from_config", "transformers.*For*", "transformers.*For*._from_config"}) &&
      !ends_with(callee, ".from_pretrained") && callee.find("DataCollator") == std::string::npos) {
    add(setup.fine_tuning, "pretraining", at);
  }
  // A repo model built from a config object: GPT(gptconf), Transformer(model_args).
  const std::string_view text = call.callee_text;
  const bool capitalised = !text.empty() && std::isupper(static_cast<unsigned char>(text[0])) &&
                           text.find('.') == std::string_view::npos && !ends_with(text, "Config");
  const bool local = call.callee.empty() || !any_glob(call.callee.dotted(), {"torch.*", "transformers.*", "peft.*"});
  // Outside classes: GPT(config) at the top, not Block(config) inside the model.
  const auto& arg = call.args.empty() ? facts::Argument{} : call.args[0];
  const std::string value = to_lower(arg.value);
  const bool config_name = arg.kind == facts::LiteralKind::name && value.find('.') == std::string::npos &&
                           value.find("conf") != std::string::npos;
  const bool config_call = arg.kind == facts::LiteralKind::other && value.find("config(") != std::string::npos;
  const bool config_arg = call.args.size() == 1 && arg.keyword.empty() && (config_name || config_call);
  if (capitalised && local && config_arg && call.ctx.klass < 0) {
    add(setup.fine_tuning, "pretraining", at);
  }
}

void model_family_call(const facts::CallFact& call, const std::string& callee, TrainingSetup& setup, const Place& at) {
  const bool loads = ends_with(callee, ".from_pretrained") || ends_with(callee, ".from_config");
  if (!loads || !any_glob(callee, {"transformers.*", "optimum.*", "peft.*"})) return;
  if (starts_with(callee, "transformers.AutoModel")) add(setup.model_family, "hf-auto", at);
  std::string names = to_lower(callee);
  for (const auto& arg : call.args) {
    if (arg.kind == facts::LiteralKind::string &&
        (arg.keyword.empty() || arg.keyword == "pretrained_model_name_or_path")) {
      names += " " + to_lower(arg.value);
    }
  }
  for (const auto& family : k_families) {
    if (names.find(family.token) != std::string::npos) add(setup.model_family, family.value, at);
  }
}

void parallelism_call(const std::string& callee, TrainingSetup& setup, const Place& at) {
  if (callee == "torch.nn.parallel.DistributedDataParallel") add(setup.parallelism, "ddp", at);
  if (any_glob(callee, {"torch.distributed.fsdp.FullyShardedDataParallel", "torch.distributed.fsdp.fully_shard",
                        "torch.distributed._composable.fsdp.fully_shard",
                        "torch.distributed._composable.fsdp.*.fully_shard"})) {
    add(setup.parallelism, "fsdp", at);
  }
  if (starts_with(callee, "deepspeed.")) add(setup.parallelism, "deepspeed", at);
  if (starts_with(callee, "megatron.")) add(setup.parallelism, "megatron", at);
  if (starts_with(callee, "neuronx_distributed.parallel_layers.")) add(setup.parallelism, "nxd-tp", at);
  if (starts_with(callee, "neuronx_distributed.pipeline.")) add(setup.parallelism, "nxd-pp", at);
  if (any_glob(callee, {"torch_xla.distributed.spmd.*", "torch_xla.runtime.use_spmd"}))
    add(setup.parallelism, "xla-spmd", at);
}

void checkpoint_call(const facts::CallFact& call, const std::string& callee, bool file_saves, TrainingSetup& setup,
                     const Place& at) {
  const std::string receiver = to_lower(call.receiver_text);
  // `trainer.save_model(...)` saves a Hugging Face model; a repo's own `misc.save_model(...)` (MAE) is its own format.
  const bool library_save =
      call.callee.empty() ||
      any_glob(callee, {"transformers.*", "trl.*", "peft.*", "accelerate.*", "optimum.*", "sentence_transformers.*"});
  if (call.method == "save_pretrained" || (call.method == "save_model" && library_save))
    add(setup.checkpointing, "save-pretrained", at);
  if (call.method == "state_dict" && file_saves && receiver.find("optim") != std::string::npos) {
    add(setup.checkpointing, "optimizer-state", at);
  }
  if ((call.method == "load_state_dict" && receiver.find("optim") != std::string::npos) ||
      keyword(call, "resume_from_checkpoint") != nullptr || call.method == "load_state" ||
      callee == "neuronx_distributed.trainer.load_checkpoint") {
    add(setup.checkpointing, "resume", at);
  }
  if (starts_with(callee, "torch.distributed.checkpoint.") || callee == "neuronx_distributed.trainer.save_checkpoint") {
    add(setup.checkpointing, "sharded", at);
  }
  if (starts_with(callee, "torch_xla.utils.serialization.")) add(setup.checkpointing, "xser", at);
  if (arg_is(keyword(call, "async_save"), "True") || callee == "torch.distributed.checkpoint.async_save") {
    add(setup.checkpointing, "async", at);
  }
}

void framework_call(const std::string& callee, TrainingSetup& setup, const Place& at) {
  if (any_glob(callee, {"transformers.Trainer", "transformers.Seq2SeqTrainer", "trl.*Trainer"})) {
    add(setup.frameworks, "hf-trainer", at);
  }
  if (callee == "accelerate.Accelerator") add(setup.frameworks, "accelerate", at);
  if (any_glob(callee, {"lightning.*Trainer", "pytorch_lightning.Trainer", "lightning.pytorch.Trainer",
                        "lightning.Fabric", "lightning.fabric.Fabric"})) {
    add(setup.frameworks, "lightning", at);
  }
  if (any_glob(callee, {"optimum.neuron.*Trainer", "optimum.neuron.NeuronTrainingArguments",
                        "optimum.neuron.*.NeuronTrainer"})) {
    add(setup.frameworks, "optimum-neuron", at);
  }
}

void precision_call(const facts::CallFact& call, const std::string& callee, TrainingSetup& setup, const Place& at) {
  for (const auto& arg : call.args) {
    const bool dtype_like = arg.keyword.empty() || arg.keyword == "dtype" || arg.keyword == "torch_dtype" ||
                            arg.keyword == "mixed_precision" || arg.keyword == "param_dtype";
    if (dtype_like && (arg.kind == facts::LiteralKind::name || arg.kind == facts::LiteralKind::string)) {
      precision_of_value(arg_text(arg), setup, at);
    }
    if ((arg.keyword == "bf16" || arg.keyword == "fp16") && arg.value == "True") add(setup.precision, arg.keyword, at);
  }
  if (any_glob(callee,
               {"torch.cuda.amp.GradScaler", "torch.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler"}) ||
      call.method == "half") {
    add(setup.precision, "fp16", at);
  }
  if (any_glob(callee, {"transformer_engine.*fp8_autocast", "torchao.float8.*"})) add(setup.precision, "fp8", at);
  // `dtype = 'bfloat16' if torch.cuda.is_bf16_supported() else 'float16'`: bf16 is chosen when available.
  if (callee == "torch.cuda.is_bf16_supported") add(setup.precision, "bf16", at);
}

template <class Pick>
void imports_of(const facts::FileFacts& file, TrainingSetup&, TrainingSetup&, const Pick& pick) {
  for (const auto& imp : file.imports) {
    const std::string target = imp.target.dotted();
    const std::string at = where(file, imp.at.line);
    TrainingSetup& setup = pick(imp.ctx);
    if (starts_with(target, "deepspeed")) add(setup.parallelism, "deepspeed", at);
    if (imp.target.starts_with("megatron")) add(setup.parallelism, "megatron", at);
    if (imp.target.starts_with("neuronx_distributed.pipeline")) add(setup.parallelism, "nxd-pp", at);
    if (imp.target.starts_with("neuronx_distributed.parallel_layers")) add(setup.parallelism, "nxd-tp", at);
    if (imp.target.starts_with("torch_xla.distributed.spmd")) add(setup.parallelism, "xla-spmd", at);
    if (imp.target.starts_with("optimum.neuron")) add(setup.frameworks, "optimum-neuron", at);
  }
}

template <class Pick>
void assigns_of(const facts::FileFacts& file, TrainingSetup&, TrainingSetup&, const Pick& pick) {
  for (const auto& assign : file.assigns) {
    const std::string name = to_lower(assign.target.empty() ? assign.target_text : assign.target.dotted());
    if (name.find("dtype") == std::string::npos && name.find("precision") == std::string::npos) continue;
    precision_of_value(arg_text(assign.value), pick(assign.ctx), where(file, assign.at.line));
  }
}

}  // namespace

void collect_setup(const facts::FileFacts& file, TrainingSetup& setup, TrainingSetup& elsewhere,
                   const TrainingPath& on_training_path) {
  if (file.is_test) return;
  const auto pick = [&](const facts::Context& ctx) -> TrainingSetup& {
    return !on_training_path || on_training_path(ctx) ? setup : elsewhere;
  };
  const bool file_saves = std::any_of(file.calls.begin(), file.calls.end(), [](const facts::CallFact& c) {
    return any_glob(c.callee.dotted(), {"torch.save", "torch_xla.core.xla_model.save", "*.save_checkpoint"}) ||
           c.method == "save";
  });
  for (const auto& call : file.calls) {
    const std::string callee = call.callee.dotted();
    const Place at(file, call.at.line);
    TrainingSetup& into = pick(call.ctx);
    fine_tuning_call(call, callee, into, at);
    model_family_call(call, callee, into, at);
    precision_call(call, callee, into, at);
    parallelism_call(callee, into, at);
    checkpoint_call(call, callee, file_saves, into, at);
    framework_call(callee, into, at);
  }
  imports_of(file, setup, elsewhere, pick);
  assigns_of(file, setup, elsewhere, pick);
  for (const auto& loop : file.loops) {
    facts::Context ctx;
    ctx.function = loop.function;
    if (loop.calls_backward) add(pick(ctx).frameworks, "plain-pytorch", where(file, loop.at.line));
  }
}

void collect_setup(const facts::FileFacts& file, TrainingSetup& setup) {
  TrainingSetup unused;
  collect_setup(file, setup, unused, {});
}

void finalize_setup(TrainingSetup& setup, TrainingSetup elsewhere, bool training_path_known) {
  const auto fields = [](TrainingSetup& s) {
    return std::array<std::vector<SetupFact>*, 6>{&s.fine_tuning, &s.model_family,  &s.precision,
                                                  &s.parallelism, &s.checkpointing, &s.frameworks};
  };
  const auto merge = [](std::vector<SetupFact>& facts) {
    std::vector<SetupFact> merged;
    for (auto& fact : facts) {
      for (const auto& ev : fact.evidence) add(merged, fact.value, ev);
      if (fact.evidence.empty()) add(merged, fact.value, "");
    }
    for (auto& fact : merged) std::erase(fact.evidence, std::string());
    facts = std::move(merged);
  };
  const auto has = [](const std::vector<SetupFact>& facts, std::string_view value) {
    return std::any_of(facts.begin(), facts.end(), [&](const auto& f) { return f.value == value; });
  };
  // Where there is a training path, the setup is its own: a chat demo's or an export script's places are
  // no evidence of how the run trains.
  if (training_path_known) elsewhere = {};
  const auto on_path = fields(setup);
  const auto off_path = fields(elsewhere);
  for (std::size_t i = 0; i < on_path.size(); ++i) merge(*on_path[i]);
  // A model the training path builds from its own config is the family ("custom", below); an export
  // script's from_pretrained elsewhere does not name it.
  const bool builds_own_model = setup.model_family.empty() && has(setup.fine_tuning, "pretraining");
  for (std::size_t i = 0; i < on_path.size(); ++i) {
    std::vector<SetupFact>& facts = *on_path[i];
    // A repo without a training entry point is judged by all its code: the other code fills the fields the
    // path leaves empty and adds places to the values it shows (cited after the path's, each in path order,
    // at most three).
    const bool fillable = facts.empty() && !(builds_own_model && &facts == &setup.model_family);
    merge(*off_path[i]);
    for (auto& other : *off_path[i]) {
      auto it = std::find_if(facts.begin(), facts.end(), [&](const SetupFact& f) { return f.value == other.value; });
      if (it == facts.end() && !fillable) continue;
      if (it == facts.end()) it = facts.insert(facts.end(), SetupFact{other.value, {}});
      for (auto& ev : other.evidence) {
        if (it->evidence.size() < k_max_evidence &&
            std::find(it->evidence.begin(), it->evidence.end(), ev) == it->evidence.end())
          it->evidence.push_back(std::move(ev));
      }
    }
    std::sort(facts.begin(), facts.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
  }
  // Adapters train a loaded model: it is not a full fine-tune.
  if (has(setup.fine_tuning, "lora") || has(setup.fine_tuning, "qlora")) {
    std::erase_if(setup.fine_tuning, [](const auto& f) { return f.value == "full"; });
  }
  if (has(setup.fine_tuning, "qlora"))
    std::erase_if(setup.fine_tuning, [](const auto& f) { return f.value == "lora"; });
  // A trainer framework owns the loop: a hand-written loop next to it is not the training path.
  if (has(setup.frameworks, "hf-trainer") || has(setup.frameworks, "lightning") ||
      has(setup.frameworks, "optimum-neuron")) {
    std::erase_if(setup.frameworks, [](const auto& f) { return f.value == "plain-pytorch"; });
  }
  if (setup.model_family.empty()) {
    for (const auto& fact : setup.fine_tuning) {
      if (fact.value == "pretraining") setup.model_family.push_back(SetupFact{"custom", fact.evidence});
    }
  }
}

}  // namespace tr2audit::score
