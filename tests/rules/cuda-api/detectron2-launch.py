"""DETR-style training entry point on top of detectron2's trainer."""
from detectron2.config import get_cfg
from detectron2.engine import DefaultTrainer, default_argument_parser, default_setup, launch
from detectron2.engine import launch as d2_launch
import torch.multiprocessing as mp


def setup(args):
    cfg = get_cfg()
    cfg.merge_from_file(args.config_file)
    cfg.freeze()
    default_setup(cfg, args)
    return cfg


def main(args):
    cfg = setup(args)
    trainer = DefaultTrainer(cfg)
    trainer.resume_or_load(resume=args.resume)
    return trainer.train()


def launch_jobs(args):
    # ok: cuda-api.detectron2-launch
    mp.spawn(main, nprocs=args.num_gpus, args=(args,))


if __name__ == "__main__":
    args = default_argument_parser().parse_args()
    # expect: cuda-api.detectron2-launch
    launch(
        main,
        args.num_gpus,
        num_machines=args.num_machines,
        machine_rank=args.machine_rank,
        dist_url=args.dist_url,
        args=(args,),
    )
    # expect: cuda-api.detectron2-launch
    d2_launch(main, 1, args=(args,))
