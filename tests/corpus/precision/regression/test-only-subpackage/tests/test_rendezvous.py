def test_rendezvous():
    from rl.utils.rendezvous.ray_backend import create_nccl_communicator_in_ray

    assert callable(create_nccl_communicator_in_ray)


def test_fused():
    from rl.ops.fused import fused_norm

    assert callable(fused_norm)
