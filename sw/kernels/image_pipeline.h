// The end-to-end image application of issue 28, on one ACL stream of the virtual chip:
//   DVPP JPEGD (JPEG -> NV12) -> VPC resize (-> 128x128 NV12, bilinear)
//   -> VPC crop (the centre 96x96 -> 32x32 RGB888)
//   -> AI Core: normalise (u8 HWC -> f16 CHW, x / 64 - 2), then a small CNN of three conv2d
//      layers (3->16 3x3/2, ReLU; 16->16 3x3/4, ReLU; 16->10 4x4, the 10 logits), each layer's
//      f32 NHWC output brought back to f16 CHW by a vector kernel
//   -> AI CPU: TopK (k = 5) of the logits.
// The weights are fixed pseudo-random values (a stand-in network: the classes mean nothing).
// Every stage's result is checked against a host reference: the logits bit for bit (conv2d's
// numeric contract, sw/kernels/conv2d_reference.h), the top-5 against a plain sort.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include <systemc>

namespace npuvp::kernels {

struct ImagePipelineStage {
  std::string name;    // "JPEGD", "conv1", "TopK", ...
  std::string engine;  // "DVPP", "AI Core", "AI CPU", "PCIe"
  sc_core::sc_time start, took;
};

struct ImagePipelineResult {
  bool passed = false;
  bool checked = false;  // false in perf mode (no data)
  std::string detail;
  uint32_t width = 0, height = 0;  // the decoded image
  std::vector<int64_t> top5;
  std::vector<float> top5_logits;
  std::vector<ImagePipelineStage> stages;
};

// A synthetic photograph-like test picture (gradients and discs), encoded as a baseline JPEG
// at quality 90 (libjpeg-turbo). No downloads: the build and the tests make their images.
std::vector<uint8_t> make_sample_jpeg(uint32_t width, uint32_t height);

// Runs the pipeline on the configured device (Device::configure first) through the ACL
// runtime (aclInit ... aclFinalize are called here). Raises on an ACL error.
ImagePipelineResult run_image_pipeline(const std::vector<uint8_t>& jpeg);

// `npuvp run image_pipeline [IMAGE.jpg]`: configure, run, print the stages and a per-engine
// summary; returns the exit status.
int image_pipeline_command(const std::string& image, const std::string& platform, std::vector<std::string> sets,
                           const std::string& mode, const std::string& trace, const std::string& stats);

}  // namespace npuvp::kernels
