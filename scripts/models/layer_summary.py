#!/usr/bin/python3
"""Condenses `npuvp run MODEL.onnx` output for docs/workloads.md (issue 26): the top layers by
cycles, cycles per op type, and the total row.   layer_summary.py RUN_OUTPUT.txt [TOP]"""
import collections
import sys


def main():
    lines = open(sys.argv[1]).read().splitlines()
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    start = next(i for i, l in enumerate(lines) if l.split()[:4] == ["layer", "op", "shape", "cycles"])
    header = lines[start]
    rows, total = [], None
    for line in lines[start + 1:]:
        f = line.split()
        if not f:
            break
        if f[0] == "total":
            total = line
            break
        rows.append((int(f[3]), f[1], line))
    all_cycles = sum(r[0] for r in rows)
    print(header)
    for cycles, _, line in sorted(rows, key=lambda r: -r[0])[:top]:
        print(line)
    print(total)
    per_op = collections.Counter()
    count = collections.Counter()
    for cycles, op, _ in rows:
        per_op[op] += cycles
        count[op] += 1
    print("by op type: " + ", ".join(f"{op} x{count[op]} {100.0 * c / all_cycles:.1f}%" for op, c in per_op.most_common()))
    for l in lines:
        if l.startswith(("precision", "simulated", "result")):
            print(l)


if __name__ == "__main__":
    sys.exit(main())
