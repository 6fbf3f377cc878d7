import torch

from segkit.model import SegModel
from segkit.utils.postprocess import fill_holes


@torch.inference_mode()
def predict(path: str):
    model = SegModel()
    model.load_state_dict(torch.load(path))
    logits = model(torch.randn(1, 64))
    return fill_holes(logits)


if __name__ == "__main__":
    print(predict("model.pt"))
