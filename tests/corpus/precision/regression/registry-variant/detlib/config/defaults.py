from detlib.config.node import CfgNode as CN

_C = CN()
_C.DIM = 256
_C.MODEL = CN()
_C.MODEL.HEADS = CN()
# Heads available: "StandardHeads", "RotatedHeads"
_C.MODEL.HEADS.NAME = "StandardHeads"
