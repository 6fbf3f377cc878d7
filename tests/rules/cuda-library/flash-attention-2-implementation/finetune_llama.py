"""Fine-tuning Llama on Trainium with optimum-neuron: flash_attention_2 selects the NKI kernel here."""
import torch
from optimum.neuron import NeuronSFTConfig, NeuronSFTTrainer, NeuronTrainingArguments
from optimum.neuron.models.training import LlamaForCausalLM
from transformers import AutoTokenizer


def train(model_id, dataset, trn_config):
    tokenizer = AutoTokenizer.from_pretrained(model_id)
    model = LlamaForCausalLM.from_pretrained(
        model_id,
        trn_config,
        torch_dtype=torch.bfloat16,
        # ok: cuda-library.flash-attention-2-implementation
        attn_implementation="flash_attention_2",
    )
    args = NeuronSFTConfig(output_dir="out", bf16=True, max_seq_length=2048, packing=True)
    trainer = NeuronSFTTrainer(model=model, args=args, train_dataset=dataset, processing_class=tokenizer)
    trainer.train()
