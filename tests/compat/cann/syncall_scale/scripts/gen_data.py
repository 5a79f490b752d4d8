#!/usr/bin/python3
"""Input and golden output of scale_by_max_custom: y = x * (1 / max(x)) in float32."""
import numpy as np

x = np.random.default_rng(3).uniform(0.1, 50.0, [8, 512]).astype(np.float32)
x.tofile("./input/input_x.bin")
(x * (np.float32(1.0) / x.max())).astype(np.float32).tofile("./output/golden.bin")
