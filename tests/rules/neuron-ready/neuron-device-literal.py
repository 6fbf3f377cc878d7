"""Device selection for native TorchNeuron."""
import torch


def get_device(cfg):
    if cfg.accelerator == "trainium":
        # expect: neuron-ready.neuron-device-literal
        return torch.device("neuron")
    if cfg.accelerator == "trainium-xla":
        # expect: neuron-ready.neuron-device-literal
        return torch.device("xla")
    # ok: neuron-ready.neuron-device-literal
    return torch.device("cpu")


def autocast_region(model, x):
    # expect: neuron-ready.neuron-device-literal
    with torch.autocast(device_type="neuron", dtype=torch.bfloat16):
        return model(x)
