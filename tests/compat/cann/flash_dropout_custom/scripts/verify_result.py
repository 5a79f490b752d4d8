#!/usr/bin/python3
"""verify_result.py <output dir>: e1, e2, the dropped-out e2 and the per-row sum, max, expMax
and first-step sum (element 0 of each row's 8 floats) within 1e-4 relative of the goldens."""
import sys

import numpy as np

ROWS, K, RPC = 32, 64, 8


def check(name, got, want):
    ok = np.allclose(got, want, rtol=1e-4, atol=1e-6)
    if not ok:
        bad = np.where(~np.isclose(got, want, rtol=1e-4, atol=1e-6))
        print(f"[ERROR] {name}: {bad[0].size} off, first {got[bad][:4]} vs {want[bad][:4]}")
    return ok


def main(d):
    g = np.load(f"{d}/golden.npy", allow_pickle=True).item()
    ok = True
    for name in ("e1", "e2", "drop"):
        got = np.fromfile(f"{d}/output_{name}.bin", np.float32).reshape(ROWS, K)
        ok = check(name, got, g[name]) and ok
    st = np.fromfile(f"{d}/output_stats.bin", np.float32).reshape(4, 4, RPC, 8)  # block, stat, row, 8
    for i, name in enumerate(("s", "m", "em", "s1")):
        got = st[:, i, :, 0].reshape(ROWS, 1)
        ok = check(name, got, g[name]) and ok
    print("test pass" if ok else "test FAILED")
    return ok


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1]) else 1)
