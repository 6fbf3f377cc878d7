import torch

from adapters.integrations import gather_params_ctx


def offload_to_cpu(model, offload: bool = False):
    if not offload:
        return model
    return model.cpu()


def main():
    model = torch.nn.Linear(8, 8)
    with gather_params_ctx(model.weight):
        model.weight.data.normal_()
    model = offload_to_cpu(model)
    optimizer = torch.optim.AdamW(model.parameters())
    for x in [torch.randn(4, 8)]:
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        import deepspeed  # noqa: F401  (a plain import on the step path stays high)


if __name__ == "__main__":
    main()
