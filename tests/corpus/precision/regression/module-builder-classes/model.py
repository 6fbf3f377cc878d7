"""A model that hands its layer classes to the blocks that build them."""
import torch
from torch import nn

from blocks import DecoderLayer, Embedding, PipelineBlock, Tower


class Model(nn.Module):
    def __init__(self, vocab, hidden, layers):
        super().__init__()
        self.embed = PipelineBlock(module_builder=Embedding, module_kwargs={"vocab": vocab, "hidden": hidden})
        self.decoder = nn.ModuleList(
            [PipelineBlock(module_builder=DecoderLayer, module_kwargs={"hidden": hidden}) for _ in range(layers)]
        )
        self.tower = Tower(hidden, 2)
        for block in [self.embed, *self.decoder]:
            block.build()

    def forward(self, input_ids):
        hidden = self.embed(input_ids=input_ids)
        for layer in self.decoder:
            hidden = layer(hidden_states=hidden)
        return self.tower(hidden).mean()


def main():
    model = Model(32000, 512, 4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(10):
        loss = model(torch.randint(0, 32000, (2, 128)))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
