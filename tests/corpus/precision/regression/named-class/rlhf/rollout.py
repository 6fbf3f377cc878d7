from vllm import LLM, SamplingParams


def generate_rollouts(model_path, prompts, max_tokens=256):
    llm = LLM(model=model_path, worker_extension_cls="rlhf.weight_sync.WeightSyncExtension")
    outputs = llm.generate(prompts, SamplingParams(max_tokens=max_tokens))
    return [o.outputs[0].text for o in outputs]
