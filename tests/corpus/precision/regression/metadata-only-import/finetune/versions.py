import json

import bitsandbytes
import torch


def package_info():
    # Logged next to the results: which versions produced them.
    return json.dumps({"torch": torch.__version__, "bitsandbytes": bitsandbytes.__version__})
