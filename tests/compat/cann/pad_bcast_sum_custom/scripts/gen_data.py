#!/usr/bin/python3
"""Inputs and golden outputs of pad_bcast_sum_custom: x [32, 30] and bias [32] floats; the
golden row sums of x + bias[:30] and the rows minus their means, in float64."""
import numpy as np

ROWS, WIDTH, PADDED = 32, 30, 32


def gen_golden_data():
    rng = np.random.default_rng(5)
    x = rng.uniform(-4.0, 4.0, [ROWS, WIDTH]).astype(np.float32)
    bias = rng.uniform(-1.0, 1.0, [PADDED]).astype(np.float32)
    p = x.astype(np.float64) + bias[:WIDTH]
    x.tofile("./input/input_x.bin")
    bias.tofile("./input/input_bias.bin")
    p.sum(axis=1).astype(np.float32).tofile("./output/golden_sum.bin")
    (p - p.mean(axis=1, keepdims=True)).astype(np.float32).tofile("./output/golden_y.bin")


if __name__ == "__main__":
    gen_golden_data()
