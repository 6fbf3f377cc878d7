import torch

from lib.pca import IncrementalPCA


class SVDHook:
    def __init__(self, n_components):
        self.svd = IncrementalPCA()
        self.svd.n_components = n_components

    def __call__(self, module, inputs, output):
        self.svd.partial_fit(inputs[0].flatten(0, -2))


@torch.no_grad()
def init_from_activations(model, loader, rank=8):
    handles = []
    for module in model.modules():
        if isinstance(module, torch.nn.Linear):
            handles.append(module.register_forward_hook(SVDHook(rank)))
    for batch in loader:
        model(batch)
    for handle in handles:
        handle.remove()
