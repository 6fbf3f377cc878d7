import argparse
import torch
import torch.distributed as dist

parser = argparse.ArgumentParser()
parser.add_argument('--world-size', default=-1, type=int)
parser.add_argument('--dist-backend', default='nccl', type=str)
parser.add_argument('--multiprocessing-distributed', action='store_true')
parser.add_argument('--profile', action='store_true')
parser.add_argument('--warmup-steps', default=10, type=int)


def main():
    args = parser.parse_args()
    args.distributed = args.world_size > 1 or args.multiprocessing_distributed
    args.benchmark = args.profile or args.warmup_steps > 0
    main_worker(0, args)


def main_worker(gpu, args):
    if args.distributed:
        dist.init_process_group(backend=args.dist_backend, world_size=args.world_size, rank=0)
    if args.benchmark:
        torch.cuda.synchronize()
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in range(3):
        loss = model(torch.zeros(2)).sum()
        loss.backward()
        opt.step()


if __name__ == '__main__':
    main()
