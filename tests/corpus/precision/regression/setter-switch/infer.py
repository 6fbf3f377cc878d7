import torch

from attention import Block


@torch.inference_mode()
def main():
    model = Block(512).eval()
    model.set_use_xformers(True)
    latents = torch.load("latents.pt", map_location="cpu")
    print(model(latents).shape)


if __name__ == "__main__":
    main()
