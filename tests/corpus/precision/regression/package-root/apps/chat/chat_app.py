import chainlit
import torch

from tinylm.kv_model import CachedLM, stream

model = CachedLM()
model.load_state_dict(torch.load("tinylm.pt"))


@chainlit.on_message
async def main(message: chainlit.Message):
    idx = torch.tensor([[ord(c) % 256 for c in message.content]])
    reply = chainlit.Message(content="")
    for tok in stream(model, idx, 32):
        await reply.stream_token(chr(int(tok)))
    await reply.send()
