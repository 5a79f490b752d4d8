#!/usr/bin/python3
"""verify_result.py <output.bin> <golden.bin>: float results equal to the golden bit for bit
(the golden follows the cube's numeric contract)."""
import sys

import numpy as np


def main(output_path, golden_path):
    output = np.fromfile(output_path, dtype=np.float32)
    golden = np.fromfile(golden_path, dtype=np.float32)
    if output.size != golden.size:
        print(f"[FAIL] {output.size} elements, expected {golden.size}")
        return 1
    bad = np.flatnonzero(output.view(np.uint32) != golden.view(np.uint32))
    if bad.size:
        i = bad[0]
        print(f"[FAIL] {bad.size} of {golden.size} elements differ; first at {i} (row {i // 384}): "
              f"{output[i]!r} != {golden[i]!r}")
        return 1
    print(f"test pass ({golden.size} elements, bit-exact)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
