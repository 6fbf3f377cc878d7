import ray
from vllm import SamplingParams

from lib.workers import TrainingWorker


def main():
    worker = ray.remote(TrainingWorker).remote()
    params = SamplingParams(max_tokens=64)
    return worker, params


if __name__ == "__main__":
    main()
