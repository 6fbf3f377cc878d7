from dataclasses import dataclass, field


@dataclass
class ModelArguments:
    model_name_or_path: str = "meta-llama/Llama-3.1-8B"
    # expect: cuda-library.bitsandbytes-quantization-default
    load_in_4bit: bool = True
    # ok: cuda-library.bitsandbytes-quantization-default
    load_in_8bit: bool = False
    use_nested_quant: bool = field(default=False)


def configure(args):
    if args.qlora:
        # expect: cuda-library.bitsandbytes-quantization-default
        args.load_in_8bit = True
    return args
