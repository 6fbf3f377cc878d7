import cupy.cuda.nccl
import ray


def create_nccl_communicator_in_ray(rank, world_size, group_name):
    if rank == 0:
        uid = cupy.cuda.nccl.get_unique_id()
        ray.get_actor(group_name).put.remote(uid)
    uid = ray.get(ray.get_actor(group_name).get.remote())
    return cupy.cuda.nccl.NcclCommunicator(world_size, uid, rank)
