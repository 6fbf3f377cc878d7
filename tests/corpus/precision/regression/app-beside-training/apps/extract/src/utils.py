from vllm import LLM, SamplingParams


def load_engine(model_id):
    return LLM(model=model_id)


def extract(engine, prompts):
    return engine.generate(prompts, SamplingParams(max_tokens=256))
