"""PPO launcher: the critic's path defaults to None on the command line, then the script derives it."""
import argparse

import torch


def build_critic(path):
    torch.cuda.set_device(0)
    return torch.nn.Linear(8, 1).cuda()


def build_reward(path):
    torch.cuda.set_device(0)
    return torch.nn.Linear(8, 1).cuda()


def train(args):
    policy = torch.nn.Linear(8, 8)
    critic = build_critic(args.critic.model_name_or_path) if args.critic.model_name_or_path else None
    reward = build_reward(args.reward.remote_model) if args.reward.remote_model else None
    opt = torch.optim.AdamW(policy.parameters())
    for step in range(10):
        x = torch.randn(4, 8)
        loss = policy(x).pow(2).mean()
        if critic is not None:
            loss = loss + critic(x).mean()
        if reward is not None:
            loss = loss - reward(x).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--actor.model_name_or_path", type=str, default=None)
    parser.add_argument("--critic.model_name_or_path", type=str, default=None)
    parser.add_argument("--reward.remote_model", type=str, default=None)
    parser.add_argument("--advantage_estimator", type=str, default="gae")
    args = parser.parse_args()
    if args.advantage_estimator != "gae":
        args.critic.model_name_or_path = None
    elif args.critic.model_name_or_path is None:
        args.critic.model_name_or_path = args.actor.model_name_or_path
    train(args)
