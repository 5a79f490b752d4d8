#!/usr/bin/python3
"""Inputs and golden outputs of norm_act_custom: 32 float rows of 64, gamma and beta; the
golden LayerNorm + Gelu (tanh form, as x * sigmoid(1.5957691 * (x + 0.044715 x^3))), the row
mean and variance ([4 blocks, 8] floats), RmsNorm + Silu, and the row means of that."""
import numpy as np

ROWS, H, EPS = 32, 64, 1e-5


def gen_golden_data():
    rng = np.random.default_rng(23)
    x = rng.uniform(-3.0, 3.0, [ROWS, H]).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, [H]).astype(np.float32)
    beta = rng.uniform(-0.5, 0.5, [H]).astype(np.float32)
    xd = x.astype(np.float64)
    mean = xd.mean(axis=1, keepdims=True)
    var = ((xd - mean) ** 2).mean(axis=1, keepdims=True)
    ln = (xd - mean) / np.sqrt(var + EPS) * gamma + beta
    y = ln / (1.0 + np.exp(-1.5957691216057308 * (ln + 0.044715 * ln ** 3)))
    rms = xd / np.sqrt((xd * xd).mean(axis=1, keepdims=True) + EPS) * gamma
    z = rms / (1.0 + np.exp(-rms))
    x.tofile("./input/input_x.bin")
    gamma.tofile("./input/input_gamma.bin")
    beta.tofile("./input/input_beta.bin")
    y.astype(np.float32).tofile("./output/golden_y.bin")
    z.astype(np.float32).tofile("./output/golden_z.bin")
    mean.astype(np.float32).tofile("./output/golden_mean.bin")
    var.astype(np.float32).tofile("./output/golden_var.bin")
    z.mean(axis=1).astype(np.float32).tofile("./output/golden_avg.bin")


if __name__ == "__main__":
    gen_golden_data()
