"""Training augmentations of a detection dataset."""
import detectron2.data.transforms as T

import datasets.transforms as DT


def build_augmentation(cfg, is_train):
    min_size = cfg.INPUT.MIN_SIZE_TRAIN if is_train else cfg.INPUT.MIN_SIZE_TEST
    # expect: dynamic-shape.multi-scale-resize
    augmentation = [T.ResizeShortestEdge(min_size, cfg.INPUT.MAX_SIZE_TRAIN, "choice")]
    if is_train:
        # ok: dynamic-shape.multi-scale-resize
        augmentation.append(T.RandomFlip(horizontal=True))
    return augmentation


def make_coco_transforms():
    scales = [480, 512, 544, 576, 608, 640, 672, 704, 736, 768, 800]
    return DT.Compose([
        DT.RandomHorizontalFlip(),
        # expect: dynamic-shape.multi-scale-resize
        DT.RandomResize(scales, max_size=1333),
        # ok: dynamic-shape.multi-scale-resize
        DT.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
    ])
