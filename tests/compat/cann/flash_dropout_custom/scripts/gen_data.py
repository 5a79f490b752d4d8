#!/usr/bin/python3
"""Inputs and goldens of flash_dropout_custom: x [32, 128] float in two column halves, a 0/1
byte mask [32, 64]; in float64 the first FlashV2 step (e1, its max and sum), the update step
(e2 = exp(x2 - max), max, expMax = exp(max1 - max), sum = expMax * sum1 + rowsum(e2)) and
DropOut of e2 (e2 / 0.8 * mask)."""
import numpy as np

ROWS, K, BLOCKS = 32, 64, 4


def main():
    rng = np.random.default_rng(3)
    x = rng.uniform(-5, 5, (ROWS, 2 * K)).astype(np.float32)
    mask = (rng.uniform(0, 1, (ROWS, K)) < 0.8).astype(np.uint8)
    x.tofile("./input/input_x.bin")
    mask.tofile("./input/input_mask.bin")
    x1, x2 = x[:, :K].astype(np.float64), x[:, K:].astype(np.float64)
    m1 = x1.max(axis=1, keepdims=True)
    e1 = np.exp(x1 - m1)
    s1 = e1.sum(axis=1, keepdims=True)
    m = np.maximum(m1, x2.max(axis=1, keepdims=True))
    e2 = np.exp(x2 - m)
    em = np.exp(m1 - m)
    s = em * s1 + e2.sum(axis=1, keepdims=True)
    np.save("./output/golden.npy", {"e1": e1, "e2": e2, "s": s, "m": m, "em": em, "s1": s1,
                                    "drop": e2 / 0.8 * mask}, allow_pickle=True)


if __name__ == "__main__":
    main()
