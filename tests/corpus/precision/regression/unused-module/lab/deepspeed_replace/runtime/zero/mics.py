"""A patched copy of DeepSpeed's MiCS module; the setup script copies it over the installed one."""
import deepspeed
from deepspeed.runtime.zero.parameter_offload import DeepSpeedZeRoOffload


class MiCS_Offload(DeepSpeedZeRoOffload):
    def partition(self, grads):
        if not grads[0].is_cuda:
            raise RuntimeError("MiCS needs CUDA gradients")
        return deepspeed.comm.all_reduce(grads[0])
