"""GRPO rollouts generated with vLLM."""
# expect: cuda-library.vllm-import
from vllm import LLM, SamplingParams
# expect: cuda-library.vllm-import
from vllm.distributed.parallel_state import destroy_model_parallel

try:
    # ok: cuda-library.vllm-import
    import vllm
except ImportError:
    vllm = None

# ok: cuda-library.vllm-import
from transformers import AutoModelForCausalLM


def generate(prompts, model_path):
    llm = LLM(model=model_path, gpu_memory_utilization=0.5)
    return llm.generate(prompts, SamplingParams(temperature=1.0, max_tokens=512))
