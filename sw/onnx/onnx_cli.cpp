#include "sw/onnx/onnx_cli.h"

#include <cmath>
#include <cstring>
#include <random>
#include <sys/stat.h>
#include <fmt/format.h>

#include "platforms/ascend_soc.h"
#include "platforms/run_summary.h"
#include "sw/onnx/graph_fusion.h"
#include "sw/onnx/graph_runtime.h"
#include "sw/onnx/model_loader.h"
#include "sw/runtime/device.h"
#include "tlm/log.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace npuvp::onnx {

namespace {

bool file_exists(const std::string& path) {
  struct stat s;
  return ::stat(path.c_str(), &s) == 0 && S_ISREG(s.st_mode);
}

std::vector<std::string> numbered_files(const std::string& dir, const char* prefix) {
  std::vector<std::string> files;
  for (int i = 0;; ++i) {
    const std::string path = fmt::format("{}/{}_{}.pb", dir, prefix, i);
    if (!file_exists(path)) break;
    files.push_back(path);
  }
  return files;
}

// Inputs when no --data is given: fixed pseudo-random floats in [-1, 1), zeros otherwise.
HostTensor made_up_input(const TensorDesc& desc) {
  HostTensor h;
  h.desc = desc;
  h.bytes.assign(desc.bytes(), 0);
  if (desc.type == DType::Float) {
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    float* p = reinterpret_cast<float*>(h.bytes.data());
    for (int64_t i = 0; i < desc.elements(); ++i) p[i] = uniform(rng);
  }
  return h;
}

template <class T>
T element(const HostTensor& t, int64_t i) {
  T v;
  std::memcpy(&v, t.bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

// ONNX's backend-test comparison (onnx/backend/test/runner: numpy.testing.assert_allclose with
// rtol 1e-3, atol 1e-7): |got - expected| <= atol + rtol * |expected|; NaN matches NaN.
// Integer and bool outputs must be equal. Returns "" or the first mismatch.
std::string compare(const HostTensor& got, const HostTensor& want, size_t index) {
  const std::string name = fmt::format("output {} '{}'", index, got.desc.name);
  if (got.desc.type != want.desc.type) {
    return fmt::format("{}: type {} but expected {}", name, dtype_name(got.desc.type), dtype_name(want.desc.type));
  }
  if (got.desc.shape != want.desc.shape) {
    return fmt::format("{}: shape [{}] but expected [{}]", name, fmt::join(got.desc.shape, ","),
                       fmt::join(want.desc.shape, ","));
  }
  constexpr double rtol = 1e-3, atol = 1e-7;
  for (int64_t i = 0; i < got.desc.elements(); ++i) {
    if (got.desc.type == DType::Float) {
      const double g = element<float>(got, i), w = element<float>(want, i);
      const bool ok = (std::isnan(g) && std::isnan(w)) || (g == w) || std::fabs(g - w) <= atol + rtol * std::fabs(w);
      if (!ok) {
        return fmt::format("{}: index {}: got {:.9g}, expected {:.9g} (|diff| {:.3g} > {:.3g})", name, i, g, w,
                           std::fabs(g - w), atol + rtol * std::fabs(w));
      }
    } else {
      const size_t size = dtype_bytes(got.desc.type);
      if (std::memcmp(got.bytes.data() + i * size, want.bytes.data() + i * size, size) != 0) {
        int64_t g = 0, w = 0;
        std::memcpy(&g, got.bytes.data() + i * size, size);
        std::memcpy(&w, want.bytes.data() + i * size, size);
        return fmt::format("{}: index {}: got {}, expected {}", name, i, g, w);
      }
    }
  }
  return "";
}

}  // namespace

bool cli_handles(const std::string& kernel) {
  return kernel.size() > 5 && kernel.compare(kernel.size() - 5, 5, ".onnx") == 0;
}

int cli_run(const std::string& model_path, const std::string& data_dir, const std::string& platform,
            std::vector<std::string> sets, const std::string& mode, const std::string& precision_name,
            const std::string& trace, const std::string& stats) {
  if (!precision_name.empty() && precision_name != "fp32" && precision_name != "fp16") {
    raise("onnx", "--precision '{}': fp32 (default where the chip computes f32) or fp16", precision_name);
  }
  // Inputs from DIR/input_N.pb, in the order of the graph's inputs.
  // The model is parsed once: the input names come from the loader.
  std::map<std::string, HostTensor> feeds;
  std::vector<std::string> expected_files;
  auto read_feeds = [&](const std::vector<std::string>& names) -> const std::map<std::string, HostTensor>& {
    if (data_dir.empty()) return feeds;
    const std::vector<std::string> files = numbered_files(data_dir, "input");
    if (files.size() != names.size()) {
      raise(data_dir, "holds {} input_N.pb files, the model {} has {} inputs", files.size(), model_path, names.size());
    }
    for (size_t i = 0; i < files.size(); ++i) {
      HostTensor h = read_tensor_file(files[i]);
      h.desc.name = names[i];
      feeds[names[i]] = std::move(h);
    }
    expected_files = numbered_files(data_dir, "output");
    return feeds;
  };
  Model model = load_model(model_path, FeedReader(read_feeds));
  check_model(model);  // before the platform is even built

  if (!mode.empty()) sets.push_back("sim.mode=" + mode);
  Device::configure(platform.empty() ? "ascend910b" : platform, sets);
  if (!trace.empty()) {
    Tracer::global().open(trace);
    Tracer::global().track("onnx model", "layers");  // before the cores' tracks: shown above them
  }
  Device& dev = Device::instance();
  auto& soc = dev.soc();
  const bool perf = soc.params().mode == SimMode::Perf;
  const Precision precision = precision_name == "fp16" ? Precision::Fp16 : Precision::Fp32;
  fmt::print("npuvp: platform {} ({} at {} MHz), ONNX model {}: {} nodes, opset {}\n", soc.params().name,
             soc.describe_cores(), soc.core(0).params().clock_mhz, model_path, model.nodes.size(), model.opset);
  const bool f32_cube = aicore::is_a2(soc.core(0).product());
  fmt::print("precision: {}\n", precision == Precision::Fp16
                                     ? "fp16 for MatMul/Gemm (f16 operands on the cube, f32 accumulation); the other "
                                       "operators in float32 on the vector unit"
                                     : f32_cube ? "float32 (MatMul/Gemm on the cube in f32, the rest on the vector unit)"
                                                : "float32 (no f32 cube on this chip: MatMul/Gemm in f32 on the vector unit)");

  const Target target = device_target(precision);
  const FusionReport fused = fuse_graph(model, target);
  if (fused.batchnorms_folded > 0) {
    fmt::print("graph: {} BatchNormalization nodes folded into the Conv before them\n", fused.batchnorms_folded);
  }
  check_model(model, &target);  // what this chip cannot compute, before any copy or launch

  std::vector<HostTensor> inputs;
  for (const auto& name : model.inputs) {
    auto feed = feeds.find(name);
    inputs.push_back(feed != feeds.end() ? std::move(feed->second) : made_up_input(model.tensors.at(name)));
  }
  const GraphResult result = run_model(model, inputs, precision);

  int status = 0;
  if (perf) {
    fmt::print("result: NOT CHECKED (perf mode computes no data)\n");
  } else if (data_dir.empty()) {
    fmt::print("result: NOT CHECKED (no --data: made-up inputs, outputs not written)\n");
  } else if (expected_files.empty()) {
    for (size_t i = 0; i < result.outputs.size(); ++i) {
      const std::string path = fmt::format("{}/output_{}.pb", data_dir, i);
      write_tensor_file(path, result.outputs[i]);
      fmt::print("output: {}\n", path);
    }
    fmt::print("result: NOT CHECKED ({} has no output_N.pb: wrote them)\n", data_dir);
  } else {
    if (expected_files.size() != result.outputs.size()) {
      raise(data_dir, "holds {} output_N.pb files, the model has {} outputs", expected_files.size(),
            result.outputs.size());
    }
    std::string mismatch;
    for (size_t i = 0; i < expected_files.size() && mismatch.empty(); ++i) {
      mismatch = compare(result.outputs[i], read_tensor_file(expected_files[i]), i);
    }
    if (mismatch.empty()) {
      fmt::print("result: PASS ({} outputs within rtol 1e-3, atol 1e-7 of {})\n", result.outputs.size(), data_dir);
    } else {
      fmt::print("result: FAIL ({})\n", mismatch);
      status = 1;
    }
  }
  fmt::print("{}", layer_table(result.layers));
  platform::finish_run(soc, dev.total_wall_seconds(), trace, stats);
  return status;
}

}  // namespace npuvp::onnx
