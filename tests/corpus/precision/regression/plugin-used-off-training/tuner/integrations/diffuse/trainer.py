import torch
from transformers import Trainer


class DiffuseTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        mask = inputs["labels"] != -100
        noised = torch.where(mask, inputs["input_ids"], 0)
        logits = model(input_ids=noised).logits
        loss = torch.nn.functional.cross_entropy(logits[mask], inputs["labels"][mask])
        self.log({"masked_tokens": mask.sum().item()})
        return loss
