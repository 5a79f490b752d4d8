#!/usr/bin/python3
"""Builds the workload networks of docs/workloads.md as ONNX files with random weights.

ResNet-50 (batch 1 and 8), the BERT-base encoder stack (sequence 384), a GPT-2-small
decoder block and (on request) a Llama-7B-style decoder block, from their published layer shapes, with weights drawn from a fixed seed;
nothing is downloaded. Every model is checked with onnx.checker and shape inference.
Only operators of issue 26's list are used (Conv, BatchNormalization, Relu, MaxPool, Add,
GlobalAveragePool, Flatten, Gemm, MatMul, Reshape, Transpose, Mul, Div, Softmax, Erf,
LayerNormalization; the Llama block adds Pow, ReduceMean, Sqrt, Sigmoid). Opset 17 (Debian's python3-onnx 1.12): Gelu is written in its Erf form.

Usage: build_models.py --out DIR [--layers N] [--seq N] [resnet50|bert|gpt2|llama ...]
Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy).
"""
import argparse
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


class Graph:
    """Nodes, initializers and unique names for one model."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits, self.count = [], [], {}

    def name(self, base):
        self.count[base] = self.count.get(base, 0) + 1
        return f"{base}_{self.count[base]}"

    def weight(self, base, shape, scale=None, positive=False, value=None):
        name = self.name(base)
        if value is not None:
            data = np.asarray(value, dtype=np.float32)
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else int(shape[0])
            s = scale if scale is not None else 1.0 / math.sqrt(max(fan_in, 1))
            data = self.rng.uniform(-s, s, size=shape).astype(np.float32)
            if positive:
                data = np.abs(data) + np.float32(0.5)
        self.inits.append(numpy_helper.from_array(data, name))
        return name

    def ints(self, base, values):
        name = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(values, dtype=np.int64), name))
        return name

    def op(self, op_type, inputs, base=None, **attrs):
        out = self.name(base or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def model(self, name, inputs, outputs):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="npuvp scripts/models")
        onnx.checker.check_model(model)
        return onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)


# ---- ResNet-50 (He et al. 2016, "Deep Residual Learning"; torchvision's v1.5 layout:
# the stride of a downsampling bottleneck sits on its 3x3 conv).

def conv_bn(g, x, cin, cout, k, stride, relu=True):
    w = g.weight("conv_w", [cout, cin, k, k])
    y = g.op("Conv", [x, w], "conv", kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4)
    bn = [g.weight("bn_scale", [cout], positive=True), g.weight("bn_bias", [cout], scale=0.1),
          g.weight("bn_mean", [cout], scale=0.1), g.weight("bn_var", [cout], positive=True)]
    y = g.op("BatchNormalization", [y] + bn, "bn", epsilon=1e-5)
    return g.op("Relu", [y], "relu") if relu else y


def resnet50(batch, seed=50):
    g = Graph(seed)
    x = "input"
    y = conv_bn(g, x, 3, 64, 7, 2)
    y = g.op("MaxPool", [y], "maxpool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    cin = 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for b in range(blocks):
            s = stride if b == 0 else 1
            out = width * 4
            h = conv_bn(g, y, cin, width, 1, 1)
            h = conv_bn(g, h, width, width, 3, s)
            h = conv_bn(g, h, width, out, 1, 1, relu=False)
            shortcut = conv_bn(g, y, cin, out, 1, s, relu=False) if b == 0 else y
            y = g.op("Relu", [g.op("Add", [h, shortcut], "add")], "relu")
            cin = out
    y = g.op("GlobalAveragePool", [y], "avgpool")
    y = g.op("Flatten", [y], "flatten", axis=1)
    y = g.op("Gemm", [y, g.weight("fc_w", [1000, 2048]), g.weight("fc_b", [1000])], "fc", transB=1)
    inputs = [helper.make_tensor_value_info(x, TensorProto.FLOAT, [batch, 3, 224, 224])]
    outputs = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [batch, 1000])]
    return g.model(f"resnet50_b{batch}", inputs, outputs)


# ---- Transformer pieces (Vaswani et al. 2017; BERT-base: Devlin et al. 2019, hidden 768,
# 12 heads, FFN 3072, 12 layers; GPT-2 small: Radford et al. 2019, the same sizes, pre-LN).

def linear(g, x, n_in, n_out, base):
    y = g.op("MatMul", [x, g.weight(base + "_w", [n_in, n_out])], base)
    return g.op("Add", [y, g.weight(base + "_b", [n_out], scale=0.02)], base + "_bias")


def gelu(g, x):
    # 0.5 * x * (1 + erf(x / sqrt(2)))
    e = g.op("Erf", [g.op("Div", [x, g.weight("sqrt2", [], value=math.sqrt(2.0))], "gelu_div")], "gelu_erf")
    e = g.op("Add", [e, g.weight("one", [], value=1.0)], "gelu_add")
    return g.op("Mul", [g.op("Mul", [x, e], "gelu_mul"), g.weight("half", [], value=0.5)], "gelu")


def layer_norm(g, x, hidden, eps):
    return g.op("LayerNormalization", [x, g.weight("ln_scale", [hidden], positive=True), g.weight("ln_bias", [hidden], scale=0.1)],
                "ln", axis=-1, epsilon=eps)


def attention(g, x, seq, hidden, heads, mask=None):
    d = hidden // heads
    split = g.ints("heads_shape", [1, seq, heads, d])
    q = g.op("Transpose", [g.op("Reshape", [linear(g, x, hidden, hidden, "q"), split], "q_split")], "q_heads", perm=[0, 2, 1, 3])
    k = g.op("Transpose", [g.op("Reshape", [linear(g, x, hidden, hidden, "k"), split], "k_split")], "k_heads", perm=[0, 2, 3, 1])
    v = g.op("Transpose", [g.op("Reshape", [linear(g, x, hidden, hidden, "v"), split], "v_split")], "v_heads", perm=[0, 2, 1, 3])
    scores = g.op("Div", [g.op("MatMul", [q, k], "scores"), g.weight("sqrt_d", [], value=math.sqrt(d))], "scaled")
    if mask is not None:
        scores = g.op("Add", [scores, mask], "masked")
    probs = g.op("Softmax", [scores], "softmax", axis=-1)
    ctx = g.op("Transpose", [g.op("MatMul", [probs, v], "context")], "context_t", perm=[0, 2, 1, 3])
    ctx = g.op("Reshape", [ctx, g.ints("merge_shape", [1, seq, hidden])], "context_merged")
    return linear(g, ctx, hidden, hidden, "attn_out")


def bert_encoder(layers, seq, hidden=768, heads=12, ffn=3072, seed=384):
    g = Graph(seed)
    x = "hidden_states"
    y = x
    for _ in range(layers):
        a = attention(g, y, seq, hidden, heads)
        y = layer_norm(g, g.op("Add", [a, y], "residual"), hidden, 1e-12)
        f = linear(g, gelu(g, linear(g, y, hidden, ffn, "ffn_in")), ffn, hidden, "ffn_out")
        y = layer_norm(g, g.op("Add", [f, y], "residual"), hidden, 1e-12)
    inputs = [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, seq, hidden])]
    outputs = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, seq, hidden])]
    return g.model(f"bert_base_encoder_l{layers}_s{seq}", inputs, outputs)


def gpt2_block(layers, seq, hidden=768, heads=12, ffn=3072, seed=2):
    g = Graph(seed)
    x = "hidden_states"
    causal = np.triu(np.full((seq, seq), -1e4, dtype=np.float32), k=1).reshape(1, 1, seq, seq)
    mask = g.weight("causal_mask", [1, 1, seq, seq], value=causal)
    y = x
    for _ in range(layers):
        y = g.op("Add", [y, attention(g, layer_norm(g, y, hidden, 1e-5), seq, hidden, heads, mask)], "residual")
        f = linear(g, gelu(g, linear(g, layer_norm(g, y, hidden, 1e-5), hidden, ffn, "mlp_in")), ffn, hidden, "mlp_out")
        y = g.op("Add", [y, f], "residual")
    inputs = [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, seq, hidden])]
    outputs = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, seq, hidden])]
    return g.model(f"gpt2_small_block_l{layers}_s{seq}", inputs, outputs)


# ---- Llama-style decoder block (Touvron et al., "LLaMA", 2023; 7B sizes: hidden 4096, 32 heads,
# SwiGLU FFN 11008, RMSNorm epsilon 1e-6). Rotary position embeddings are left out (they need
# Slice/Concat of half-heads and a sin/cos table; a constant causal mask is added instead).

def rms_norm(g, x, hidden, eps):
    # x / sqrt(mean(x^2) + eps) * weight, from Pow, ReduceMean, Add, Sqrt, Div, Mul
    sq = g.op("Pow", [x, g.weight("two", [], value=2.0)], "rms_sq")
    mean = g.op("ReduceMean", [sq], "rms_mean", axes=[-1], keepdims=1)
    rms = g.op("Sqrt", [g.op("Add", [mean, g.weight("rms_eps", [], value=eps)], "rms_add")], "rms")
    return g.op("Mul", [g.op("Div", [x, rms], "rms_div"), g.weight("rms_scale", [hidden], positive=True)], "rms_norm")


def llama_block(layers, seq, hidden=4096, heads=32, ffn=11008, seed=7):
    g = Graph(seed)
    x = "hidden_states"
    causal = np.triu(np.full((seq, seq), -1e4, dtype=np.float32), k=1).reshape(1, 1, seq, seq)
    mask = g.weight("causal_mask", [1, 1, seq, seq], value=causal)
    y = x
    for _ in range(layers):
        y = g.op("Add", [y, attention(g, rms_norm(g, y, hidden, 1e-6), seq, hidden, heads, mask)], "residual")
        h = rms_norm(g, y, hidden, 1e-6)
        gate = g.op("MatMul", [h, g.weight("gate_w", [hidden, ffn])], "gate")
        up = g.op("MatMul", [h, g.weight("up_w", [hidden, ffn])], "up")
        act = g.op("Mul", [gate, g.op("Sigmoid", [gate], "gate_sigmoid")], "silu")
        down = g.op("MatMul", [g.op("Mul", [act, up], "swiglu"), g.weight("down_w", [ffn, hidden])], "down")
        y = g.op("Add", [y, down], "residual")
    inputs = [helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, seq, hidden])]
    outputs = [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, seq, hidden])]
    return g.model(f"llama7b_block_l{layers}_s{seq}", inputs, outputs)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="folder for the .onnx files")
    p.add_argument("--layers", type=int, default=None, help="encoder layers (BERT: 12) / decoder blocks (GPT-2: 1)")
    p.add_argument("--seq", type=int, default=None, help="sequence length (BERT: 384, GPT-2: 1024)")
    p.add_argument("models", nargs="*", help="resnet50, bert, gpt2, llama (default: resnet50, bert, gpt2)")
    args = p.parse_args(argv)
    args.models = args.models or ["resnet50", "bert", "gpt2"]
    for m in args.models:
        if m not in ("resnet50", "bert", "gpt2", "llama"):
            p.error(f"unknown model '{m}' (resnet50, bert, gpt2, llama)")
    os.makedirs(args.out, exist_ok=True)
    built = []
    for m in args.models:
        if m == "resnet50":
            for batch in (1, 8):
                built.append((f"resnet50_b{batch}.onnx", resnet50(batch)))
        elif m == "bert":
            layers, seq = args.layers or 12, args.seq or 384
            suffix = "" if layers == 12 else f"_l{layers}"
            built.append((f"bert_base_s{seq}{suffix}.onnx", bert_encoder(layers, seq)))
        elif m == "gpt2":
            layers, seq = args.layers or 1, args.seq or 1024
            built.append((f"gpt2_small_block_s{seq}.onnx", gpt2_block(layers, seq)))
        elif m == "llama":
            layers, seq = args.layers or 1, args.seq or 512
            built.append((f"llama7b_block_s{seq}.onnx", llama_block(layers, seq)))
    for file, model in built:
        path = os.path.join(args.out, file)
        onnx.save(model, path)
        ops = sorted({n.op_type for n in model.graph.node})
        print(f"{path}: {len(model.graph.node)} nodes ({', '.join(ops)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
