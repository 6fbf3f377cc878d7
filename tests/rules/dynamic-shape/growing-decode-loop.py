"""Character-level GPT training that prints samples every few hundred steps (nanoGPT-style)."""
import torch
import torch.nn.functional as F


@torch.no_grad()
def sample(model, idx, steps, block_size=64):
    for _ in range(steps):
        idx_cond = idx if idx.size(1) <= block_size else idx[:, -block_size:]
        logits = model(idx_cond)[:, -1, :]
        idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        # expect: dynamic-shape.growing-decode-loop
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


class TinyGPT(torch.nn.Module):
    def __init__(self, vocab=65, dim=32):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, dim)
        self.head = torch.nn.Linear(dim, vocab)

    def forward(self, idx):
        return self.head(self.emb(idx))

    @torch.no_grad()
    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits = self(idx)[:, -1, :]
            idx_next = torch.argmax(logits, dim=-1, keepdim=True)
            # ok: dynamic-shape.growing-decode-loop
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


def fixed_buffer_sample(model, prompt, steps):
    out = torch.zeros((1, prompt.size(1) + steps), dtype=torch.long)
    out[:, : prompt.size(1)] = prompt
    for t in range(prompt.size(1), out.size(1)):
        logits = model(out)[:, t - 1, :]
        # ok: dynamic-shape.growing-decode-loop
        out[:, t] = torch.argmax(logits, dim=-1)
    return out


def collect_features(model, loader):
    feats = torch.zeros((0, 32))
    for x in loader:
        f = model.emb(x).mean(dim=1)
        # ok: dynamic-shape.growing-decode-loop
        feats = torch.cat((feats, f), dim=0)
    return feats


def build_prompts(processor, model, texts, images):
    # Each prompt is encoded afresh and gets one separator token: nothing grows across iterations.
    batch = []
    for text, image in zip(texts, images):
        features = processor(text, image)
        input_ids = features["input_ids"]
        if not torch.all(input_ids[:, -1] == 29871):
            # ok: dynamic-shape.growing-decode-loop
            input_ids = torch.cat((input_ids, torch.tensor([[29871]])), dim=1)
        batch.append(model.embed(input_ids))
    return batch


def train(model, optimizer, batches, max_steps=5000, sample_every=250):
    for step in range(max_steps):
        x, y = batches[step % len(batches)]
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % sample_every == 0:
            print(sample(model, torch.zeros((1, 1), dtype=torch.long), 100))
            fixed_buffer_sample(model, torch.zeros((1, 1), dtype=torch.long), 100)
            collect_features(model, [x])
            build_prompts(model.processor, model, ["a robot"], [x])
            xgen = torch.zeros((4, 1), dtype=torch.long)
            while xgen.size(1) < 32:
                logits = model(xgen)
                xcol = torch.argmax(logits[:, -1, :], dim=-1, keepdim=True)
                # expect: dynamic-shape.growing-decode-loop
                xgen = torch.cat((xgen, xcol), dim=1)


def demo(model):
    tokens = torch.zeros((1, 1), dtype=torch.long)
    for _ in range(50):
        nxt = torch.argmax(model(tokens)[:, -1, :], dim=-1, keepdim=True)
        # ok: dynamic-shape.growing-decode-loop
        tokens = torch.cat([tokens, nxt], dim=-1)
    print(tokens)


if __name__ == "__main__":
    net = TinyGPT()
    train(net, torch.optim.AdamW(net.parameters(), lr=3e-4), [(torch.zeros((8, 16), dtype=torch.long),) * 2])
    demo(net)
