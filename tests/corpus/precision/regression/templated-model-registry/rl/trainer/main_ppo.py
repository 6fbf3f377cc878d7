import hydra
import ray


@hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
def main(config):
    if config.actor.strategy == "fsdp":
        from rl.workers.fsdp_workers import ActorWorker
    elif config.actor.strategy == "megatron":
        from rl.workers.megatron_workers import ActorWorker
    else:
        raise NotImplementedError
    worker = ray.remote(ActorWorker).remote(config)
    for batch in range(10):
        ray.get(worker.update_actor.remote(batch))


if __name__ == "__main__":
    main()
