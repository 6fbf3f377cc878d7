from ops import RotatedAlign


def describe_pooler(pooler):
    """Export helper: asks which pooler it was given, builds none."""
    if isinstance(pooler.levels[0], RotatedAlign):
        return "rotated"
    return "aligned"
