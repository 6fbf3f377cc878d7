import torch

from extlib.env import collect_env_info
from extlib.ops import fused_bias_gelu


def main():
    print(collect_env_info())
    weight = torch.nn.Parameter(torch.randn(8, 8))
    bias = torch.nn.Parameter(torch.zeros(8))
    optimizer = torch.optim.SGD([weight, bias], lr=0.1)
    for x in [torch.randn(4, 8)]:
        loss = fused_bias_gelu(x @ weight, bias).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
