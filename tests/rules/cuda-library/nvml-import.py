"""Logs GPU utilisation next to the loss."""
import logging

# expect: cuda-library.nvml-import
import pynvml
# expect: cuda-library.nvml-import
import GPUtil

try:
    # ok: cuda-library.nvml-import
    import gpustat
except ImportError:
    gpustat = None

# ok: cuda-library.nvml-import
import psutil

log = logging.getLogger(__name__)


def log_utilisation(step):
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    util = pynvml.nvmlDeviceGetUtilizationRates(handle)
    log.info("step %d gpu %d%% cpu %.1f%%", step, util.gpu, psutil.cpu_percent())
    return GPUtil.getGPUs()
