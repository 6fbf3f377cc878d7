from setuptools import find_packages, setup

setup(
    name="tinylm-nlu-fork",
    version="0.0.1",
    package_dir={"": "src"},
    packages=find_packages("src"),
    install_requires=["torch"],
)
