from .plugin import FastKernPlugin
