#!/usr/bin/python3
"""verify_result.py <output.bin> <golden.bin>: half results within 1e-3 relative (or 1e-3
absolute near zero) of numpy's, element by element."""
import sys

import numpy as np


def main(output_path, golden_path):
    output = np.fromfile(output_path, dtype=np.float16).astype(np.float32)
    golden = np.fromfile(golden_path, dtype=np.float16).astype(np.float32)
    if output.size != golden.size:
        print(f"[FAIL] {output.size} elements, expected {golden.size}")
        return 1
    bad = np.flatnonzero(~np.isclose(output, golden, rtol=1e-3, atol=1e-3))
    if bad.size:
        i = bad[0]
        print(f"[FAIL] {bad.size} of {golden.size} elements differ; first at {i}: {output[i]} != {golden[i]}")
        return 1
    print(f"test pass ({golden.size} elements)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
