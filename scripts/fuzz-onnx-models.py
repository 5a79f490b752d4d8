#!/usr/bin/python3
"""Writes mutated ONNX models for scripts/param-fuzz.sh: fuzz-onnx-models.py OUT_DIR PER_MODEL MODEL...

For each model, PER_MODEL variants, deterministic (seeded): half of them damaged bytes
(truncated, bits flipped, a byte set to 0/0x7f/0x80/0xff, bytes inserted, a run repeated), which
mostly exercise the protobuf parser; the other half well-formed protobuf with one field set to
a value a model should never have (a tensor dimension 0, -1, 2^31 or 2^40, an unknown or
mismatched element type, an attribute 0/-1/huge/NaN, a node's op type or input renamed, an
initializer's data cut short), which reach the front end's checks, shape inference and the
kernels. Needs Debian's python3-onnx for the second half (without it, bytes only).
"""
import os
import random
import sys


def damaged_bytes(data, rng, i):
    d = bytearray(data)
    kind = i % 5
    if kind == 0:
        return bytes(d[: rng.randrange(1, len(d))])
    if kind == 1:
        for _ in range(rng.randrange(1, 4)):
            d[rng.randrange(len(d))] ^= 1 << rng.randrange(8)
    elif kind == 2:
        d[rng.randrange(len(d))] = rng.choice([0, 0x7F, 0x80, 0xFF])
    elif kind == 3:
        at = rng.randrange(len(d))
        d[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    else:
        a = rng.randrange(len(d))
        d[a:a] = d[a : min(len(d), a + rng.randrange(1, 64))]
    return bytes(d)


def bad_field(onnx, data, rng):
    """One field of a parsed model set to an unreasonable value; None if nothing applies."""
    m = onnx.ModelProto()
    m.ParseFromString(data)
    g = m.graph
    choices = []
    values = list(g.input) + list(g.output) + list(g.value_info)
    dims = [d for v in values for d in v.type.tensor_type.shape.dim]
    if dims:
        choices.append("dim")
    if values:
        choices.append("elem_type")
    attrs = [a for n in g.node for a in n.attribute]
    if attrs:
        choices.append("attribute")
    if g.node:
        choices += ["op_type", "input_name"]
    if g.initializer:
        choices += ["initializer_dims", "initializer_data"]
    if not choices:
        return None
    what = rng.choice(choices)
    if what == "dim":
        d = rng.choice(dims)
        d.dim_value = rng.choice([0, 1, 2**31, 2**40, 3])
        if rng.random() < 0.3:
            d.dim_param = "N"  # a symbolic dimension
    elif what == "elem_type":
        rng.choice(values).type.tensor_type.elem_type = rng.choice([0, 2, 7, 9, 11, 16, 99])
    elif what == "attribute":
        a = rng.choice(attrs)
        if a.type == onnx.AttributeProto.INT:
            a.i = rng.choice([0, -1, 2**31, -(2**62)])
        elif a.type == onnx.AttributeProto.FLOAT:
            a.f = rng.choice([float("nan"), float("inf"), -1e38, 0.0])
        elif a.type == onnx.AttributeProto.INTS:
            del a.ints[:]
            a.ints.extend(rng.choice([[], [0, 0], [-1] * 4, [2**31] * 2, [1] * 9]))
        else:
            a.type = onnx.AttributeProto.INT  # the wrong kind for the attribute
            a.i = 1
    elif what == "op_type":
        rng.choice(g.node).op_type = rng.choice(["Conv", "Gemm", "Softmax", "MatMul", "Add", "", "Loop"])
    elif what == "input_name":
        n = rng.choice(g.node)
        if n.input:
            n.input[rng.randrange(len(n.input))] = rng.choice(["", "nothing", n.output[0] if n.output else "y"])
        else:
            n.input.append("nothing")
    elif what == "initializer_dims":
        t = rng.choice(g.initializer)
        del t.dims[:]
        t.dims.extend(rng.choice([[0], [2**31, 2**31], [-1], [1, 1, 1, 1, 1, 1, 1, 1, 1]]))
    else:
        t = rng.choice(g.initializer)
        if t.raw_data:
            t.raw_data = t.raw_data[: len(t.raw_data) // 2]
        else:
            del t.float_data[len(t.float_data) // 2 :]
    return m.SerializeToString()


def main():
    out, per_model, models = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    try:
        import onnx
    except ImportError:
        onnx = None
    os.makedirs(out, exist_ok=True)
    rng = random.Random(29)
    for path in models:
        data = open(path, "rb").read()
        name = os.path.basename(path)[: -len(".onnx")]
        if name == "model":  # ONNX's node tests: model.onnx in a folder named for the test
            name = os.path.basename(os.path.dirname(path))
        for i in range(per_model):
            mutated = None
            if onnx is not None and i % 2 == 1:
                try:
                    mutated = bad_field(onnx, data, rng)
                except Exception:  # a model this script cannot parse: bytes only
                    mutated = None
            if mutated is None:
                mutated = damaged_bytes(data, rng, i // 2)
            with open(os.path.join(out, "%s.m%d.onnx" % (name, i)), "wb") as f:
                f.write(mutated)


if __name__ == "__main__":
    main()
