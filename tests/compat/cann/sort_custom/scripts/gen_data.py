#!/usr/bin/python3
"""Input and golden output of sort_custom: 4 blocks of 160 half scores (multiples of 0.25, so
ties occur) with uint32 indices that use all 32 bits; golden = each block's scores sorted
descending, equal scores in input order, and their indices."""
import numpy as np

BLOCKS, N = 4, 160


def gen_golden_data():
    rng = np.random.default_rng(23)
    x = (rng.integers(-40, 40, size=(BLOCKS, N)) * 0.25).astype(np.float16)
    index = (np.arange(BLOCKS * N, dtype=np.uint64) * 0x01010101 + 7).astype(np.uint32).reshape(BLOCKS, N)
    order = np.argsort(-x.astype(np.float32), axis=1, kind="stable")
    x.tofile("./input/input_x.bin")
    index.tofile("./input/input_index.bin")
    np.take_along_axis(x, order, axis=1).tofile("./output/golden_values.bin")
    np.take_along_axis(index, order, axis=1).tofile("./output/golden_indices.bin")


if __name__ == "__main__":
    gen_golden_data()
