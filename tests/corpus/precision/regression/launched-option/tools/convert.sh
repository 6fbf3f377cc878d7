#!/bin/bash
python tools/convert.py --ckpt out/last.pt --precision fp16
