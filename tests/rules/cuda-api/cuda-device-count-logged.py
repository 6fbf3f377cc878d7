"""A launcher that reports the devices it sees."""
import logging

import torch

logger = logging.getLogger(__name__)


def report_devices(args):
    print(
        "rank:", args.rank,
        # expect: cuda-api.cuda-device-count-logged
        "device_count:", torch.cuda.device_count(),
    )
    # expect: cuda-api.cuda-device-count-logged
    logger.info(f"{torch.cuda.device_count()} visible devices")
    # ok: cuda-api.cuda-device-count-logged
    args.n_gpu = torch.cuda.device_count()
    return args
