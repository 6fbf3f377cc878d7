from vllm import LLM


def engine_for(name):
    return LLM(model=name, tensor_parallel_size=1)
