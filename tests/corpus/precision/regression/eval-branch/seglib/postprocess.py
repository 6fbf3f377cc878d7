import torch


def merge_segments(sem_seg, ins_seg, stuff_area=64):
    panoptic = torch.zeros_like(sem_seg)
    for class_id in torch.unique(sem_seg):
        stuff = (sem_seg == class_id) & (ins_seg == 0)
        if stuff.sum().item() >= stuff_area:
            panoptic[stuff] = class_id
    return panoptic
