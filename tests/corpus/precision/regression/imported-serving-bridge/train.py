import torch

from rl.workers.fsdp_workers import ActorWorker


def main(model, engine, batches):
    worker = ActorWorker(model, engine)
    for batch in batches:
        worker.update_actor(batch)


if __name__ == "__main__":
    main(torch.nn.Linear(8, 8), None, [torch.randn(4, 8) for _ in range(10)])
