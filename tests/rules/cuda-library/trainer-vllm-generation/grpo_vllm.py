"""GRPO on math prompts with TRL; rollouts come from a vLLM server started with `trl vllm-serve`."""
from trl import GRPOConfig, GRPOTrainer


def build(model, dataset, reward_funcs, args):
    # expect: cuda-library.trainer-vllm-generation
    config = GRPOConfig(output_dir=args.out, num_generations=8, use_vllm=True, vllm_mode="server")
    return GRPOTrainer(model=model, reward_funcs=reward_funcs, args=config, train_dataset=dataset)


def build_local(model, dataset, reward_funcs, args):
    # ok: cuda-library.trainer-vllm-generation
    config = GRPOConfig(output_dir=args.out, num_generations=8, use_vllm=False)
    return GRPOTrainer(model=model, reward_funcs=reward_funcs, args=config, train_dataset=dataset)


def build_switchable(model, dataset, reward_funcs, args):
    # ok: cuda-library.trainer-vllm-generation
    config = GRPOConfig(output_dir=args.out, use_vllm=args.vllm)
    return GRPOTrainer(model=model, reward_funcs=reward_funcs, args=config, train_dataset=dataset)
