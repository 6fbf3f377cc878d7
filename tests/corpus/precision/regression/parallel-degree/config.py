from dataclasses import dataclass, field


@dataclass
class TrainingArguments:
    cp_size: int = field(default=1, metadata={"help": "Context parallel size."})
    world_size: int = field(default=1, metadata={"help": "Ranks in the job."})
