import hydra
import torch


@hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
def main(config):
    run_ppo(config)


def run_ppo(config):
    if config.actor_rollout_ref.actor.strategy == "megatron":
        import apex  # noqa: F401  (Megatron's fused kernels)
    if config.actor_rollout_ref.rollout.name == "vllm":
        import vllm  # noqa: F401
    if config.reward_model.enable:
        torch.cuda.set_device(0)
    model = torch.nn.Linear(8, 8)
    optimizer = torch.optim.AdamW(model.parameters())
    for step in range(config.trainer.total_epochs):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
