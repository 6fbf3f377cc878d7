import torch


class Runner:
    def __init__(self, dtype=torch.float16):
        # Another option of the same name (a class parameter) is not the command line's.
        self.dtype = dtype


def main():
    dtype = "float16"
    model = torch.nn.Linear(16, 16).to("cuda")
    optimizer = torch.optim.AdamW(model.parameters())
    scaler = torch.cuda.amp.GradScaler(enabled=(dtype == "float16"))
    for step in range(10):
        loss = model(torch.randn(4, 16, device="cuda")).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


if __name__ == "__main__":
    main()
