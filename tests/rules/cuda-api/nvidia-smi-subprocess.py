import os
import subprocess


def gpu_memory_used():
    # expect: cuda-api.nvidia-smi-subprocess
    out = subprocess.check_output(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,nounits,noheader"])
    return [int(x) for x in out.decode().split()]


def log_environment():
    # expect: cuda-api.nvidia-smi-subprocess
    os.system("nvidia-smi topo -m")
    # ok: cuda-api.nvidia-smi-subprocess
    subprocess.run(["git", "rev-parse", "HEAD"], check=False)
