import torch
from torch_utils.ops.bias_act import bias_act
from torch_utils.ops.fused import fused_scale


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return fused_scale(bias_act(self.fc(x), torch.zeros(8)), 0.5)


def main():
    net = Net()
    opt = torch.optim.Adam(net.parameters())
    for _ in range(10):
        loss = net(torch.randn(4, 8)).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
