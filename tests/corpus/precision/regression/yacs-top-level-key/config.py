from yacs.config import CfgNode as CN

_C = CN()
_C.TRAIN = CN()
_C.TRAIN.EPOCHS = 300
_C.TRAIN.USE_CHECKPOINT = False
_C.THROUGHPUT_MODE = False
_C.EVAL_MODE = False
_C.AMP_ENABLE = True


def get_config(args):
    config = _C.clone()
    if args.throughput:
        config.THROUGHPUT_MODE = True
    return config
