import torch

from model import Model


def enable_fast_kernels():
    # expect: cuda-extension.lock-in-call
    import mylib.warmup  # noqa: F401


def enable_portable_kernels():
    # ok: cuda-extension.lock-in-call
    import mylib.portable  # noqa: F401


def main():
    enable_fast_kernels()
    enable_portable_kernels()
    model = Model(64, 4)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(100):
        x = torch.randn(8, 64)
        # ok: cuda-extension.lock-in-call
        loss = model(x)
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    main()
