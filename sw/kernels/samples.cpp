// Sample kernels and their host programs. Shapes follow the classic Ascend C samples:
// 8 blocks x 8 tiles x 2 buffers.
#include "sw/kernels/samples.h"

#include <cmath>
#include <cstring>
#include <random>
#include <fmt/format.h>

#include "sw/kernels/elementwise.h"
#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_reference.h"
#include "sw/runtime/device.h"
#include "sw/runtime/tikicpulib.h"

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

// Runs a kernel with `inputs` GM inputs of `T` and one output; `reference` maps inputs to outputs.
template <class T, class Kernel, class Reference>
SampleResult run_sample(const char* name, uint32_t blocks, int inputs, Kernel kernel, Reference reference,
                        float lo, float hi) {
  Device& dev = Device::instance();
  const size_t n = size_t(blocks) * kBlockLength;
  std::vector<std::vector<T>> host;
  std::vector<T*> gm;
  for (int i = 0; i < inputs; ++i) {
    host.push_back(random_values<T>(n, 1234u + i, lo, hi));
    gm.push_back(static_cast<T*>(AscendC::GmAlloc(n * sizeof(T))));
    dev.memcpy(gm.back(), host.back().data(), n * sizeof(T), Device::Copy::HostToDevice);
  }
  T* out = static_cast<T*>(AscendC::GmAlloc(n * sizeof(T)));
  std::memset(out, 0, n * sizeof(T));
  dev.launch(name, blocks, [&] { kernel(gm, out); });
  std::vector<T> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = reference(host, i);
  SampleResult r = compare(out, want);
  for (T* p : gm) AscendC::GmFree(p);
  AscendC::GmFree(out);
  return r;
}

uint32_t blocks_or_default(uint32_t b) { return b ? b : kDefaultBlocks; }

// f16 matmul on one A2 core, checked against the numeric contract (SPEC.md §1.4).
SampleResult run_matmul(uint32_t m, uint32_t n, uint32_t k) {
  Device& dev = Device::instance();
  auto a = random_values<half>(size_t(m) * k, 11, -2, 2);
  auto b = random_values<half>(size_t(k) * n, 12, -2, 2);
  auto* ga = static_cast<half*>(AscendC::GmAlloc(a.size() * 2));
  auto* gb = static_cast<half*>(AscendC::GmAlloc(b.size() * 2));
  auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(m) * n * 4));
  std::memcpy(ga, a.data(), a.size() * 2);
  std::memcpy(gb, b.data(), b.size() * 2);
  dev.launch("matmul_custom", 1, [&] {
    matmul_a2<float>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb), reinterpret_cast<GM_ADDR>(gc),
                     MatmulShape{m, n, k});
  });
  SampleResult r = compare(gc, matmul_reference(a, b, m, n, k));
  AscendC::GmFree(ga);
  AscendC::GmFree(gb);
  AscendC::GmFree(gc);
  return r;
}

}  // namespace

const std::vector<Sample>& samples() {
  static const std::vector<Sample> list = {
      {"add", "z = x + y over half, double-buffered (8 blocks x 8 tiles x 2 buffers)",
       [](uint32_t b) {
         return run_sample<half>(
             "add_custom", blocks_or_default(b), 2,
             [](auto& in, half* out) { add_custom((GM_ADDR)in[0], (GM_ADDR)in[1], (GM_ADDR)out); },
             [](auto& h, size_t i) { return static_cast<half>(float(h[0][i]) + float(h[1][i])); }, -100, 100);
       }},
      {"mul", "z = x * y over float, double-buffered",
       [](uint32_t b) {
         return run_sample<float>(
             "mul_custom", blocks_or_default(b), 2,
             [](auto& in, float* out) { mul_custom((GM_ADDR)in[0], (GM_ADDR)in[1], (GM_ADDR)out); },
             [](auto& h, size_t i) { return h[0][i] * h[1][i]; }, -1000, 1000);
       }},
      {"relu", "z = max(x, 0) over half, double-buffered",
       [](uint32_t b) {
         return run_sample<half>(
             "relu_custom", blocks_or_default(b), 1,
             [](auto& in, half* out) { relu_custom((GM_ADDR)in[0], (GM_ADDR)out); },
             [](auto& h, size_t i) { return h[0][i] > half(0) ? h[0][i] : half(0); }, -10, 10);
       }},
      {"prefix_sum", "running sum over int32 by scalar GetValue/SetValue after explicit sync",
       [](uint32_t b) {
         return run_sample<int32_t>(
             "prefix_sum_custom", blocks_or_default(b), 1,
             [](auto& in, int32_t* out) { prefix_sum_custom((GM_ADDR)in[0], (GM_ADDR)out); },
             [](auto& h, size_t i) {
               const size_t start = i / kBlockLength * kBlockLength;
               uint32_t s = 0;
               for (size_t k = start; k <= i; ++k) s += static_cast<uint32_t>(h[0][k]);
               return static_cast<int32_t>(s);
             },
             -1e6f, 1e6f);
       }},
      {"matmul", "C = A x B, 256x192x320 f16 -> f32 on one A2 core (Nd2Nz, LoadData, Mmad, Fixpipe)",
       [](uint32_t) { return run_matmul(256, 192, 320); }, "core910b"},
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
