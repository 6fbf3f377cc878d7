from vllm import LLM, SamplingParams


def extract(llm: LLM, documents):
    params = SamplingParams(temperature=0.0, max_tokens=256)
    return [out.outputs[0].text for out in llm.generate(documents, params)]
