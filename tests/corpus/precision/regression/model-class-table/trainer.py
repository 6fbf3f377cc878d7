"""A trainer that builds the model named by its config through a table of classes."""
import torch

from models import LlamaForTraining, QwenForTraining

CONFIG_TO_MODEL_CLASS = {
    "LlamaConfig": LlamaForTraining,
    "Qwen2Config": QwenForTraining,
}


class Trainer:
    def __init__(self, config):
        self.config = config
        self.model = self._init_model(
            lambda: CONFIG_TO_MODEL_CLASS[config.__class__.__name__](config=config)
        )
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=3e-4)

    def _init_model(self, builder):
        return builder().to("cuda")

    def train(self, batches):
        for batch in batches:
            loss = self.model(batch["input_ids"], batch["labels"])
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()


if __name__ == "__main__":
    from config import load_config

    Trainer(load_config()).train([])
