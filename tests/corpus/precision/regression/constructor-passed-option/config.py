from yacs.config import CfgNode as CN

_C = CN()
_C.MODEL = CN()
_C.MODEL.POOLER_TYPE = "ROIAlignV2"
