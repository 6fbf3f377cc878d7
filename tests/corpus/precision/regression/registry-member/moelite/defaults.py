ffn_config_defaults: dict = {
    "ffn_type": "mlp",
    "norm_type": "low_precision_layernorm",
}
