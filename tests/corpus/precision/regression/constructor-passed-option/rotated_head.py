from pool import Pooler


def build_rotated_head(cfg):
    pooler_type = cfg.MODEL.POOLER_TYPE
    assert pooler_type in ["ROIAlignRotated"], pooler_type
    return Pooler(7, pooler_type=pooler_type)
