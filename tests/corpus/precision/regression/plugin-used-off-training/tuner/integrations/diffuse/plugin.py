from tuner.integrations.base import BasePlugin


class DiffusePlugin(BasePlugin):
    def get_trainer_cls(self, cfg):
        from .trainer import DiffuseTrainer

        return DiffuseTrainer
