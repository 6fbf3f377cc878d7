from flash_attn import flash_attn_func

from lmtrain.model import Attention


def flash_forward(self, x):
    b, t, d = x.shape
    q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(2)
    return self.out(flash_attn_func(q, k, v, causal=True).reshape(b, t, d))


def replace_attention_with_flash():
    Attention.forward = flash_forward
