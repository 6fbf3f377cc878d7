"""Serving throughput of a fine-tuned checkpoint with vLLM (a benchmark script, no package)."""
import time

from vllm import LLM, SamplingParams


def main():
    llm = LLM(model="out/checkpoint")
    start = time.time()
    llm.generate(["Hello"] * 64, SamplingParams(max_tokens=128))
    print(f"{64 / (time.time() - start):.1f} requests/s")


if __name__ == "__main__":
    main()
