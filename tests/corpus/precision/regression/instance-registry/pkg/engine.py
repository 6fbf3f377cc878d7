from transformers import AutoModelForCausalLM

from .args import TrainArguments
from .optimizers import OptimizerPlugin


class ModelEngine:
    def __init__(self, args: TrainArguments) -> None:
        self.args = args
        self.model = self._init_model()
        self.optimizer = OptimizerPlugin(self.args.optimizer_name)(self.model)

    def _init_model(self):
        init_kwargs = {}
        if self.args.quant_config is not None:
            from .quantization import QuantizationPlugin

            init_kwargs = QuantizationPlugin(self.args.quant_config["name"])(init_kwargs)
        model = AutoModelForCausalLM.from_pretrained(self.args.model_name, **init_kwargs)
        if self.args.kernel_config is not None:
            from .kernels import apply_kernels

            model = apply_kernels(model, self.args.kernel_config)
        return model
