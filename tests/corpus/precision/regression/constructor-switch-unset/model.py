"""An encoder that passes its config's xformers setting (None by default) to the attention it builds."""
import torch
from torch import nn

from attention import (DefaultedAttention, DirectAttention, LocalAttention, MultiheadAttention, NormalizedAttention,
                       ParsedAttention, PassedAttention, build_filled)
from config import ModelConfig


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.attn = MultiheadAttention(cfg.encoder.embed_dim, cfg.encoder.attention_heads,
                                       xformers_att_config=cfg.encoder.xformers_att_config)
        self.direct = DirectAttention(cfg.encoder.embed_dim, xformers_att_config=cfg.encoder.xformers_att_config)
        self.blocksparse = PassedAttention(cfg.encoder.embed_dim, xformers_att_config="blocksparse")
        self.parsed = ParsedAttention(cfg.encoder.embed_dim, xformers_att_config=cfg.encoder.xformers_att_config)
        self.local = LocalAttention(cfg.encoder.embed_dim, xformers_att_config="local")
        self.filled = build_filled(cfg.encoder.embed_dim)
        self.normalized = NormalizedAttention(cfg.encoder.embed_dim, xformers_att_config=cfg.encoder.xformers_att_config)
        self.defaulted = DefaultedAttention(cfg.encoder.embed_dim, xformers_att_config=cfg.encoder.xformers_att_config)

    def forward(self, x):
        x = self.filled(self.local(self.parsed(self.blocksparse(self.direct(self.attn(x))))))
        return self.defaulted(self.normalized(x))


def main():
    cfg = ModelConfig()
    model = Encoder(cfg)
    opt = torch.optim.AdamW(model.parameters())
    for _ in range(10):
        loss = model(torch.randn(2, 512)).sum()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
