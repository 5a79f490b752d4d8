#!/usr/bin/python3
"""Checks `npuvp run MODEL.onnx` output (issue 26): the per-layer table has one row per node
of MODEL, in graph order, with its op type and cycles, and a `total` row whose cycles are the
rows' sum.   check_layer_table.py MODEL.onnx RUN_OUTPUT.txt"""
import sys

import onnx


def main():
    model = onnx.load(sys.argv[1], load_external_data=False)
    lines = open(sys.argv[2]).read().splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.split()[:4] == ["layer", "op", "shape", "cycles"])
    except StopIteration:
        sys.exit("no per-layer table header in the output")
    rows = []
    total = None
    for line in lines[start + 1:]:
        f = line.split()
        if not f:
            break
        if f[0] == "total":
            total = int(f[1])
            break
        rows.append((f[0], f[1], int(f[3])))
    nodes = [(n.name or f"#{i}", n.op_type) for i, n in enumerate(model.graph.node)]
    if [(r[0], r[1]) for r in rows] != nodes:
        got = {(r[0], r[1]) for r in rows}
        missing = [n for n in nodes if n not in got]
        sys.exit(f"table has {len(rows)} rows for {len(nodes)} nodes; first missing or out of order: "
                 f"{missing[:3] if missing else 'order differs'}")
    if total is None or total != sum(r[2] for r in rows):
        sys.exit(f"total row {total} != sum of rows {sum(r[2] for r in rows)}")
    computing = [r for r in rows if r[1] not in ("Reshape", "Flatten")]
    if any(r[2] <= 0 for r in computing):
        sys.exit(f"a computing layer took no cycles: {[r for r in computing if r[2] <= 0][:3]}")
    print(f"layer table: {len(rows)} rows, one per node, total {total} cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
