// Runs a loaded ONNX model on the configured device: every node is checked against the
// operator registry before anything runs; tensors live in GM (initializers copied in over the
// host bridge); nodes run in topological order through their lowerings; a tensor is freed
// after its last use; each node's launches become one row of the per-layer table.
#pragma once
#include <string>
#include <vector>
#include "sw/onnx/model_loader.h"
#include "sw/onnx/onnx_op.h"

namespace npuvp::onnx {

// One node's row of the per-layer table.
struct LayerRecord {
  std::string name, op_type, shape;  // shape: the first output's, "1x64x56x56"
  uint64_t cycles = 0;               // core clock cycles over its launches
  double seconds = 0;                // simulated
  double flops = 0, bytes = 0;
  std::string unit;                  // the unit its launches name: cube, vector or aicpu
  size_t launches = 0;
  sc_core::sc_time start;            // simulated time when its first launch began
  // From the platform's peaks (fill_roofline):
  double tflops = 0, gbps = 0;
  double roofline_seconds = 0;       // sum over launches of max(flops / unit peak, bytes / DRAM peak)
  double roofline_percent = 0;       // roofline_seconds / seconds
  std::string bound;                 // cube, vector, memory, latency, or aicpu (ran on the AI CPU)
};

struct Peaks {
  double cube_flops = 0, vector_flops = 0, dram_bytes_per_second = 0;
};
// The configured platform's peaks for `precision` (f32: the vector unit's 64 lanes, the
// cube's f32 rate; f16: 128 lanes and the f16 cube).
Peaks platform_peaks(Precision precision);
// Roofline time, bound and achieved rates of a layer from its launches (graph_runtime.cpp).
void fill_roofline(LayerRecord& layer, const std::vector<LayerLaunch>& launches, const Peaks& peaks);

// Refuses, before anything runs, a node with no lowering or one its lowering's check rejects;
// with a target, also what the lowerings' check_target refuse on that chip and precision.
void check_model(const Model& model, const Target* target = nullptr);
// The configured device's target for `precision`.
Target device_target(Precision precision);

struct GraphResult {
  std::vector<HostTensor> outputs;  // in the graph's output order
  std::vector<LayerRecord> layers;
};
// `inputs`: one per model.inputs, in that order.
GraphResult run_model(const Model& model, const std::vector<HostTensor>& inputs, Precision precision);

// The table `npuvp run MODEL.onnx` prints.
std::string layer_table(const std::vector<LayerRecord>& layers);

}  // namespace npuvp::onnx
