import torch
from transformers import LlamaConfig, LlamaForCausalLM

# from .modeling_llama import LlamaForCausalLM
from .modeling_projector import Projector


class VlmLlamaForCausalLM(LlamaForCausalLM):
    def __init__(self, config: LlamaConfig):
        super().__init__(config)
        self.projector = Projector(config.hidden_size)

    def forward(self, input_ids, image_features, labels=None):
        embeds = self.model.embed_tokens(input_ids)
        embeds = torch.cat([self.projector(image_features), embeds], dim=1)
        return super().forward(inputs_embeds=embeds, labels=labels)
