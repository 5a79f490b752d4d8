// Sample kernels and their host programs. Shapes follow the classic Ascend C samples:
// 8 blocks x 8 tiles x 2 buffers.
#include "sw/kernels/samples.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <fmt/format.h>
#include <unistd.h>

#include "models/aicore/product.h"
#include "platforms/ascend_soc.h"
#include "platforms/host_memory.h"
#include "sw/kernels/conv2d.h"
#include "sw/kernels/conv2d_reference.h"
#include "sw/kernels/elementwise.h"
#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_910_nz.h"
#include "sw/kernels/matmul_reference.h"
#include "sw/kernels/matmul_softmax_910b.h"
#include "sw/kernels/matmul_softmax_reference.h"
#include "sw/runtime/device.h"
#include "sw/runtime/tikicpulib.h"
#include "tlm/log.h"
#include "tlm/progress.h"

namespace npuvp::kernels {
namespace {

constexpr int32_t kDefaultBlocks = 8;
constexpr int32_t kBlockLength = 2048;
constexpr int32_t kTileNum = 8;

struct AddOp {
  template <class T>
  void operator()(const LocalTensor<T>& z, const LocalTensor<T>& x, const LocalTensor<T>& y, int32_t n) const {
    Add(z, x, y, n);
  }
};
struct MulOp {
  template <class T>
  void operator()(const LocalTensor<T>& z, const LocalTensor<T>& x, const LocalTensor<T>& y, int32_t n) const {
    Mul(z, x, y, n);
  }
};
struct ReluOp {
  template <class T>
  void operator()(const LocalTensor<T>& z, const LocalTensor<T>& x, const LocalTensor<T>&, int32_t n) const {
    Relu(z, x, n);
  }
};

}  // namespace

// The kernels, as an Ascend C programmer declares them.
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelElementwise<half, 2, AddOp> op(AddOp{}, kBlockLength, kTileNum);
  op.Init(x, y, z);
  op.Process();
}

extern "C" __global__ __aicore__ void mul_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelElementwise<float, 2, MulOp> op(MulOp{}, kBlockLength, kTileNum);
  op.Init(x, y, z);
  op.Process();
}

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR z) {
  KernelElementwise<half, 1, ReluOp> op(ReluOp{}, kBlockLength, kTileNum);
  op.Init(x, nullptr, z);
  op.Process();
}

// A scalar-heavy kernel: the scalar unit walks each tile with GetValue/SetValue to form a
// running (prefix) sum, after explicit MTE2->S and S->MTE3 synchronisation.
extern "C" __global__ __aicore__ void prefix_sum_custom(GM_ADDR x, GM_ADDR z) {
  constexpr int32_t kTile = 256;
  const int32_t tiles = kBlockLength / kTile;
  GlobalTensor<int32_t> xGm, zGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x) + kBlockLength * GetBlockIdx(), kBlockLength);
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(z) + kBlockLength * GetBlockIdx(), kBlockLength);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(int32_t));
  LocalTensor<int32_t> t = buf.Get<int32_t>();
  int32_t running = 0;
  for (int32_t i = 0; i < tiles; ++i) {
    if (i > 0) WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);  // the previous tile has left UB
    DataCopy(t, xGm[i * kTile], kTile);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    for (int32_t j = 0; j < kTile; ++j) {
      running = static_cast<int32_t>(static_cast<uint32_t>(running) + static_cast<uint32_t>(t.GetValue(j)));
      t.SetValue(j, running);
    }
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopy(zGm[i * kTile], t, kTile);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
}

namespace {

template <class T>
std::vector<T> random_values(size_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

template <class T>
uint64_t bits_of(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// Runs a sample's host reference, `reference(const ReferenceRun&)`, for a kernel launched as
// `kernel`: on the host's cores, with a progress line when it runs long (at a large --scale it
// takes longer than the launch).
template <class Reference>
auto on_host(const char* kernel, Reference&& reference) {
  ProgressLine line(Device::instance().soc().params().progress_seconds);
  ReferenceRun run;
  auto state = [kernel](double done) {
    return fmt::format("{}: checking the result on the host, {:.0f}% done", kernel, 100 * done);
  };
  run.progress = [&line, &state](double done) { line.update([&] { return state(done); }); };
  auto result = reference(run);
  line.finish([&] { return state(1.0); });
  return result;
}

// Compares bit for bit; reports the first mismatch.
template <class T>
SampleResult compare(const T* got, const std::vector<T>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (bits_of(got[i]) != bits_of(want[i])) {
      return {false, fmt::format("element {}: got 0x{:0{}x} ({}), want 0x{:0{}x} ({})", i, bits_of(got[i]),
                                 2 * sizeof(T), double(got[i]), bits_of(want[i]), 2 * sizeof(T), double(want[i]))};
    }
  }
  return {true, fmt::format("{} elements match the reference bit for bit", want.size())};
}

// Perf mode computes no data, so there a sample generates no inputs, reads no result back and
// checks nothing: its copies still cross PCIe, timed without their bytes
// (Device::memcpy_without_data), so the run's simulated time and statistics are those of the
// run with data, while its host memory does not grow with the problem (GM is mapped on
// demand and nothing touches it).
bool computes_data() { return Device::instance().soc().params().mode != SimMode::Perf; }

// `bytes` from the host to GM at `gm`; in perf mode the copy's time only (`host` is not read).
void copy_to_gm(void* gm, const void* host, size_t bytes) {
  if (computes_data()) {
    Device::instance().memcpy(gm, host, bytes, Device::Copy::HostToDevice);
  } else {
    Device::instance().memcpy_without_data(gm, bytes, Device::Copy::HostToDevice);
  }
}

// `bytes` from GM at `gm` to the host; in perf mode the copy's time only (`host` is not written).
void copy_from_gm(void* host, const void* gm, size_t bytes) {
  if (computes_data()) {
    Device::instance().memcpy(host, gm, bytes, Device::Copy::DeviceToHost);
  } else {
    Device::instance().memcpy_without_data(const_cast<void*>(gm), bytes, Device::Copy::DeviceToHost);
  }
}

// Compares `got` bit for bit with what `reference()` returns, unless the run computed no data
// (perf mode): then there is nothing to check, and the reference, which at a large --scale
// takes longer than the launch, is not run.
template <class T, class Reference>
SampleResult check(const T* got, Reference&& reference) {
  if (!computes_data()) return {true, "perf mode computes no data: no inputs were generated, no result was checked"};
  return compare(got, reference());
}

// Runs a kernel with `inputs` GM inputs of `T` and one output; `reference` maps inputs to outputs.
template <class T, class Kernel, class Reference>
SampleResult run_sample(const char* name, uint32_t blocks, int inputs, Kernel kernel, Reference reference,
                        float lo, float hi) {
  Device& dev = Device::instance();
  const size_t n = size_t(blocks) * kBlockLength;
  const bool data = computes_data();
  std::vector<std::vector<T>> host(inputs);
  std::vector<T*> gm;
  for (int i = 0; i < inputs; ++i) {
    if (data) host[i] = random_values<T>(n, 1234u + i, lo, hi);
    gm.push_back(static_cast<T*>(AscendC::GmAlloc(n * sizeof(T))));
    copy_to_gm(gm.back(), host[i].data(), n * sizeof(T));
  }
  T* out = static_cast<T*>(AscendC::GmAlloc(n * sizeof(T)));
  if (data) std::memset(out, 0, n * sizeof(T));
  dev.launch(name, blocks, [&] { kernel(gm, out); });
  std::vector<T> got(data ? n : 0);
  copy_from_gm(got.data(), out, n * sizeof(T));
  SampleResult r = check(got.data(), [&] {
    std::vector<T> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = reference(host, i);
    return want;
  });
  for (T* p : gm) AscendC::GmFree(p);
  AscendC::GmFree(out);
  return r;
}

// Cores that run a kernel of the kind: vector kernels run on everything with a vector unit
// (coupled AI Cores, AIVs, Vector Cores), cube kernels on everything with a cube (coupled AI
// Cores, AICs).
uint32_t cores_with(aicore::CoreKind lacking) {
  auto& soc = Device::instance().soc();
  uint32_t n = 0;
  for (unsigned i = 0; i < soc.num_cores(); ++i) n += soc.core(i).core_kind() != lacking;
  return n;
}
uint32_t vector_cores() { return cores_with(aicore::CoreKind::Aic); }
uint32_t cube_cores() { return cores_with(aicore::CoreKind::Aiv); }

// The classic 8 blocks, or one per vector core on a platform with more; `scale` times that
// (each block has a fixed share of the data, so more blocks means more data).
uint32_t blocks_or_default(const SampleArgs& args) {
  return args.block_dim ? args.block_dim : std::max<uint32_t>(kDefaultBlocks, vector_cores()) * args.scale;
}

// The cube samples run the variant of the core the platform has: A2 (Nd2Nz, BiasTable,
// Fixpipe) or coupled 910 (padded GM workspace, L0C -> UB in matrix mode, vector post-pass).
// The cube samples run on cube cores: the AICs of a separated chip, the AI Cores of a coupled one.
LaunchOptions cube_kernel() {
  LaunchOptions o;
  o.kernel_type = aicore::KernelType::AicOnly;
  return o;
}

bool platform_is_a2() { return aicore::is_a2(Device::instance().soc().core(0).product()); }

// GM for a 910 kernel's workspace, freed when the sample ends (none on A2).
struct Workspace {
  explicit Workspace(uint64_t bytes) : p(bytes ? static_cast<uint8_t*>(AscendC::GmAlloc(bytes)) : nullptr) {}
  ~Workspace() {
    if (p) AscendC::GmFree(p);
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  uint8_t* p;
};

// A GM copy of `v`, `elems` elements, brought over PCIe (the host bridge) like a real host
// program's input (in perf mode `v` is empty: the copy is timed without data). The
// buffer is padded as aclrtMalloc pads (whole 32 B blocks, plus 32 B), and asks for the
// padding: the kernels of the coupled chips (no DataCopyPad) read a tensor's ragged end, and
// rows that start inside a block, in whole blocks, and every byte a kernel touches must be
// the host's (the sanitizer's bounds, docs/sanitizer.md).
template <class T>
T* gm_copy(const std::vector<T>& v, size_t elems) {
  auto* p = static_cast<T*>(AscendC::GmAlloc((elems * sizeof(T) + 31) / 32 * 32 + 32));
  copy_to_gm(p, v.data(), elems * sizeof(T));
  return p;
}
template <class T>
T* gm_copy(const std::vector<T>& v) {
  return gm_copy(v, v.size());
}

// The matmul sample's shape: on one core the classic 256x192x320; on P cores, a C of exactly
// P 128x128 tiles with ragged last tiles, so every core gets one tile and the odd edges are
// exercised. The coupled 910 kernel shares C by rectangles of tiles, so there C is as square
// as P allows (rows x cols = P); the A2 kernel shares C by 128-column panels, so there C is
// one tile row of P panels. `scale` multiplies M, N and K (so each core has scale^2 tiles,
// each scale times deeper).
MatmulShape matmul_sample_shape(uint32_t cores, uint32_t scale, bool a2) {
  if (cores <= 1) return {256 * scale, 192 * scale, 320 * scale};
  uint32_t cols = cores;
  if (!a2) {
    for (uint32_t d = 1; d * d <= cores; ++d) {
      if (cores % d == 0) cols = d;
    }
  }
  return {cores / cols * 128 * scale - 7, cols * 128 * scale - 5, 320 * scale};
}

// A sample's data must fit the host: past its memory the OOM killer would end the run, not
// an error. `bytes` counts the operands and results on the host, in simulated GM (backed by
// host memory as it is written) and in the reference's copies.
void require_host_memory(const char* sample, uint64_t bytes) {
  uint64_t limit = Device::instance().soc().params().host_memory_limit;
  if (limit == 0) limit = platform::default_host_memory_limit();
  if (bytes <= limit) return;
  auto size = [](uint64_t b) {
    return b >= (1ull << 30) ? fmt::format("{:.1f} GiB", double(b) / double(1ull << 30))
                             : fmt::format("{:.0f} MiB", double(b) / double(1ull << 20));
  };
  raise("npuvp run", "{} at this size needs about {} of host memory for its data, more than the {} it may take "
        "(sim.host_memory_limit; by default 3/4 of this machine's): use a smaller --scale",
        sample, size(bytes), size(limit));
}

// The host memory of an f16 matmul sample's data: A and B as f16 on the host and in GM, B
// again as f32 in the reference; C (or Y) as f32 in GM, on the host and twice in the reference.
uint64_t matmul_host_bytes(uint64_t m, uint64_t n, uint64_t k) { return 4 * m * k + 8 * k * n + 16 * m * n; }

// f16 matmul on `blocks` blocks, checked against the numeric contract (SPEC.md §1.4).
SampleResult run_matmul(MatmulShape shape, uint32_t blocks) {
  Device& dev = Device::instance();
  const bool a2 = platform_is_a2();
  const uint32_t m = shape.m, n = shape.n, k = shape.k;
  const bool data = computes_data();
  require_host_memory("matmul", data ? matmul_host_bytes(m, n, k) : 0);
  std::vector<half> a, b;
  if (data) {
    a = random_values<half>(size_t(m) * k, 11, -2, 2);
    b = random_values<half>(size_t(k) * n, 12, -2, 2);
    // A coupled core takes its operands in NZ, as real 910 operators do (the host formats
    // them, in place of a TransData) and gives C in NZ (matmul_910_nz.h).
    if (!a2) {
      a = nd_to_nz(a.data(), m, k);
      b = nd_to_nz(b.data(), k, n);
    }
  }
  half* ga = gm_copy(a, a2 ? size_t(m) * k : size_t(nz_elems(m, k)));
  half* gb = gm_copy(b, a2 ? size_t(k) * n : size_t(nz_elems(k, n)));
  const size_t c_elems = a2 ? size_t(m) * n : size_t(nz_elems(m, n));
  auto* gc = static_cast<float*>(AscendC::GmAlloc(c_elems * 4));
  const MatmulNzTiling tiling = matmul_910_nz_tiling(shape, blocks, dev.soc().params().l2_size);
  dev.launch("matmul_custom", blocks, [&] {
    auto pa = reinterpret_cast<GM_ADDR>(ga), pb = reinterpret_cast<GM_ADDR>(gb), pc = reinterpret_cast<GM_ADDR>(gc);
    if (a2) {
      matmul_a2<float>(pa, pb, pc, shape);
    } else {
      matmul_910_nz<float>(pa, pb, pc, shape, tiling);
    }
  }, cube_kernel());
  std::vector<float> c(data ? c_elems : 0);
  copy_from_gm(c.data(), gc, c_elems * sizeof(float));
  if (data && !a2) {
    c = nz_to_nd(c.data(), m, n);
    a = nz_to_nd(a.data(), m, k);  // the reference takes ND
    b = nz_to_nd(b.data(), k, n);
  }
  SampleResult r = check(c.data(), [&] {
    return on_host("matmul_custom", [&](const ReferenceRun& run) { return matmul_reference(a, b, m, n, k, run); });
  });
  AscendC::GmFree(ga);
  AscendC::GmFree(gb);
  AscendC::GmFree(gc);
  return r;
}

// The fused sample's shape on P AI Cores: two row tiles per core (so each AI Core reuses both
// workspace slots), the last one ragged, and an odd N (a row's tail leaves by scalar stores).
// `scale` multiplies the tiles per core and K.
MatmulSoftmaxShape matmul_softmax_sample_shape(uint32_t cores, uint32_t scale) {
  return {std::max<uint32_t>(cores, 1) * 2 * scale * kMatmulSoftmaxRowTile - 7, 509, 256 * scale};
}

// Y = softmax_rows(A x B + bias) on the AI Cores of a separated chip, one block per AI Core.
SampleResult run_matmul_softmax(MatmulSoftmaxShape shape, uint32_t blocks) {
  Device& dev = Device::instance();
  if (!dev.soc().separated()) {
    return {false, "matmul_softmax needs a separated chip (AIC + 2 AIV per AI Core): use --platform ascend910b"};
  }
  const uint32_t m = shape.m, n = shape.n, k = shape.k;
  const bool data = computes_data();
  // The bias and workspace are small.
  require_host_memory("matmul_softmax", data ? matmul_host_bytes(m, n, k) : 0);
  std::vector<half> a, b;
  std::vector<float> bias;
  if (data) {
    a = random_values<half>(size_t(m) * k, 31, -1, 1);
    b = random_values<half>(size_t(k) * n, 32, -1, 1);
    bias = random_values<float>(n, 33, -2, 2);
  }
  half* ga = gm_copy(a, size_t(m) * k);
  half* gb = gm_copy(b, size_t(k) * n);
  float* gbias = gm_copy(bias, n);
  auto* gy = static_cast<float*>(AscendC::GmAlloc(size_t(m) * n * 4));
  Workspace ws(matmul_softmax_910b_workspace_bytes(shape, blocks));
  LaunchOptions options;
  options.kernel_type = aicore::KernelType::Mix1To2;
  dev.launch("matmul_softmax_custom", blocks, [&] {
    matmul_softmax_910b(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb), reinterpret_cast<GM_ADDR>(gbias),
                        reinterpret_cast<GM_ADDR>(gy), ws.p, shape);
  }, options);
  std::vector<float> y(data ? size_t(m) * n : 0);
  copy_from_gm(y.data(), gy, size_t(m) * n * sizeof(float));
  SampleResult r = check(y.data(), [&] {
    return on_host("matmul_softmax_custom",
                   [&](const ReferenceRun& run) { return matmul_softmax_reference(a, b, bias, m, n, k, run); });
  });
  AscendC::GmFree(ga);
  AscendC::GmFree(gb);
  AscendC::GmFree(gbias);
  AscendC::GmFree(gy);
  return r;
}

// int8 matmul (B given transposed) on one core: exact, with int32 wrap.
SampleResult run_matmul_int8(uint32_t m, uint32_t n, uint32_t k) {
  Device& dev = Device::instance();
  const bool a2 = platform_is_a2();
  const MatmulShape shape{m, n, k};
  std::mt19937 gen(13);
  std::uniform_int_distribution<int> dist(-128, 127);
  std::vector<int8_t> a(size_t(m) * k), bt(size_t(n) * k);
  for (auto& v : a) v = int8_t(dist(gen));
  for (auto& v : bt) v = int8_t(dist(gen));
  int8_t *ga = gm_copy(a), *gb = gm_copy(bt);
  auto* gc = static_cast<int32_t*>(AscendC::GmAlloc(size_t(m) * n * 4));
  Workspace ws(a2 ? 0 : matmul_int8_910_workspace_bytes(shape));
  dev.launch("matmul_int8_custom", 1, [&] {
    auto pa = reinterpret_cast<GM_ADDR>(ga), pb = reinterpret_cast<GM_ADDR>(gb), pc = reinterpret_cast<GM_ADDR>(gc);
    if (a2) {
      matmul_int8_a2(pa, pb, pc, shape);
    } else {
      matmul_int8_910(pa, pb, pc, ws.p, shape);
    }
  }, cube_kernel());
  SampleResult r = check(gc, [&] { return matmul_int8_reference(a, bt, m, n, k); });
  AscendC::GmFree(ga);
  AscendC::GmFree(gb);
  AscendC::GmFree(gc);
  return r;
}

// conv2d with bias and ReLU on one core; the bias enters the sum where the product puts it.
SampleResult run_conv2d(const Conv2dShape& s) {
  Device& dev = Device::instance();
  const bool a2 = platform_is_a2();
  const uint32_t positions = s.out_h() * s.out_w(), coutp = (s.cout + 15) / 16 * 16;
  auto x = random_values<half>(size_t(s.c) * s.h * s.w, 21, -2, 2);
  auto w = random_values<half>(size_t(s.cout) * s.c * s.kh * s.kw, 22, -2, 2);
  auto bias = random_values<float>(coutp, 23, -1, 1);
  auto wf = conv2d_format_weights(w, s);
  half *gx = gm_copy(x), *gw = gm_copy(wf);
  float* gb = gm_copy(bias);
  auto* gy = static_cast<float*>(AscendC::GmAlloc(size_t(positions) * s.cout * 4));
  // A separated chip formats the feature map on an AIV (the AIC has no UB): a mixed kernel.
  const bool separated = dev.soc().separated();
  Workspace ws(separated ? conv2d_a2_mixed_workspace_bytes(s) : a2 ? 0 : conv2d_910_workspace_bytes(s));
  LaunchOptions options = cube_kernel();
  if (separated) options.kernel_type = aicore::KernelType::Mix1To2;
  dev.launch("conv2d_custom", 1, [&] {
    auto px = reinterpret_cast<GM_ADDR>(gx), pw = reinterpret_cast<GM_ADDR>(gw);
    auto pb = reinterpret_cast<GM_ADDR>(gb), py = reinterpret_cast<GM_ADDR>(gy);
    if (separated) {
      conv2d_a2_mixed(px, pw, pb, py, ws.p, s, true);
    } else if (a2) {
      conv2d_a2(px, pw, pb, py, s, true);
    } else {
      conv2d_910(px, pw, pb, py, ws.p, s, true);
    }
  }, options);
  SampleResult r = check(gy, [&] {
    return conv2d_reference(x, wf, bias, s, true, a2 ? ConvBias::StartsTheSum : ConvBias::AddedToTheSum);
  });
  AscendC::GmFree(gx);
  AscendC::GmFree(gw);
  AscendC::GmFree(gb);
  AscendC::GmFree(gy);
  return r;
}

Conv2dShape sample_conv2d_shape() {
  Conv2dShape s;
  s.c = 19;
  s.h = 14;
  s.w = 15;
  s.cout = 40;
  s.kh = s.kw = 3;
  s.stride = 1;
  s.pad = 1;
  return s;
}

}  // namespace

const std::vector<Sample>& samples() {
  static const std::vector<Sample> list = {
      {"add", "z = x + y over half, double-buffered (8 blocks x 8 tiles x 2 buffers; one block per vector core on "
       "bigger chips; --scale s: s times the blocks)",
       [](const SampleArgs& args) {
         return run_sample<half>(
             "add_custom", blocks_or_default(args), 2,
             [](auto& in, half* out) { add_custom((GM_ADDR)in[0], (GM_ADDR)in[1], (GM_ADDR)out); },
             [](auto& h, size_t i) { return static_cast<half>(float(h[0][i]) + float(h[1][i])); }, -100, 100);
       }},
      {"mul", "z = x * y over float, double-buffered",
       [](const SampleArgs& args) {
         return run_sample<float>(
             "mul_custom", blocks_or_default(args), 2,
             [](auto& in, float* out) { mul_custom((GM_ADDR)in[0], (GM_ADDR)in[1], (GM_ADDR)out); },
             [](auto& h, size_t i) { return h[0][i] * h[1][i]; }, -1000, 1000);
       }},
      {"relu", "z = max(x, 0) over half, double-buffered",
       [](const SampleArgs& args) {
         return run_sample<half>(
             "relu_custom", blocks_or_default(args), 1,
             [](auto& in, half* out) { relu_custom((GM_ADDR)in[0], (GM_ADDR)out); },
             [](auto& h, size_t i) { return h[0][i] > half(0) ? h[0][i] : half(0); }, -10, 10);
       }},
      {"prefix_sum", "running sum over int32 by scalar GetValue/SetValue after explicit sync",
       [](const SampleArgs& args) {
         return run_sample<int32_t>(
             "prefix_sum_custom", blocks_or_default(args), 1,
             [](auto& in, int32_t* out) { prefix_sum_custom((GM_ADDR)in[0], (GM_ADDR)out); },
             [](auto& h, size_t i) {
               const size_t start = i / kBlockLength * kBlockLength;
               uint32_t s = 0;
               for (size_t k = start; k <= i; ++k) s += static_cast<uint32_t>(h[0][k]);
               return static_cast<int32_t>(s);
             },
             -1e6f, 1e6f);
       }},
      {"matmul",
       "C = A x B, f16 -> f32 on every core (A2 or coupled 910): 256x192x320 on one core, a C of one "
       "128x128 tile per core (ragged edges) on more; --scale s: M, N, K times s",
       [](const SampleArgs& args) {
         const uint32_t cores = cube_cores();
         return run_matmul(matmul_sample_shape(cores, args.scale, platform_is_a2()), args.block_dim ? args.block_dim : cores);
       },
       "core910b"},
      // issue 23 (matmul efficiency): the square GEMM whose cube efficiency docs/platforms.md records.
      {"matmul_square",
       "C = A x B, f16 -> f32 on every cube core, M = N = K = 512 x scale (--scale 8: 4096^3; use --mode perf "
       "for the large ones)",
       [](const SampleArgs& args) {
         const uint32_t edge = 512 * args.scale;
         return run_matmul({edge, edge, edge}, args.block_dim ? args.block_dim : cube_cores());
       },
       "core910b"},
      {"matmul_softmax",
       "Y = softmax_rows(A x B + bias), f16 -> f32, fused on a separated chip: each AIC's C tiles go "
       "through a double-buffered GM workspace to its two AIVs (cross-core flags); 2 row tiles per AI Core, N = 509, K = 256; "
       "--scale s: s times the tiles and K",
       [](const SampleArgs& args) {
         const uint32_t cores = cube_cores();  // one AIC per AI Core
         return run_matmul_softmax(matmul_softmax_sample_shape(cores, args.scale),
                                   args.block_dim ? args.block_dim : cores);
       },
       "ascend910b"},
      {"matmul_int8", "C = A x Bt^T, 100x70x250 s8 -> s32 on one core (A2 or coupled 910)",
       [](const SampleArgs&) { return run_matmul_int8(100, 70, 250); }, "core910b"},
      {"conv2d", "y = relu(conv(x, w) + b), 19x14x15 f16, 40 3x3 filters, pad 1, on one core (A2 or coupled 910)",
       [](const SampleArgs&) { return run_conv2d(sample_conv2d_shape()); }, "core910b"},
  };
  return list;
}

const Sample* find_sample(const std::string& name) {
  for (const auto& s : samples()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace npuvp::kernels
