import torch
from transformers import Trainer


class RolloutTrainer(Trainer):
    """On-policy RL: every training step generates completions, scores them and trains on them."""

    def __init__(self, *args, reward_fn=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.reward_fn = reward_fn
        self._metrics = {"reward": [], "length": []}

    def _prepare_inputs(self, batch):
        return self._generate_and_score(batch)

    def _generate_and_score(self, batch):
        completions = self._generate(batch["input_ids"], batch["attention_mask"])
        rewards = self.reward_fn(completions)
        if torch.isnan(rewards).all(dim=-1).any():
            bad = torch.isnan(rewards).nonzero(as_tuple=True)[0]
            print(f"reward functions returned NaN for rows {bad.tolist()}")
        self._metrics["reward"].append(rewards.mean().item())
        return {"input_ids": completions, "rewards": rewards}

    @torch.no_grad()
    def _generate(self, input_ids, attention_mask):
        return self.model.generate(input_ids=input_ids, attention_mask=attention_mask, max_new_tokens=64)

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        logits = model(input_ids=inputs["input_ids"]).logits
        logp = torch.log_softmax(logits, dim=-1).amax(dim=-1).sum(dim=-1)
        return -(logp * inputs["rewards"]).mean()
