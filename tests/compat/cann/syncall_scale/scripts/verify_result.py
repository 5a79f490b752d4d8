#!/usr/bin/python3
"""verify_result.py <output> <golden>: clamping is exact, so every float must match bit for bit."""
import sys

import numpy as np

out = np.fromfile(sys.argv[1], dtype=np.float32)
gold = np.fromfile(sys.argv[2], dtype=np.float32)
if out.size != gold.size:
    print(f"[ERROR] {out.size} results, {gold.size} expected")
    sys.exit(1)
bad = np.flatnonzero(out.view(np.uint32) != gold.view(np.uint32))
if bad.size:
    print(f"[ERROR] {bad.size} mismatches, first at {bad[0]}: {out[bad[0]]} != {gold[bad[0]]}")
    sys.exit(1)
print("test pass")
