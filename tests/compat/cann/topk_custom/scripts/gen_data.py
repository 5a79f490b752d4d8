#!/usr/bin/python3
"""Input and golden output of topk_custom: 16 float rows of 96 (the first 90 valid), distinct
values; golden = the 8 largest of each row's valid part, descending, and their indices."""
import numpy as np

ROWS, INNER, VALID, K = 16, 96, 90, 8


def gen_golden_data():
    rng = np.random.default_rng(5)
    x = np.stack([rng.permutation(INNER).astype(np.float32) * 0.5 - 20.0 for _ in range(ROWS)])
    order = np.argsort(-x[:, :VALID], axis=1, kind="stable")[:, :K]
    values = np.take_along_axis(x[:, :VALID], order, axis=1)
    x.tofile("./input/input_x.bin")
    values.astype(np.float32).tofile("./output/golden_values.bin")
    order.astype(np.int32).tofile("./output/golden_indices.bin")


if __name__ == "__main__":
    gen_golden_data()
