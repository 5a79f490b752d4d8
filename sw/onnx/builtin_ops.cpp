// Every op type the graph runtime can lower: one register_<topic>_ops() per topic file.
#include "sw/onnx/onnx_op.h"

namespace npuvp::onnx {

void register_builtin_ops() {
  // Topics are added here as their files land (ops_matmul.cpp, ops_elementwise.cpp, ...).
}

}  // namespace npuvp::onnx
