import torch

from trainer import Denoiser, DenoiserTrainer


def main():
    trainer = DenoiserTrainer(Denoiser())
    for step in range(1000):
        images = torch.randn(16, 32)
        loss = trainer(images, max_batch_size=8)
        trainer.update()
        if step % 100 == 0:
            print(step, loss)


if __name__ == "__main__":
    main()
