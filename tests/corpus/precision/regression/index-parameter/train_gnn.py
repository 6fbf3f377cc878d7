"""Node classification on a citation graph: a random split by node indices, and a PyG-style boolean split."""
import argparse

import torch
import torch.nn.functional as F
from torch import nn


class GraphConv(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.lin = nn.Linear(dim_in, dim_out)

    def forward(self, x, adj):
        return torch.sparse.mm(adj, self.lin(x))


class GCN(nn.Module):
    def __init__(self, dim_in, hidden, classes):
        super().__init__()
        self.conv1 = GraphConv(dim_in, hidden)
        self.conv2 = GraphConv(hidden, classes)

    def forward(self, x, adj):
        return F.log_softmax(self.conv2(F.relu(self.conv1(x, adj)), adj), dim=1)


def train_iter(model, optimizer, features, adj, labels, mask_train):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss = F.nll_loss(output[mask_train], labels[mask_train])
    loss.backward()
    optimizer.step()
    return loss


def train_masked(model, optimizer, features, adj, labels, split_mask):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss = F.nll_loss(output[split_mask], labels[split_mask])
    loss.backward()
    optimizer.step()
    return loss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=200)
    args = parser.parse_args()
    features, adj, labels = torch.load("cora.pt")
    model = GCN(features.shape[1], 16, int(labels.max()) + 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    idx = torch.randperm(len(labels))
    idx_test, idx_val, idx_train = idx[:1000], idx[1000:1500], idx[1500:]
    for _ in range(args.epochs):
        train_iter(model, optimizer, features, adj, labels, idx_train)
    train_nodes = labels >= 0
    for _ in range(args.epochs):
        train_masked(model, optimizer, features, adj, labels, split_mask=train_nodes)


if __name__ == "__main__":
    main()
