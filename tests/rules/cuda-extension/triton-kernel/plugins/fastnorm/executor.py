from thunder.extend import OperatorExecutor, register_executor

from plugins.fastnorm.kernel import rms_norm

fastnorm_ex = OperatorExecutor("fastnorm", version="0.2")
register_executor(fastnorm_ex)
fastnorm_rms = fastnorm_ex.register_operator("fastnorm_rms", meta=lambda x, w, eps: x, fn=rms_norm)
