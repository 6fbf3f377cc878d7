"""The repo's code, a package named src (AQLM's and the lightning-hydra template's layout)."""
