import numpy as np


def warmup_steps(boundaries, step):
    # A numpy lookup on the host: no device value is read.
    stage = np.where(np.asarray(boundaries) > step)[0]
    return stage[0].item() if len(stage) else len(boundaries)
