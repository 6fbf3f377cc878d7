"""A Hydra entry point whose config names the Lightning trainer (mdlm's and the lightning-hydra template's shape)."""
import hydra

import diffusion


def _load_from_checkpoint(config):
    if config.eval.from_scratch:
        return diffusion.Diffusion(config)
    return diffusion.Diffusion.load_from_checkpoint(config.eval.checkpoint_path, config=config)


def generate_samples(config):
    model = _load_from_checkpoint(config)
    model.eval()
    return model.sample(config.sampling.steps)


def _train(config):
    callbacks = [hydra.utils.instantiate(callback) for callback in config.callbacks.values()]
    model = diffusion.Diffusion(config)
    trainer = hydra.utils.instantiate(config.trainer, callbacks=callbacks, default_root_dir=config.output_dir)
    trainer.fit(model, ckpt_path=config.checkpointing.resume_ckpt_path)


@hydra.main(version_base=None, config_path="configs", config_name="config")
def main(config):
    if config.mode == "sample_eval":
        generate_samples(config)
    else:
        _train(config)


if __name__ == "__main__":
    main()
