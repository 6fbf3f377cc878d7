"""The lightning-hydra template's entry point: every object comes from a config's `_target_`."""
import hydra
import lightning as L

from src.utils import task_wrapper


@task_wrapper
def train(cfg):
    datamodule: L.LightningDataModule = hydra.utils.instantiate(cfg.data)
    model: L.LightningModule = hydra.utils.instantiate(cfg.model)
    trainer: L.Trainer = hydra.utils.instantiate(cfg.trainer)
    trainer.fit(model=model, datamodule=datamodule)
    return trainer.callback_metrics


@hydra.main(version_base="1.3", config_path="../configs", config_name="train.yaml")
def main(cfg):
    return train(cfg)


if __name__ == "__main__":
    main()
