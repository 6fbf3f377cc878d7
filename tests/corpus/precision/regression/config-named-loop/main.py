import importlib

import torch

from configs.captioner import Captioner


def main():
    config = Captioner()
    model = torch.nn.Bilinear(64, 64, 1).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr)
    scaler = torch.cuda.amp.GradScaler()
    engine = importlib.import_module("training.engine")
    run = getattr(engine, config.engine)
    run(model, iter(torch.load("batches.pt", map_location="cpu")), optimizer, scaler, config.total_steps)


if __name__ == "__main__":
    main()
