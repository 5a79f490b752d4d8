#!/usr/bin/python3
"""verify_result.py <output dir>: the k values and indices of every row exactly as golden
(k = 8 is its own 32 B padding, so the outputs are [rows, 8])."""
import sys

import numpy as np

ROWS, K = 16, 8


def verify_result(out_dir):
    ok = True
    for name, dtype in (("values", np.float32), ("indices", np.int32)):
        got = np.fromfile(f"{out_dir}/output_{name}.bin", dtype=dtype).reshape(ROWS, K)
        want = np.fromfile(f"{out_dir}/golden_{name}.bin", dtype=dtype).reshape(ROWS, K)
        bad = np.argwhere(got != want)
        for r, c in bad[:10]:
            print(f"{name} row {r} col {c}: expected {want[r, c]}, actual {got[r, c]}")
        if bad.size:
            print(f"[ERROR] {name}: {len(bad)} of {want.size} differ")
            ok = False
    if ok:
        print("test pass")
    return ok


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1]) else 1)
