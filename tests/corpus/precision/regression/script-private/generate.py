import torch


class InferenceRecipe:
    def __init__(self, model):
        self.model = model

    def generate(self, prompt):
        step = torch.compile(self.model, mode="max-autotune")
        return step(prompt)


if __name__ == "__main__":
    InferenceRecipe(torch.nn.Linear(2, 2)).generate(torch.zeros(2))
