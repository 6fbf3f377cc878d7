// pilot/checks: the fixed rules a platform team runs a Trainium2 trial under, checked against the
// repo: a pinned Neuron version and container, a compile-cache location, a checkpoint with a resume
// path, and step and recovery points in the logs. Sources: ../shared/research/neuron-facts.md e.3
// (NEURON_CC_FLAGS --cache_dir, NEURON_COMPILE_CACHE_URL) and neuron-facts-2026-12.md F2.11, F2.20
// (the XLA training DLC is no longer published from 2.31; TorchDynamo caching and
// torch.compiler.save_cache_artifacts, TORCH_NEURONX_NEFF_CACHE_DIR for native TorchNeuron).
#include "pilot/checks.hpp"

#include <algorithm>

#include "tr2audit/core/qualified_name.hpp"
#include "tr2audit/core/text.hpp"

namespace tr2audit::pilot::detail {
namespace {

constexpr std::size_t k_max_where = 3;
constexpr std::string_view k_neuron_packages[] = {"torch-neuronx",  "neuronx-cc",   "neuronx-distributed",
                                                  "optimum-neuron", "libneuronxla", "neuronx-distributed-training"};

void note(std::vector<std::string>& where, std::string at) {
  if (where.size() < k_max_where && std::find(where.begin(), where.end(), at) == where.end())
    where.push_back(std::move(at));
}

bool pinned(std::string_view spec) {
  return spec.find("==") != std::string_view::npos || spec.find("===") != std::string_view::npos;
}

PlatformCheck version_pinned(const program::CodeRoles& program) {
  PlatformCheck check{"neuron-version-pinned", CheckStatus::fail, "", {}};
  std::vector<std::string> loose;
  for (const auto& file : program.files()) {
    for (const auto& dep : file.dependencies) {
      if (std::find(std::begin(k_neuron_packages), std::end(k_neuron_packages), dep.name) ==
          std::end(k_neuron_packages))
        continue;
      const std::string at = file.path + ":" + std::to_string(dep.at.line);
      if (pinned(dep.spec)) {
        note(check.where, at);
        check.status = CheckStatus::pass;
      } else {
        note(loose, at + " (" + dep.spec + ")");
      }
    }
  }
  if (check.status == CheckStatus::pass) {
    check.detail = "Neuron packages pinned with ==";
    if (!loose.empty()) check.detail += "; unpinned elsewhere: " + loose.front();
  } else if (!loose.empty()) {
    check.detail = "Neuron packages declared without an exact version: " + loose.front() +
                   "; pin torch-neuronx and neuronx-cc with == so both runs use one SDK";
  } else {
    check.detail =
        "no torch-neuronx / neuronx-cc pin in requirements, pyproject or Dockerfiles: name the Neuron "
        "SDK version (e.g. 2.34) the trial runs on";
  }
  return check;
}

bool cuda_image(const std::string& image) {
  return image.find("nvidia/") != std::string::npos || image.find("cuda") != std::string::npos ||
         image.find("pytorch/pytorch") != std::string::npos || image.find("nvcr.io") != std::string::npos;
}

PlatformCheck container_base(const program::CodeRoles& program) {
  PlatformCheck check{"container-base", CheckStatus::unknown, "", {}};
  std::string cuda, neuron;
  for (const auto& file : program.files()) {
    for (const auto& dep : file.dependencies) {
      if (dep.section != "docker-from") continue;
      const std::string at = file.path + ":" + std::to_string(dep.at.line);
      if (dep.name.find("neuron") != std::string::npos) {
        if (neuron.empty()) neuron = dep.spec + " (" + at + ")";
        note(check.where, at);
      } else if (cuda_image(dep.name)) {
        if (cuda.empty()) cuda = dep.spec + " (" + at + ")";
        note(check.where, at);
      }
    }
  }
  if (!neuron.empty()) {
    check.status = CheckStatus::pass;
    check.detail = "FROM a Neuron image: " + neuron;
    if (neuron.find("pytorch-training-neuronx") != std::string::npos)
      check.detail +=
          "; the PyTorch/XLA training DLC is no longer published from Neuron 2.31 (neuron-facts-2026-12 F2.11)";
  } else if (!cuda.empty()) {
    check.status = CheckStatus::fail;
    check.detail = "FROM a CUDA base image: " + cuda + "; the trial needs a Neuron container with a pinned SDK";
  } else {
    check.detail = "no Dockerfile with a CUDA or Neuron base image: name the container the trial runs in";
  }
  return check;
}

constexpr std::string_view k_cache_names[] = {"NEURON_COMPILE_CACHE_URL", "TORCH_NEURONX_NEFF_CACHE_DIR",
                                              "NEURON_CC_FLAGS"};

/// NEURON_CC_FLAGS counts only with --cache_dir in it.
bool cache_setting(std::string_view name, std::string_view value) {
  for (std::string_view cache : k_cache_names) {
    if (name != cache) continue;
    return cache != "NEURON_CC_FLAGS" || value.find("cache_dir") != std::string_view::npos;
  }
  return false;
}

PlatformCheck compile_cache(const program::CodeRoles& program) {
  PlatformCheck check{"compile-cache", CheckStatus::fail, "", {}};
  for (const auto& file : program.files()) {
    if (file.is_test) continue;
    for (const auto& dep : file.dependencies) {
      if (dep.section == "docker-env" && cache_setting(dep.name, dep.spec)) note(check.where, where(file, dep.at.line));
    }
    for (const auto& assign : file.assigns) {
      const std::string target = assign.target.dotted();
      if (starts_with(target, "os.environ.") && cache_setting(target.substr(11), assign.value.value))
        note(check.where, where(file, assign.at.line));
    }
    for (const auto& call : file.calls) {
      const std::string callee = call.callee.dotted();
      const bool artifacts =
          callee == "torch.compiler.save_cache_artifacts" || callee == "torch.compiler.load_cache_artifacts";
      const bool env_call = call.method == "setdefault" || call.method == "update" || call.method == "putenv";
      const bool env_set = env_call && call.args.size() >= 2 && cache_setting(call.args[0].value, call.args[1].value);
      if (artifacts || env_set) note(check.where, where(file, call.at.line));
    }
  }
  if (!check.where.empty()) {
    check.status = CheckStatus::pass;
    check.detail = "a compile-cache location is set";
    return check;
  }
  check.detail =
      "no compile-cache location: set NEURON_CC_FLAGS=\"--cache_dir=...\" or NEURON_COMPILE_CACHE_URL "
      "(XLA stack), or TORCH_NEURONX_NEFF_CACHE_DIR and torch.compiler.save_cache_artifacts() (native "
      "TorchNeuron) on persistent storage with an expiry rule, and keep it between CI runs";
  return check;
}

bool has_value(const std::vector<report::SetupFact>& facts, std::initializer_list<std::string_view> values) {
  return std::any_of(facts.begin(), facts.end(), [&](const report::SetupFact& fact) {
    return std::find(values.begin(), values.end(), fact.value) != values.end();
  });
}

PlatformCheck checkpoint_resume(const PilotInput& input, const SettingTable& table) {
  PlatformCheck check{"checkpoint-resume", CheckStatus::fail, "", {}};
  const auto& facts = input.setup.checkpointing;
  for (const auto& fact : facts) {
    if (!fact.evidence.empty()) note(check.where, fact.evidence.front());
  }
  const bool saves =
      has_value(facts, {"save-pretrained", "optimizer-state", "sharded", "xser"}) ||
      input.setup.frameworks.end() != std::find_if(input.setup.frameworks.begin(), input.setup.frameworks.end(),
                                                   [](const auto& f) { return f.value == "hf-trainer"; });
  const bool resumes = has_value(facts, {"resume"});
  std::string location;
  for (std::string_view key : {"output_dir", "out_dir", "checkpoint_dir", "save_dir"}) {
    for (const auto& setting : table.settings) {
      const bool text = setting.kind == facts::LiteralKind::string || setting.kind == facts::LiteralKind::other;
      if (setting.key == key && location.empty() && text && !setting.value.empty())
        location = std::string(key) + " = \"" + setting.value + "\" (" + setting.where + ")";
    }
  }
  check.status = saves && resumes ? CheckStatus::pass : CheckStatus::fail;
  check.detail = saves && resumes ? "checkpoints are written and a resume path exists"
                 : saves          ? "checkpoints are written but no resume path was found (resume_from_checkpoint, "
                                    "optimizer load_state_dict): a trial cannot continue after a failure"
                                  : "no checkpoint write was found: add periodic checkpoints with optimizer state";
  check.detail += location.empty() ? "; checkpoint location not found" : "; location " + location;
  return check;
}

PlatformCheck step_logging(const std::vector<LoggedField>& logged) {
  PlatformCheck check{"step-logging", CheckStatus::fail, "", {}};
  std::vector<std::string> missing;
  for (const auto& field : logged) {
    if (field.where.empty())
      missing.push_back(field.record_field);
    else
      note(check.where, field.where.front());
  }
  const auto is_logged = [&](std::string_view name) {
    return std::find(missing.begin(), missing.end(), name) == missing.end();
  };
  check.status = is_logged("loss") && is_logged("step") ? CheckStatus::pass : CheckStatus::fail;
  check.detail = check.status == CheckStatus::pass ? "loss and step are logged" : "loss and step are not both logged";
  if (!missing.empty()) {
    check.detail += "; not logged yet:";
    for (const auto& name : missing) check.detail += " " + name;
  }
  return check;
}

struct LogWord {
  std::string_view field;
  std::vector<std::string_view> words;
};
const std::vector<LogWord>& log_words() {
  static const std::vector<LogWord> k_words{
      {"loss", {"loss"}},
      {"step", {"step", "iter", "global_step"}},
      {"learning_rate", {"lr", "learning_rate"}},
      {"throughput", {"tokens/s", "tok/s", "samples/s", "it/s", "throughput", "mfu", "tokens_per_sec", "{dt"}},
      {"eval", {"val_loss", "eval", "val ", "valid", "accuracy", "perplexity"}},
      {"checkpoint", {"checkpoint", "saving", "saved", "resum"}},
  };
  return k_words;
}

bool log_call(const facts::CallFact& call) {
  const std::string callee = call.callee.dotted();
  const std::string_view m = call.method;
  return call.callee_text == "print" || m == "log" || m == "info" || m == "log_dict" || m == "add_scalar" ||
         m == "set_postfix" || m == "write" || starts_with(callee, "wandb.log") || starts_with(callee, "logging.") ||
         callee == "print";
}

}  // namespace

std::vector<LoggedField> logged_fields(const PilotInput& input, const SettingTable& table) {
  std::vector<LoggedField> out;
  for (const auto& word : log_words()) out.push_back(LoggedField{std::string(word.field), {}});
  const auto& files = input.program.files();
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    for (const auto& call : files[i].calls) {
      if (!log_call(call) || !on_training_side(input.program, program::FileId{i}, call.ctx)) continue;
      const auto roles = input.program.roles_at(program::FileId{i}, call.ctx);
      if (!roles.test(static_cast<std::size_t>(program::Role::training_step)) &&
          !roles.test(static_cast<std::size_t>(program::Role::training_eval)))
        continue;
      std::string text;
      for (const auto& arg : call.args) text += " " + to_lower(arg.keyword) + " " + to_lower(arg.value);
      for (std::size_t w = 0; w < log_words().size(); ++w) {
        for (std::string_view word : log_words()[w].words) {
          if (text.find(word) != std::string::npos) note(out[w].where, where(files[i], call.at.line));
        }
      }
    }
  }
  // The Hugging Face Trainer logs loss, step and learning rate every logging_steps (default 500).
  for (const auto& setting : table.settings) {
    if (setting.key != "logging_steps") continue;
    for (std::size_t w = 0; w < 3; ++w) note(out[w].where, setting.where);
  }
  for (const auto& framework : input.setup.frameworks) {
    if (framework.value != "hf-trainer" || framework.evidence.empty()) continue;
    for (std::size_t w = 0; w < 3; ++w) note(out[w].where, framework.evidence.front());
  }
  return out;
}

std::vector<PlatformCheck> platform_checks(const PilotInput& input, const SettingTable& table,
                                           const std::vector<LoggedField>& logged) {
  std::vector<PlatformCheck> out;
  out.push_back(version_pinned(input.program));
  out.push_back(container_base(input.program));
  out.push_back(compile_cache(input.program));
  out.push_back(checkpoint_resume(input, table));
  out.push_back(step_logging(logged));
  return out;
}

}  // namespace tr2audit::pilot::detail
