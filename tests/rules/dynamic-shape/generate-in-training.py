"""PPO-style recipe: rollouts are generated inside the training loop."""
import torch
from torchtune import generation


class PPORecipe:
    def generate_trajectory(self, input_ids):
        with torch.no_grad():
            # expect: dynamic-shape.generate-in-training
            responses, logits = generation.generate(model=self._policy_model, prompt=input_ids, max_generated_tokens=64)
        return responses, logits

    def train(self):
        for batch in self._dataloader:
            responses, logits = self.generate_trajectory(batch["tokens"])
            loss = self._loss_fn(self._policy_model(responses), logits)
            loss.backward()
            self._optimizer.step()
            self._optimizer.zero_grad()


def evaluate(model, tokenizer, loader):
    scores = []
    with torch.no_grad():
        for batch in loader:
            # expect: dynamic-shape.generate-in-training
            out = model.generate(input_ids=batch["input_ids"], max_new_tokens=128)
            scores.append(tokenizer.batch_decode(out))
    return scores


def main(model, tokenizer, train_loader, test_loader, optimizer):
    for epoch in range(3):
        for batch in train_loader:
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
        evaluate(model, tokenizer, test_loader)


def chat(model, tokenizer, prompt):
    # ok: dynamic-shape.generate-in-training
    return tokenizer.decode(model.generate(**tokenizer(prompt, return_tensors="pt"))[0])
