#!/usr/bin/python3
"""Inputs of matmul_leakyrelu_invocation (A: 512 x 192 half, B: 192 x 384 half, bias: 384
float) and the golden C = LeakyReLU(A B + bias, 0.001) of the cube's numeric contract: the f16
products (exact in f32) added in increasing k to the bias, each addition rounded to f32; then
x >= 0 ? x : x * alpha in f32 (alpha the float nearest 0.001)."""
import numpy as np


def main():
    m, n, k, alpha = 512, 384, 192, np.float32(0.001)
    rng = np.random.default_rng(29)
    a = rng.uniform(-2, 2, (m, k)).astype(np.float16)
    b = rng.uniform(-2, 2, (k, n)).astype(np.float16)
    bias = rng.uniform(-4, 4, n).astype(np.float32)
    a.tofile("./input/x1_gm.bin")
    b.tofile("./input/x2_gm.bin")
    bias.tofile("./input/bias.bin")
    af, bf = a.astype(np.float32), b.astype(np.float32)
    c = np.broadcast_to(bias, (m, n)).copy()
    for kk in range(k):
        c = (c + af[:, kk:kk + 1] * bf[kk:kk + 1, :]).astype(np.float32)
    golden = np.where(c >= 0, c, (c * alpha).astype(np.float32)).astype(np.float32)
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    main()
