"""Opt-in overrides: nothing here runs unless a run lists the module in `--override-imports`."""
