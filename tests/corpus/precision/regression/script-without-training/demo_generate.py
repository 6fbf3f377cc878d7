import torch

from lib.model import TinyLM


def main():
    model = TinyLM().to("cuda")
    prompt = torch.randint(0, 128, (1, 4), device="cuda")
    print(model.generate(prompt))


if __name__ == "__main__":
    main()
