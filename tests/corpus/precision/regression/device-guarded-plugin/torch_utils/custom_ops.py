import os
import torch
import torch.utils.cpp_extension


def get_plugin(module_name, sources, headers=None, source_dir=None, **build_kwargs):
    assert torch.cuda.is_available()
    if source_dir is not None:
        sources = [os.path.join(source_dir, fname) for fname in sources]
    torch.utils.cpp_extension.load(name=module_name, sources=sources, verbose=False, **build_kwargs)
    import importlib
    return importlib.import_module(module_name)
