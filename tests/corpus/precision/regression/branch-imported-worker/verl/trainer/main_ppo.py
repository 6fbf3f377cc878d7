import hydra
import ray


class RayTrainer:
    def __init__(self, config, role_worker_mapping):
        self.config = config
        self.actor_wg = role_worker_mapping["actor"]
        self.use_rm = "rm" in role_worker_mapping
        if self.use_rm:
            self.rm_wg = role_worker_mapping["rm"]

    def fit(self, batches):
        for batch in batches:
            if self.use_rm:
                batch = batch + self.rm_wg.compute_rm_score(batch)
            self.actor_wg.update_actor(batch)


@hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
def main(config):
    ray.get(main_task.remote(config))


@ray.remote
def main_task(config):
    from verl.workers.fsdp_workers import ActorWorker

    role_worker_mapping = {"actor": ray.remote(ActorWorker)}
    if config.reward_model.enable:
        if config.reward_model.strategy == "fsdp":
            from verl.workers.fsdp_workers import RewardModelWorker
        elif config.reward_model.strategy == "megatron":
            from verl.workers.megatron_workers import RewardModelWorker
        else:
            raise NotImplementedError
        role_worker_mapping["rm"] = ray.remote(RewardModelWorker)
    RayTrainer(config, role_worker_mapping).fit([])


if __name__ == "__main__":
    main()
