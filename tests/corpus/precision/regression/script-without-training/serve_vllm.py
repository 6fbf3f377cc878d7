from vllm import LLM, SamplingParams


def serve(prompts):
    llm = LLM(model="tiny-lm")
    return llm.generate(prompts, SamplingParams(max_tokens=32))


if __name__ == "__main__":
    print(serve(["hello"]))
