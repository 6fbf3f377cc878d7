import deepspeed
import torch
from deepspeed.pipe import PipelineModule


def setup_model_and_optimizer(model: torch.nn.Module, ds_config: dict, pipe_parallel: bool):
    if pipe_parallel:
        model = PipelineModule(layers=list(model.children()), num_stages=2)
    # expect: cuda-library.deepspeed-engine
    engine, optimizer, _, scheduler = deepspeed.initialize(
        model=model,
        model_parameters=model.parameters(),
        config=ds_config,
    )
    return engine, optimizer, scheduler


def train(engine, loader, steps: int):
    for _, batch in zip(range(steps), loader):
        loss = engine(batch).mean()
        engine.backward(loss)
        engine.step()


def plain_setup(model: torch.nn.Module):
    # ok: cuda-library.deepspeed-engine
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    # ok: cuda-library.deepspeed-engine
    initialize = dict(seed=1234)
    return optimizer, initialize


class NeoXArgs:
    deepspeed: bool = True  # the engine is the default; the branch below is no opt-in
    use_deepspeed_inference: bool = False


def setup_from_args(neox_args: NeoXArgs, model: torch.nn.Module):
    if neox_args.deepspeed:
        # expect-high: cuda-library.deepspeed-engine
        model, optimizer, _, _ = deepspeed.initialize(model=model, args=neox_args)
    if neox_args.use_deepspeed_inference:
        # expect-low: cuda-library.deepspeed-engine
        model, _, _, _ = deepspeed.initialize(model=model, config={"train_batch_size": 1})
    return model
