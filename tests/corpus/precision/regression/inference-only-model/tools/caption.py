import argparse

import torch

from captioner.models.reader import CaptionReader


@torch.inference_mode()
def caption(path):
    model = CaptionReader(64)
    model.load_state_dict(torch.load(path))
    model.eval()
    tokens = torch.randn(16, 64)
    out, _ = model(tokens, tokens[:, 0] > 0)
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt")
    print(caption(parser.parse_args().ckpt))
