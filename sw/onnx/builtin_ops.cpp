// Every op type the graph runtime can lower: one register_<topic>_ops() per topic file.
#include "sw/onnx/onnx_op.h"
#include "sw/onnx/ops_vision.h"

namespace npuvp::onnx {

void register_elementwise_ops();  // ops_elementwise.cpp
void register_matmul_ops();       // ops_matmul.cpp
void register_shape_ops();        // ops_shape.cpp
void register_softmax_ops();      // ops_softmax.cpp
void register_aicpu_ops();        // ops_aicpu.cpp (issue 28: TopK, ArgMax, NonMaxSuppression)

void register_builtin_ops() {
  register_elementwise_ops();
  register_matmul_ops();
  register_shape_ops();
  register_softmax_ops();
  register_conv_ops();
  register_pool_ops();
  register_norm_ops();
  register_reduce_ops();
  register_aicpu_ops();
}

}  // namespace npuvp::onnx
