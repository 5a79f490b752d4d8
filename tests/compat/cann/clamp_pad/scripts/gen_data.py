#!/usr/bin/python3
"""Input and golden output of clamp_custom: 1000 floats, golden = clip(x, -1.5, 2.25)."""
import numpy as np

x = np.random.default_rng(11).uniform(-4, 4, [1000]).astype(np.float32)
x.tofile("./input/input_x.bin")
np.clip(x, np.float32(-1.5), np.float32(2.25)).astype(np.float32).tofile("./output/golden.bin")
