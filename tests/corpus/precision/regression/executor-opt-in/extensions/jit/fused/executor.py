"""An operator executor with a fused cross-entropy kernel; users add it with `executors=("fused", ...)`."""
import sys
from pathlib import Path

from thunder.extend import OperatorExecutor, register_executor

sys.path.append(str(Path(__file__).parent))

import kernels

fused_ex = OperatorExecutor("fused", version="0.1")
register_executor(fused_ex)

fused_cross_entropy = fused_ex.register_operator(
    "fused_cross_entropy", meta=lambda logits, labels: logits, fn=kernels.cross_entropy.fused_cross_entropy
)
