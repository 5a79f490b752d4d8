#!/usr/bin/python3
"""Checks the per-layer entries of `npuvp run chain.onnx --stats S --trace T` (make_models.py's
MatMul -> Add -> Relu -> Softmax chain): statistics per layer, and the trace's layer track
as the first process (shown above the pipes), one slice per node in order."""
import json
import sys

stats = json.load(open(sys.argv[1]))["onnx"]
fc = stats["layer0000"]["fc"]
assert fc["cycles"] > 0 and fc["flops"] == 2 * 16 * 32 * 64, fc
assert "roofline_permille" in stats["layer0003"]["prob"], stats
trace = json.load(open(sys.argv[2]))
layer_pids = [e["pid"] for e in trace if e.get("name") == "process_name" and e["args"]["name"] == "onnx model"]
assert layer_pids == [1], layer_pids
slices = [e["name"] for e in trace if e.get("ph") == "X" and e["pid"] == 1]
assert slices == ["fc (MatMul)", "bias (Add)", "act (Relu)", "prob (Softmax)"], slices
print("layer stats and trace: OK")
