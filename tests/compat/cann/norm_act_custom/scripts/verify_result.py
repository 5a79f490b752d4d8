#!/usr/bin/python3
"""verify_result.py <output dir>: y and z within 1e-4 relative (1e-5 absolute) of the float64
goldens, and the per-row mean, variance and average likewise (the per-block outputs hold 8
rows each, as many as each block has)."""
import sys

import numpy as np

ROWS, H = 32, 64


def close(name, output, golden, rtol=1e-4, atol=1e-5):
    if output.size != golden.size:
        print(f"[ERROR] {name}: {output.size} values, {golden.size} expected")
        return False
    bad = np.where(~np.isclose(output, golden, rtol=rtol, atol=atol))[0]
    for index in bad[:10]:
        print(f"{name} index {index:06d}: expected {golden[index]:.9f}, actual {output[index]:.9f}")
    if bad.size:
        print(f"[ERROR] {name}: {bad.size} of {golden.size} values off")
        return False
    return True


def verify_result(out_dir):
    ok = True
    for name in ("y", "z", "mean", "var", "avg"):
        got = np.fromfile(f"{out_dir}/output_{name}.bin", dtype=np.float32)
        want = np.fromfile(f"{out_dir}/golden_{name}.bin", dtype=np.float32)
        ok = close(name, got, want) and ok
    if ok:
        print("test pass")
    return ok


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1]) else 1)
