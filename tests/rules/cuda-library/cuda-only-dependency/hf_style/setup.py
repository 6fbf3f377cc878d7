"""A Hugging Face-style setup.py: pins in one table, install_requires and extras look them up by name."""
import re

from setuptools import find_packages, setup

_deps = [
    "accelerate==1.4.0",
    # expect: cuda-library.cuda-only-dependency
    "bitsandbytes>=0.43.0",
    "datasets>=3.2.0",
    # expect: cuda-library.cuda-only-dependency
    "deepspeed==0.16.8",
    # ok: cuda-library.cuda-only-dependency
    "flash-attn>=2.7",
    "transformers==4.52.3",
]

deps = {b: a for a, b in (re.findall(r"^(([^!=<>~ \[\]]+)(?:\[[^\]]+\])?(?:[!=<>~ ].*)?$)", x)[0] for x in _deps)}


def deps_list(*pkgs):
    return [deps[pkg] for pkg in pkgs]


extras = {"dev": deps_list("datasets")}

install_requires = [
    deps["accelerate"],
    deps["bitsandbytes"],
    deps["deepspeed"],
    deps["transformers"],
]

REQUIRED = [
    # expect: cuda-library.cuda-only-dependency
    "xformers>=0.0.28",
    "einops",
]

setup(
    name="recipes",
    version="0.1.0",
    packages=find_packages("src"),
    install_requires=install_requires + REQUIRED,
    extras_require=extras,
)
