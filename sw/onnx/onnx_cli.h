// `npuvp run MODEL.onnx --platform P [--data DIR] [--mode M] [--precision fp16]`: loads the
// model (sw/onnx/model_loader.h), runs it on the platform (sw/onnx/graph_runtime.h), and with
// --data DIR in ONNX's backend-test layout feeds input_N.pb and compares every output with
// output_N.pb at ONNX's default tolerances (or writes output_N.pb when DIR has none).
#pragma once
#include <string>
#include <vector>

namespace npuvp::onnx {

// True if `kernel` names an ONNX model (a path ending in .onnx).
bool cli_handles(const std::string& kernel);
int cli_run(const std::string& model_path, const std::string& data_dir, const std::string& platform,
            std::vector<std::string> sets, const std::string& mode, const std::string& precision,
            const std::string& trace, const std::string& stats);

}  // namespace npuvp::onnx
