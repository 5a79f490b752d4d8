#!/usr/bin/python3
"""Small ONNX models for npuvp's own ONNX front-end tests (tests/onnx/onnx_cli_tests.cmake),
built with Debian's python3-onnx into the folder given as the first argument."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]


def save(name, nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, f"{out}/{name}.onnx")


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


# A Relu with an attribute Relu does not have: refused naming the node and the attribute.
save("unsupported_attribute", [helper.make_node("Relu", ["x"], ["y"], name="act1", foo=3)],
     [f32("x", [4, 8])], [f32("y", [4, 8])])
# An operator the runtime has no lowering for.
save("unsupported_op", [helper.make_node("Cos", ["x"], ["y"], name="c1")], [f32("x", [4, 8])], [f32("y", [4, 8])])
# A node reading a value nothing produces.
save("missing_input", [helper.make_node("Add", ["x", "ghost"], ["y"], name="add1")],
     [f32("x", [4, 8])], [f32("y", [4, 8])])
# An operator from a domain the runtime does not know.
graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="r1", domain="com.example")], "g",
                          [f32("x", [4])], [f32("y", [4])])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)]),
          f"{out}/unknown_domain.onnx")
# A symbolic batch dimension with no data to fix it.
save("dynamic_shape", [helper.make_node("Relu", ["x"], ["y"], name="r1")], [f32("x", ["batch", 8])],
     [f32("y", ["batch", 8])])

# A small layer chain for the table: MatMul -> Add (bias) -> Relu -> Softmax.
rng = np.random.default_rng(1)
w = numpy_helper.from_array(rng.standard_normal((64, 32)).astype(np.float32), "w")
b = numpy_helper.from_array(rng.standard_normal((32,)).astype(np.float32), "b")
save("chain", [helper.make_node("MatMul", ["x", "w"], ["h"], name="fc"),
               helper.make_node("Add", ["h", "b"], ["hb"], name="bias"),
               helper.make_node("Relu", ["hb"], ["r"], name="act"),
               helper.make_node("Softmax", ["r"], ["y"], name="prob")],
     [f32("x", [16, 64])], [f32("y", [16, 32])], [w, b])

# Large layers for the roofline relations (perf mode): a streaming Add and a big MatMul.
save("big_add", [helper.make_node("Add", ["x", "z"], ["y"], name="add")],
     [f32("x", [4096, 1024]), f32("z", [4096, 1024])], [f32("y", [4096, 1024])])
save("big_matmul", [helper.make_node("MatMul", ["x", "z"], ["y"], name="mm")],
     [f32("x", [256, 512]), f32("z", [512, 512])], [f32("y", [256, 512])])
save("cube_matmul", [helper.make_node("MatMul", ["x", "z"], ["y"], name="mm")],
     [f32("x", [2048, 2048]), f32("z", [2048, 2048])], [f32("y", [2048, 2048])])

# Gelu (opset 20, newer than Debian's ONNX test data): both forms against a float64 reference
# over [-6, 6] (small, medium and saturated inputs), in the backend-test layout.
import math
import os

x = np.linspace(-6.0, 6.0, 1200, dtype=np.float32).reshape(4, 300)
x64 = x.astype(np.float64)
references = {
    "none": 0.5 * x64 * (1.0 + np.vectorize(math.erf)(x64 / math.sqrt(2.0))),
    "tanh": 0.5 * x64 * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x64 + 0.044715 * x64 ** 3))),
}
for approximate, y in references.items():
    graph = helper.make_graph([helper.make_node("Gelu", ["x"], ["y"], name="gelu", approximate=approximate)], "g",
                              [f32("x", [4, 300])], [f32("y", [4, 300])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 8  # what Debian's ONNX 1.12 reads
    onnx.save(model, f"{out}/gelu_{approximate}.onnx")
    data = f"{out}/gelu_{approximate}_data"
    os.makedirs(data, exist_ok=True)
    with open(f"{data}/input_0.pb", "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    with open(f"{data}/output_0.pb", "wb") as f:
        f.write(numpy_helper.from_array(y.astype(np.float32), "y").SerializeToString())

# Constant weights transposed on the host (issue 26): a Gemm with a transB weight initializer,
# and the same Gemm with B as a graph input (transposed by a kernel), for fp16 on the 910; a
# batched MatMul with a weight initializer (f32 on the 910B cube), with its float64 result.
import os  # noqa: E402

rng = np.random.default_rng(26)
gemm_a = rng.uniform(-1, 1, (3, 40)).astype(np.float32)
gemm_b = rng.uniform(-1, 1, (24, 40)).astype(np.float32)
gemm_c = rng.uniform(-1, 1, (24,)).astype(np.float32)
save("gemm_weight_transb", [helper.make_node("Gemm", ["a", "w", "c"], ["y"], name="fc", transB=1)],
     [f32("a", [3, 40])], [f32("y", [3, 24])],
     [numpy_helper.from_array(gemm_b, "w"), numpy_helper.from_array(gemm_c, "c")])
save("gemm_input_transb", [helper.make_node("Gemm", ["a", "w", "c"], ["y"], name="fc", transB=1)],
     [f32("a", [3, 40]), f32("w", [24, 40])], [f32("y", [3, 24])], [numpy_helper.from_array(gemm_c, "c")])
for folder, tensors in (("gemm_weight_data", [gemm_a]), ("gemm_input_data", [gemm_a, gemm_b])):
    os.makedirs(f"{out}/{folder}", exist_ok=True)
    for n, t in enumerate(tensors):
        with open(f"{out}/{folder}/input_{n}.pb", "wb") as f:
            f.write(numpy_helper.from_array(t, ["a", "w"][n]).SerializeToString())
mm_a = rng.uniform(-1, 1, (2, 5, 40)).astype(np.float32)
mm_b = rng.uniform(-1, 1, (2, 40, 24)).astype(np.float32)
save("matmul_weight", [helper.make_node("MatMul", ["a", "w"], ["y"], name="mm")],
     [f32("a", [2, 5, 40])], [f32("y", [2, 5, 24])], [numpy_helper.from_array(mm_b, "w")])
os.makedirs(f"{out}/matmul_weight_data", exist_ok=True)
with open(f"{out}/matmul_weight_data/input_0.pb", "wb") as f:
    f.write(numpy_helper.from_array(mm_a, "a").SerializeToString())
with open(f"{out}/matmul_weight_data/output_0.pb", "wb") as f:
    f.write(numpy_helper.from_array((mm_a.astype(np.float64) @ mm_b).astype(np.float32), "y").SerializeToString())

# Large initializers (raw_data of 64 KiB and more stays in the mapped model file, the loader's
# speed path) against the same model with every initializer in the typed float_data field
# (copied out by the protobuf parse): a Conv with a 1.2 MB weight and a BatchNormalization
# after it (folded on the 910B into weights of their own), a Reshape whose shape is a small
# initializer that shape inference reads, and a MatMul with a 256 KB weight.
big_x = rng.uniform(-1, 1, (1, 128, 6, 6)).astype(np.float32)
big_init = {
    "w": rng.uniform(-0.1, 0.1, (256, 128, 3, 3)).astype(np.float32),
    "scale": rng.uniform(0.5, 1.5, (256,)).astype(np.float32),
    "shift": rng.uniform(-0.5, 0.5, (256,)).astype(np.float32),
    "mean": rng.uniform(-0.2, 0.2, (256,)).astype(np.float32),
    "var": rng.uniform(0.5, 1.0, (256,)).astype(np.float32),
    "shape": np.array([1, 256 * 6 * 6 // 256, 256], dtype=np.int64),
    "m": rng.uniform(-0.1, 0.1, (256, 256)).astype(np.float32),
}
big_nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c", "scale", "shift", "mean", "var"], ["b"], name="bn"),
             helper.make_node("Reshape", ["b", "shape"], ["r"], name="reshape"),
             helper.make_node("MatMul", ["r", "m"], ["y"], name="mm")]
for layout, raw in (("raw", True), ("typed", False)):
    inits = [helper.make_tensor(k, TensorProto.INT64 if v.dtype == np.int64 else TensorProto.FLOAT, v.shape,
                                v.tobytes() if raw else v.flatten().tolist(), raw=raw) for k, v in big_init.items()]
    save(f"big_weights_{layout}", big_nodes, [f32("x", [1, 128, 6, 6])], [f32("y", [1, 36, 256])], inits)
    os.makedirs(f"{out}/big_weights_{layout}_data", exist_ok=True)
    with open(f"{out}/big_weights_{layout}_data/input_0.pb", "wb") as f:
        f.write(numpy_helper.from_array(big_x, "x").SerializeToString())
