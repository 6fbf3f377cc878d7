import torch

from mytool.model import TinyLM


def export_model():
    model = TinyLM()
    dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    model.to(dtype).save_pretrained("out")
