#!/usr/bin/python3
"""A plain numpy evaluation of the CNN networks of build_models.py, to check what
`npuvp run MODEL.onnx --data DIR` wrote (issue 26).

  host_reference.py make-input MODEL.onnx DIR [--seed N]   # DIR/input_0.pb, uniform [-1, 1)
  host_reference.py check MODEL.onnx DIR [--rtol R --atol A]
      # evaluates the graph in float64 from DIR/input_0.pb and compares DIR/output_0.pb
  host_reference.py expect MODEL.onnx DIR
      # writes that evaluation, rounded to float32, as DIR/output_N.pb: `npuvp run --data DIR`
      # then compares its outputs with it (ONNX's rtol 1e-3, atol 1e-7) and prints result: PASS

Operators: Conv (group 1), BatchNormalization, Relu, MaxPool, Add, GlobalAveragePool, Flatten,
Gemm — what ResNet-50 uses. Any other op type is an error naming the node.
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def windows(x, k, stride, pads, dilation=1, fill=0.0):
    """[N, C, OH, OW, k, k] view of x padded with `fill`."""
    n, c, h, w = x.shape
    xp = np.full((n, c, h + pads[0] + pads[2], w + pads[1] + pads[3]), fill, dtype=x.dtype)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + w] = x
    span = dilation * (k - 1) + 1
    oh = (xp.shape[2] - span) // stride + 1
    ow = (xp.shape[3] - span) // stride + 1
    s = xp.strides
    return np.lib.stride_tricks.as_strided(
        xp, (n, c, oh, ow, k, k), (s[0], s[1], s[2] * stride, s[3] * stride, s[2] * dilation, s[3] * dilation))


def conv(node, x, w, b=None):
    if attr(node, "group", 1) != 1:
        sys.exit(f"host_reference: node '{node.name}' (Conv): group != 1 is not handled here")
    k = w.shape[2]
    pads = attr(node, "pads", [0, 0, 0, 0])
    stride = attr(node, "strides", [1, 1])[0]
    dilation = attr(node, "dilations", [1, 1])[0]
    win = windows(x, k, stride, pads, dilation)
    y = np.einsum("nchwij,mcij->nmhw", win, w, optimize=True)
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def evaluate(model, feeds):
    env = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in model.graph.initializer}
    env.update({k: v.astype(np.float64) for k, v in feeds.items()})
    for node in model.graph.node:
        ins = [env[i] if i else None for i in node.input]
        op = node.op_type
        if op == "Conv":
            y = conv(node, *ins)
        elif op == "BatchNormalization":
            x, scale, bias, mean, var = ins
            eps = attr(node, "epsilon", 1e-5)
            shape = (1, -1, 1, 1)
            y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * scale.reshape(shape) + bias.reshape(shape)
        elif op == "Relu":
            y = np.maximum(ins[0], 0.0)
        elif op == "Add":
            y = ins[0] + ins[1]
        elif op == "MaxPool":
            k = attr(node, "kernel_shape", None)[0]
            y = windows(ins[0], k, attr(node, "strides", [1, 1])[0], attr(node, "pads", [0, 0, 0, 0]),
                        fill=-np.inf).max(axis=(4, 5))
        elif op == "GlobalAveragePool":
            y = ins[0].mean(axis=(2, 3), keepdims=True)
        elif op == "Flatten":
            a = attr(node, "axis", 1)
            y = ins[0].reshape(int(np.prod(ins[0].shape[:a])), -1)
        elif op == "Gemm":
            a, b = ins[0], ins[1]
            if attr(node, "transA", 0):
                a = a.T
            if attr(node, "transB", 0):
                b = b.T
            y = attr(node, "alpha", 1.0) * (a @ b)
            if len(ins) > 2 and ins[2] is not None:
                y = y + attr(node, "beta", 1.0) * ins[2]
        else:
            sys.exit(f"host_reference: node '{node.name}' ({op}): op type not handled here")
        env[node.output[0]] = y
    return [env[o.name] for o in model.graph.output]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=["make-input", "check", "expect"])
    p.add_argument("model")
    p.add_argument("dir")
    p.add_argument("--seed", type=int, default=26)
    p.add_argument("--rtol", type=float, default=1e-3)
    p.add_argument("--atol", type=float, default=1e-4)
    args = p.parse_args()
    model = onnx.load(args.model)
    inputs = [i for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    if args.action == "make-input":
        rng = np.random.default_rng(args.seed)
        for n, i in enumerate(inputs):
            shape = [d.dim_value for d in i.type.tensor_type.shape.dim]
            x = rng.uniform(-1.0, 1.0, shape).astype(np.float32)
            with open(f"{args.dir}/input_{n}.pb", "wb") as f:
                f.write(numpy_helper.from_array(x, i.name).SerializeToString())
        return 0
    feeds = {}
    for n, i in enumerate(inputs):
        t = onnx.TensorProto()
        with open(f"{args.dir}/input_{n}.pb", "rb") as f:
            t.ParseFromString(f.read())
        feeds[i.name] = numpy_helper.to_array(t)
    if args.action == "expect":
        for n, (want, o) in enumerate(zip(evaluate(model, feeds), model.graph.output)):
            with open(f"{args.dir}/output_{n}.pb", "wb") as f:
                f.write(numpy_helper.from_array(want.astype(np.float32), o.name).SerializeToString())
        return 0
    ok = True
    for n, want in enumerate(evaluate(model, feeds)):
        t = onnx.TensorProto()
        with open(f"{args.dir}/output_{n}.pb", "rb") as f:
            t.ParseFromString(f.read())
        got = numpy_helper.to_array(t).astype(np.float64)
        if got.shape != want.shape:
            print(f"output {n}: shape {got.shape}, expected {want.shape}")
            ok = False
            continue
        err = np.abs(got - want)
        bad = err > args.atol + args.rtol * np.abs(want)
        print(f"output {n} {got.shape}: finite {bool(np.isfinite(got).all())}, max |got - ref| {err.max():.3g} "
              f"(ref max |x| {np.abs(want).max():.3g}), max relative {(err / np.maximum(np.abs(want), 1e-30)).max():.3g}, "
              f"outside rtol {args.rtol} atol {args.atol}: {int(bad.sum())} of {bad.size}")
        ok = ok and np.isfinite(got).all() and not bad.any()
    print("reference: PASS" if ok else "reference: FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
