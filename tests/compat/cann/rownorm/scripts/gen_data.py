#!/usr/bin/python3
"""Input and golden output of rownorm_custom: positive float rows, golden = row / row sum."""
import numpy as np


def gen_golden_data():
    rng = np.random.default_rng(7)
    x = rng.uniform(0.5, 4.0, [16, 256]).astype(np.float32)
    golden = (x / x.sum(axis=1, keepdims=True)).astype(np.float32)
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
