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
