import torch


class ParallelSelfAttention(torch.nn.Module):
    def __init__(self, neox_args, layer_number):
        super().__init__()
        self.attention_type = neox_args.attention_config[layer_number]
        self.use_flash_attention = self.attention_type == "flash"
        self.use_linear_attention = self.attention_type == "linear"
        if self.use_flash_attention:
            from flash_attn.flash_attn_interface import flash_attn_func

            self.flash_fn = flash_attn_func
        if self.use_linear_attention:
            from xformers.ops import memory_efficient_attention

            self.linear_fn = memory_efficient_attention
        self.qkv = torch.nn.Linear(neox_args.hidden_size, 3 * neox_args.hidden_size)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if self.use_flash_attention:
            return self.flash_fn(q, k, v, causal=True)
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
