import torch
from mylib.engine import wrap_model

model = torch.nn.Linear(4, 4)
engine, optimizer = wrap_model(model, {"train_batch_size": 8})
for step in range(10):
    loss = engine(torch.randn(8, 4)).sum()
    engine.backward(loss)
    engine.step()
