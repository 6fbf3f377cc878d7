import torch


def fill_holes(mask_logits: torch.Tensor, max_area: int = 8) -> torch.Tensor:
    """Fill small background holes in predicted masks (post-processing only)."""
    from segkit import _C

    labels = _C.label_components((mask_logits <= 0).to(torch.uint8).contiguous())
    small = labels >= 0
    return torch.where(small, torch.full_like(mask_logits, 0.1), mask_logits)
