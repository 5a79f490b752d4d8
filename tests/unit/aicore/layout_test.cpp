// The layout transforms against deliberately plain references written from the isa.h
// comments, element by element. Each reference reads its source through a tracker and
// records its writes, which gives the exact byte ranges as a by-product; the implementation
// then gets a source view covering only its own src_range and a destination full of random
// canary bytes, and the whole destination is compared byte for byte.
#include "models/aicore/layout.h"
#include "tests/support/bits.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

namespace npuvp::aicore {
namespace layout_test {

using layout::ConstView;
using layout::Range;
using layout::View;

using Bytes = std::vector<uint8_t>;

Bytes random_bytes(size_t n, std::mt19937& rng) {
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

template <typename T>
T get(const Bytes& m, uint64_t addr) {
  T v;
  std::memcpy(&v, &m.at(addr + sizeof(T) - 1) - (sizeof(T) - 1), sizeof(T));
  return v;
}
template <typename T>
void put(Bytes& m, uint64_t addr, T v) {
  m.at(addr + sizeof(T) - 1);  // bounds
  std::memcpy(&m[addr], &v, sizeof(T));
}

using npuvp::testing::fbits;
using npuvp::testing::ffrom;

bool is_16bit_for_test(DType t) { return dtype_size(t) == 2; }

// ---- Reference plumbing: tracked reads from a whole memory space, recorded writes.

struct Reader {
  const Bytes& mem;
  bool any = false;
  uint64_t lo = 0, hi = 0;
  void read(uint64_t addr, void* out, uint64_t n) {
    if (n == 0) return;
    lo = any ? std::min(lo, addr) : addr;
    hi = any ? std::max(hi, addr + n) : addr + n;
    any = true;
    for (uint64_t i = 0; i < n; ++i) static_cast<uint8_t*>(out)[i] = mem.at(addr + i);
  }
};

struct Writer {
  std::map<uint64_t, uint8_t> bytes;  // final value of every written byte
  void write(uint64_t addr, const void* in, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) bytes[addr + i] = static_cast<const uint8_t*>(in)[i];
  }
};

// Runs the implementation on an exact source view and a canary-filled destination, and
// compares ranges and bytes with the reference's.
void expect_matches(const Bytes& src, Range src_range, Range dst_range, const Reader& rd, const Writer& wr,
                    const std::function<void(ConstView, View)>& impl, uint32_t seed = 1) {
  // Exact ranges (an empty range may start anywhere).
  if (rd.any) {
    EXPECT_EQ(src_range.begin, rd.lo) << "src_range.begin";
    EXPECT_EQ(src_range.end, rd.hi) << "src_range.end";
  } else {
    EXPECT_EQ(src_range.begin, src_range.end) << "src_range should be empty";
  }
  if (!wr.bytes.empty()) {
    EXPECT_EQ(dst_range.begin, wr.bytes.begin()->first) << "dst_range.begin";
    EXPECT_EQ(dst_range.end, wr.bytes.rbegin()->first + 1) << "dst_range.end";
  } else {
    EXPECT_EQ(dst_range.begin, dst_range.end) << "dst_range should be empty";
  }
  ASSERT_LE(src_range.begin, src_range.end);
  ASSERT_LE(src_range.end, src.size()) << "src_range beyond the test's source memory";

  // The implementation sees exactly its src_range: anything else it read would be garbage.
  Bytes slice(src.begin() + static_cast<std::ptrdiff_t>(src_range.begin),
              src.begin() + static_cast<std::ptrdiff_t>(src_range.end));
  const uint64_t ref_end = wr.bytes.empty() ? 0 : wr.bytes.rbegin()->first + 1;
  const uint64_t size = std::max(ref_end, dst_range.end) + 96;
  std::mt19937 rng(seed);
  const Bytes canary = random_bytes(size, rng);
  Bytes expected = canary, actual = canary;
  for (const auto& [a, v] : wr.bytes) expected[a] = v;
  impl(ConstView{slice.data(), src_range.begin, slice.size()}, View{actual.data(), 0, actual.size()});

  size_t bad = 0, first = 0;
  for (size_t i = 0; i < size; ++i) {
    if (actual[i] != expected[i] && bad++ == 0) first = i;
  }
  EXPECT_EQ(bad, 0u) << "first mismatch at byte " << first << ": got " << int(actual[first]) << ", want "
                     << int(expected[first]);
  // Canary: nothing outside dst_range was touched.
  size_t stray = 0;
  for (size_t i = 0; i < size; ++i) {
    if ((i < dst_range.begin || i >= dst_range.end) && actual[i] != canary[i]) ++stray;
  }
  EXPECT_EQ(stray, 0u) << "bytes written outside dst_range";
}

// ---------------------------------------------------------------- Nd2Nz reference

void ref_nd2nz(const Nd2Nz& op, Reader& rd, Writer& wr) {
  const uint64_t size = dtype_size(op.dtype), c0 = 32 / size;
  const uint64_t blocks = (op.d_value * size + 31) / 32;
  for (uint64_t i = 0; i < op.nd_num; ++i) {
    for (uint64_t j = 0; j < op.n_value; ++j) {
      for (uint64_t b = 0; b < blocks; ++b) {
        const uint64_t dst = op.dst.addr + i * op.dst_nz_matrix_stride * size + j * op.dst_nz_n_stride * 32 +
                             b * op.dst_nz_c0_stride * 32;
        for (uint64_t e = 0; e < c0; ++e) {
          const uint64_t col = b * c0 + e;
          uint8_t v[4] = {0, 0, 0, 0};  // past d_value: zero padding
          if (col < op.d_value) {
            rd.read(op.src.addr + (i * op.src_nd_matrix_stride + j * op.src_d_value + col) * size, v, size);
          }
          wr.write(dst + e * size, v, size);
        }
      }
    }
  }
}

void check_nd2nz(const Nd2Nz& op, uint32_t seed) {
  SCOPED_TRACE(describe(op));
  ASSERT_EQ(layout::nd2nz_check(op), "");
  const uint64_t size = dtype_size(op.dtype);
  const uint64_t bound = op.src.addr + (uint64_t{op.nd_num} * op.src_nd_matrix_stride +
                                        uint64_t{op.n_value} * op.src_d_value + op.d_value) * size + 64;
  std::mt19937 rng(seed);
  const Bytes src = random_bytes(bound, rng);
  Reader rd{src};
  Writer wr;
  ref_nd2nz(op, rd, wr);
  expect_matches(src, layout::nd2nz_src_range(op), layout::nd2nz_dst_range(op), rd, wr,
                 [&](ConstView s, View d) { layout::nd2nz(op, s, d); }, seed);
}

Nd2Nz make_nd2nz(DType t, uint32_t n, uint32_t d) {
  Nd2Nz op;
  op.src = {MemSpace::GM, 96};
  op.dst = {MemSpace::L1, 64};
  op.dtype = t;
  op.n_value = n;
  op.d_value = d;
  op.src_d_value = d;
  op.dst_nz_n_stride = 1;
  op.dst_nz_c0_stride = (n + 15) / 16 * 16;
  return op;
}

TEST(LayoutTest, Nd2NzSingleMatrixPadsThePartialBlock) {
  for (DType t : {DType::F16, DType::S8, DType::F32, DType::BF16}) {
    check_nd2nz(make_nd2nz(t, 16, 32 / dtype_size(t) * 2), 1);  // whole blocks
    check_nd2nz(make_nd2nz(t, 20, 37), 2);                      // d not a multiple of the block
    check_nd2nz(make_nd2nz(t, 1, 1), 3);                        // one element, 31 bytes of padding
  }
}

TEST(LayoutTest, Nd2NzSeveralMatricesWithStrides) {
  for (DType t : {DType::F16, DType::S8, DType::F32}) {
    Nd2Nz op = make_nd2nz(t, 5, 21);
    op.nd_num = 3;
    op.src_d_value = 30;                         // source rows wider than d_value
    op.src_nd_matrix_stride = 5 * 30 + 7;        // and gaps between matrices
    op.dst_nz_n_stride = 2;                      // a gap row between rows
    op.dst_nz_c0_stride = 11;                    // >= 2 * 5 rows: blocks do not collide
    op.dst_nz_matrix_stride = 40 * 32 / dtype_size(t) + 3 * (4 / dtype_size(t));  // not 32 B aligned
    check_nd2nz(op, 4);
  }
}

TEST(LayoutTest, Nd2NzEmptyShapesTouchNothing) {
  for (int which = 0; which < 3; ++which) {
    Nd2Nz op = make_nd2nz(DType::F16, 4, 20);
    (which == 0 ? op.nd_num : which == 1 ? op.n_value : op.d_value) = 0;
    check_nd2nz(op, 5);
    EXPECT_EQ(layout::nd2nz_dst_range(op).begin, layout::nd2nz_dst_range(op).end);
  }
}

TEST(LayoutTest, Nd2NzRandomParameters) {
  std::mt19937 rng(42);
  auto pick = [&](uint32_t lo, uint32_t hi) { return lo + rng() % (hi - lo + 1); };
  const DType types[] = {DType::F16, DType::BF16, DType::S8, DType::U8, DType::F32, DType::S32, DType::U16};
  for (int it = 0; it < 150; ++it) {
    const DType t = types[rng() % 7];
    const uint32_t c0 = 32 / dtype_size(t);
    Nd2Nz op = make_nd2nz(t, pick(1, 20), pick(1, 3 * c0 + 5));
    op.src.addr = pick(0, 100);
    op.dst.addr = pick(0, 100);
    op.nd_num = pick(1, 3);
    op.src_d_value = op.d_value + pick(0, 9);
    op.src_nd_matrix_stride = op.n_value * op.src_d_value + pick(0, 50);
    const uint32_t blocks = (op.d_value + c0 - 1) / c0;
    if (rng() % 2) {  // NZ: rows inside a column of blocks
      op.dst_nz_n_stride = pick(1, 2);
      op.dst_nz_c0_stride = op.n_value * op.dst_nz_n_stride + pick(0, 3);
    } else {  // blocks of a row side by side
      op.dst_nz_c0_stride = 1;
      op.dst_nz_n_stride = blocks + pick(0, 2);
    }
    const uint32_t span = (op.n_value * op.dst_nz_n_stride + blocks * op.dst_nz_c0_stride) * c0;
    op.dst_nz_matrix_stride = span + pick(0, 40);
    check_nd2nz(op, 100 + it);
  }
}

TEST(LayoutTest, Nd2NzCheckReasons) {
  const Nd2Nz ok = make_nd2nz(DType::F16, 16, 16);
  EXPECT_EQ(layout::nd2nz_check(ok), "");
  auto reason = [&](auto mutate) {
    Nd2Nz op = ok;
    mutate(op);
    return layout::nd2nz_check(op);
  };
  EXPECT_NE(reason([](Nd2Nz& o) { o.nd_num = 4096; }).find("nd_num = 4096"), std::string::npos);
  EXPECT_EQ(reason([](Nd2Nz& o) { o.nd_num = 4095; }), "");
  EXPECT_NE(reason([](Nd2Nz& o) { o.n_value = 16385; }).find("n_value"), std::string::npos);
  EXPECT_EQ(reason([](Nd2Nz& o) { o.n_value = 16384; }), "");
  EXPECT_NE(reason([](Nd2Nz& o) { o.d_value = 65536; }).find("d_value"), std::string::npos);
  EXPECT_NE(reason([](Nd2Nz& o) { o.src_nd_matrix_stride = 65536; }).find("src_nd_matrix_stride"),
            std::string::npos);
  EXPECT_NE(reason([](Nd2Nz& o) { o.src_d_value = 70000; }).find("src_d_value"), std::string::npos);
  EXPECT_NE(reason([](Nd2Nz& o) { o.dst_nz_c0_stride = 65536; }).find("dst_nz_c0_stride"), std::string::npos);
  EXPECT_NE(reason([](Nd2Nz& o) { o.dst_nz_n_stride = 65536; }).find("dst_nz_n_stride"), std::string::npos);
  EXPECT_NE(reason([](Nd2Nz& o) { o.dst_nz_matrix_stride = 65536; }).find("dst_nz_matrix_stride"),
            std::string::npos);
  EXPECT_EQ(reason([](Nd2Nz& o) { o.dst_nz_matrix_stride = 65535; }), "");
  for (DType t : {DType::S8, DType::U16, DType::S32, DType::U32, DType::BF16}) {
    EXPECT_EQ(reason([t](Nd2Nz& o) { o.dtype = t; }), "") << dtype_name(t);
  }
}

// ---------------------------------------------------------------- LoadData2D reference

void ref_load2d(const LoadData2D& op, Reader& rd, Writer& wr) {
  for (uint64_t r = 0; r < op.repeat; ++r) {
    const uint64_t src = op.src.addr + (op.start_index + r * op.src_stride) * 512;
    const uint64_t dst = op.dst.addr + r * (1 + uint64_t{op.dst_gap}) * 512;
    if (!op.transpose) {
      for (uint64_t b = 0; b < 512; ++b) {
        uint8_t v;
        rd.read(src + b, &v, 1);
        wr.write(dst + b, &v, 1);
      }
      continue;
    }
    for (uint64_t i = 0; i < 16; ++i) {
      for (uint64_t j = 0; j < 16; ++j) {
        uint8_t v[2];
        rd.read(src + (i * 16 + j) * 2, v, 2);  // element (i, j) ...
        wr.write(dst + (j * 16 + i) * 2, v, 2);  // ... goes to (j, i)
      }
    }
  }
}

void check_load2d(const LoadData2D& op, uint32_t seed) {
  SCOPED_TRACE(describe(op));
  ASSERT_EQ(layout::load2d_check(op), "");
  std::mt19937 rng(seed);
  const Bytes src = random_bytes(op.src.addr + (op.start_index + uint64_t{op.repeat} * op.src_stride + 1) * 512 + 64, rng);
  Reader rd{src};
  Writer wr;
  ref_load2d(op, rd, wr);
  expect_matches(src, layout::load2d_src_range(op), layout::load2d_dst_range(op), rd, wr,
                 [&](ConstView s, View d) { layout::load2d(op, s, d); }, seed);
}

LoadData2D make_load2d(DType t, uint32_t start, uint32_t repeat, uint32_t stride, uint32_t gap, bool tr) {
  LoadData2D op;
  op.src = {MemSpace::L1, 1024};
  op.dst = {MemSpace::L0A, 512};
  op.dtype = t;
  op.start_index = start;
  op.repeat = repeat;
  op.src_stride = stride;
  op.dst_gap = gap;
  op.transpose = tr;
  return op;
}

TEST(LayoutTest, LoadData2DPlainCopies) {
  for (DType t : {DType::F16, DType::S8, DType::F32}) {
    check_load2d(make_load2d(t, 0, 1, 0, 0, false), 1);
    check_load2d(make_load2d(t, 3, 4, 1, 0, false), 2);   // start_index, contiguous
    check_load2d(make_load2d(t, 2, 5, 3, 0, false), 3);   // src_stride > 1
    check_load2d(make_load2d(t, 1, 4, 0, 0, false), 4);   // src_stride 0: the same fractal 4 times
    check_load2d(make_load2d(t, 0, 3, 2, 2, false), 5);   // dst_gap
  }
}

TEST(LayoutTest, LoadData2DTransposes16BitFractals) {
  for (DType t : {DType::F16, DType::BF16, DType::S16, DType::U16}) {
    check_load2d(make_load2d(t, 0, 1, 0, 0, true), 6);
    check_load2d(make_load2d(t, 5, 7, 2, 1, true), 7);
    check_load2d(make_load2d(t, 0, 3, 0, 3, true), 8);
  }
  // A hand-checked element: (i = 2, j = 5) of the source lands at (5, 2).
  Bytes src(512);
  for (uint16_t e = 0; e < 256; ++e) put<uint16_t>(src, e * 2u, e);
  Bytes dst(512);
  layout::load2d(make_load2d(DType::F16, 0, 1, 0, 0, true), ConstView{src.data(), 1024, 512},
                 View{dst.data(), 512, 512});
  EXPECT_EQ(get<uint16_t>(dst, (5 * 16 + 2) * 2), 2 * 16 + 5);
}

TEST(LayoutTest, LoadData2DTransposeTwiceIsIdentity) {
  std::mt19937 rng(9);
  const Bytes a = random_bytes(6 * 512, rng);
  LoadData2D op = make_load2d(DType::F16, 0, 6, 1, 0, true);
  op.src.addr = 0;
  op.dst.addr = 0;
  Bytes b(a.size()), c(a.size());
  layout::load2d(op, ConstView{a.data(), 0, a.size()}, View{b.data(), 0, b.size()});
  layout::load2d(op, ConstView{b.data(), 0, b.size()}, View{c.data(), 0, c.size()});
  EXPECT_NE(a, b);
  EXPECT_EQ(a, c);
}

TEST(LayoutTest, LoadData2DRandomParameters) {
  std::mt19937 rng(7);
  const DType types[] = {DType::F16, DType::S8, DType::F32, DType::BF16};
  for (int it = 0; it < 60; ++it) {
    const DType t = types[rng() % 4];
    LoadData2D op = make_load2d(t, rng() % 9, 1 + rng() % 12, rng() % 4, rng() % 3, is_16bit_for_test(t) && rng() % 2);
    op.src.addr = (rng() % 16) * 32;
    op.dst.addr = (rng() % 16) * 32;
    check_load2d(op, 200 + it);
  }
}

TEST(LayoutTest, LoadData2DCheckReasons) {
  const LoadData2D ok = make_load2d(DType::F16, 0, 1, 0, 0, true);
  EXPECT_EQ(layout::load2d_check(ok), "");
  auto reason = [&](auto mutate) {
    LoadData2D op = ok;
    mutate(op);
    return layout::load2d_check(op);
  };
  EXPECT_NE(reason([](LoadData2D& o) { o.repeat = 0; }).find("repeat = 0"), std::string::npos);
  EXPECT_NE(reason([](LoadData2D& o) { o.repeat = 256; }).find("repeat = 256"), std::string::npos);
  EXPECT_EQ(reason([](LoadData2D& o) { o.repeat = 255; }), "");
  EXPECT_NE(reason([](LoadData2D& o) { o.start_index = 65536; }).find("start_index"), std::string::npos);
  EXPECT_NE(reason([](LoadData2D& o) { o.src_stride = 65536; }).find("src_stride"), std::string::npos);
  EXPECT_NE(reason([](LoadData2D& o) { o.dst_gap = 65536; }).find("dst_gap"), std::string::npos);
  EXPECT_EQ(reason([](LoadData2D& o) { o.dst_gap = 65535; }), "");
  EXPECT_EQ(reason([](LoadData2D& o) { o.dtype = DType::F32; }), "ifTranspose needs a 16-bit type, got f32");
  EXPECT_EQ(reason([](LoadData2D& o) { o.dtype = DType::S8; }), "ifTranspose needs a 16-bit type, got s8");
  EXPECT_EQ(reason([](LoadData2D& o) { o.dtype = DType::BF16; }), "");
  EXPECT_EQ(reason([](LoadData2D& o) { o.dtype = DType::F32; o.transpose = false; }), "");
}

// ---------------------------------------------------------------- LoadData3D reference

uint64_t ref_out_extent(uint64_t in, uint64_t pad_lo, uint64_t pad_hi, uint64_t kernel, uint64_t dil,
                        uint64_t stride) {
  const uint64_t padded = in + pad_lo + pad_hi, eff = dil * (kernel - 1) + 1;
  return padded < eff ? 0 : (padded - eff) / stride + 1;
}

// bf16 round-to-nearest-even written out on the bits (NaN: quiet, sign and top payload kept).
uint16_t ref_bf16(float f) {
  const uint32_t u = fbits(f);
  if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) != 0) return static_cast<uint16_t>((u >> 16) | 0x40u);
  uint32_t upper = u >> 16;
  const uint32_t low = u & 0xffffu;
  if (low > 0x8000u || (low == 0x8000u && (upper & 1u))) ++upper;
  return static_cast<uint16_t>(upper);
}

// pad_value in the dtype: via float for the float types, clamp-and-truncate for integers.
void ref_pad_bytes(DType t, double v, uint8_t out[4]) {
  auto clamp_trunc = [](double s, double lo, double hi) { return s != s ? 0.0 : std::min(hi, std::max(lo, std::trunc(s))); };
  switch (t) {
    case DType::F16: { const uint16_t h = f32_to_f16_reference(static_cast<float>(v)); std::memcpy(out, &h, 2); break; }
    case DType::BF16: { const uint16_t h = ref_bf16(static_cast<float>(v)); std::memcpy(out, &h, 2); break; }
    case DType::F32: { const float f = static_cast<float>(v); std::memcpy(out, &f, 4); break; }
    case DType::S8: out[0] = static_cast<uint8_t>(static_cast<int8_t>(clamp_trunc(v, -128, 127))); break;
    case DType::U8: out[0] = static_cast<uint8_t>(clamp_trunc(v, 0, 255)); break;
    default: FAIL() << "no pad for " << dtype_name(t);
  }
}

void ref_load3d(const LoadData3D& op, Reader& rd, Writer& wr) {
  const uint64_t size = dtype_size(op.dtype), c0n = 32 / size;
  const uint64_t ho_n = ref_out_extent(op.fm_h, op.pad_top, op.pad_bottom, op.kernel_h, op.dilation_h, op.stride_h);
  const uint64_t wo_n = ref_out_extent(op.fm_w, op.pad_left, op.pad_right, op.kernel_w, op.dilation_w, op.stride_w);
  const uint64_t k1n = op.k_extent / c0n, m1n = op.m_extent / 16;
  uint8_t pad[4];
  ref_pad_bytes(op.dtype, op.pad_value, pad);
  for (uint64_t m = 0; m < op.m_extent; ++m) {
    for (uint64_t k = 0; k < op.k_extent; ++k) {
      const uint64_t p = op.m_start + m, q = op.k_start + k;
      // q = ((c1 * kernel_h + kh) * kernel_w + kw) * C0 + c0
      const uint64_t c0 = q % c0n, g = q / c0n;
      const uint64_t kw = g % op.kernel_w, kh = (g / op.kernel_w) % op.kernel_h, c1 = g / (op.kernel_w * op.kernel_h);
      uint8_t v[4];
      std::memcpy(v, pad, 4);
      if (p < ho_n * wo_n && c1 * c0n + c0 < op.channels) {
        const int64_t ho = static_cast<int64_t>(p / wo_n), wo = static_cast<int64_t>(p % wo_n);
        const int64_t h = ho * op.stride_h - op.pad_top + static_cast<int64_t>(kh * op.dilation_h);
        const int64_t w = wo * op.stride_w - op.pad_left + static_cast<int64_t>(kw * op.dilation_w);
        if (h >= 0 && h < op.fm_h && w >= 0 && w < op.fm_w) {
          rd.read(op.src.addr + ((c1 * op.fm_h + static_cast<uint64_t>(h)) * op.fm_w + static_cast<uint64_t>(w)) * 32 + c0 * size,
                  v, size);
        }
      }
      const uint64_t m1 = m / 16, mi = m % 16, k1 = k / c0n, ki = k % c0n;
      uint64_t off;
      if (op.dst.space == MemSpace::L0A) {
        off = (m1 * k1n + k1) * 512 + (mi * c0n + ki) * size;  // ZZ, row-major inside
      } else {
        // As K x N with n = m: fractal (k1, n1 = m1), column-major inside: (ki, ni) at ni * K0 + ki.
        off = (k1 * m1n + m1) * 512 + (mi * c0n + ki) * size;
      }
      wr.write(op.dst.addr + off, v, size);
    }
  }
}

void check_load3d(const LoadData3D& op, uint32_t seed) {
  SCOPED_TRACE(describe(op) + " pad_value=" + std::to_string(op.pad_value));
  ASSERT_EQ(layout::load3d_check(op), "");
  const uint64_t c0n = 32 / dtype_size(op.dtype), c1n = (op.channels + c0n - 1) / c0n;
  std::mt19937 rng(seed);
  const Bytes src = random_bytes(op.src.addr + c1n * op.fm_h * op.fm_w * 32 + 64, rng);
  Reader rd{src};
  Writer wr;
  ref_load3d(op, rd, wr);
  expect_matches(src, layout::load3d_src_range(op), layout::load3d_dst_range(op), rd, wr,
                 [&](ConstView s, View d) { layout::load3d(op, s, d); }, seed);
}

LoadData3D make_load3d(DType t, MemSpace dst) {
  LoadData3D op;
  op.src = {MemSpace::L1, 256};
  op.dst = {dst, 1024};
  op.dtype = t;
  return op;
}

TEST(LayoutTest, LoadData3DPaddingStrideDilationWindows) {
  for (MemSpace space : {MemSpace::L0A, MemSpace::L0B}) {
    for (DType t : {DType::F16, DType::BF16, DType::S8, DType::U8, DType::F32}) {
      const uint32_t c0 = 32 / dtype_size(t);
      LoadData3D op = make_load3d(t, space);
      op.fm_h = 13;
      op.fm_w = 11;
      op.channels = c0 + c0 / 2 + 1;  // C1 = 2, the second one partial: pad_value appears
      op.pad_top = 1, op.pad_bottom = 2, op.pad_left = 2, op.pad_right = 1;
      op.stride_h = op.stride_w = 2;
      op.kernel_h = op.kernel_w = 3;
      op.dilation_h = op.dilation_w = 2;
      op.pad_value = t == DType::U8 ? 7 : t == DType::S8 ? -3 : 1.5;
      // Ho = (13 + 3 - 5) / 2 + 1 = 6, Wo = (11 + 3 - 5) / 2 + 1 = 5: rows 30..47 are past M.
      op.m_start = 16;
      op.m_extent = 32;
      op.k_start = 3 * c0;  // starts at kernel (kh 1, kw 0) of c1 0, runs into c1 1
      op.k_extent = 10 * c0;
      check_load3d(op, 11);
      op.m_start = 0;  // whole matrix
      op.m_extent = 48;
      op.k_start = 0;
      op.k_extent = 2 * 9 * c0;
      check_load3d(op, 12);
    }
  }
}

TEST(LayoutTest, LoadData3DSimpleOneByOneKernelIsTheFeatureMap) {
  // 1x1 kernel, no padding: row p is position p, columns are the channels.
  LoadData3D op = make_load3d(DType::F16, MemSpace::L0A);
  op.fm_h = 4, op.fm_w = 4, op.channels = 16;
  check_load3d(op, 13);
  Bytes l1(256 + 512), l0a(1024 + 512);
  for (uint16_t e = 0; e < 256; ++e) put<uint16_t>(l1, 256 + e * 2u, e);
  layout::load3d(op, ConstView{l1.data(), 0, l1.size()}, View{l0a.data(), 0, l0a.size()});
  EXPECT_EQ(Bytes(l0a.begin() + 1024, l0a.end()), Bytes(l1.begin() + 256, l1.end()));
}

TEST(LayoutTest, LoadData3DWindowInPaddingReadsNothing) {
  LoadData3D op = make_load3d(DType::F16, MemSpace::L0B);
  op.fm_h = 1, op.fm_w = 1, op.channels = 3, op.pad_top = 20, op.pad_value = -2;
  // Ho = 21, Wo = 1; rows 0..15 sit at h = -20..-5.
  check_load3d(op, 14);
  const Range r = layout::load3d_src_range(op);
  EXPECT_EQ(r.begin, r.end);
}

TEST(LayoutTest, LoadData3DRandomParameters) {
  std::mt19937 rng(3);
  auto pick = [&](uint32_t lo, uint32_t hi) { return lo + rng() % (hi - lo + 1); };
  const DType types[] = {DType::F16, DType::BF16, DType::S8, DType::U8, DType::F32};
  int run = 0;
  for (int it = 0; it < 400; ++it) {
    const DType t = types[rng() % 5];
    const uint32_t c0 = 32 / dtype_size(t);
    LoadData3D op = make_load3d(t, rng() % 2 ? MemSpace::L0A : MemSpace::L0B);
    op.src.addr = pick(0, 8) * 32;
    op.dst.addr = pick(0, 8) * 32;
    op.fm_h = pick(1, 9), op.fm_w = pick(1, 9), op.channels = pick(1, 2 * c0 + 3);
    op.pad_top = pick(0, 3), op.pad_bottom = pick(0, 3), op.pad_left = pick(0, 3), op.pad_right = pick(0, 3);
    op.stride_h = pick(1, 3), op.stride_w = pick(1, 3);
    op.kernel_h = pick(1, 4), op.kernel_w = pick(1, 4);
    op.dilation_h = pick(1, 3), op.dilation_w = pick(1, 3);
    op.pad_value = static_cast<double>(pick(0, 10)) - 4.0;
    const uint64_t ho = ref_out_extent(op.fm_h, op.pad_top, op.pad_bottom, op.kernel_h, op.dilation_h, op.stride_h);
    const uint64_t wo = ref_out_extent(op.fm_w, op.pad_left, op.pad_right, op.kernel_w, op.dilation_w, op.stride_w);
    if (ho == 0 || wo == 0) {
      EXPECT_NE(layout::load3d_check(op).find("does not fit"), std::string::npos);
      continue;
    }
    const uint64_t m1 = (ho * wo + 15) / 16, k_groups = (op.channels + c0 - 1) / c0 * op.kernel_h * op.kernel_w;
    op.m_start = static_cast<uint32_t>(16 * (rng() % m1));
    op.m_extent = 16 * pick(1, 3);
    op.k_start = static_cast<uint32_t>(c0 * (rng() % k_groups));
    op.k_extent = c0 * pick(1, 6);  // may run past K: pad columns
    check_load3d(op, 300 + it);
    ++run;
  }
  EXPECT_GT(run, 200);
}

// The im2col matrix built by load3d, multiplied by flattened weights, equals a convolution
// computed directly from indices (small integers: every sum is exact).
TEST(LayoutTest, LoadData3DIm2colGivesTheConvolution) {
  const uint32_t C = 20, H = 7, W = 9, KH = 3, KW = 3, O = 3, C0 = 16, C1 = 2;
  const uint32_t sh = 2, sw = 1, dh = 1, dw = 2, pt = 1, pb = 2, pl = 2, pr = 0;
  const uint32_t Ho = (H + pt + pb - dh * (KH - 1) - 1) / sh + 1;  // 4
  const uint32_t Wo = (W + pl + pr - dw * (KW - 1) - 1) / sw + 1;  // 7
  const uint32_t M = (Ho * Wo + 15) / 16 * 16, K = C1 * KH * KW * C0, K1 = K / C0, M1 = M / 16;
  std::mt19937 rng(5);
  auto small = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint32_t>(hi - lo + 1)); };
  std::vector<int> x(C * H * W), wt(O * C * KH * KW);
  for (auto& v : x) v = small(-3, 3);
  for (auto& v : wt) v = small(-2, 2);
  // NC1HWC0 feature map; channels >= C hold garbage that must never be read.
  Bytes l1(C1 * H * W * 32);
  for (uint32_t c1 = 0; c1 < C1; ++c1) {
    for (uint32_t h = 0; h < H; ++h) {
      for (uint32_t w = 0; w < W; ++w) {
        for (uint32_t c0 = 0; c0 < C0; ++c0) {
          const uint32_t c = c1 * C0 + c0;
          const float v = c < C ? static_cast<float>(x[(c * H + h) * W + w]) : 1000.0f;
          put<uint16_t>(l1, (((c1 * H + h) * W + w) * C0 + c0) * 2, f32_to_f16_reference(v));
        }
      }
    }
  }
  for (MemSpace space : {MemSpace::L0A, MemSpace::L0B}) {
    LoadData3D op = make_load3d(DType::F16, space);
    op.src.addr = 0;
    op.dst.addr = 0;
    op.fm_h = H, op.fm_w = W, op.channels = C;
    op.pad_top = pt, op.pad_bottom = pb, op.pad_left = pl, op.pad_right = pr;
    op.stride_h = sh, op.stride_w = sw, op.kernel_h = KH, op.kernel_w = KW, op.dilation_h = dh, op.dilation_w = dw;
    op.m_extent = M, op.k_extent = K;
    ASSERT_EQ(layout::load3d_check(op), "");
    Bytes l0(M * K * 2, 0xee);
    layout::load3d(op, ConstView{l1.data(), 0, l1.size()}, View{l0.data(), 0, l0.size()});
    // Element (p, q) where the Mmad comment expects A(p, q) (L0A) or B(q, n = p) (L0B).
    auto im2col = [&](uint32_t p, uint32_t q) {
      const uint64_t off = space == MemSpace::L0A
                               ? ((p / 16) * K1 + q / C0) * 512 + ((p % 16) * C0 + q % C0) * 2
                               : ((q / C0) * M1 + p / 16) * 512 + ((p % 16) * C0 + q % C0) * 2;
      return f16_to_f32_reference(get<uint16_t>(l0, off));
    };
    for (uint32_t p = 0; p < M; ++p) {
      for (uint32_t o = 0; o < O; ++o) {
        double via = 0;
        for (uint32_t q = 0; q < K; ++q) {
          const uint32_t c0 = q % C0, g = q / C0, kw = g % KW, kh = (g / KW) % KH, c = (g / (KW * KH)) * C0 + c0;
          const double wq = c < C ? wt[((o * C + c) * KH + kh) * KW + kw] : 7.0;  // times pad 0
          via += im2col(p, q) * wq;
        }
        double direct = 0;
        if (p < Ho * Wo) {
          const int ho = static_cast<int>(p / Wo), wo = static_cast<int>(p % Wo);
          for (uint32_t c = 0; c < C; ++c) {
            for (uint32_t kh = 0; kh < KH; ++kh) {
              for (uint32_t kw = 0; kw < KW; ++kw) {
                const int h = ho * static_cast<int>(sh) - static_cast<int>(pt) + static_cast<int>(kh * dh);
                const int w = wo * static_cast<int>(sw) - static_cast<int>(pl) + static_cast<int>(kw * dw);
                if (h < 0 || h >= static_cast<int>(H) || w < 0 || w >= static_cast<int>(W)) continue;
                direct += x[(c * H + static_cast<uint32_t>(h)) * W + static_cast<uint32_t>(w)] *
                          wt[((o * C + c) * KH + kh) * KW + kw];
              }
            }
          }
        }
        EXPECT_EQ(via, direct) << mem_space_name(space) << " p=" << p << " o=" << o;
      }
    }
  }
}

TEST(LayoutTest, LoadData3DCheckReasons) {
  LoadData3D ok = make_load3d(DType::F16, MemSpace::L0A);
  ok.fm_h = ok.fm_w = 8;
  ok.channels = 16;
  EXPECT_EQ(layout::load3d_check(ok), "");
  auto reason = [&](auto mutate) {
    LoadData3D op = ok;
    mutate(op);
    return layout::load3d_check(op);
  };
  auto has = [](const std::string& s, const char* what) {
    return s.find(what) != std::string::npos ? ::testing::AssertionSuccess()
                                             : ::testing::AssertionFailure() << "reason '" << s << "' lacks '" << what << "'";
  };
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.dtype = DType::S16; }), "dtype s16"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.dtype = DType::S32; }), "dtype s32"));
  for (DType t : {DType::BF16, DType::S8, DType::U8, DType::F32}) {
    EXPECT_EQ(reason([t](LoadData3D& o) { o.dtype = t; o.k_extent = 32 / dtype_size(t); }), "") << dtype_name(t);
  }
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.dst.space = MemSpace::UB; }), "L0A or L0B, got UB"));
  EXPECT_EQ(reason([](LoadData3D& o) { o.dst.space = MemSpace::L0B; }), "");
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.src.space = MemSpace::GM; }), "L1, got GM"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.fm_h = 0; }), "fm_h = 0"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.fm_w = 32768; }), "fm_w = 32768"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.channels = 0; }), "channels"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.pad_top = 256; }), "pad_top = 256"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.pad_bottom = 256; }), "pad_bottom"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.pad_left = 256; }), "pad_left"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.pad_right = 256; }), "pad_right"));
  EXPECT_EQ(reason([](LoadData3D& o) { o.pad_right = 255; }), "");
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.stride_h = 0; }), "stride_h = 0"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.stride_w = 64; }), "stride_w = 64"));
  EXPECT_EQ(reason([](LoadData3D& o) { o.stride_w = 63; }), "");
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.kernel_h = 0; }), "kernel_h"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.kernel_w = 256; }), "kernel_w"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.dilation_h = 0; }), "dilation_h"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.dilation_w = 256; }), "dilation_w"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.kernel_h = 5; o.dilation_h = 2; }), "does not fit"));  // 9 > 8
  EXPECT_EQ(reason([](LoadData3D& o) { o.kernel_h = 5; o.dilation_h = 2; o.pad_top = 1; }), "");
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.m_extent = 0; }), "m_extent = 0"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.m_extent = 24; }), "multiple of 16"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.m_start = 8; }), "m_start = 8"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.k_extent = 0; }), "k_extent = 0"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.k_extent = 24; }), "C0 = 16"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.dtype = DType::S8; o.k_extent = 48; }), "C0 = 32"));
  EXPECT_TRUE(has(reason([](LoadData3D& o) { o.k_start = 8; }), "k_start = 8"));
  EXPECT_EQ(reason([](LoadData3D& o) { o.dtype = DType::F32; o.k_start = 8; o.k_extent = 8; }), "");
}

// ---------------------------------------------------------------- Fixpipe reference

// Round half to even, written out in double (exact for every float), then saturate to s8.
int8_t ref_s8(float x) {
  if (x != x) return 0;
  const double d = x, f = std::floor(d), diff = d - f;
  double r = diff > 0.5 ? f + 1 : diff < 0.5 ? f : (std::fmod(f, 2.0) == 0 ? f : f + 1);
  if (!(r < 127)) r = 127;  // +inf lands here too
  if (!(r > -128)) r = -128;
  return static_cast<int8_t>(r);
}

void ref_fixpipe(const Fixpipe& op, Reader& rd, Writer& wr) {
  const uint64_t dsize = dtype_size(op.dst_type);
  for (uint64_t i = 0; i < op.m_size; ++i) {
    for (uint64_t j = 0; j < op.n_size; ++j) {
      const uint64_t n1 = j / 16;
      uint8_t raw[4];
      rd.read(op.src + (n1 * op.src_stride * 16 + i * 16 + j % 16) * 4, raw, 4);
      uint8_t out[4];
      if (op.src_type == DType::F32) {
        float v;
        std::memcpy(&v, raw, 4);
        if (op.relu) v = v > 0 ? v : 0.0f;
        switch (op.quant) {
          case QuantMode::None:
            if (op.relu) std::memcpy(out, &v, 4);
            else std::memcpy(out, raw, 4);  // bits as they are
            break;
          case QuantMode::F322F16: { const uint16_t h = f32_to_f16_reference(v); std::memcpy(out, &h, 2); break; }
          case QuantMode::F322BF16: { const uint16_t h = ref_bf16(v); std::memcpy(out, &h, 2); break; }
          case QuantMode::QF322B8: out[0] = static_cast<uint8_t>(ref_s8(v * op.deq_scale)); break;
          default: FAIL();
        }
      } else {
        int32_t v;
        std::memcpy(&v, raw, 4);
        if (op.relu) v = std::max(v, 0);
        switch (op.quant) {
          case QuantMode::None: std::memcpy(out, &v, 4); break;
          case QuantMode::DEQF16: {
            const uint16_t h = f32_to_f16_reference(static_cast<float>(v) * op.deq_scale);
            std::memcpy(out, &h, 2);
            break;
          }
          case QuantMode::REQ8: out[0] = static_cast<uint8_t>(ref_s8(static_cast<float>(v) * op.deq_scale)); break;
          default: FAIL();
        }
      }
      const uint64_t dst = op.nz2nd ? op.dst.addr + (i * op.dst_stride + j) * dsize
                                    : op.dst.addr + n1 * op.dst_stride * 32 + (i * 16 + j % 16) * dsize;
      wr.write(dst, out, dsize);
    }
  }
}

// L0C contents mixing special bit patterns, values around rounding ties and saturation.
Bytes l0c_values(DType src_type, uint64_t size, std::mt19937& rng) {
  Bytes m(size);
  for (uint64_t a = 0; a + 4 <= size; a += 4) {
    const uint32_t kind = rng() % 8;
    uint32_t bits;
    if (src_type == DType::F32) {
      float f;
      switch (kind) {
        case 0: bits = static_cast<uint32_t>(rng()); std::memcpy(&f, &bits, 4); break;  // anything, NaN included
        case 1: f = static_cast<float>(static_cast<int>(rng() % 601) - 300) + 0.5f; break;  // ties
        case 2: f = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) * 0.25f; break;
        case 3: f = ffrom(0x3f800000u + (rng() % 8) * 0x1000u); break;  // f16 ties near 1
        case 4: f = ffrom(0x3f800000u + (rng() % 4) * 0x8000u); break;  // bf16 ties near 1
        case 5: f = (rng() % 2 ? 1 : -1) * 65520.0f; break;           // rounds to f16 infinity
        default: f = std::ldexp(static_cast<float>(rng() % 100000) / 100000.0f - 0.5f, static_cast<int>(rng() % 40) - 20);
      }
      std::memcpy(&bits, &f, 4);
    } else {
      switch (kind) {
        case 0: bits = static_cast<uint32_t>(rng()); break;
        case 1: bits = static_cast<uint32_t>(static_cast<int32_t>(rng() % 601) - 300); break;
        default: bits = static_cast<uint32_t>(static_cast<int32_t>(rng() % 100001) - 50000);
      }
    }
    std::memcpy(&m[a], &bits, 4);
  }
  return m;
}

void check_fixpipe(const Fixpipe& op, uint32_t seed) {
  SCOPED_TRACE(describe(op) + " deq_scale=" + std::to_string(op.deq_scale));
  ASSERT_EQ(layout::fixpipe_check(op), "");
  std::mt19937 rng(seed);
  const uint64_t n1 = (op.n_size + 15) / 16;
  const Bytes l0c = l0c_values(op.src_type, op.src + (n1 * op.src_stride * 16 + 16) * 4, rng);
  Reader rd{l0c};
  Writer wr;
  ref_fixpipe(op, rd, wr);
  expect_matches(l0c, layout::fixpipe_src_range(op), layout::fixpipe_dst_range(op), rd, wr,
                 [&](ConstView s, View d) { layout::fixpipe(op, s, d); }, seed);
}

struct Combo {
  DType src, dst;
  QuantMode quant;
};
const Combo kCombos[] = {{DType::F32, DType::F32, QuantMode::None},     {DType::F32, DType::F16, QuantMode::F322F16},
                         {DType::F32, DType::BF16, QuantMode::F322BF16}, {DType::F32, DType::S8, QuantMode::QF322B8},
                         {DType::S32, DType::S32, QuantMode::None},     {DType::S32, DType::F16, QuantMode::DEQF16},
                         {DType::S32, DType::S8, QuantMode::REQ8}};

Fixpipe make_fixpipe(const Combo& c, uint32_t m, uint32_t n, bool nz2nd, uint32_t extra = 0) {
  Fixpipe op;
  op.dst = {MemSpace::GM, 64};
  op.src = 512;
  op.src_type = c.src;
  op.dst_type = c.dst;
  op.quant = c.quant;
  op.m_size = m;
  op.n_size = n;
  op.src_stride = (m + 15) / 16 * 16 + extra;
  op.nz2nd = nz2nd;
  const uint32_t dsize = dtype_size(c.dst);
  op.dst_stride = nz2nd ? n + extra : (m * 16 * dsize + 31) / 32 + extra;
  op.deq_scale = c.quant == QuantMode::DEQF16 || c.quant == QuantMode::REQ8 || c.quant == QuantMode::QF322B8 ? 0.37f : 1.0f;
  return op;
}

TEST(LayoutTest, FixpipeEveryModeShapeAndLayout) {
  const std::pair<uint32_t, uint32_t> shapes[] = {{16, 16}, {20, 37}, {1, 1}, {33, 16}, {5, 50}, {48, 9}};
  uint32_t seed = 400;
  for (const Combo& c : kCombos) {
    for (const auto& [m, n] : shapes) {
      for (bool nz2nd : {true, false}) {
        for (bool relu : {false, true}) {
          Fixpipe op = make_fixpipe(c, m, n, nz2nd, seed % 3);
          op.relu = relu;
          op.dst.space = seed % 2 ? MemSpace::GM : MemSpace::L1;
          check_fixpipe(op, seed++);
        }
      }
    }
  }
}

TEST(LayoutTest, FixpipeScalesOfBothSigns) {
  for (const Combo& c : kCombos) {
    if (c.quant != QuantMode::DEQF16 && c.quant != QuantMode::REQ8 && c.quant != QuantMode::QF322B8) continue;
    for (float scale : {1.0f, -0.5f, 3.0e-3f, 4096.0f}) {
      Fixpipe op = make_fixpipe(c, 17, 19, true, 1);
      op.deq_scale = scale;
      op.relu = scale < 0;  // ReLU before the scale: a negative scale still gives <= 0
      check_fixpipe(op, 500);
    }
  }
}

// One row of n <= 16 values through Fixpipe into ND; returns the destination bytes.
template <typename In>
Bytes fixpipe_row(const Combo& c, const std::vector<In>& v, float scale = 1.0f, bool relu = false) {
  Fixpipe op = make_fixpipe(c, 1, static_cast<uint32_t>(v.size()), true);
  op.src = 0;
  op.dst.addr = 0;
  op.deq_scale = scale;
  op.relu = relu;
  EXPECT_EQ(layout::fixpipe_check(op), "");
  Bytes l0c(64), dst(v.size() * dtype_size(c.dst));
  std::memcpy(l0c.data(), v.data(), v.size() * 4);
  layout::fixpipe(op, ConstView{l0c.data(), 0, l0c.size()}, View{dst.data(), 0, dst.size()});
  return dst;
}
std::vector<int> as_s8(const Bytes& b) {
  std::vector<int> r;
  for (uint8_t x : b) r.push_back(static_cast<int8_t>(x));
  return r;
}
std::vector<uint16_t> as_u16(const Bytes& b) {
  std::vector<uint16_t> r(b.size() / 2);
  std::memcpy(r.data(), b.data(), b.size());
  return r;
}

TEST(LayoutTest, FixpipeRoundingTiesAndSaturation) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // QF322B8: half to even, saturation, NaN -> 0.
  EXPECT_EQ(as_s8(fixpipe_row(kCombos[3], std::vector<float>{2.5f, 3.5f, -2.5f, -3.5f, 0.5f, 1.5f, 127.4f, 127.5f,
                                                             200.0f, -128.5f, -129.0f, nan, inf, -inf, -0.4f, 126.5f})),
            (std::vector<int>{2, 4, -2, -4, 0, 2, 127, 127, 127, -128, -128, 0, 127, -128, 0, 126}));
  EXPECT_EQ(as_s8(fixpipe_row(kCombos[3], std::vector<float>{5.0f, 7.0f, -5.0f}, 0.5f)), (std::vector<int>{2, 4, -2}));
  // REQ8: float(s32) * scale.
  EXPECT_EQ(as_s8(fixpipe_row(kCombos[6], std::vector<int32_t>{5, 7, -5, 1000, -1000, 254, 255, -257}, 0.5f)),
            (std::vector<int>{2, 4, -2, 127, -128, 127, 127, -128}));
  // F322F16: ties to even at 1 + 2^-11 and 1 + 3 * 2^-11; 65520 overflows to infinity.
  EXPECT_EQ(as_u16(fixpipe_row(kCombos[1], std::vector<float>{1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65520.0f, 65519.0f,
                                                              -2.0f, 0x1p-25f, 0x1.8p-24f})),
            (std::vector<uint16_t>{0x3c00, 0x3c02, 0x7c00, 0x7bff, 0xc000, 0x0000, 0x0002}));
  // F322BF16: ties at 1 + 2^-8 and 1 + 3 * 2^-8.
  EXPECT_EQ(as_u16(fixpipe_row(kCombos[2], std::vector<float>{1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, -1.5f})),
            (std::vector<uint16_t>{0x3f80, 0x3f82, 0xbfc0}));
  // DEQF16: 3 * 0.5 = 1.5; 2049 is not a half: float(2049) = 2049 rounds to even 2048.
  EXPECT_EQ(as_u16(fixpipe_row(kCombos[5], std::vector<int32_t>{3, -4, 2049}, 0.5f)),
            (std::vector<uint16_t>{0x3e00, 0xc000, 0x6400}));
  EXPECT_EQ(as_u16(fixpipe_row(kCombos[5], std::vector<int32_t>{2049, 2051}, 1.0f)),
            (std::vector<uint16_t>{0x6800, 0x6802}));
}

TEST(LayoutTest, FixpipeReluBeforeConversion) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Bytes f = fixpipe_row(kCombos[0], std::vector<float>{-1.5f, 2.0f, -0.0f, nan}, 1.0f, true);
  std::vector<float> got(4);
  std::memcpy(got.data(), f.data(), 16);
  EXPECT_EQ(fbits(got[0]), 0u);
  EXPECT_EQ(got[1], 2.0f);
  EXPECT_EQ(fbits(got[2]), 0u);  // -0 -> +0
  EXPECT_EQ(fbits(got[3]), 0u);  // NaN -> +0
  // Without ReLU, f32 -> f32 keeps the bits, NaN payload included.
  const uint32_t snan = 0x7f800123u;
  Bytes k = fixpipe_row(kCombos[0], std::vector<float>{ffrom(snan), -0.0f});
  EXPECT_EQ(get<uint32_t>(k, 0), snan);
  EXPECT_EQ(get<uint32_t>(k, 4), 0x80000000u);
  // DEQF16 with a negative scale: ReLU acts on the s32 value first (-4 -> 0, then
  // 0 * -0.5 = -0 in float, which is the half -0).
  EXPECT_EQ(as_u16(fixpipe_row(kCombos[5], std::vector<int32_t>{-4, 4}, -0.5f, true)),
            (std::vector<uint16_t>{0x8000, 0xc000}));
  EXPECT_EQ(as_s8(fixpipe_row(kCombos[6], std::vector<int32_t>{-400, 400}, 1.0f, true)), (std::vector<int>{0, 127}));
  EXPECT_EQ(as_s8(fixpipe_row(kCombos[4], std::vector<int32_t>{-7, 7}, 1.0f, true)),
            (std::vector<int>{0, 0, 0, 0, 7, 0, 0, 0}));
}

TEST(LayoutTest, FixpipeCheckReasons) {
  const Fixpipe ok = make_fixpipe(kCombos[1], 20, 37, true);
  EXPECT_EQ(layout::fixpipe_check(ok), "");
  auto reason = [&](auto mutate) {
    Fixpipe op = ok;
    mutate(op);
    return layout::fixpipe_check(op);
  };
  auto has = [](const std::string& s, const char* what) {
    return s.find(what) != std::string::npos ? ::testing::AssertionSuccess()
                                             : ::testing::AssertionFailure() << "reason '" << s << "' lacks '" << what << "'";
  };
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.dst.space = MemSpace::UB; }), "GM or L1, got UB"));
  EXPECT_EQ(reason([](Fixpipe& o) { o.dst.space = MemSpace::L1; }), "");
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.m_size = 0; }), "m_size = 0"));
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.m_size = 4096; o.src_stride = 4096; }), "m_size = 4096"));
  EXPECT_EQ(reason([](Fixpipe& o) { o.m_size = 4095; o.src_stride = 4096; }), "");
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.n_size = 0; }), "n_size = 0"));
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.n_size = 4096; o.dst_stride = 4096; }), "n_size = 4096"));
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.src_type = DType::F16; }), "f32 or s32, got f16"));
  // Every (src, dst, quant) triple: exactly the seven listed combinations are legal.
  const DType types[] = {DType::F16, DType::BF16, DType::F32, DType::S8, DType::U8, DType::S16, DType::U16, DType::S32, DType::U32};
  const QuantMode modes[] = {QuantMode::None, QuantMode::F322F16, QuantMode::F322BF16, QuantMode::DEQF16, QuantMode::QF322B8, QuantMode::REQ8};
  int legal = 0;
  for (DType s : {DType::F32, DType::S32}) {
    for (DType d : types) {
      for (QuantMode q : modes) {
        Fixpipe op = ok;
        op.src_type = s, op.dst_type = d, op.quant = q;
        op.dst_stride = 64;
        const std::string why = layout::fixpipe_check(op);
        const bool expect_legal = std::any_of(std::begin(kCombos), std::end(kCombos), [&](const Combo& c) {
          return c.src == s && c.dst == d && c.quant == q;
        });
        EXPECT_EQ(why.empty(), expect_legal) << dtype_name(s) << "->" << dtype_name(d) << " " << int(q) << ": " << why;
        if (!why.empty()) {
          EXPECT_TRUE(has(why, "is not supported"));
        }
        legal += why.empty();
      }
    }
  }
  EXPECT_EQ(legal, 7);
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.src_type = DType::S32; o.dst_type = DType::U8; o.quant = QuantMode::REQ8; }),
                  "s32 -> u8 with quant mode REQ8"));
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.src_stride = 31; }), "src_stride = 31"));  // m 20 -> 32 rows
  EXPECT_EQ(reason([](Fixpipe& o) { o.src_stride = 32; }), "");
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.m_size = 16; o.src_stride = 15; }), "src_stride = 15"));
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.dst_stride = 36; }), "dst_stride = 36"));  // ND, n 37
  // NZ f16: a column of 20 rows of 16 halves is 640 B = 20 units.
  EXPECT_TRUE(has(reason([](Fixpipe& o) { o.nz2nd = false; o.dst_stride = 19; }), "dst_stride = 19"));
  EXPECT_EQ(reason([](Fixpipe& o) { o.nz2nd = false; o.dst_stride = 20; }), "");
}

// ---------------------------------------------------------------- the matmul data path

// A[M][K] (ND in GM) -> Nd2Nz -> L1 (NZ) -> LoadData2D -> L0A (ZZ), per the recipe:
//   Nd2Nz: n_value = M, d_value = K, src_d_value = K, nd_num = 1,
//          dst_nz_n_stride = 1, dst_nz_c0_stride = M1 * 16        (M1 = ceil(M / 16))
//     so L1 fractal (m1, k1) (16 x K0, row-major) sits at (k1 * M1 + m1) * 512;
//   then for each m1 < M1: LoadData2D start_index = m1, src_stride = M1, repeat = K1,
//          dst = L0A + m1 * K1 * 512, dst_gap = 0, no transpose    (K1 = ceil(K / K0)).
void check_a_recipe(DType t, uint32_t M, uint32_t K) {
  SCOPED_TRACE(dtype_name(t));
  const uint32_t size = dtype_size(t), K0 = 32 / size, M1 = (M + 15) / 16, K1 = (K + K0 - 1) / K0;
  std::mt19937 rng(M * 1000 + K);
  const Bytes gm = random_bytes(uint64_t{M} * K * size, rng);
  Bytes l1(uint64_t{M1} * K1 * 512, 0xee), l0a(uint64_t{M1} * K1 * 512, 0xdd);

  Nd2Nz nd;
  nd.src = {MemSpace::GM, 0};
  nd.dst = {MemSpace::L1, 0};
  nd.dtype = t;
  nd.n_value = M, nd.d_value = K, nd.src_d_value = K;
  nd.dst_nz_n_stride = 1, nd.dst_nz_c0_stride = M1 * 16;
  ASSERT_EQ(layout::nd2nz_check(nd), "");
  ASSERT_LE(layout::nd2nz_src_range(nd).end, gm.size());
  ASSERT_LE(layout::nd2nz_dst_range(nd).end, l1.size());
  layout::nd2nz(nd, ConstView{gm.data(), 0, gm.size()}, View{l1.data(), 0, l1.size()});

  for (uint32_t m1 = 0; m1 < M1; ++m1) {
    LoadData2D ld;
    ld.src = {MemSpace::L1, 0};
    ld.dst = {MemSpace::L0A, uint64_t{m1} * K1 * 512};
    ld.dtype = t;
    ld.start_index = m1, ld.src_stride = M1, ld.repeat = K1;
    ASSERT_EQ(layout::load2d_check(ld), "");
    ASSERT_LE(layout::load2d_src_range(ld).end, l1.size());
    ASSERT_LE(layout::load2d_dst_range(ld).end, l0a.size());
    layout::load2d(ld, ConstView{l1.data(), 0, l1.size()}, View{l0a.data(), 0, l0a.size()});
  }
  // Mmad: A fractal (m1, k1) of 16 x K0 at (m1 * K1 + k1) * 512, row-major inside.
  for (uint32_t i = 0; i < M; ++i) {
    for (uint32_t kk = 0; kk < K1 * K0; ++kk) {
      const uint64_t at = (uint64_t{i / 16} * K1 + kk / K0) * 512 + (uint64_t{i % 16} * K0 + kk % K0) * size;
      for (uint32_t b = 0; b < size; ++b) {
        const uint8_t want = kk < K ? gm[(uint64_t{i} * K + kk) * size + b] : 0;  // K padding is zero
        ASSERT_EQ(l0a[at + b], want) << "A(" << i << ", " << kk << ") byte " << b;
      }
    }
  }
}

TEST(LayoutTest, MatmulPathAIntoL0A) {
  check_a_recipe(DType::F16, 40, 50);
  check_a_recipe(DType::F16, 16, 16);
  check_a_recipe(DType::S8, 33, 70);
  check_a_recipe(DType::F32, 7, 20);
}

// B[K][N] (ND in GM) -> Nd2Nz -> L1 (NZ, K x N) -> LoadData2D with transpose -> L0B (ZN):
//   Nd2Nz: n_value = K, d_value = N, src_d_value = N, nd_num = 1,
//          dst_nz_n_stride = 1, dst_nz_c0_stride = K1 * 16        (K1 = ceil(K / 16))
//     so L1 fractal (k1, n1) (16 x 16, row-major: (ki, ni) at ki * 16 + ni) sits at
//     (n1 * K1 + k1) * 512;
//   then for each k1 < K1: LoadData2D transpose, start_index = k1, src_stride = K1,
//          repeat = N1, dst = L0B + k1 * N1 * 512, dst_gap = 0     (N1 = ceil(N / 16)).
//     The transpose puts (ki, ni) at ni * 16 + ki: ZN's column-major fractal.
// 16-bit types only (transpose); the rows k >= K of the last fractal row are not written
// (Mmad uses exactly k products, so they are never read).
void load_b(DType t, uint32_t K, uint32_t N, const Bytes& gm, Bytes& l0b) {
  const uint32_t K1 = (K + 15) / 16, N1 = (N + 15) / 16;
  Bytes l1(uint64_t{K1} * N1 * 512, 0xee);
  Nd2Nz nd;
  nd.src = {MemSpace::GM, 0};
  nd.dst = {MemSpace::L1, 0};
  nd.dtype = t;
  nd.n_value = K, nd.d_value = N, nd.src_d_value = N;
  nd.dst_nz_n_stride = 1, nd.dst_nz_c0_stride = K1 * 16;
  ASSERT_EQ(layout::nd2nz_check(nd), "");
  ASSERT_LE(layout::nd2nz_dst_range(nd).end, l1.size());
  layout::nd2nz(nd, ConstView{gm.data(), 0, gm.size()}, View{l1.data(), 0, l1.size()});
  for (uint32_t k1 = 0; k1 < K1; ++k1) {
    LoadData2D ld;
    ld.src = {MemSpace::L1, 0};
    ld.dst = {MemSpace::L0B, uint64_t{k1} * N1 * 512};
    ld.dtype = t;
    ld.start_index = k1, ld.src_stride = K1, ld.repeat = N1, ld.transpose = true;
    ASSERT_EQ(layout::load2d_check(ld), "");
    ASSERT_LE(layout::load2d_src_range(ld).end, l1.size());
    ASSERT_LE(layout::load2d_dst_range(ld).end, l0b.size());
    layout::load2d(ld, ConstView{l1.data(), 0, l1.size()}, View{l0b.data(), 0, l0b.size()});
  }
}

TEST(LayoutTest, MatmulPathBIntoL0BWithTranspose) {
  for (DType t : {DType::F16, DType::BF16}) {
    for (auto [K, N] : {std::pair<uint32_t, uint32_t>{40, 37}, {16, 16}, {5, 70}}) {
      const uint32_t K1 = (K + 15) / 16, N1 = (N + 15) / 16;
      std::mt19937 rng(K * 100 + N);
      const Bytes gm = random_bytes(uint64_t{K} * N * 2, rng);
      Bytes l0b(uint64_t{K1} * N1 * 512, 0xdd);
      load_b(t, K, N, gm, l0b);
      // Mmad: B fractal (k1, n1) of K0 x 16 at (k1 * N1 + n1) * 512, (ki, ni) at ni * K0 + ki.
      for (uint32_t kk = 0; kk < K; ++kk) {
        for (uint32_t j = 0; j < N; ++j) {
          const uint64_t at = (uint64_t{kk / 16} * N1 + j / 16) * 512 + (uint64_t{j % 16} * 16 + kk % 16) * 2;
          ASSERT_EQ(get<uint16_t>(l0b, at), get<uint16_t>(gm, (uint64_t{kk} * N + j) * 2))
              << dtype_name(t) << " B(" << kk << ", " << j << ") K=" << K << " N=" << N;
        }
      }
    }
  }
}

// The whole path: A and B through the two recipes, the product formed from L0A/L0B exactly
// where the Mmad comment reads them and stored in L0C's NZ layout, then Fixpipe NZ -> ND
// (src_stride = M1 * 16). Small integers keep every sum exact.
TEST(LayoutTest, MatmulPathComposesThroughFixpipe) {
  const uint32_t M = 37, K = 45, N = 21, M1 = 3, K1 = 3, N1 = 2;
  std::mt19937 rng(77);
  std::vector<int> a(M * K), b(K * N);
  Bytes gma(M * K * 2), gmb(K * N * 2);
  for (uint32_t e = 0; e < M * K; ++e) {
    a[e] = static_cast<int>(rng() % 9) - 4;
    put<uint16_t>(gma, e * 2, f32_to_f16_reference(static_cast<float>(a[e])));
  }
  for (uint32_t e = 0; e < K * N; ++e) {
    b[e] = static_cast<int>(rng() % 9) - 4;
    put<uint16_t>(gmb, e * 2, f32_to_f16_reference(static_cast<float>(b[e])));
  }
  // A via the recipe (the same steps as check_a_recipe).
  Bytes l1a(M1 * K1 * 512, 0), l0a(M1 * K1 * 512, 0), l0b(K1 * N1 * 512, 0);
  Nd2Nz nd;
  nd.src = {MemSpace::GM, 0};
  nd.dst = {MemSpace::L1, 0};
  nd.n_value = M, nd.d_value = K, nd.src_d_value = K, nd.dst_nz_n_stride = 1, nd.dst_nz_c0_stride = M1 * 16;
  layout::nd2nz(nd, ConstView{gma.data(), 0, gma.size()}, View{l1a.data(), 0, l1a.size()});
  for (uint32_t m1 = 0; m1 < M1; ++m1) {
    LoadData2D ld;
    ld.src = {MemSpace::L1, 0};
    ld.dst = {MemSpace::L0A, uint64_t{m1} * K1 * 512};
    ld.start_index = m1, ld.src_stride = M1, ld.repeat = K1;
    layout::load2d(ld, ConstView{l1a.data(), 0, l1a.size()}, View{l0a.data(), 0, l0a.size()});
  }
  load_b(DType::F16, K, N, gmb, l0b);

  // "Mmad" from the layouts in its comment: C fractal (m1, n1) at (n1 * M1 + m1) * 256 * 4.
  Bytes l0c(M1 * N1 * 256 * 4, 0);
  for (uint32_t i = 0; i < M1 * 16; ++i) {
    for (uint32_t j = 0; j < N1 * 16; ++j) {
      float acc = 0;
      for (uint32_t kk = 0; kk < K; ++kk) {
        const float av = f16_to_f32_reference(get<uint16_t>(l0a, ((i / 16) * K1 + kk / 16) * 512 + ((i % 16) * 16 + kk % 16) * 2));
        const float bv = f16_to_f32_reference(get<uint16_t>(l0b, ((kk / 16) * N1 + j / 16) * 512 + ((j % 16) * 16 + kk % 16) * 2));
        acc += av * bv;
      }
      put<float>(l0c, (((j / 16) * M1 + i / 16) * 256 + (i % 16) * 16 + j % 16) * 4, acc);
    }
  }
  Fixpipe fp;
  fp.dst = {MemSpace::GM, 0};
  fp.src = 0;
  fp.src_type = DType::F32, fp.dst_type = DType::F32, fp.quant = QuantMode::None;
  fp.m_size = M, fp.n_size = N, fp.src_stride = M1 * 16, fp.dst_stride = N, fp.nz2nd = true;
  ASSERT_EQ(layout::fixpipe_check(fp), "");
  Bytes out(M * N * 4);
  ASSERT_EQ(layout::fixpipe_dst_range(fp).end, out.size());
  layout::fixpipe(fp, ConstView{l0c.data(), 0, l0c.size()}, View{out.data(), 0, out.size()});
  for (uint32_t i = 0; i < M; ++i) {
    for (uint32_t j = 0; j < N; ++j) {
      int want = 0;
      for (uint32_t kk = 0; kk < K; ++kk) want += a[i * K + kk] * b[kk * N + j];
      ASSERT_EQ(get<float>(out, (i * N + j) * 4), static_cast<float>(want)) << "C(" << i << ", " << j << ")";
    }
  }
}

}  // namespace layout_test
}  // namespace npuvp::aicore
