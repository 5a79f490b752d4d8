#!/usr/bin/python3
"""Inputs of scale_add_custom: x, y, and the tiling (totalLength, tileLength, scale) as the
host's ScaleAddTiling struct lays it out; golden = x * scale + y, each step rounded to half."""
import numpy as np


def main():
    total, tile, scale = 4 * 3072, 256, 0.75
    rng = np.random.default_rng(7)
    x = rng.uniform(-8, 8, total).astype(np.float16)
    y = rng.uniform(-8, 8, total).astype(np.float16)
    tiling = np.zeros(1, dtype=[("total", "<u4"), ("tile", "<u4"), ("scale", "<f4")])
    tiling[0] = (total, tile, scale)
    tiling.tofile("./input/tiling.bin")
    x.tofile("./input/x.bin")
    y.tofile("./input/y.bin")
    golden = ((x * np.float16(scale)).astype(np.float16) + y).astype(np.float16)
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    main()
