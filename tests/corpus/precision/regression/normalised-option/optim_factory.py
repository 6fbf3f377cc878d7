import torch

try:
    from apex.optimizers import FusedLAMB, FusedSGD

    has_apex = True
except ImportError:
    has_apex = False


def create_optimizer(args, params):
    opt_lower = args.opt.lower()
    if "fused" in opt_lower:
        assert has_apex and torch.cuda.is_available(), "APEX and CUDA required for fused optimizers"

    opt_split = opt_lower.split("_")
    opt_lower = opt_split[-1]
    if opt_lower == "sgd":
        optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9)
    elif opt_lower == "adamw":
        optimizer = torch.optim.AdamW(params, lr=args.lr)
    elif opt_lower == "fusedsgd":
        optimizer = FusedSGD(params, lr=args.lr, momentum=0.9)
    elif opt_lower == "fusedlamb":
        optimizer = FusedLAMB(params, lr=args.lr)
    else:
        raise ValueError(f"unknown optimizer {args.opt}")
    return optimizer


def create_scheduler(args, optimizer):
    sched = args.sched.strip().lower()
    if sched == "cosine":
        return torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)
    if sched == "plateau":
        torch.cuda.synchronize()
        return torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer)
    return None
