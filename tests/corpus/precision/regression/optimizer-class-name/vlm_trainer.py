"""A Trainer subclass that gives the projector its own learning rate (LLaVA-style)."""
from torch import nn
from transformers import Trainer


class ProjectorTrainer(Trainer):
    def create_optimizer(self):
        if self.optimizer is None:
            groups = [
                {"params": [p for n, p in self.model.named_parameters() if "projector" not in n]},
                {"params": [p for n, p in self.model.named_parameters() if "projector" in n], "lr": 2e-5},
            ]
            optimizer_cls, optimizer_kwargs = Trainer.get_optimizer_cls_and_kwargs(self.args)
            self.optimizer = optimizer_cls(groups, **optimizer_kwargs)
            if optimizer_cls.__name__ == "Adam8bit":
                import bitsandbytes

                manager = bitsandbytes.optim.GlobalOptimManager.get_instance()
                for module in self.model.modules():
                    if isinstance(module, nn.Embedding):
                        manager.register_module_override(module, "weight", {"optim_bits": 32})
        return self.optimizer
