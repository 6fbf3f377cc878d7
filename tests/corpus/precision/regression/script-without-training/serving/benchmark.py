import time

from vllm import LLM, SamplingParams


def benchmark(prompts):
    llm = LLM(model="tiny-lm")
    started = time.time()
    llm.generate(prompts, SamplingParams(max_tokens=64))
    return time.time() - started


if __name__ == "__main__":
    print(benchmark(["hello"] * 64))
