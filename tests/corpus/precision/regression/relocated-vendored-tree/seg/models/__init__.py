from .net import SegNet
