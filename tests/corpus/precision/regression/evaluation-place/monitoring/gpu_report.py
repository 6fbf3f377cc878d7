import GPUtil


def report():
    return [gpu.memoryUsed for gpu in GPUtil.getGPUs()]
