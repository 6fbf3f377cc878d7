from .plugin import ShardPlugin, shard_axis

__all__ = ["ShardPlugin", "shard_axis"]
