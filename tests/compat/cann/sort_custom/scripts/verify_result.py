#!/usr/bin/python3
"""verify_result.py <output dir>: the sorted values (bit for bit) and indices of every block
exactly as golden."""
import sys

import numpy as np

BLOCKS, N = 4, 160


def verify_result(out_dir):
    ok = True
    for name, dtype in (("values", np.uint16), ("indices", np.uint32)):
        got = np.fromfile(f"{out_dir}/output_{name}.bin", dtype=dtype).reshape(BLOCKS, N)
        want = np.fromfile(f"{out_dir}/golden_{name}.bin", dtype=dtype).reshape(BLOCKS, N)
        bad = np.argwhere(got != want)
        for r, c in bad[:10]:
            print(f"{name} block {r} element {c}: expected {want[r, c]:#x}, actual {got[r, c]:#x}")
        if bad.size:
            print(f"[ERROR] {name}: {len(bad)} of {want.size} differ")
            ok = False
    if ok:
        print("test pass")
    return ok


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1]) else 1)
