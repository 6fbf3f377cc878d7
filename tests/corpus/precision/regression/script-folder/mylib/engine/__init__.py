from .deepspeed import wrap_model
