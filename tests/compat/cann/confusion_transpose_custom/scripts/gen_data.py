#!/usr/bin/python3
"""Input and golden output of confusion_transpose_custom.
heads: per batch the [N, S, D] tensor (N = 2 heads, S = 64, D = 32) stored as N NZ matrices
[S, D] (D / 16 column blocks of S x 16), half; golden: ND [B, S, N, D].
plane: per batch a float [48, 80] matrix; golden: its transpose [80, 48]."""
import numpy as np

BATCH, HEADS, SEQ, DIM = 2, 2, 64, 32
ROWS, COLS = 48, 80


def to_nz(m):
    """[S, D] -> NZ bytes order: [D / 16, S, 16]."""
    s, d = m.shape
    return m.reshape(s, d // 16, 16).transpose(1, 0, 2).copy()


def gen_golden_data():
    rng = np.random.default_rng(11)
    logical = rng.uniform(-4, 4, (BATCH, HEADS, SEQ, DIM)).astype(np.float16)
    nz = np.stack([np.stack([to_nz(logical[b, n]) for n in range(HEADS)]) for b in range(BATCH)])
    nz.tofile("./input/input_heads.bin")
    logical.transpose(0, 2, 1, 3).copy().tofile("./output/golden_heads.bin")
    plane = rng.uniform(-100, 100, (BATCH, ROWS, COLS)).astype(np.float32)
    plane.tofile("./input/input_plane.bin")
    plane.transpose(0, 2, 1).copy().tofile("./output/golden_plane.bin")


if __name__ == "__main__":
    gen_golden_data()
