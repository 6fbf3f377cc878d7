import gptqlib_cuda
import torch


def quantize_model(model, bits=4):
    for module in model.modules():
        if isinstance(module, torch.nn.Linear):
            module.qweight = gptqlib_cuda.pack(module.weight.data, bits)
    return model
