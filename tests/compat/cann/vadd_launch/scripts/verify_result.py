#!/usr/bin/python3
"""verify_result.py <output.bin> <golden.bin>: the kernel's half results against numpy's.

Half addition rounds once (IEEE round to nearest even) on the device and in numpy, so
every element must match bit for bit."""
import sys

import numpy as np


def main(output_path, golden_path):
    output = np.fromfile(output_path, dtype=np.float16)
    golden = np.fromfile(golden_path, dtype=np.float16)
    if output.size != golden.size:
        print(f"[FAIL] {output.size} elements, expected {golden.size}")
        return 1
    differ = np.flatnonzero(output.view(np.uint16) != golden.view(np.uint16))
    if differ.size:
        i = differ[0]
        print(f"[FAIL] {differ.size} of {golden.size} elements differ; first at {i}: {output[i]} != {golden[i]}")
        return 1
    print(f"test pass ({golden.size} elements)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
