"""Device setup helpers of a fine-tuning library."""
import torch


def get_device(device=None):
    device = torch.device(device or "cpu")
    # expect: cuda-api.cuda-device-comparison
    if device.type in ["cuda", "npu", "xpu", "hpu"]:
        torch.set_default_device(device)
    return device


def free_memory(device):
    # expect: cuda-api.cuda-device-comparison
    if device.type == "cuda":
        torch.cuda.empty_cache()
    # ok: cuda-api.cuda-device-comparison
    elif device.type == "cpu":
        pass


# ok: cuda-api.cuda-device-comparison
SUPPORTED = ["cuda", "cpu"]


def fused_backward(output_mask, grad_output, throughput_log):
    # `output_mask` and `throughput_log` hold the letters "tpu": no XLA branch, the comparison is reported.
    # expect: cuda-api.cuda-device-comparison
    if not output_mask[2] or grad_output.device.type != "cuda":
        return NotImplemented
    # expect: cuda-api.cuda-device-comparison
    if throughput_log and grad_output.device.type == "cuda":
        torch.cuda.synchronize()
    return grad_output
