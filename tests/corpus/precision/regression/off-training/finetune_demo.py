# A notebook-style script: a short fine-tune, then a gradio demo whose callback only serves requests.
import gradio as gr
import torch

model = torch.nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()


def classify(text: str) -> str:
    with torch.cuda.amp.autocast():
        scores = model(torch.randn(1, 4))
    return f"{text}: {int(scores.argmax(-1))}"


demo = gr.Interface(fn=classify, inputs="text", outputs="text")
demo.launch()
