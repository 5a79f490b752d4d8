// Data-layout transforms of the movers (contract: the struct comments in isa.h).
// Every transform works on whole 32 B blocks or fractal rows with memcpy; per-element work
// is limited to LoadData2D's transpose and Fixpipe's conversions.
//
// Choices where the isa.h contract is silent (ours, the RTL must match them):
// - LoadData3D: Ho = (fm_h + pad_top + pad_bottom - dilation_h * (kernel_h - 1) - 1) / stride_h + 1
//   (likewise Wo), the usual convolution output size; the check requires Ho, Wo >= 1.
//   Rows p >= Ho * Wo (the rounding of M up to 16) are not output positions and read
//   pad_value, like columns of channels >= channels (which includes c1 >= C1).
//   pad_value is converted to the dtype once, as the vector unit's scalars are: to f16 and
//   bf16 via float with round-to-nearest-even, to s8/u8 by clamping and truncating (NaN -> 0).
// - Fixpipe: ReLU is `v > 0 ? v : 0` on the f32/s32 value (so -0 and NaN give +0, like the
//   vector Relu). F32 -> F32 without ReLU copies the bits (NaN payloads kept). F322F16 and
//   F322BF16 overflow to infinity (IEEE RNE, no saturation). QF322B8/REQ8 compute v * deq_scale
//   in float, round half to even and saturate to [-128, 127]; NaN gives 0. Only the elements
//   i < m_size, j < n_size are written: the tail of the last NZ row of 16 is left untouched.
//   The check also requires the destination rows/columns not to overlap
//   (ND: dst_stride >= n_size; NZ: dst_stride * 32 >= m_size * 16 * dsize).
#include "models/aicore/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

namespace npuvp::aicore::layout {

namespace {

constexpr uint64_t kBlock = 32;     // bytes per block (one fractal row of C0 elements)
constexpr uint64_t kFractal = 512;  // bytes per fractal (16 rows of 32 B)

// Views address bytes by their address in the operand's memory space.
inline const uint8_t* at(ConstView v, uint64_t addr, uint64_t len) {
  assert(addr >= v.base && addr + len <= v.base + v.size && "layout: read outside the view");
  (void)len;
  return v.data + (addr - v.base);
}
inline uint8_t* at(View v, uint64_t addr, uint64_t len) {
  assert(addr >= v.base && addr + len <= v.base + v.size && "layout: write outside the view");
  (void)len;
  return v.data + (addr - v.base);
}

std::string outside(const char* name, uint64_t value, uint64_t lo, uint64_t hi) {
  return fmt::format("{} = {} is outside [{}, {}]", name, value, lo, hi);
}

bool is_16bit(DType t) { return dtype_size(t) == 2; }

const char* quant_name(QuantMode q) {
  switch (q) {
    case QuantMode::None: return "None";
    case QuantMode::F322F16: return "F322F16";
    case QuantMode::F322BF16: return "F322BF16";
    case QuantMode::DEQF16: return "DEQF16";
    case QuantMode::QF322B8: return "QF322B8";
    case QuantMode::REQ8: return "REQ8";
  }
  return "?";
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

// ---------------------------------------------------------------- Nd2Nz

std::string nd2nz_check(const Nd2Nz& op) {
  const unsigned size = dtype_size(op.dtype);
  if (size != 1 && size != 2 && size != 4) {
    return fmt::format("dtype {} is not an 8, 16 or 32-bit type", dtype_name(op.dtype));
  }
  if (op.nd_num > 4095) return outside("nd_num", op.nd_num, 0, 4095);
  if (op.n_value > 16384) return outside("n_value", op.n_value, 0, 16384);
  if (op.d_value > 65535) return outside("d_value", op.d_value, 0, 65535);
  const std::pair<const char*, uint32_t> strides[] = {
      {"src_nd_matrix_stride", op.src_nd_matrix_stride},
      {"src_d_value", op.src_d_value},
      {"dst_nz_c0_stride", op.dst_nz_c0_stride},
      {"dst_nz_n_stride", op.dst_nz_n_stride},
      {"dst_nz_matrix_stride", op.dst_nz_matrix_stride}};
  for (const auto& [name, value] : strides) {
    if (value > 65535) return outside(name, value, 0, 65535);
  }
  return {};
}

Range nd2nz_src_range(const Nd2Nz& op) {
  const uint64_t size = dtype_size(op.dtype);
  if (op.nd_num == 0 || op.n_value == 0 || op.d_value == 0) return {op.src.addr, op.src.addr};
  // Strides are non-negative: the last row of the last matrix ends last.
  const uint64_t last = uint64_t{op.nd_num - 1} * op.src_nd_matrix_stride +
                        uint64_t{op.n_value - 1} * op.src_d_value + op.d_value;
  return {op.src.addr, op.src.addr + last * size};
}

Range nd2nz_dst_range(const Nd2Nz& op) {
  const uint64_t size = dtype_size(op.dtype);
  if (op.nd_num == 0 || op.n_value == 0 || op.d_value == 0) return {op.dst.addr, op.dst.addr};
  const uint64_t blocks = ceil_div(op.d_value * size, kBlock);
  const uint64_t last = uint64_t{op.nd_num - 1} * op.dst_nz_matrix_stride * size +
                        (uint64_t{op.n_value - 1} * op.dst_nz_n_stride +
                         (blocks - 1) * op.dst_nz_c0_stride) * kBlock;
  return {op.dst.addr, op.dst.addr + last + kBlock};
}

void nd2nz(const Nd2Nz& op, ConstView src, View dst) {
  const uint64_t size = dtype_size(op.dtype);
  const uint64_t row_bytes = uint64_t{op.d_value} * size;
  const uint64_t blocks = ceil_div(row_bytes, kBlock);
  for (uint64_t i = 0; i < op.nd_num; ++i) {
    for (uint64_t j = 0; j < op.n_value; ++j) {
      const uint64_t s = op.src.addr + (i * op.src_nd_matrix_stride + j * op.src_d_value) * size;
      const uint64_t d = op.dst.addr + i * op.dst_nz_matrix_stride * size + j * op.dst_nz_n_stride * kBlock;
      for (uint64_t b = 0; b < blocks; ++b) {
        // The last block of a row may be partial: its tail is zero padding.
        const uint64_t n = std::min(kBlock, row_bytes - b * kBlock);
        uint8_t* out = at(dst, d + b * op.dst_nz_c0_stride * kBlock, kBlock);
        std::memcpy(out, at(src, s + b * kBlock, n), n);
        if (n < kBlock) std::memset(out + n, 0, kBlock - n);
      }
    }
  }
}

// ---------------------------------------------------------------- LoadData2D

std::string load2d_check(const LoadData2D& op) {
  if (op.repeat < 1 || op.repeat > 255) return outside("repeat", op.repeat, 1, 255);
  if (op.start_index > 65535) return outside("start_index", op.start_index, 0, 65535);
  if (op.src_stride > 65535) return outside("src_stride", op.src_stride, 0, 65535);
  if (op.dst_gap > 65535) return outside("dst_gap", op.dst_gap, 0, 65535);
  if (op.transpose && !is_16bit(op.dtype)) {
    return fmt::format("ifTranspose needs a 16-bit type, got {}", dtype_name(op.dtype));
  }
  return {};
}

Range load2d_src_range(const LoadData2D& op) {
  if (op.repeat == 0) return {op.src.addr, op.src.addr};
  const uint64_t first = op.src.addr + uint64_t{op.start_index} * kFractal;
  const uint64_t last = first + uint64_t{op.repeat - 1} * op.src_stride * kFractal;
  return {first, last + kFractal};
}

Range load2d_dst_range(const LoadData2D& op) {
  if (op.repeat == 0) return {op.dst.addr, op.dst.addr};
  const uint64_t last = op.dst.addr + uint64_t{op.repeat - 1} * (1 + uint64_t{op.dst_gap}) * kFractal;
  return {op.dst.addr, last + kFractal};
}

void load2d(const LoadData2D& op, ConstView src, View dst) {
  for (uint64_t r = 0; r < op.repeat; ++r) {
    const uint8_t* in = at(src, op.src.addr + (op.start_index + r * op.src_stride) * kFractal, kFractal);
    uint8_t* out = at(dst, op.dst.addr + r * (1 + uint64_t{op.dst_gap}) * kFractal, kFractal);
    if (!op.transpose) {
      std::memcpy(out, in, kFractal);
      continue;
    }
    // 16 x 16 16-bit fractal: (i, j) -> (j, i), through aligned temporaries (no aliasing
    // assumptions, and the compiler vectorises the fixed-size loops).
    uint16_t a[256], t[256];
    std::memcpy(a, in, kFractal);
    for (unsigned i = 0; i < 16; ++i) {
      for (unsigned j = 0; j < 16; ++j) t[j * 16 + i] = a[i * 16 + j];
    }
    std::memcpy(out, t, kFractal);
  }
}

// ---------------------------------------------------------------- LoadData3D

namespace {

struct Geometry3D {
  uint64_t size, c0, c1n;  // element size, C0, C1 = ceil(channels / C0)
  uint64_t ho, wo;         // output height and width (0 if the kernel does not fit)
};

uint64_t out_extent(uint64_t in, uint64_t pad_lo, uint64_t pad_hi, uint64_t kernel, uint64_t dil,
                    uint64_t stride) {
  const uint64_t padded = in + pad_lo + pad_hi;
  const uint64_t eff = dil * (kernel - 1) + 1;
  if (kernel == 0 || stride == 0 || padded < eff) return 0;
  return (padded - eff) / stride + 1;
}

Geometry3D geometry(const LoadData3D& op) {
  Geometry3D g;
  g.size = dtype_size(op.dtype);
  g.c0 = kBlock / g.size;
  g.c1n = ceil_div(op.channels, g.c0);
  g.ho = out_extent(op.fm_h, op.pad_top, op.pad_bottom, op.kernel_h, op.dilation_h, op.stride_h);
  g.wo = out_extent(op.fm_w, op.pad_left, op.pad_right, op.kernel_w, op.dilation_w, op.stride_w);
  return g;
}

// The 32 B block of pad_value elements of the dtype.
void pad_block(DType t, double v, uint8_t out[kBlock]) {
  auto fill = [&](auto x) {
    for (uint64_t i = 0; i < kBlock / sizeof(x); ++i) std::memcpy(out + i * sizeof(x), &x, sizeof(x));
  };
  auto to_int = [](double s, double lo, double hi) {
    if (s != s) return 0.0;
    return s <= lo ? lo : s >= hi ? hi : std::trunc(s);
  };
  switch (t) {
    case DType::F16: fill(f32_to_f16_reference(static_cast<float>(v))); break;
    case DType::BF16: fill(bfloat16_t(static_cast<float>(v)).bits); break;
    case DType::F32: fill(static_cast<float>(v)); break;
    case DType::S8: fill(static_cast<int8_t>(to_int(v, -128, 127))); break;
    case DType::U8: fill(static_cast<uint8_t>(to_int(v, 0, 255))); break;
    case DType::S16: fill(static_cast<int16_t>(to_int(v, -32768, 32767))); break;
    case DType::U16: fill(static_cast<uint16_t>(to_int(v, 0, 65535))); break;
    case DType::S32: fill(static_cast<int32_t>(to_int(v, -2147483648.0, 2147483647.0))); break;
    case DType::U32: fill(static_cast<uint32_t>(to_int(v, 0, 4294967295.0))); break;
  }
}

// The im2col column group g (C0 consecutive columns) decomposed into (c1, kh, kw).
struct Group {
  uint64_t c1, kh, kw;
};
Group group_of(const LoadData3D& op, uint64_t g) {
  const uint64_t kk = uint64_t{op.kernel_h} * op.kernel_w;
  return {g / kk, (g % kk) / op.kernel_w, g % op.kernel_w};
}

// Output indices o in [0, out_n) whose input position o * stride - pad + koff lies in [0, n).
bool valid_interval(int64_t n, int64_t pad, int64_t stride, int64_t koff, int64_t out_n, int64_t* lo,
                    int64_t* hi) {
  const int64_t num_lo = pad - koff;  // o * stride >= num_lo
  const int64_t num_hi = n - 1 + pad - koff;  // o * stride <= num_hi
  if (num_hi < 0 || out_n <= 0) return false;
  *lo = num_lo <= 0 ? 0 : (num_lo + stride - 1) / stride;
  *hi = std::min(num_hi / stride, out_n - 1);
  return *lo <= *hi;
}

}  // namespace

std::string load3d_check(const LoadData3D& op) {
  switch (op.dtype) {
    case DType::F16: case DType::BF16: case DType::S8: case DType::U8: case DType::F32: break;
    default: return fmt::format("dtype {} is not one of f16, bf16, s8, u8, f32", dtype_name(op.dtype));
  }
  if (op.src.space != MemSpace::L1) {
    return fmt::format("source must be in L1, got {}", mem_space_name(op.src.space));
  }
  if (op.dst.space != MemSpace::L0A && op.dst.space != MemSpace::L0B) {
    return fmt::format("destination must be L0A or L0B, got {}", mem_space_name(op.dst.space));
  }
  if (op.fm_h < 1 || op.fm_h > 32767) return outside("fm_h", op.fm_h, 1, 32767);
  if (op.fm_w < 1 || op.fm_w > 32767) return outside("fm_w", op.fm_w, 1, 32767);
  if (op.channels < 1) return "channels must be >= 1";
  const std::pair<const char*, uint32_t> pads[] = {{"pad_top", op.pad_top},
                                                   {"pad_bottom", op.pad_bottom},
                                                   {"pad_left", op.pad_left},
                                                   {"pad_right", op.pad_right}};
  for (const auto& [name, value] : pads) {
    if (value > 255) return outside(name, value, 0, 255);
  }
  if (op.stride_h < 1 || op.stride_h > 63) return outside("stride_h", op.stride_h, 1, 63);
  if (op.stride_w < 1 || op.stride_w > 63) return outside("stride_w", op.stride_w, 1, 63);
  if (op.kernel_h < 1 || op.kernel_h > 255) return outside("kernel_h", op.kernel_h, 1, 255);
  if (op.kernel_w < 1 || op.kernel_w > 255) return outside("kernel_w", op.kernel_w, 1, 255);
  if (op.dilation_h < 1 || op.dilation_h > 255) return outside("dilation_h", op.dilation_h, 1, 255);
  if (op.dilation_w < 1 || op.dilation_w > 255) return outside("dilation_w", op.dilation_w, 1, 255);
  const Geometry3D g = geometry(op);
  if (g.ho == 0 || g.wo == 0) {
    return fmt::format("the dilated kernel {}x{} does not fit the padded feature map {}x{}",
                       uint64_t{op.dilation_h} * (op.kernel_h - 1) + 1,
                       uint64_t{op.dilation_w} * (op.kernel_w - 1) + 1,
                       uint64_t{op.fm_h} + op.pad_top + op.pad_bottom,
                       uint64_t{op.fm_w} + op.pad_left + op.pad_right);
  }
  if (op.m_extent == 0 || op.m_extent % 16 != 0) {
    return fmt::format("m_extent = {} must be a positive multiple of 16", op.m_extent);
  }
  if (op.m_start % 16 != 0) return fmt::format("m_start = {} must be a multiple of 16", op.m_start);
  if (op.k_extent == 0 || op.k_extent % g.c0 != 0) {
    return fmt::format("k_extent = {} must be a positive multiple of C0 = {}", op.k_extent, g.c0);
  }
  if (op.k_start % g.c0 != 0) {
    return fmt::format("k_start = {} must be a multiple of C0 = {}", op.k_start, g.c0);
  }
  return {};
}

// Exact: for each column group (one (c1, kh, kw)), the rows reading the map form a box of
// (ho, wo); the source address grows with p = ho * Wo + wo, so the first and last rows of the
// window inside that box give the group's lowest and highest addresses.
Range load3d_src_range(const LoadData3D& op) {
  const Geometry3D geo = geometry(op);
  const Range none{op.src.addr, op.src.addr};
  if (geo.ho == 0 || geo.wo == 0 || geo.c0 == 0 || op.m_extent == 0 || op.k_extent == 0) return none;
  const int64_t wo = static_cast<int64_t>(geo.wo);
  const int64_t p0 = op.m_start;
  const int64_t p1 = std::min<int64_t>(int64_t{op.m_start} + op.m_extent, static_cast<int64_t>(geo.ho * geo.wo));
  if (p0 >= p1) return none;
  bool any = false;
  uint64_t lo = 0, hi = 0;
  const uint64_t g0 = op.k_start / geo.c0, g1 = g0 + op.k_extent / geo.c0;
  for (uint64_t gi = g0; gi < g1; ++gi) {
    const Group grp = group_of(op, gi);
    if (grp.c1 >= geo.c1n) break;  // only channels >= channels from here on
    int64_t hl, hh, wl, wh;
    if (!valid_interval(op.fm_h, op.pad_top, op.stride_h, int64_t{op.dilation_h} * grp.kh,
                        static_cast<int64_t>(geo.ho), &hl, &hh) ||
        !valid_interval(op.fm_w, op.pad_left, op.stride_w, int64_t{op.dilation_w} * grp.kw, wo, &wl, &wh)) {
      continue;
    }
    // First row p >= p0 with ho in [hl, hh] and wo in [wl, wh].
    int64_t fh = p0 / wo, fw = p0 % wo;
    if (fh < hl) {
      fh = hl;
      fw = wl;
    } else if (fw < wl) {
      fw = wl;
    } else if (fw > wh) {
      ++fh;
      fw = wl;
    }
    if (fh > hh || fh * wo + fw >= p1) continue;
    // Last row p < p1 in the box (it exists: the first one does).
    int64_t lh = (p1 - 1) / wo, lw = (p1 - 1) % wo;
    if (lh > hh) {
      lh = hh;
      lw = wh;
    } else if (lw > wh) {
      lw = wh;
    } else if (lw < wl) {
      --lh;
      lw = wh;
    }
    auto addr = [&](int64_t oh, int64_t ow) {
      const uint64_t h = static_cast<uint64_t>(oh * op.stride_h - op.pad_top + int64_t{op.dilation_h} * grp.kh);
      const uint64_t w = static_cast<uint64_t>(ow * op.stride_w - op.pad_left + int64_t{op.dilation_w} * grp.kw);
      return ((grp.c1 * op.fm_h + h) * op.fm_w + w) * kBlock;
    };
    const uint64_t valid_c0 = std::min<uint64_t>(geo.c0, op.channels - grp.c1 * geo.c0);
    const uint64_t b = addr(fh, fw), e = addr(lh, lw) + valid_c0 * geo.size;
    lo = any ? std::min(lo, b) : b;
    hi = any ? std::max(hi, e) : e;
    any = true;
  }
  if (!any) return none;
  return {op.src.addr + lo, op.src.addr + hi};
}

Range load3d_dst_range(const LoadData3D& op) {
  const uint64_t size = dtype_size(op.dtype);
  return {op.dst.addr, op.dst.addr + uint64_t{op.m_extent} * op.k_extent * size};
}

void load3d(const LoadData3D& op, ConstView src, View dst) {
  const Geometry3D geo = geometry(op);
  uint8_t pad[kBlock];
  pad_block(op.dtype, op.pad_value, pad);
  const uint64_t k1n = op.k_extent / geo.c0, m1n = op.m_extent / 16;
  const uint64_t rows_out = geo.ho * geo.wo;
  const bool zn = op.dst.space == MemSpace::L0B;
  std::vector<Group> groups(k1n);
  for (uint64_t k1 = 0; k1 < k1n; ++k1) groups[k1] = group_of(op, op.k_start / geo.c0 + k1);

  for (uint64_t mr = 0; mr < op.m_extent; ++mr) {
    const uint64_t p = op.m_start + mr;
    const uint64_t m1 = mr / 16, mi = mr % 16;
    const bool row_real = p < rows_out;
    const int64_t oh = row_real ? static_cast<int64_t>(p / geo.wo) : 0;
    const int64_t ow = row_real ? static_cast<int64_t>(p % geo.wo) : 0;
    for (uint64_t k1 = 0; k1 < k1n; ++k1) {
      // Row mi of fractal (m1, k1): ZZ in L0A, ZN (fractal (k1, n1 = m1)) in L0B.
      const uint64_t frac = zn ? k1 * m1n + m1 : m1 * k1n + k1;
      uint8_t* out = at(dst, op.dst.addr + frac * kFractal + mi * kBlock, kBlock);
      const Group& grp = groups[k1];
      const int64_t h = oh * op.stride_h - op.pad_top + int64_t{op.dilation_h} * grp.kh;
      const int64_t w = ow * op.stride_w - op.pad_left + int64_t{op.dilation_w} * grp.kw;
      const bool inside = row_real && grp.c1 < geo.c1n && h >= 0 && h < op.fm_h && w >= 0 && w < op.fm_w;
      if (!inside) {
        std::memcpy(out, pad, kBlock);
        continue;
      }
      const uint64_t n = std::min<uint64_t>(geo.c0, op.channels - grp.c1 * geo.c0) * geo.size;
      const uint64_t a = op.src.addr + ((grp.c1 * op.fm_h + static_cast<uint64_t>(h)) * op.fm_w +
                                        static_cast<uint64_t>(w)) * kBlock;
      std::memcpy(out, at(src, a, n), n);
      if (n < kBlock) std::memcpy(out + n, pad + n, kBlock - n);  // channels >= channels
    }
  }
}

// ---------------------------------------------------------------- Fixpipe

namespace {

// The destination type each quant mode requires from each source type (None keeps it).
bool fixpipe_combo_legal(DType src, DType dst, QuantMode q) {
  if (src == DType::F32) {
    return (dst == DType::F32 && q == QuantMode::None) || (dst == DType::F16 && q == QuantMode::F322F16) ||
           (dst == DType::BF16 && q == QuantMode::F322BF16) || (dst == DType::S8 && q == QuantMode::QF322B8);
  }
  if (src == DType::S32) {
    return (dst == DType::S32 && q == QuantMode::None) || (dst == DType::F16 && q == QuantMode::DEQF16) ||
           (dst == DType::S8 && q == QuantMode::REQ8);
  }
  return false;
}

// Round half to even (the default rounding mode) and saturate to s8; NaN gives 0.
inline int8_t sat_s8(float x) {
  if (x != x) return 0;
  const float r = std::nearbyint(x);
  if (r >= 127.0f) return 127;
  if (r <= -128.0f) return -128;
  return static_cast<int8_t>(r);
}

inline float relu_f(float v) { return v > 0.0f ? v : 0.0f; }
inline int32_t relu_s(int32_t v) { return v > 0 ? v : 0; }

// Converts one NZ row segment of n <= 16 source elements into n destination elements.
template <QuantMode Q, typename In>
void convert_row(const uint8_t* src, uint8_t* dst, unsigned n, bool relu, float scale) {
  In v[16] = {};
  std::memcpy(v, src, n * sizeof(In));
  if constexpr (Q == QuantMode::None) {
    if (relu) {
      for (unsigned i = 0; i < 16; ++i) {
        if constexpr (std::is_same_v<In, float>) v[i] = relu_f(v[i]);
        else v[i] = relu_s(v[i]);
      }
    }
    std::memcpy(dst, v, n * sizeof(In));
  } else {
    // Everything but None goes through float: the f32 value (ReLU'd), or float(s32) * scale.
    float f[16];
    for (unsigned i = 0; i < 16; ++i) {
      if constexpr (std::is_same_v<In, float>) {
        f[i] = relu ? relu_f(v[i]) : v[i];
      } else {
        f[i] = static_cast<float>(relu ? relu_s(v[i]) : v[i]);
      }
      if constexpr (Q == QuantMode::DEQF16 || Q == QuantMode::QF322B8 || Q == QuantMode::REQ8) f[i] *= scale;
    }
    if constexpr (Q == QuantMode::F322F16 || Q == QuantMode::DEQF16) {
      _Float16 h[16];
      f32_to_f16(f, h, 16);  // RNE
      std::memcpy(dst, h, n * 2);
    } else if constexpr (Q == QuantMode::F322BF16) {
      uint16_t b[16];
      for (unsigned i = 0; i < 16; ++i) b[i] = bfloat16_t(f[i]).bits;  // RNE
      std::memcpy(dst, b, n * 2);
    } else {
      int8_t b[16];
      for (unsigned i = 0; i < 16; ++i) b[i] = sat_s8(f[i]);
      std::memcpy(dst, b, n);
    }
  }
}

template <QuantMode Q, typename In>
void fixpipe_run(const Fixpipe& op, ConstView l0c, View dst) {
  const uint64_t csize = sizeof(In), dsize = dtype_size(op.dst_type);
  const uint64_t n1n = ceil_div(op.n_size, 16);
  for (uint64_t n1 = 0; n1 < n1n; ++n1) {
    const unsigned cols = static_cast<unsigned>(std::min<uint64_t>(16, op.n_size - n1 * 16));
    const uint64_t col_src = op.src + n1 * op.src_stride * 16 * csize;
    for (uint64_t i = 0; i < op.m_size; ++i) {
      const uint64_t d = op.nz2nd ? op.dst.addr + (i * op.dst_stride + n1 * 16) * dsize
                                  : op.dst.addr + n1 * op.dst_stride * kBlock + i * 16 * dsize;
      convert_row<Q, In>(at(l0c, col_src + i * 16 * csize, cols * csize), at(dst, d, cols * dsize), cols,
                         op.relu, op.deq_scale);
    }
  }
}

}  // namespace

std::string fixpipe_check(const Fixpipe& op) {
  if (op.dst.space != MemSpace::GM && op.dst.space != MemSpace::L1) {
    return fmt::format("destination must be GM or L1, got {}", mem_space_name(op.dst.space));
  }
  if (op.m_size < 1 || op.m_size > 4095) return outside("m_size", op.m_size, 1, 4095);
  if (op.n_size < 1 || op.n_size > 4095) return outside("n_size", op.n_size, 1, 4095);
  if (op.src_type != DType::F32 && op.src_type != DType::S32) {
    return fmt::format("source type must be f32 or s32, got {}", dtype_name(op.src_type));
  }
  if (!fixpipe_combo_legal(op.src_type, op.dst_type, op.quant)) {
    return fmt::format("conversion {} -> {} with quant mode {} is not supported (legal: f32->f32 None, "
                       "f32->f16 F322F16, f32->bf16 F322BF16, f32->s8 QF322B8, s32->s32 None, "
                       "s32->f16 DEQF16, s32->s8 REQ8)",
                       dtype_name(op.src_type), dtype_name(op.dst_type), quant_name(op.quant));
  }
  const uint64_t m_rows = ceil_div(op.m_size, 16) * 16;
  if (op.src_stride < m_rows) {
    return fmt::format("src_stride = {} rows is below m_size rounded up to 16 ({})", op.src_stride, m_rows);
  }
  const uint64_t dsize = dtype_size(op.dst_type);
  if (op.nz2nd && op.dst_stride < op.n_size) {
    return fmt::format("ND dst_stride = {} elements is below n_size ({}): rows would overlap", op.dst_stride,
                       op.n_size);
  }
  if (!op.nz2nd && uint64_t{op.dst_stride} * kBlock < uint64_t{op.m_size} * 16 * dsize) {
    return fmt::format("NZ dst_stride = {} x 32 B is below one fractal column ({} rows of 16 {} = {} B)",
                       op.dst_stride, op.m_size, dtype_name(op.dst_type), uint64_t{op.m_size} * 16 * dsize);
  }
  return {};
}

Range fixpipe_src_range(const Fixpipe& op) {
  if (op.m_size == 0 || op.n_size == 0) return {op.src, op.src};
  const uint64_t csize = dtype_size(op.src_type);
  const uint64_t n1n = ceil_div(op.n_size, 16);
  // The last (possibly partial) row of the last column; with a legal src_stride it ends last,
  // but the full rows of the column before are taken too so the range never under-reports.
  uint64_t end = ((n1n - 1) * op.src_stride * 16 + (op.m_size - 1) * 16 + (op.n_size - 1) % 16 + 1) * csize;
  if (n1n >= 2) end = std::max(end, ((n1n - 2) * op.src_stride * 16 + uint64_t{op.m_size} * 16) * csize);
  return {op.src, op.src + end};
}

Range fixpipe_dst_range(const Fixpipe& op) {
  if (op.m_size == 0 || op.n_size == 0) return {op.dst.addr, op.dst.addr};
  const uint64_t dsize = dtype_size(op.dst_type);
  uint64_t end;
  if (op.nz2nd) {
    end = (uint64_t{op.m_size - 1} * op.dst_stride + op.n_size) * dsize;
  } else {
    const uint64_t n1n = ceil_div(op.n_size, 16);
    end = (n1n - 1) * op.dst_stride * kBlock + ((op.m_size - 1) * 16 + (op.n_size - 1) % 16 + 1) * dsize;
    if (n1n >= 2) end = std::max(end, (n1n - 2) * op.dst_stride * kBlock + uint64_t{op.m_size} * 16 * dsize);
  }
  return {op.dst.addr, op.dst.addr + end};
}

void fixpipe(const Fixpipe& op, ConstView l0c, View dst) {
  // Dispatched once per instruction; the row converters are then fixed-size loops.
  if (op.src_type == DType::F32) {
    switch (op.quant) {
      case QuantMode::None: return fixpipe_run<QuantMode::None, float>(op, l0c, dst);
      case QuantMode::F322F16: return fixpipe_run<QuantMode::F322F16, float>(op, l0c, dst);
      case QuantMode::F322BF16: return fixpipe_run<QuantMode::F322BF16, float>(op, l0c, dst);
      case QuantMode::QF322B8: return fixpipe_run<QuantMode::QF322B8, float>(op, l0c, dst);
      default: break;
    }
  } else if (op.src_type == DType::S32) {
    switch (op.quant) {
      case QuantMode::None: return fixpipe_run<QuantMode::None, int32_t>(op, l0c, dst);
      case QuantMode::DEQF16: return fixpipe_run<QuantMode::DEQF16, int32_t>(op, l0c, dst);
      case QuantMode::REQ8: return fixpipe_run<QuantMode::REQ8, int32_t>(op, l0c, dst);
      default: break;
    }
  }
  assert(false && "fixpipe: illegal combination (fixpipe_check rejects it)");
}

}  // namespace npuvp::aicore::layout
