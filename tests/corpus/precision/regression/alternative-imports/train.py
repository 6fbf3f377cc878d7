import torch
from torch import nn


def apply_patches(model_type):
    # Patches requiring CUDA: the two model families bind the same name to their own patch.
    if torch.cuda.is_available():
        if model_type == "unified":
            from pkg.patches.unified import patch_unified_attn as patch_attn
        else:
            from pkg.patches.plain import patch_plain_attn as patch_attn
        patch_attn(nn.Linear)
    # Not behind the check: every run patches the norm.
    from pkg.patches.plain import patch_norm

    patch_norm(nn.Linear)


def main():
    apply_patches("unified")
    model = nn.Linear(4, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        loss = model(torch.randn(2, 4)).sum()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
