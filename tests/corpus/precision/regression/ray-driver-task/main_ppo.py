import ray
import torch

from metrics import compute_data_metrics
from worker import ActorWorker


class PPOTrainer:
    def __init__(self, steps):
        self.steps = steps
        self.worker = ActorWorker.remote()

    def fit(self):
        for _ in range(self.steps):
            batch = {
                "inputs": torch.randn(8, 256),
                "scores": torch.randn(8, 32),
                "mask": torch.rand(8, 32) > 0.5,
            }
            out = ray.get(self.worker.update_policy.remote(batch))
            print(compute_data_metrics(out))


class TaskRunner:
    def run(self, steps):
        PPOTrainer(steps).fit()


@ray.remote
def main_task(steps):
    PPOTrainer(steps).fit()


def main(steps=1000, split=False):
    ray.init()
    if split:
        ray.get(main_task.remote(steps))
    else:
        runner = ray.remote(num_cpus=1)(TaskRunner).remote()
        ray.get(runner.run.remote(steps))


if __name__ == "__main__":
    main()
