#!/usr/bin/python3
"""verify_result.py <output dir>: the valid columns of y (half) within 1e-3 relative of the
golden softmax, the row sums within 1e-5 and the row maxima exactly."""
import sys

import numpy as np

ROWS, COLS, VALID = 32, 80, 77


def close(name, output, golden, rtol, atol):
    bad = np.where(~np.isclose(output, golden, rtol=rtol, atol=atol, equal_nan=True))[0]
    for index in bad[:10]:
        print(f"{name} index {index:06d}: expected {golden[index]:.9f}, actual {output[index]:.9f}")
    if bad.size:
        print(f"[ERROR] {name}: {bad.size} of {golden.size} values off")
        return False
    return True


def verify_result(out_dir):
    y = np.fromfile(f"{out_dir}/output_y.bin", dtype=np.float16).reshape(ROWS, COLS)[:, :VALID]
    golden = np.fromfile(f"{out_dir}/golden.bin", dtype=np.float16).reshape(ROWS, VALID)
    ok = close("y", y.astype(np.float32).reshape(-1), golden.astype(np.float32).reshape(-1), 1e-3, 1e-4)
    for stat, rtol in (("sum", 1e-5), ("max", 0.0)):
        got = np.fromfile(f"{out_dir}/output_{stat}.bin", dtype=np.float32)
        want = np.fromfile(f"{out_dir}/golden_{stat}.bin", dtype=np.float32)
        ok = close(stat, got, want, rtol, 0.0) and ok
    if ok:
        print("test pass")
    return ok


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1]) else 1)
