"""Helpers for the chat CLI of a diffusion model."""
from tuner.integrations.diffuse import generate


def diffuse_reply(model, input_ids):
    return generate(model, input_ids)
