#!/usr/bin/python3
"""Input and golden output of colsum_custom: small integer floats, so any summation order gives
the exact column sums."""
import numpy as np

x = np.random.default_rng(5).integers(-8, 9, [24, 512]).astype(np.float32)
x.tofile("./input/input_x.bin")
x.sum(axis=0).astype(np.float32).tofile("./output/golden.bin")
