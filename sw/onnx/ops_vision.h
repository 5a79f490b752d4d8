// Operator lowerings for convolutional and normalisation layers (issue 26): Conv, the pools,
// BatchNormalization, LayerNormalization and ReduceMean. builtin_ops.cpp calls these.
#pragma once

namespace npuvp::onnx {

void register_conv_ops();    // Conv (ops_conv.cpp)
void register_pool_ops();    // MaxPool, AveragePool, GlobalAveragePool (ops_pool.cpp)
void register_norm_ops();    // BatchNormalization, LayerNormalization (ops_norm.cpp)
void register_reduce_ops();  // ReduceMean (ops_reduce.cpp)

}  // namespace npuvp::onnx
