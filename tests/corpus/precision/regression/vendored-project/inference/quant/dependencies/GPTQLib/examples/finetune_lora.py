import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM

from gptqlib import quantize_model


def main():
    model = quantize_model(AutoModelForCausalLM.from_pretrained("facebook/opt-125m").cuda())
    model = get_peft_model(model, LoraConfig(r=8))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(10):
        batch = torch.randint(0, 1000, (4, 128)).cuda()
        loss = model(input_ids=batch, labels=batch).loss
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item()}")


if __name__ == "__main__":
    main()
