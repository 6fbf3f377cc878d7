import logging

from moelib.device import has_cuda_capability

log = logging.getLogger(__name__)
grouped_gemm_enabled = True


def should_use_grouped_gemm() -> bool:
    if grouped_gemm_enabled and not has_cuda_capability(9, 0):
        log.debug("grouped gemm needs SM90 or later; using the per-expert loop")
        return False
    return grouped_gemm_enabled
