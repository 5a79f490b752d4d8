#!/usr/bin/python3
"""Inputs and expected output of vadd_custom: x, y uniform half values, golden = x + y."""
import numpy as np


def main():
    rng = np.random.default_rng(2024)
    shape = (8, 4096)
    x = rng.uniform(-100, 100, shape).astype(np.float16)
    y = rng.uniform(-100, 100, shape).astype(np.float16)
    x.tofile("./input/x.bin")
    y.tofile("./input/y.bin")
    (x + y).astype(np.float16).tofile("./output/golden.bin")


if __name__ == "__main__":
    main()
