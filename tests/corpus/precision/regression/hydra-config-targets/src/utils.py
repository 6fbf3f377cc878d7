"""Helpers the entry point imports through the `src` package."""
import functools


def task_wrapper(task):
    @functools.wraps(task)
    def wrap(cfg):
        return task(cfg)

    return wrap
