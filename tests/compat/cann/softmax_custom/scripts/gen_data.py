#!/usr/bin/python3
"""Input and golden output of softmax_custom: 32 half rows of 80 (the first 77 valid); the
golden softmax over the valid part in float32 (padding columns are not compared), and the row
max and sum, each repeated over 8 floats per row."""
import numpy as np

ROWS, COLS, VALID = 32, 80, 77


def gen_golden_data():
    rng = np.random.default_rng(11)
    x = rng.uniform(-6.0, 6.0, [ROWS, COLS]).astype(np.float16)
    xf = x[:, :VALID].astype(np.float32)
    row_max = xf.max(axis=1, keepdims=True)
    e = np.exp(xf - row_max)
    row_sum = e.sum(axis=1, keepdims=True)
    golden = (e / row_sum).astype(np.float16)
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")
    np.repeat(row_sum, 8, axis=1).astype(np.float32).tofile("./output/golden_sum.bin")
    np.repeat(row_max, 8, axis=1).astype(np.float32).tofile("./output/golden_max.bin")


if __name__ == "__main__":
    gen_golden_data()
