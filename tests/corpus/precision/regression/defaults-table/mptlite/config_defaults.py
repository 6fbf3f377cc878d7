"""Defaults for the model's component configs."""

attn_config_defaults: dict = {
    "attn_impl": "torch",
    "rope": False,
    "rope_impl": "dail",
    "attn_uses_sequence_id": False,
    "alibi": True,
}
