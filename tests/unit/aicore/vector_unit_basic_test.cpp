// VectorUnit's issue-22 instructions at the unit: GatherMask (patterns, counter mode, the
// kept-count register, a result past the UB), Scatter, ShiftLeft/ShiftRight edge values,
// Copy's bit-exactness, and check()'s limits. Plain references, whole UBs compared.
#include "models/aicore/vector_unit.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace npuvp::aicore {
namespace vector_unit_basic_test {

constexpr uint64_t kUb = 16 * 1024;

std::vector<uint8_t> pattern_ub() {
  std::vector<uint8_t> ub(kUb);
  for (size_t i = 0; i < ub.size(); ++i) ub[i] = static_cast<uint8_t>(i * 11 + (i >> 8));
  return ub;
}
template <class T>
T get(const std::vector<uint8_t>& ub, uint64_t addr) {
  T v;
  std::memcpy(&v, ub.data() + addr, sizeof(T));
  return v;
}
template <class T>
void put(std::vector<uint8_t>& ub, uint64_t addr, T v) {
  std::memcpy(ub.data() + addr, &v, sizeof(T));
}

VectorOp op(VecOp kind, DType type, uint64_t dst, uint64_t src0, uint64_t src1 = 0, double scalar = 0) {
  VectorOp v;
  v.op = kind;
  v.dtype = type;
  v.dst = dst;
  v.src0 = src0;
  v.src1 = src1;
  v.scalar = scalar;
  return v;
}

TEST(VectorUnitBasic, GatherMaskOddElementsOfTwoRepeats) {
  VectorUnit vu;
  std::vector<uint8_t> ub = pattern_ub(), want = ub;
  VectorOp v = op(VecOp::GatherMask, DType::U32, 4096, 0);
  v.gather_pattern = 2;
  v.repeat = 2;
  v.src0_rep_stride = 16;  // the second repeat starts 512 B on
  ASSERT_EQ(vu.check(v, kUb), "");
  vu.execute(v, ub.data(), kUb);
  EXPECT_EQ(vu.gather_mask_count(), 64u);
  for (uint32_t k = 0; k < 64; ++k) {
    const uint32_t r = k / 32, i = 2 * (k % 32) + 1;
    put<uint32_t>(want, 4096 + 4 * k, get<uint32_t>(ub, r * 512 + 4 * i));
  }
  EXPECT_EQ(ub, want);
}

TEST(VectorUnitBasic, GatherMaskCounterModeUserBits) {
  VectorUnit vu;
  std::vector<uint8_t> ub = pattern_ub();
  put<uint16_t>(ub, 2048, 0x8001);  // elements 0 and 15
  put<uint16_t>(ub, 2050, 0x0004);  // element 18
  std::vector<uint8_t> want = ub;
  VectorOp v = op(VecOp::GatherMask, DType::F16, 4096, 0, 2048);
  v.counter_mode = true;
  v.mask_lo = 19;  // elements 0..18 of each repeat; bits past 18 are not looked at
  v.repeat = 3;
  v.src0_blk_stride = 2;
  v.src0_rep_stride = 1;
  v.src1_rep_stride = 0;
  ASSERT_EQ(vu.check(v, kUb), "");
  vu.execute(v, ub.data(), kUb);
  EXPECT_EQ(vu.gather_mask_count(), 9u);
  uint32_t k = 0;
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t i : {0u, 15u, 18u}) {
      const uint64_t src = r * 32 + (i / 16) * 64 + (i % 16) * 2;
      put<uint16_t>(want, 4096 + 2 * k++, get<uint16_t>(ub, src));
    }
  }
  EXPECT_EQ(ub, want);
}

TEST(VectorUnitBasic, GatherMaskResultPastTheUbFaults) {
  VectorUnit vu;
  std::vector<uint8_t> ub = pattern_ub();
  VectorOp v = op(VecOp::GatherMask, DType::F32, kUb - 128, 0);
  v.gather_pattern = 7;  // 64 elements, 256 B
  ASSERT_EQ(vu.check(v, kUb), "");
  EXPECT_THROW(vu.execute(v, ub.data(), kUb), VectorFault);
}

// A counter-mode repeat of 70 u32 elements spans two 256 B repeats, and costs as much.
TEST(VectorUnitBasic, GatherMaskCounterModeCostsTheRepeatsItSpans) {
  VectorUnit vu;
  VectorOp normal = op(VecOp::GatherMask, DType::U32, 0, 4096);
  normal.gather_pattern = 1;
  normal.repeat = 2;
  VectorOp counted = normal;
  counted.counter_mode = true;
  counted.mask_lo = 70;
  VectorOp four = normal;
  four.repeat = 4;
  EXPECT_GT(vu.cost(counted), vu.cost(normal));
  EXPECT_EQ(vu.cost(counted), vu.cost(four));
}

TEST(VectorUnitBasic, ChecksOfTheNewOps) {
  VectorUnit vu;
  VectorOp g = op(VecOp::GatherMask, DType::F16, 0, 256);
  g.gather_pattern = 8;
  EXPECT_EQ(vu.check(g, kUb), "src1Pattern 8 out of range [1, 7]");
  g.gather_pattern = 1;
  g.counter_mode = true;
  g.mask_lo = 0;
  EXPECT_EQ(vu.check(g, kUb), "reduceMode mask 0 out of range [1, 2^32 - 1]");
  VectorOp s = op(VecOp::ShiftLeft, DType::U32, 0, 256, 0, 33);
  s.mask_hi = 0;
  EXPECT_EQ(vu.check(s, kUb), "shift 33 out of range [0, 32] for u32");
  EXPECT_EQ(vu.check(op(VecOp::Maxs, DType::U16, 0, 256), kUb), "Maxs does not support u16");
  EXPECT_EQ(vu.check(op(VecOp::Scatter, DType::S16, 0, 256, 512), kUb), "Scatter does not support s16");
}

TEST(VectorUnitBasic, ShiftsAtTheirEdges) {
  VectorUnit vu;
  std::vector<uint8_t> ub(kUb, 0);
  const int16_t in[4] = {-7, 7, INT16_MIN, -1};
  for (int i = 0; i < 4; ++i) put<int16_t>(ub, 2 * i, in[i]);
  VectorOp r = op(VecOp::ShiftRight, DType::S16, 256, 0, 0, 1);
  r.round_shift = true;
  r.mask_lo = 0xF;
  r.mask_hi = 0;
  ASSERT_EQ(vu.check(r, kUb), "");
  vu.execute(r, ub.data(), kUb);
  // floor(x / 2) plus the bit shifted out: -7 -> -4 + 1, 7 -> 3 + 1, MIN -> MIN / 2, -1 -> -1 + 1.
  EXPECT_EQ(get<int16_t>(ub, 256), -3);
  EXPECT_EQ(get<int16_t>(ub, 258), 4);
  EXPECT_EQ(get<int16_t>(ub, 260), INT16_MIN / 2);
  EXPECT_EQ(get<int16_t>(ub, 262), 0);
  VectorOp l = op(VecOp::ShiftLeft, DType::S16, 512, 0, 0, 16);
  l.mask_lo = 0xF;
  l.mask_hi = 0;
  vu.execute(l, ub.data(), kUb);  // only the sign bits are left
  EXPECT_EQ(get<uint16_t>(ub, 512), 0x8000);
  EXPECT_EQ(get<uint16_t>(ub, 514), 0x0000);
  EXPECT_EQ(get<uint16_t>(ub, 516), 0x8000);
  EXPECT_EQ(get<uint16_t>(ub, 518), 0x8000);
}

TEST(VectorUnitBasic, CopyKeepsSignallingNans) {
  VectorUnit vu;
  std::vector<uint8_t> ub = pattern_ub();
  put<uint32_t>(ub, 0, 0x7f800001u);
  VectorOp c = op(VecOp::Copy, DType::F32, 1024, 0);
  c.mask_hi = 0;
  vu.execute(c, ub.data(), kUb);
  EXPECT_EQ(std::memcmp(ub.data() + 1024, ub.data(), 256), 0);
}

TEST(VectorUnitBasic, ScatterAndItsFault) {
  VectorUnit vu;
  std::vector<uint8_t> ub = pattern_ub();
  for (uint32_t i = 0; i < 64; ++i) put<uint32_t>(ub, 2048 + 4 * i, (63 - i) * 4);  // reversed
  std::vector<uint8_t> want = ub;
  VectorOp s = op(VecOp::Scatter, DType::F32, 4096, 0, 2048);
  s.mask_hi = 0;
  ASSERT_EQ(vu.check(s, kUb), "");
  vu.execute(s, ub.data(), kUb);
  for (uint32_t i = 0; i < 64; ++i) put<uint32_t>(want, 4096 + (63 - i) * 4, get<uint32_t>(want, 4 * i));
  EXPECT_EQ(ub, want);
  put<uint32_t>(ub, 2048, 0x100000);
  EXPECT_THROW(vu.execute(s, ub.data(), kUb), VectorFault);
}

}  // namespace vector_unit_basic_test
}  // namespace npuvp::aicore
