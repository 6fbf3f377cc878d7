import torch


class ModelLoader:
    def __init__(self, cfg):
        self.cfg = cfg

    def load(self):
        model = torch.nn.Linear(16, 16)
        torch.backends.cudnn.benchmark = True
        return model.cuda()
