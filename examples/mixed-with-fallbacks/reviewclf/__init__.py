"""Yelp review star-rating classifier (ModernBERT fine-tune)."""

__version__ = "0.4.1"
