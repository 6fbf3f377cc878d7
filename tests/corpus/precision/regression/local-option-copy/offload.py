import torch


def offload_hidden_states(cfg, hidden):
    """Moves a layer's input to host memory on a side stream when activation offloading asks for it."""
    ao = cfg.activation_offloading
    if ao == "hidden_states":
        with torch.no_grad():
            stream = torch.cuda.Stream()
            hidden = hidden.to("cpu", non_blocking=True)
    return hidden


def prefetch(cfg, hidden):
    mode = cfg.prefetch_mode
    if cfg.world_size > 1:
        mode = pick_mode(cfg.world_size)
    if mode == "stream":
        with torch.no_grad():
            hidden = hidden.contiguous()
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
    return hidden


def pick_mode(world_size):
    return "stream" if world_size > 8 else "sync"
