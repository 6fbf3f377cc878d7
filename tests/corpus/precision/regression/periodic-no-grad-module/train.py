import torch
from torch import nn
import torch.nn.functional as F

from tokenizer import EntropySegmenter, FrozenTeacher

GENERATE_EVERY = 100


class Decoder(nn.Module):
    def __init__(self, num_tokens=256, dim=256):
        super().__init__()
        self.embed = nn.Embedding(num_tokens, dim)
        self.out = nn.Linear(dim, num_tokens)

    def logits(self, seq):
        return self.out(self.embed(seq))

    def forward(self, seq, soft_targets):
        return F.kl_div(self.logits(seq).log_softmax(-1), soft_targets, reduction="batchmean")


def main():
    model = Decoder().cuda()
    teacher = FrozenTeacher(Decoder().cuda())
    segmenter = EntropySegmenter(model)
    optim = torch.optim.Adam(model.parameters(), lr=1e-4)
    loader = torch.utils.data.DataLoader(torch.load("train.pt"), batch_size=8, drop_last=True)
    for i, seq in enumerate(loader):
        seq = seq.cuda()
        loss = model(seq, teacher(seq))
        loss.backward()
        optim.step()
        optim.zero_grad()
        if i % GENERATE_EVERY == 0:
            model.eval()
            segments = segmenter(seq[:1])
            print(segments.shape)
            model.train()


if __name__ == "__main__":
    main()
