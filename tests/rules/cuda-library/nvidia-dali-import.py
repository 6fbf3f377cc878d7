"""ImageNet input pipeline decoded on the GPU."""
# expect: cuda-library.nvidia-dali-import
from nvidia.dali import pipeline_def
# expect: cuda-library.nvidia-dali-import
import nvidia.dali.fn as fn
# expect: cuda-library.nvidia-dali-import
from nvidia.dali.plugin.pytorch import DALIClassificationIterator

try:
    # ok: cuda-library.nvidia-dali-import
    import nvidia.dali.types as types
except ImportError:
    types = None

# ok: cuda-library.nvidia-dali-import
from torchvision import transforms


@pipeline_def
def train_pipe(data_dir, crop):
    jpegs, labels = fn.readers.file(file_root=data_dir, random_shuffle=True, name="Reader")
    images = fn.decoders.image_random_crop(jpegs, device="mixed")
    images = fn.resize(images, resize_x=crop, resize_y=crop)
    return images, labels
