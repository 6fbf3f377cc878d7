import torch
from transformers import AutoModelForCausalLM, Trainer, TrainerCallback, TrainingArguments

from adaptlib import pick_target_layers


def run_experiment(name):
    model = AutoModelForCausalLM.from_pretrained(name)
    targets = pick_target_layers(model)
    args = TrainingArguments(output_dir="out-" + name)
    trainer = Trainer(model=model, args=args)
    probe = torch.tensor([[1, 2, 3]])

    class AccuracyCallback(TrainerCallback):
        def on_evaluate(self, args, state, control, model=None, **kwargs):
            logits = model(probe).logits
            correct = (logits.argmax(-1) == probe).sum().item()
            state.log_history.append({"probe_acc": correct})

        def on_step_end(self, args, state, control, model=None, **kwargs):
            norm = model.lm_head.weight.norm().item()
            state.log_history.append({"head_norm": norm})

    trainer.add_callback(AccuracyCallback)
    trainer.train()
    del trainer
    torch.cuda.synchronize()
    return targets


if __name__ == "__main__":
    run_experiment("some/model")
