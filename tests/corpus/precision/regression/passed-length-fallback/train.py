import torch
from torch.utils.data import DataLoader

from vlm.collate import TrainCollator
from vlm.collate_eval import PaddingCollator
from vlm.config import EvalConfig, VLMConfig


def main(dataset, aux_dataset):
    cfg = VLMConfig()
    eval_cfg = EvalConfig()
    model = torch.nn.Embedding(32000, cfg.hidden)
    optimizer = torch.optim.AdamW(model.parameters())
    loader = DataLoader(dataset, batch_size=8, collate_fn=TrainCollator(0, cfg.lm_max_length), drop_last=True)
    aux_loader = DataLoader(aux_dataset, batch_size=8, collate_fn=PaddingCollator(0, eval_cfg.max_length), drop_last=True)
    for batch, aux in zip(loader, aux_loader):
        loss = model(batch["input_ids"]).mean() + model(aux["input_ids"]).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([], [])
