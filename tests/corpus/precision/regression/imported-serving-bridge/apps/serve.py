from fastapi import FastAPI
from vllm import LLM, SamplingParams

app = FastAPI()
llm = LLM(model="checkpoint")


@app.post("/generate")
def generate(prompt: str):
    return llm.generate([prompt], SamplingParams(max_tokens=64))[0].outputs[0].text
