from .vllm_bridge import VLLMShardingManager
