#include "sw/onnx/graph_runtime.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <fmt/format.h>

#include "platforms/ascend_soc.h"
#include "sw/runtime/device.h"
#include "tlm/log.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace npuvp::onnx {

namespace {

std::string shape_text(const std::vector<int64_t>& shape) {
  return shape.empty() ? std::string("scalar") : fmt::format("{}", fmt::join(shape, "x"));
}

bool dynamic(const TensorDesc& t) {
  return std::any_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d < 0; });
}

std::vector<TensorDesc> descs(const Model& model, const std::vector<std::string>& names) {
  std::vector<TensorDesc> out;
  for (const auto& name : names) {
    if (name.empty()) {
      out.push_back(TensorDesc{});  // an omitted optional input: no name
    } else {
      out.push_back(model.tensors.at(name));
    }
  }
  return out;
}

}  // namespace

Peaks platform_peaks(Precision precision) {
  auto& soc = Device::instance().soc();
  Peaks p;
  const auto& core = soc.core(0).params();
  const double clock = core.clock_mhz * 1e6;
  unsigned cubes = 0, vectors = 0;
  for (unsigned i = 0; i < soc.num_cores(); ++i) {
    cubes += soc.core(i).core_kind() != aicore::CoreKind::Aiv;
    vectors += soc.core(i).core_kind() != aicore::CoreKind::Aic;
  }
  // A vector repeat is 256 B: 64 f32 or 128 f16 lanes, one operation per lane.
  const double lanes = precision == Precision::Fp32 ? 64.0 : 128.0;
  p.vector_flops = double(vectors) * lanes * core.vector.repeats_per_cycle * clock;
  // Cube: a 16x16x16 f16 step is 4096 MACs, a 16x8x16 f32 step 2048 (models/aicore/cube_unit.h).
  p.cube_flops = precision == Precision::Fp32
                     ? double(cubes) * 2048.0 * core.cube.f32_fractal_steps_per_cycle * 2.0 * clock
                     : soc.peak_flops();
  p.dram_bytes_per_second = soc.dram_peak_bytes_per_second();
  return p;
}

// Each launch's roofline time is what its work needs at the peak of the unit it runs on and
// of DRAM, max(flops / unit peak, bytes / DRAM peak); the layer's is their sum. Its bound is
// the unit (or memory) behind the largest share of that time, unless the layer took more than
// four times its roofline: then fixed costs (instruction heads, DMA latency, too few work
// items) dominate and it is latency-bound.
void fill_roofline(LayerRecord& layer, const std::vector<LayerLaunch>& launches, const Peaks& peaks) {
  std::map<std::string, double> by_bound;
  layer.roofline_seconds = 0;
  bool aicpu = false;
  for (const LayerLaunch& l : launches) {
    if (std::string(l.unit) == "aicpu") {
      aicpu = true;  // the AI Cores' peaks do not apply: no roofline share
      continue;
    }
    const bool cube = std::string(l.unit) == "cube";
    const double unit_peak = cube ? peaks.cube_flops : peaks.vector_flops;
    const double compute = unit_peak > 0 ? l.flops / unit_peak : 0.0;
    const double memory = peaks.dram_bytes_per_second > 0 ? l.bytes / peaks.dram_bytes_per_second : 0.0;
    layer.roofline_seconds += std::max(compute, memory);
    by_bound[compute >= memory ? l.unit : "memory"] += std::max(compute, memory);
  }
  if (layer.seconds > 0) {
    layer.tflops = layer.flops / layer.seconds / 1e12;
    layer.gbps = layer.bytes / layer.seconds / 1e9;
    layer.roofline_percent = 100.0 * layer.roofline_seconds / layer.seconds;
  }
  layer.bound = "latency";
  if (aicpu) {
    layer.bound = "aicpu";  // ran (at least partly) on the AI CPU
  } else if (layer.seconds > 0 && layer.roofline_percent >= 25.0) {
    double most = -1;
    for (const auto& [bound, seconds] : by_bound) {
      if (seconds > most) {
        most = seconds;
        layer.bound = bound;
      }
    }
  }
}

Target device_target(Precision precision) {
  auto& soc = Device::instance().soc();
  Target t;
  t.precision = precision;
  t.f32_cube = aicore::is_a2(soc.core(0).product());
  t.chip = soc.params().name;
  return t;
}

void check_model(const Model& model, const Target* target) {
  for (const Node& node : model.nodes) {
    const OpLowering* op = find_op(node.op_type);
    if (!op) {
      raise(node.source, "op type '{}' is not supported (supported: {}; on the AI CPU: {})", node.op_type,
            fmt::join(registered_ops(), ", "), fmt::join(aicpu_kernel_names(), ", "));
    }
    // A value whose size depends on the data: only outputs of lowerings that bound it, and
    // only read by nobody but the graph's outputs.
    for (const auto& in : node.inputs) {
      if (!in.empty() && dynamic(model.tensors.at(in))) {
        raise(node.source, "input '{}' has no static shape (its size depends on the data of the node making it)", in);
      }
    }
    for (const auto& out : node.outputs) {
      if (!out.empty() && dynamic(model.tensors.at(out)) && !op->output_bound) {
        raise(node.source, "output '{}' has no static shape after ONNX shape inference", out);
      }
    }
    // "" omits an optional input or output; every lowering reads its first input and writes its
    // first output (a model with them omitted segfaulted: issue 29's fuzzing).
    for (const auto* names : {&node.inputs, &node.outputs}) {
      if (names->empty() || names->front().empty()) {
        raise(node.source, "its first {} is omitted, but {} needs it", names == &node.inputs ? "input" : "output",
              node.op_type);
      }
    }
    if (op->check) op->check(node, descs(model, node.inputs), descs(model, node.outputs));
    if (target && op->check_target) op->check_target(node, descs(model, node.inputs), *target);
  }
}

GraphResult run_model(const Model& model, const std::vector<HostTensor>& inputs, Precision precision) {
  const Target target = device_target(precision);
  check_model(model, &target);
  Device& device = Device::instance();
  if (inputs.size() != model.inputs.size()) {
    raise(model.file, "the model has {} inputs, {} were given", model.inputs.size(), inputs.size());
  }
  std::map<std::string, GmTensor> tensors;
  auto place = [&](const TensorDesc& desc, const void* bytes, bool constant) {
    GmTensor t;
    t.desc = desc;
    t.constant = constant;
    t.data = device.malloc(std::max<size_t>(desc.bytes(), 1));
    if (bytes && desc.bytes() > 0) device.memcpy(t.data, bytes, desc.bytes(), Device::Copy::HostToDevice);
    tensors[desc.name] = t;
  };
  std::vector<char> made;  // initializers made on demand (HostTensor::make), one at a time
  for (const auto& [name, init] : model.initializers) {
    if (init.make) {
      made.resize(std::max(made.size(), init.size()));
      init.copy_to(made.data());
      place(init.desc, made.data(), true);
    } else {
      place(init.desc, init.data(), true);
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorDesc& want = model.tensors.at(model.inputs[i]);
    const HostTensor& in = inputs[i];
    if (in.desc.type != want.type || in.desc.shape != want.shape) {
      raise(model.file, "input {} '{}': the data is {} {}, the model expects {} {}", i, want.name,
            dtype_name(in.desc.type), shape_text(in.desc.shape), dtype_name(want.type), shape_text(want.shape));
    }
    place(want, in.data(), false);
  }

  // The last node that reads each value; graph outputs live to the end.
  std::map<std::string, size_t> last_use;
  for (size_t i = 0; i < model.nodes.size(); ++i) {
    for (const auto& in : model.nodes[i].inputs) {
      if (!in.empty()) last_use[in] = i;
    }
  }
  const std::set<std::string> keep(model.outputs.begin(), model.outputs.end());

  Tracer& tracer = Tracer::global();
  const int layer_track = tracer.enabled() ? tracer.track("onnx model", "layers") : -1;
  const Peaks peaks = platform_peaks(precision);
  GraphResult result;
  for (size_t i = 0; i < model.nodes.size(); ++i) {
    const Node& node = model.nodes[i];
    const OpLowering* op = find_op(node.op_type);
    OpContext ctx{device, node, {}, {}, precision, {}, {}};
    for (const auto& in : node.inputs) ctx.inputs.push_back(in.empty() ? nullptr : &tensors.at(in));
    for (size_t o = 0; o < node.outputs.size(); ++o) {
      const std::string& out = node.outputs[o];
      if (out.empty()) {
        ctx.outputs.push_back(nullptr);
        continue;
      }
      TensorDesc desc = model.tensors.at(out);
      // A data-dependent size gets its bound (even where the model declares a shape: the
      // kernel may write up to the bound); run() sets the size it wrote.
      if (op->output_bound) desc.shape = op->output_bound(node, descs(model, node.inputs), o);
      place(desc, nullptr, false);
      ctx.outputs.push_back(&tensors.at(out));
    }
    LayerRecord layer;
    layer.name = node.name;
    layer.op_type = node.op_type;
    layer.start = sc_core::sc_time_stamp();
    op->run(ctx);
    layer.shape = shape_text(ctx.outputs.at(0) ? ctx.outputs[0]->desc.shape : model.tensors.at(node.outputs.at(0)).shape);
    for (void* block : ctx.scratch_blocks) device.free(block);
    std::string unit = "vector";
    for (const LayerLaunch& l : ctx.launches) {
      layer.cycles += l.report.cycles;
      layer.seconds += l.report.sim_time.to_seconds();
      layer.flops += l.flops;
      layer.bytes += l.bytes;
      if (std::string(l.unit) == "cube") unit = "cube";
      if (std::string(l.unit) == "aicpu" && unit != "cube") unit = "aicpu";
    }
    layer.unit = unit;
    layer.launches = ctx.launches.size();
    fill_roofline(layer, ctx.launches, peaks);
    if (layer_track >= 0 && layer.seconds > 0) {
      tracer.slice(layer_track, fmt::format("{} ({})", layer.name, layer.op_type), layer.start,
                   sc_core::sc_time(layer.seconds, sc_core::SC_SEC),
                   {{"op", layer.op_type}, {"shape", layer.shape}, {"cycles", layer.cycles},
                    {"bound", layer.bound}, {"roofline_percent", layer.roofline_percent}});
    }
    // Per-layer statistics (integers: cycles, flops, bytes).
    std::string stat_name = layer.name;  // a dot would nest the JSON one level deeper
    std::replace(stat_name.begin(), stat_name.end(), '.', '_');
    const std::string key = fmt::format("onnx.layer{:04}.{}", i, stat_name);
    Stats& stats = Stats::global();
    stats.counter(key + ".cycles", "cycles", layer.op_type + " " + layer.shape).value = layer.cycles;
    stats.counter(key + ".flops", "flop", "arithmetic operations").value = uint64_t(layer.flops);
    stats.counter(key + ".bytes", "B", "GM bytes the layer must move").value = uint64_t(layer.bytes);
    stats.counter(key + ".roofline_permille", "permille", "roofline time / layer time (" + layer.bound + "-bound)")
        .value = uint64_t(layer.roofline_percent * 10);
    result.layers.push_back(std::move(layer));
    // Values whose last reader has run are freed (not graph outputs).
    for (const auto& in : node.inputs) {
      if (in.empty() || keep.count(in) || last_use[in] != i) continue;
      auto it = tensors.find(in);
      if (it != tensors.end()) {
        device.free(it->second.data);
        tensors.erase(it);
      }
    }
  }
  for (const auto& name : model.outputs) {
    const GmTensor& t = tensors.at(name);
    HostTensor h;
    h.desc = t.desc;
    h.bytes.resize(t.desc.bytes());
    if (!h.bytes.empty()) device.memcpy(h.bytes.data(), t.data, h.bytes.size(), Device::Copy::DeviceToHost);
    result.outputs.push_back(std::move(h));
  }
  for (auto& [name, t] : tensors) device.free(t.data);
  return result;
}

std::string layer_table(const std::vector<LayerRecord>& layers) {
  std::string out = fmt::format("{:<24} {:<18} {:<20} {:>12} {:>9} {:>9} {:<8} {:>9}\n", "layer", "op", "shape",
                                "cycles", "TFLOPS", "GB/s", "bound", "roofline");
  uint64_t cycles = 0;
  double flops = 0, seconds = 0, roofline = 0;
  for (const LayerRecord& l : layers) {
    std::string name = l.name.size() > 24 ? l.name.substr(0, 21) + "..." : l.name;
    out += fmt::format("{:<24} {:<18} {:<20} {:>12} {:>9.3f} {:>9.1f} {:<8} {:>8.1f}%\n", name, l.op_type, l.shape,
                       l.cycles, l.tflops, l.gbps, l.bound, l.roofline_percent);
    cycles += l.cycles;
    flops += l.flops;
    seconds += l.seconds;
    roofline += l.roofline_seconds;
  }
  out += fmt::format("{:<24} {:<18} {:<20} {:>12} {:>9.3f} {:>9} {:<8} {:>8.1f}%\n", "total", "", "", cycles,
                     seconds > 0 ? flops / seconds / 1e12 : 0.0, "", "", seconds > 0 ? 100 * roofline / seconds : 0.0);
  return out;
}

}  // namespace npuvp::onnx
