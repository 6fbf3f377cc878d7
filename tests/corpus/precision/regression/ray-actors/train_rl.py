import ray
from vllm import LLM, SamplingParams

from rl.controller import Controller
from rl.workers import PolicyWorker, RewardWorker


def rollout(engine, prompts):
    return engine.generate(prompts, SamplingParams(max_tokens=64))


def main():
    ray.init()
    actors = [PolicyWorker.options(num_cpus=4).remote(rank) for rank in range(2)]
    ray.get([actor.init_model.remote("llama") for actor in actors])
    engine = LLM("llama")
    for prompts in [["a"], ["b"]]:
        batch = rollout(engine, prompts)
        ray.get([actor.train_step.remote(batch) for actor in actors])
        ray.get([actor.sync_weights.remote(False) for actor in actors])
    reward = RewardWorker.remote("reward-model")
    ray.get(reward.backload_to_gpu.remote())
    ray.get(reward.score.remote(batch))
    controller = Controller.remote(actors)
    ray.get(controller.training_step.remote(batch))


if __name__ == "__main__":
    main()
