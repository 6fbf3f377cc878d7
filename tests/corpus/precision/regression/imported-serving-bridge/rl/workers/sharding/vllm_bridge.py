import torch
from vllm import LLM
from vllm.distributed import parallel_state as vllm_ps


class VLLMShardingManager:
    def __init__(self, module, inference_engine: LLM):
        self.module = module
        self.inference_engine = inference_engine
        self.tp_group = vllm_ps.get_tensor_model_parallel_group()

    def sync_weights(self):
        state = self.module.state_dict()
        self.inference_engine.llm_engine.model_executor.driver_worker.model_runner.model.load_weights(state.items())
