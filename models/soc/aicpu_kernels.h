// The built-in AI CPU kernels and their argument layouts (AicpuArgs: tensors are GM device
// addresses, ints and floats attributes). Any front end launches them by name through
// Device::launch_aicpu, npuvpAicpuLaunch (ACL) or AiCpu::run. A launch with blocks > 1 splits
// TopK and ArgMax by rows.
//
//   TopK               tensors {x f32 [rows, n, inner], values f32 [rows, k, inner], indices i64 [rows, k, inner]}
//                      ints {rows, n, k, largest = 1, sorted = 1, inner = 1}   (along n)
//   ArgMax             tensors {x f32 [rows, n, inner], indices i64 [rows, inner]}
//                      ints {rows, n, select_last_index = 0, inner = 1}        (along n)
//   NonMaxSuppression  tensors {boxes f32 [batches, spatial, 4], scores f32 [batches, classes, spatial],
//                               selected i64 [batches * classes * min(max_out, spatial), 3], count i64 [1],
//                               optional (0: use the ints/floats): max_output_boxes_per_class i64 [1],
//                               iou_threshold f32 [1], score_threshold f32 [1]}
//                      ints {batches, classes, spatial, max_output_boxes_per_class, center_point_box = 0}
//                      floats {iou_threshold, score_threshold}
#pragma once
#include "models/soc/aicpu.h"

namespace npuvp::soc {
void register_builtin_aicpu_kernels(AicpuRegistry& registry);
}  // namespace npuvp::soc
