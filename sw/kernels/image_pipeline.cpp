#include "sw/kernels/image_pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <random>
#include <fmt/format.h>

#include "acl/acl.h"
#include "acl/npuvp_aicpu.h"
#include "acl/ops/acl_dvpp.h"
#include "kernel_operator.h"
#include "models/soc/dvpp_image.h"
#include "models/soc/aicpu.h"
#include "platforms/ascend_soc.h"
#include "platforms/run_summary.h"
#include "sw/kernels/conv2d.h"
#include "sw/kernels/conv2d_reference.h"
#include "sw/runtime/device.h"
#include "tlm/log.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {

// Interleaved (HWC) -> planar (CHW) f16 on one AI Core's vector unit: copy in, Cast to f16,
// Gather by byte offsets (offsets[c * P + p] = (p * C + c) * 2), optionally x * scale + bias,
// copy out. `count` = C * P elements (a multiple of 32), small enough for UB.
template <class SrcT>
void planarize_f16(GM_ADDR src, GM_ADDR offsets, GM_ADDR dst, uint32_t count, bool affine, float scale, float bias) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, half_buf, offset_buf, out_buf;
  pipe.InitBuffer(in_buf, count * sizeof(SrcT));
  pipe.InitBuffer(half_buf, count * sizeof(half));
  pipe.InitBuffer(offset_buf, count * sizeof(uint32_t));
  pipe.InitBuffer(out_buf, count * sizeof(half));
  GlobalTensor<SrcT> src_gm;
  GlobalTensor<uint32_t> offset_gm;
  GlobalTensor<half> dst_gm;
  src_gm.SetGlobalBuffer(reinterpret_cast<__gm__ SrcT*>(src), count);
  offset_gm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(offsets), count);
  dst_gm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(dst), count);
  LocalTensor<SrcT> in = in_buf.Get<SrcT>();
  LocalTensor<half> h = half_buf.Get<half>();
  LocalTensor<uint32_t> off = offset_buf.Get<uint32_t>();
  LocalTensor<half> out = out_buf.Get<half>();
  DataCopy(in, src_gm, count);
  DataCopy(off, offset_gm, count);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  Cast(h, in, RoundMode::CAST_NONE, count);  // exact from u8; to nearest-even from f32
  PipeBarrier<PIPE_V>();
  Gather(out, h, off, 0, count);
  if (affine) {
    PipeBarrier<PIPE_V>();
    Muls(out, out, half(scale), count);
    PipeBarrier<PIPE_V>();
    Adds(out, out, half(bias), count);
  }
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(dst_gm, out, count);
}

std::vector<uint32_t> planar_offsets(uint32_t channels, uint32_t positions) {
  std::vector<uint32_t> o(size_t(channels) * positions);
  for (uint32_t c = 0; c < channels; ++c) {
    for (uint32_t p = 0; p < positions; ++p) o[size_t(c) * positions + p] = (p * channels + c) * 2;
  }
  return o;
}

void check_acl(aclError e, const char* what) {
  if (e != ACL_SUCCESS) raise("image_pipeline", "{} failed with ACL error {}: {}", what, e, aclGetRecentErrMsg());
}

// Device memory through the ACL runtime, freed at scope end.
struct DeviceBuffer {
  void* p = nullptr;
  size_t bytes = 0;
  DeviceBuffer(size_t n, bool dvpp) : bytes(n) {
    check_acl(dvpp ? acldvppMalloc(&p, n) : aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), "device malloc");
    dvpp_ = dvpp;
  }
  ~DeviceBuffer() {
    if (p) dvpp_ ? acldvppFree(p) : aclrtFree(p);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  void upload(const std::vector<T>& v) {
    check_acl(aclrtMemcpy(p, bytes, v.data(), v.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy H2D");
  }
  template <class T>
  std::vector<T> download(size_t n) const {
    std::vector<T> v(n);
    check_acl(aclrtMemcpy(v.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy D2H");
    return v;
  }
  GM_ADDR gm() const { return reinterpret_cast<GM_ADDR>(p); }

 private:
  bool dvpp_ = false;
};

struct PicDesc {
  acldvppPicDesc* d = acldvppCreatePicDesc();
  PicDesc(void* data, uint32_t size, acldvppPixelFormat format, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
    acldvppSetPicDescData(d, data);
    acldvppSetPicDescSize(d, size);
    acldvppSetPicDescFormat(d, format);
    acldvppSetPicDescWidth(d, w);
    acldvppSetPicDescHeight(d, h);
    acldvppSetPicDescWidthStride(d, ws);
    acldvppSetPicDescHeightStride(d, hs);
  }
  ~PicDesc() { acldvppDestroyPicDesc(d); }
  PicDesc(const PicDesc&) = delete;
  PicDesc& operator=(const PicDesc&) = delete;
};

std::vector<_Float16> random_halves(size_t n, uint32_t seed, float scale) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-scale, scale);
  std::vector<_Float16> v(n);
  for (auto& x : v) x = static_cast<_Float16>(dist(gen));
  return v;
}

struct Layer {
  Conv2dShape shape;
  bool relu = true;
  std::vector<_Float16> weights;  // fractal-ready
  std::vector<float> bias;        // cout rounded up to 16
};

std::vector<Layer> network() {
  std::vector<Layer> layers(3);
  auto shape = [](uint32_t c, uint32_t hw, uint32_t cout, uint32_t k, uint32_t stride, uint32_t pad) {
    Conv2dShape s;
    s.c = c;
    s.h = s.w = hw;
    s.cout = cout;
    s.kh = s.kw = k;
    s.stride = stride;
    s.pad = pad;
    return s;
  };
  layers[0].shape = shape(3, 32, 16, 3, 2, 1);   // -> 16x16
  layers[1].shape = shape(16, 16, 16, 3, 4, 1);  // -> 4x4
  layers[2].shape = shape(16, 4, 10, 4, 1, 0);   // -> 1x1: the logits
  layers[2].relu = false;
  for (size_t i = 0; i < layers.size(); ++i) {
    Layer& l = layers[i];
    const Conv2dShape& s = l.shape;
    const float scale = 1.0f / std::sqrt(float(s.c * s.kh * s.kw));
    l.weights = conv2d_format_weights(random_halves(size_t(s.cout) * s.c * s.kh * s.kw, 100 + uint32_t(i), scale), s);
    l.bias.assign((s.cout + 15) / 16 * 16, 0.0f);
    std::mt19937 gen(200 + uint32_t(i));
    std::uniform_real_distribution<float> dist(-0.1f, 0.1f);
    for (uint32_t c = 0; c < s.cout; ++c) l.bias[c] = dist(gen);
  }
  return layers;
}

}  // namespace

std::vector<uint8_t> make_sample_jpeg(uint32_t width, uint32_t height) {
  std::vector<uint8_t> rgb(size_t(width) * height * 3);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const double u = double(x) / width, v = double(y) / height;
      double r = 40 + 150 * u, g = 60 + 120 * v, b = 200 - 120 * u * v;
      // Two discs: something for the resize to keep.
      const double d1 = std::hypot(u - 0.4, v - 0.45), d2 = std::hypot(u - 0.7, v - 0.7);
      if (d1 < 0.2) { r = 230; g = 80 + 100 * d1; b = 40; }
      if (d2 < 0.12) { r = 30; g = 200; b = 90 + 300 * d2; }
      uint8_t* p = rgb.data() + (size_t(y) * width + x) * 3;
      p[0] = static_cast<uint8_t>(std::clamp(r, 0.0, 255.0));
      p[1] = static_cast<uint8_t>(std::clamp(g, 0.0, 255.0));
      p[2] = static_cast<uint8_t>(std::clamp(b, 0.0, 255.0));
    }
  }
  return soc::dvpp::jpeg_encode_rgb(rgb.data(), width, height, 90);
}

ImagePipelineResult run_image_pipeline(const std::vector<uint8_t>& jpeg) {
  ImagePipelineResult result;
  Device& dev = Device::instance();
  const bool perf = dev.soc().params().mode == SimMode::Perf;
  const bool a2 = aicore::is_a2(dev.soc().core(0).product());
  const bool separated = dev.soc().separated();
  auto stage = [&](const char* name, const char* engine, auto&& body) {
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    body();
    result.stages.push_back({name, engine, t0, sc_core::sc_time_stamp() - t0});
  };

  check_acl(aclInit(nullptr), "aclInit");
  check_acl(aclrtSetDevice(0), "aclrtSetDevice");
  aclrtStream stream = nullptr;
  check_acl(aclrtCreateStream(&stream), "aclrtCreateStream");
  acldvppChannelDesc* channel = acldvppCreateChannelDesc();
  check_acl(acldvppCreateChannel(channel), "acldvppCreateChannel");
  {
    // 1. JPEG into device memory, decoded by JPEGD to NV12 (strides as the chip wants them).
    const auto size = static_cast<uint32_t>(jpeg.size());
    uint32_t w = 0, h = 0;
    int32_t components = 0;
    check_acl(acldvppJpegGetImageInfo(jpeg.data(), size, &w, &h, &components), "acldvppJpegGetImageInfo");
    result.width = w;
    result.height = h;
    DeviceBuffer in(size, true);
    stage("H2D JPEG", "PCIe", [&] { in.upload(jpeg); });
    uint32_t decoded_bytes = 0;
    check_acl(acldvppJpegPredictDecSize(in.p, size, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &decoded_bytes),
              "acldvppJpegPredictDecSize");
    const uint32_t align = dev.soc().core(0).product() == aicore::Product::Ascend310P ? 64 : 128;
    DeviceBuffer decoded(decoded_bytes, true);
    PicDesc dec(decoded.p, decoded_bytes, PIXEL_FORMAT_YUV_SEMIPLANAR_420, w, h, soc::dvpp::align_up(w, align),
                soc::dvpp::align_up(h, 16));
    stage("JPEGD", "DVPP", [&] { check_acl(acldvppJpegDecodeAsync(channel, in.p, size, dec.d, stream), "acldvppJpegDecodeAsync"); });
    // The VPC reads even widths and heights: an odd image loses its last column or row.
    acldvppSetPicDescWidth(dec.d, w & ~1u);
    acldvppSetPicDescHeight(dec.d, h & ~1u);

    // 2. VPC resize to 128x128 NV12, then crop the centre 96x96 into 32x32 RGB888.
    const uint32_t rs = 128;
    DeviceBuffer resized(rs * rs * 3 / 2, true);
    PicDesc res(resized.p, rs * rs * 3 / 2, PIXEL_FORMAT_YUV_SEMIPLANAR_420, rs, rs, rs, rs);
    acldvppResizeConfig* resize = acldvppCreateResizeConfig();
    stage("VPC resize", "DVPP", [&] {
      check_acl(acldvppVpcResizeAsync(channel, dec.d, res.d, resize, stream), "acldvppVpcResizeAsync");
    });
    acldvppDestroyResizeConfig(resize);
    const uint32_t side = 32, positions = side * side;
    DeviceBuffer rgb(positions * 3, true);
    PicDesc out(rgb.p, positions * 3, PIXEL_FORMAT_RGB_888, side, side, side * 3, side);
    acldvppRoiConfig* crop = acldvppCreateRoiConfig(16, 111, 16, 111);
    stage("VPC crop", "DVPP", [&] { check_acl(acldvppVpcCropAsync(channel, res.d, out.d, crop, stream), "acldvppVpcCropAsync"); });
    acldvppDestroyRoiConfig(crop);
    check_acl(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");

    // 3. The AI Cores: normalise, then the three conv layers.
    std::vector<Layer> layers = network();
    DeviceBuffer offsets0(positions * 3 * 4, false);
    offsets0.upload(planar_offsets(3, positions));
    DeviceBuffer x0(positions * 3 * 2, false);
    LaunchOptions vector_kernel;
    if (separated) vector_kernel.kernel_type = aicore::KernelType::AivOnly;
    stage("normalise", "AI Core", [&] {
      dev.launch("normalise", 1, [&] {
        planarize_f16<uint8_t>(rgb.gm(), offsets0.gm(), x0.gm(), positions * 3, true, 1.0f / 64, -2.0f);
      }, vector_kernel);
    });
    std::vector<std::unique_ptr<DeviceBuffer>> keep;
    GM_ADDR x = x0.gm();
    DeviceBuffer* last_y = nullptr;
    for (size_t i = 0; i < layers.size(); ++i) {
      Layer& l = layers[i];
      const Conv2dShape& s = l.shape;
      const uint32_t P = s.out_h() * s.out_w();
      auto w_dev = std::make_unique<DeviceBuffer>(l.weights.size() * 2, false);
      w_dev->upload(l.weights);
      auto b_dev = std::make_unique<DeviceBuffer>(l.bias.size() * 4, false);
      b_dev->upload(l.bias);
      auto y_dev = std::make_unique<DeviceBuffer>(size_t(P) * s.cout * 4, false);
      const uint64_t ws_bytes = separated ? conv2d_a2_mixed_workspace_bytes(s) : a2 ? 0 : conv2d_910_workspace_bytes(s);
      auto ws = std::make_unique<DeviceBuffer>(std::max<uint64_t>(ws_bytes, 32), false);
      LaunchOptions options;
      options.kernel_type = separated ? aicore::KernelType::Mix1To2 : aicore::KernelType::AicOnly;
      const std::string name = fmt::format("conv{}", i + 1);
      stage(name.c_str(), "AI Core", [&] {
        dev.launch(name, 1, [&] {
          if (separated) {
            conv2d_a2_mixed(x, w_dev->gm(), b_dev->gm(), y_dev->gm(), ws->gm(), s, l.relu);
          } else if (a2) {
            conv2d_a2(x, w_dev->gm(), b_dev->gm(), y_dev->gm(), s, l.relu);
          } else {
            conv2d_910(x, w_dev->gm(), b_dev->gm(), y_dev->gm(), ws->gm(), s, l.relu);
          }
        }, options);
      });
      last_y = y_dev.get();
      if (i + 1 < layers.size()) {  // the next layer reads f16 CHW
        const uint32_t count = P * s.cout;
        auto offsets = std::make_unique<DeviceBuffer>(count * 4, false);
        offsets->upload(planar_offsets(s.cout, P));
        auto next = std::make_unique<DeviceBuffer>(count * 2, false);
        const std::string pname = fmt::format("to_chw{}", i + 1);
        DeviceBuffer* yb = y_dev.get();
        stage(pname.c_str(), "AI Core", [&] {
          dev.launch(pname, 1, [&] { planarize_f16<float>(yb->gm(), offsets->gm(), next->gm(), count, false, 1, 0); },
                     vector_kernel);
        });
        x = next->gm();
        keep.push_back(std::move(offsets));
        keep.push_back(std::move(next));
      }
      keep.push_back(std::move(w_dev));
      keep.push_back(std::move(b_dev));
      keep.push_back(std::move(y_dev));
      keep.push_back(std::move(ws));
    }

    // 4. The AI CPU: the top 5 of the 10 logits.
    const int64_t k = 5, classes = layers.back().shape.cout;
    DeviceBuffer values(k * 4, false), indices(k * 8, false);
    void* tensors[] = {last_y->p, values.p, indices.p};
    const int64_t ints[] = {1, classes, k};
    stage("TopK", "AI CPU", [&] {
      check_acl(npuvpAicpuLaunch("TopK", 1, tensors, 3, ints, 3, nullptr, 0, stream), "npuvpAicpuLaunch TopK");
    });
    check_acl(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");

    // 5. The host checks every stage from the DVPP's output on.
    if (!perf) {
      const auto pixels = rgb.download<uint8_t>(positions * 3);
      const auto logits = last_y->download<float>(size_t(classes));
      result.top5 = indices.download<int64_t>(size_t(k));
      result.top5_logits = values.download<float>(size_t(k));
      std::vector<_Float16> xr(size_t(positions) * 3);
      for (uint32_t c = 0; c < 3; ++c) {
        for (uint32_t p = 0; p < positions; ++p) {
          const auto scaled = _Float16(float(_Float16(float(pixels[p * 3 + c]))) * float(_Float16(1.0f / 64)));
          xr[size_t(c) * positions + p] = _Float16(float(scaled) + float(_Float16(-2.0f)));
        }
      }
      std::vector<float> y;
      for (size_t i = 0; i < layers.size(); ++i) {
        const Conv2dShape& s = layers[i].shape;
        y = conv2d_reference(xr, layers[i].weights, layers[i].bias, s, layers[i].relu,
                             a2 ? ConvBias::StartsTheSum : ConvBias::AddedToTheSum);
        const uint32_t P = s.out_h() * s.out_w();
        xr.assign(size_t(P) * s.cout, _Float16(0));
        for (uint32_t c = 0; c < s.cout; ++c) {
          for (uint32_t p = 0; p < P; ++p) xr[size_t(c) * P + p] = _Float16(y[size_t(p) * s.cout + c]);
        }
      }
      std::vector<int64_t> order(static_cast<size_t>(classes));
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return y[size_t(a)] > y[size_t(b)]; });
      result.checked = true;
      result.passed = true;
      for (int64_t c = 0; c < classes; ++c) {
        if (std::memcmp(&logits[size_t(c)], &y[size_t(c)], 4) != 0) {
          result.passed = false;
          result.detail = fmt::format("logit {} is {} on the device, {} in the reference", c, logits[size_t(c)], y[size_t(c)]);
          break;
        }
      }
      for (int64_t j = 0; j < k && result.passed; ++j) {
        if (result.top5[size_t(j)] != order[size_t(j)] || result.top5_logits[size_t(j)] != y[size_t(order[size_t(j)])]) {
          result.passed = false;
          result.detail = fmt::format("top-5 entry {} is class {} on the AI CPU, class {} in the reference", j,
                                      result.top5[size_t(j)], order[size_t(j)]);
        }
      }
      if (result.passed) result.detail = fmt::format("{} logits bit-exact, top-5 matches the reference", classes);
    }
  }
  check_acl(acldvppDestroyChannel(channel), "acldvppDestroyChannel");
  acldvppDestroyChannelDesc(channel);
  check_acl(aclrtDestroyStream(stream), "aclrtDestroyStream");
  check_acl(aclrtResetDevice(0), "aclrtResetDevice");
  check_acl(aclFinalize(), "aclFinalize");
  return result;
}

int image_pipeline_command(const std::string& image, const std::string& platform, std::vector<std::string> sets,
                           const std::string& mode, const std::string& trace, const std::string& stats) {
  std::vector<uint8_t> jpeg;
  std::string source;
  if (image.empty()) {
    jpeg = make_sample_jpeg(640, 480);
    source = "a generated 640x480 test picture";
  } else {
    std::ifstream f(image, std::ios::binary);
    if (!f) raise("image_pipeline", "cannot read image '{}'", image);
    jpeg.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    source = image;
  }
  if (!mode.empty()) sets.push_back("sim.mode=" + mode);
  Device::configure(platform.empty() ? "ascend310p" : platform, sets);
  if (!trace.empty()) Tracer::global().open(trace);
  Device& dev = Device::instance();
  auto& soc = dev.soc();
  fmt::print("npuvp: platform {} ({}; AI CPU {} of {} Arm cores; DVPP), image_pipeline on {}\n", soc.params().name,
             soc.describe_cores(), soc.aicpu().ai_cores(), soc.aicpu().params().cores, source);
  const ImagePipelineResult r = run_image_pipeline(jpeg);
  fmt::print("image {}x{} -> JPEGD -> VPC resize 128x128 -> VPC crop 96x96 -> 32x32 RGB -> normalise + 3 conv -> TopK\n",
             r.width, r.height);
  fmt::print("{:<12} {:<8} {:>14} {:>14}\n", "stage", "engine", "start (us)", "took (us)");
  std::map<std::string, double> per_engine;
  for (const auto& s : r.stages) {
    fmt::print("{:<12} {:<8} {:>14.3f} {:>14.3f}\n", s.name, s.engine, s.start.to_seconds() * 1e6,
               s.took.to_seconds() * 1e6);
    per_engine[s.engine] += s.took.to_seconds() * 1e6;
  }
  fmt::print("per engine:");
  for (const auto& [engine, us] : per_engine) fmt::print("  {} {:.3f} us", engine, us);
  fmt::print("\n");
  if (r.checked) {
    fmt::print("top-5 classes:");
    for (size_t j = 0; j < r.top5.size(); ++j) fmt::print(" {} ({:.4f})", r.top5[j], r.top5_logits[j]);
    fmt::print("\n");
  }
  fmt::print("result: {} ({})\n", !r.checked ? "NOT CHECKED" : r.passed ? "PASS" : "FAIL",
             r.checked ? r.detail : "perf mode computes no data");
  platform::write_run_outputs(trace, stats);  // the trace has DVPP, AI Core and AI CPU tracks
  return !r.checked || r.passed ? 0 : 1;
}

}  // namespace npuvp::kernels
