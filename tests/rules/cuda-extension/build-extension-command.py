"""setup.py with a custom build command."""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension


# expect: cuda-extension.build-extension-command
class NinjaBuildExtension(BuildExtension):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, use_ninja=True, **kwargs)


setup(
    name="fused_ops",
    ext_modules=[CUDAExtension("fused_ops_cuda", ["csrc/fused_ops.cu"])],
    # expect: cuda-extension.build-extension-command
    cmdclass={"build_ext": BuildExtension},
    # ok: cuda-extension.build-extension-command
    zip_safe=False,
)
