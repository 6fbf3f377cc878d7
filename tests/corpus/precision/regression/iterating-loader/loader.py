import torch


class PrefetchLoader:
    def __init__(self, loader):
        self.loader = loader

    def __iter__(self):
        for batch in self.loader:
            yield batch.cuda(non_blocking=True)

    def next(self, it):
        batch = next(it)
        torch.cuda.current_stream().synchronize()
        return batch


class CheckpointLoader:
    def restore(self, path):
        torch.cuda.synchronize()
        return torch.load(path)
