#!/usr/bin/python3
"""verify_result.py <output dir>: both outputs bit for bit as golden (a layout change moves
the elements unchanged)."""
import sys

import numpy as np


def verify_result(out_dir):
    ok = True
    for name, dtype in (("heads", np.uint16), ("plane", np.uint32)):
        got = np.fromfile(f"{out_dir}/output_{name}.bin", dtype=dtype)
        want = np.fromfile(f"{out_dir}/golden_{name}.bin", dtype=dtype)
        bad = np.flatnonzero(got != want) if got.size == want.size else np.arange(want.size)
        for i in bad[:10]:
            print(f"{name}[{i}]: expected 0x{int(want[i]):x}, actual 0x{int(got[i]):x}" if i < got.size else
                  f"{name}[{i}]: missing")
        if bad.size:
            print(f"[ERROR] {name}: {bad.size} of {want.size} differ")
            ok = False
    if ok:
        print("test pass")
    return ok


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1]) else 1)
