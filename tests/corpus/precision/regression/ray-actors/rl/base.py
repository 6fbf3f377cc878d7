import torch


class RayProcess:
    """Shared helpers of the run's GPU actors."""

    def offload_to_cpu(self):
        torch.cuda.synchronize()
        self.model.to("cpu")

    def backload_to_gpu(self):
        self.model.to("cuda")
        torch.cuda.synchronize()
