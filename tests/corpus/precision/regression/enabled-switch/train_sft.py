import argparse

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dtype", type=str, default="bfloat16", help="float16 or bfloat16")
    parser.add_argument("--use_amp", action="store_true")
    args = parser.parse_args()
    model = torch.nn.Linear(16, 16).to("cuda")
    optimizer = torch.optim.AdamW(model.parameters())
    # A pass-through unless --dtype float16 is given.
    scaler = torch.cuda.amp.GradScaler(enabled=(args.dtype == "float16"))
    for step in range(10):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(torch.randn(4, 16, device="cuda")).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


if __name__ == "__main__":
    main()
