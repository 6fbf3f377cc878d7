import argparse

import torch
from torch import nn

from patches import patch_kernels, patch_moe_experts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quantize_experts", action="store_true")
    parser.add_argument("--target_expert_params", action="store_true")
    parser.add_argument("--fused_moe", action="store_true")
    parser.add_argument("--compile_kernels", type=bool, default=True)
    cfg = parser.parse_args()
    model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 64))
    model = patch_kernels(patch_moe_experts(model, cfg), cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(100):
        loss = model(torch.randn(8, 64)).pow(2).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
