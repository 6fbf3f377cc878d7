from tuner.integrations.base import BasePlugin


class FastKernPlugin(BasePlugin):
    def pre_model_load(self, cfg):
        from tuner.integrations.fastkern.libs.rmsnorm import patch_rmsnorm

        patch_rmsnorm()
