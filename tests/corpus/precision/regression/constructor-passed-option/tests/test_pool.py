from config import _C
from pool import Head


def test_rotated_head():
    cfg = _C.clone()
    cfg.MODEL.POOLER_TYPE = "ROIAlignRotated"
    Head(cfg)
