import torch


def dequantize_module_weight(module):
    """The weight as a float tensor: a bitsandbytes-quantized weight is dequantized, any other returned as is."""
    weight = module.weight
    cls_name = weight.__class__.__name__
    if cls_name not in ("Params4bit", "Int8Params"):
        return weight
    return dequantize_bnb_weight(weight, state=getattr(module, "state", None))


def dequantize_bnb_weight(weight, state=None):
    import bitsandbytes as bnb

    cls_name = weight.__class__.__name__
    if cls_name == "Params4bit":
        return bnb.functional.dequantize_4bit(weight.data, weight.quant_state)
    return bnb.functional.int8_vectorwise_dequant(weight.data, state.SCB.to(weight.device))


def gather_stats(weight):
    torch.cuda.synchronize()
    return weight.float().abs().mean()
