"""Spectral attention with a whitening step and ROI pooling: ops TorchNeuron runs on the host."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset
from torchvision.ops import boxes as box_ops
from torchvision.ops import roi_align


class SpectralMixer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        # expect-info: operator-support.cpu-fallback-op   (once at construction: setup)
        self.register_buffer("basis", torch.linalg.qr(torch.randn(dim, dim))[0])

    def forward(self, x, rois, use_svd=False):
        h = self.proj(x)
        # expect: operator-support.cpu-fallback-op
        freq = torch.fft.rfft(h, dim=1)
        cov = h.transpose(1, 2) @ h
        # expect: operator-support.cpu-fallback-op
        evals, evecs = torch.linalg.eigh(cov)
        # expect: operator-support.cpu-fallback-op
        pooled = roi_align(h.unsqueeze(1), rois, output_size=(4, 4))
        # ok: operator-support.cpu-fallback-op   (supported op)
        probs = F.softmax(h, dim=-1)
        # ok: operator-support.cpu-fallback-op   (topk's caveat is only for integer inputs)
        top = torch.topk(probs, k=2, dim=-1).values
        # ok: operator-support.cpu-fallback-op   (interpolate: lowered on both stacks for these modes)
        up = F.interpolate(h.unsqueeze(1), scale_factor=2, mode="nearest")
        if use_svd:
            # expect-low: operator-support.cpu-fallback-op   (opt-in: capped low)
            u, s, v = torch.linalg.svd(cov)
        return freq.real.sum() + evecs.sum() + pooled.sum() + top.sum() + up.sum()


def suppress(boxes, scores, labels):
    # expect-low: operator-support.cpu-fallback-op   (reached only from evaluation)
    return box_ops.batched_nms(boxes, scores, labels, 0.5)


class Windows(Dataset):
    def __init__(self, data):
        self.data = data

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        x = self.data[i]
        # expect-info: operator-support.cpu-fallback-op   (data loading runs on the host anyway)
        spectrum = torch.fft.rfft(x, dim=0)
        return x, spectrum.abs()


def evaluate(model, loader):
    with torch.no_grad():
        for x, rois in loader:
            suppress(x[:, :4], x[:, 4], x[:, 5].long())


def encode_latents(vae, images, counts):
    posterior = vae.encode(images).latent_dist
    # ok: operator-support.cpu-fallback-op   (a VAE posterior's mode is its mean, no tensor op)
    z = posterior.mode()
    # ok: operator-support.cpu-fallback-op   (the same through the attribute chain)
    z = z + vae.encode(images).latent_dist.mode()
    # expect: operator-support.cpu-fallback-op   (the tensor op on a tensor of counts)
    common = counts.mode(dim=-1).values
    return z * 0.18215, common


def main():
    model = SpectralMixer(64)
    loader = DataLoader(Windows(torch.randn(100, 8, 64)), batch_size=8)
    opt = torch.optim.AdamW(model.parameters())
    for step, (x, _) in enumerate(loader):
        rois = torch.zeros(8, 5)
        latents, _ = encode_latents(model.vae, x, x.long())
        loss = model(x, rois) + latents.mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 100 == 0:
            evaluate(model, loader)


if __name__ == "__main__":
    main()


class RotatedAdapter(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.rotation = nn.Parameter(torch.eye(dim))
        self.merged = False

    def unmerge(self, weight):
        # ok: operator-support.cpu-fallback-op   (folding adapter weights runs once on request)
        return weight @ torch.linalg.inv(self.rotation)

    def forward(self, x, weight):
        if self.merged:
            weight = self.unmerge(weight)
        return x @ weight.T
