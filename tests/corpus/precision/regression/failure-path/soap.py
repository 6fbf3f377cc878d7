import torch


def eigenbasis(mat):
    try:
        torch.cuda.synchronize()
        _, q = torch.linalg.eigh(mat + 1e-30 * torch.eye(mat.size(0), device=mat.device))
    except RuntimeError:
        # retry in double precision when the float32 solver does not converge
        torch.cuda.empty_cache()
        _, q = torch.linalg.eigh(mat.double() + 1e-30 * torch.eye(mat.size(0), device=mat.device))
        q = q.float()
    return q


def cholesky_factor(sigma):
    try:
        return torch.linalg.cholesky(sigma)
    except (torch.linalg.LinAlgError, RuntimeError) as err:
        print(f"cholesky failed ({err}); adding jitter")
        return torch.linalg.cholesky(sigma.double() + 1e-4 * torch.eye(sigma.size(0), device=sigma.device)).float()


def next_batch(loader_iter, loader):
    try:
        return next(loader_iter)
    except StopIteration:
        torch.cuda.empty_cache()
        return next(iter(loader))


class Preconditioner(torch.optim.Optimizer):
    def __init__(self, params, lr=0.02):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None or p.grad.dim() != 2:
                    continue
                q = eigenbasis(p.grad @ p.grad.T)
                l = cholesky_factor(p.grad @ p.grad.T + torch.eye(p.size(0), device=p.device))
                p.add_(q @ torch.cholesky_solve(p.grad, l), alpha=-group["lr"])
