"""Model loading helpers of a QLoRA fine-tuning repo."""
