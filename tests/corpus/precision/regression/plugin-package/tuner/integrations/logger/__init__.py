from tuner.integrations.base import BasePlugin


class LoggerPlugin(BasePlugin):
    def pre_model_load(self, cfg):
        import wandb

        wandb.init()
