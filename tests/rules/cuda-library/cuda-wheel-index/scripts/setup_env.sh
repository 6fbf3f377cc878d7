#!/bin/bash
set -e
# expect: cuda-library.cuda-wheel-index
pip install torch==2.1.0 torchvision --index-url https://download.pytorch.org/whl/cu118
# ok: cuda-library.cuda-wheel-index
pip install torch-neuronx==2.9.0.2.10.1 --extra-index-url https://pip.repos.neuron.amazonaws.com
# ok: cuda-library.cuda-wheel-index
echo "see https://download.pytorch.org/whl/cu118 for other builds"
