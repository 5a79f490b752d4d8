#!/usr/bin/python3
"""verify_result.py <output> <golden>: float32 results within a relative error of 1e-5
(the device's reduction order differs from numpy's), at most 0.1 % of them off."""
import sys

import numpy as np

RELATIVE_TOL = 1e-5
ABSOLUTE_TOL = 1e-7
ERROR_TOL = 1e-3


def verify_result(output, golden):
    output = np.fromfile(output, dtype=np.float32).reshape(-1)
    golden = np.fromfile(golden, dtype=np.float32).reshape(-1)
    if output.size != golden.size:
        print(f"[ERROR] {output.size} results, {golden.size} expected")
        return False
    different = np.isclose(output, golden, rtol=RELATIVE_TOL, atol=ABSOLUTE_TOL, equal_nan=True)
    bad = np.where(different == False)[0]
    for index in bad[:10]:
        print(f"data index: {index:06d}, expected: {golden[index]:.9f}, actual: {output[index]:.9f}")
    if bad.size > golden.size * ERROR_TOL:
        print(f"[ERROR] result error ratio: {bad.size / golden.size:.4f}, tolerance: {ERROR_TOL}")
        return False
    print("test pass")
    return True


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1], sys.argv[2]) else 1)
