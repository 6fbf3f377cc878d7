# A benchmark: its own setup is tooling code; the library function it times is what users train with.
import time

import torch

from kernels.scan import scan_fwd_reference


def main() -> None:
    x = torch.randn(64, 1024, device="cuda")
    start = time.perf_counter()
    scan_fwd_reference(x)
    print(f"{time.perf_counter() - start:.4f}s")


if __name__ == "__main__":
    main()
