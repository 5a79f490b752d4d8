#!/usr/bin/python3
"""Writes ONNX's backend node tests (Debian's libonnx-testdata) for the operators of
sw/onnx/ops_{conv,pool,norm,reduce}.cpp as plain text cases for node_data_test.cpp, so the
lowerings are checked against ONNX's own data before the graph runtime exists.

Usage: node_cases.py OUT_DIR   (one OUT_DIR/<test name>.txt per test; prints the names)
Lines: `op T`, `attr NAME int|float|string|ints V...`, `input NAME TYPE RANK DIMS... VALUES...`,
`output NAME RANK DIMS... VALUES...` (an omitted optional input: `input - none 0`).
"""
import glob
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

DATA = "/usr/share/libonnx-testdata/data/node"
PREFIXES = ("test_conv_", "test_basic_conv_", "test_maxpool_", "test_averagepool_", "test_globalaveragepool",
            "test_batchnorm_", "test_layer_normalization_", "test_reduce_mean_")


def values(a):
    return " ".join(repr(float(v)) if a.dtype.kind == "f" else str(int(v)) for v in a.reshape(-1))


def main(out):
    os.makedirs(out, exist_ok=True)
    for d in sorted(glob.glob(os.path.join(DATA, "test_*"))):
        name = os.path.basename(d)
        if not name.startswith(PREFIXES) or "expanded" in name:
            continue
        model = onnx.load(os.path.join(d, "model.onnx"))
        if len(model.graph.node) != 1:
            continue
        node = model.graph.node[0]
        lines = [f"op {node.op_type}"]
        for a in node.attribute:
            v = onnx.helper.get_attribute_value(a)
            if isinstance(v, bytes):
                lines.append(f"attr {a.name} string {v.decode()}")
            elif isinstance(v, int):
                lines.append(f"attr {a.name} int {v}")
            elif isinstance(v, float):
                lines.append(f"attr {a.name} float {v!r}")
            elif isinstance(v, list) and all(isinstance(x, int) for x in v):
                lines.append(f"attr {a.name} ints {' '.join(map(str, v))}")
            else:
                lines.append(f"attr {a.name} unsupported 0")
        data = os.path.join(d, "test_data_set_0")
        graph_inputs = [i.name for i in model.graph.input]
        for i, input_name in enumerate(node.input):
            if not input_name:
                lines.append("input - none 0")
                continue
            t = onnx.TensorProto()
            with open(os.path.join(data, f"input_{graph_inputs.index(input_name)}.pb"), "rb") as f:
                t.ParseFromString(f.read())
            a = numpy_helper.to_array(t)
            kind = {np.dtype("float32"): "float", np.dtype("int64"): "int64"}.get(a.dtype, "other")
            lines.append(f"input {input_name} {kind} {a.ndim} {' '.join(map(str, a.shape))} {values(a)}")
        for i, output_name in enumerate(node.output):
            path = os.path.join(data, f"output_{i}.pb")
            if not output_name or not os.path.exists(path):
                continue
            t = onnx.TensorProto()
            with open(path, "rb") as f:
                t.ParseFromString(f.read())
            a = numpy_helper.to_array(t)
            lines.append(f"output {output_name} {a.ndim} {' '.join(map(str, a.shape))} {values(a)}")
        with open(os.path.join(out, name + ".txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print(name)


if __name__ == "__main__":
    main(sys.argv[1])
