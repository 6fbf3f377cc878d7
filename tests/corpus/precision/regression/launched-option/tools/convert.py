import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--precision", default="fp32", type=str)
parser.add_argument("--ckpt", required=True)
args = parser.parse_args()

state = torch.load(args.ckpt, map_location="cpu")
if args.precision == "fp16":
    state = {k: v.half() for k, v in state.items()}
torch.save(state, args.ckpt + ".out")
