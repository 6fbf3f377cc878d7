# Superseded by attn_implementation="flash_attention_2": nothing imports this module any more.
try:
    from flash_attn.flash_attn_interface import flash_attn_unpadded_qkvpacked_func
except ImportError:
    from flash_attn.flash_attn_interface import flash_attn_varlen_qkvpacked_func as flash_attn_unpadded_qkvpacked_func
from flash_attn.bert_padding import pad_input, unpad_input


def forward(self, hidden_states):
    qkv = self.qkv(hidden_states)
    return flash_attn_unpadded_qkvpacked_func(qkv, None, 0, 0.0)


def replace_attention():
    import transformers

    transformers.models.llama.modeling_llama.LlamaAttention.forward = forward
