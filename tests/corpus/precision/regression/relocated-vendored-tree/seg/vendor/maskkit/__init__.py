from maskkit.ops.losses import lovasz_hinge
from maskkit.ops.points import sample_points
