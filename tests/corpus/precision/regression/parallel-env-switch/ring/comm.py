import torch


class RingComm:
    def wait(self):
        torch.cuda.synchronize()
