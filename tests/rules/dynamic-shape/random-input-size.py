"""Multi-scale detector training."""
import random

import torch
import torch.nn.functional as F

SCALES = [320, 416, 512, 608]


def train_epoch(model, loader, optimizer):
    for images, targets in loader:
        # expect: dynamic-shape.random-input-size
        size = random.choice(SCALES)
        images = F.interpolate(images, size=(size, size), mode="bilinear", align_corners=False)
        loss = model(images, targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def evaluate(model, images, size=512):
    # ok: dynamic-shape.random-input-size
    return model(F.interpolate(images, size=(size, size), mode="bilinear", align_corners=False))


def train_multiscale(model, loader, optimizer, scales=(480, 512, 544, 576, 608)):
    for step, (images, targets) in enumerate(loader):
        if step % 10 == 0:
            # expect: dynamic-shape.random-input-size
            s = random.choice(scales)
        images = F.interpolate(images, size=(s, s), mode="bilinear", align_corners=False)
        loss = model(images, targets)
        loss.backward()
        optimizer.step()


def dropout_like(x):
    # ok: dynamic-shape.random-input-size
    p = random.random()
    return x * (p > 0.1)


class LengthInstruction:
    def build_description(self, num_sentences=None):
        # ok: dynamic-shape.random-input-size
        self._num_sentences_threshold = num_sentences or random.randint(1, 5)
        return f"Answer in fewer than {self._num_sentences_threshold} sentences."


def build_synthetic_sequences(num_samples, min_len, max_len):
    sequences = []
    for _ in range(num_samples):
        # ok: dynamic-shape.random-input-size
        length = random.randint(min_len, max_len)
        sequences.append("".join(random.choices("ACDEFGHIK", k=length)))
    return sequences


def main(model, loader, optimizer):
    sequences = build_synthetic_sequences(100, 20, 80)
    print(len(sequences))
    train_epoch(model, loader, optimizer)


class RandomCrop:
    def __call__(self, image):
        # expect: dynamic-shape.random-input-size
        cropSize = random.randint(224, 320)
        return image[..., :cropSize, :cropSize]


class ResizeRandomInterpolation:
    """timm-style resize: the filter is drawn at random, the size is fixed."""

    def __init__(self, size=224, interpolation=("bilinear", "bicubic")):
        self.size = size
        self.interpolation = interpolation

    def __call__(self, img):
        # ok: dynamic-shape.random-input-size
        interpolation = random.choice(self.interpolation)
        return F.interpolate(img, self.size, None, interpolation)


class NoisyLowScale(torch.nn.Module):
    def __init__(self, max_noise_level=250, out_size=64):
        super().__init__()
        self.max_noise_level = max_noise_level
        self.out_size = out_size

    def forward(self, z):
        # Random noise levels change the values of `z`, not the size it is resized to.
        # ok: dynamic-shape.random-input-size
        noise_level = torch.randint(0, self.max_noise_level, (z.shape[0],), device=z.device)
        z = z + noise_level.view(-1, 1, 1, 1)
        return F.interpolate(z, size=self.out_size, mode="nearest"), noise_level


def masked_diffusion_loss(unet, scheduler, latents, encoder_hidden_states, mask):
    """cloneofsimo/lora's loss_step: the mask is resized to the prediction's own size."""
    noise = torch.randn_like(latents)
    # Random timesteps set the noise levels, not any shape: the prediction has the latents' size.
    # ok: dynamic-shape.random-input-size
    timesteps = torch.randint(0, scheduler.config.num_train_timesteps, (latents.shape[0],), device=latents.device)
    noisy_latents = scheduler.add_noise(latents, noise, timesteps)
    model_pred = unet(noisy_latents, timesteps, encoder_hidden_states).sample
    mask = F.interpolate(mask.float(), size=model_pred.shape[-2:], mode="nearest")
    return F.mse_loss(model_pred * mask, noise * mask)


def cutout(images, cutout_prob, cutout_size, batch_size, width, height, device):
    """StyleGAN-style cutout: the random sizes are a tensor of one value per sample, used as a mask."""
    # ok: dynamic-shape.random-input-size
    size = torch.full([batch_size, 2, 1, 1, 1], cutout_size, device=device)
    # ok: dynamic-shape.random-input-size
    size = torch.where(torch.rand([batch_size, 1, 1, 1, 1], device=device) < cutout_prob, size, torch.zeros_like(size))
    coord_x = torch.arange(width, device=device).reshape([1, 1, 1, -1])
    mask_x = (coord_x + 0.5) / width >= size[:, 0] / 2
    return images * mask_x.to(images.dtype)


def random_crop_size(images, base_size):
    # A scalar drawn from a one-element tensor is a size: expect it.
    # expect: dynamic-shape.random-input-size
    crop_size = int(torch.rand(1).item() * base_size) + 32
    return F.interpolate(images, size=crop_size)
