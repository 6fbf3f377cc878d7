import torch


class IncrementalPCA:
    def fit(self, X):
        for batch in X.split(64):
            self.partial_fit(batch)

    def partial_fit(self, X):
        X = X.to(torch.float64)
        self.mean = X.mean(0)
        _, S, V = torch.linalg.svd(X - self.mean, full_matrices=False)
        self.components = V[: self.n_components]
        self.kept = (S > S.max() * 1e-3).nonzero()
