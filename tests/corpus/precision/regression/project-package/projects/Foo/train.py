import torch
from foopkg.engine import setup_device, train_loop
from unsloth.kernels import fast_cross_entropy


def main():
    device = setup_device(0)
    model = torch.nn.Linear(8, 8).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loop(model, [torch.zeros(2, 8)], optimizer)
    print(fast_cross_entropy)


if __name__ == "__main__":
    main()
