// The Verilated cube RTL (rtl_cosim/rtl/npuvp_cube.sv) against the cube model (CubeUnit),
// bit for bit, on thousands of random Mmads; its timing against the model's parameters; and
// the transactor's handling of an RTL that stops. No platform here: the transactor is driven
// directly, the model runs on a copy of the same buffers, and whole L0C buffers are compared
// (so bytes outside C must be left alone too).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "models/aicore/ai_core.h"
#include "models/aicore/cube_unit.h"
#include "rtl_cosim/rtl_cube.h"
#include "tests/support/device_fixture.h"

namespace {
using namespace npuvp::aicore;
using npuvp::cosim::CubeStep;
using npuvp::cosim::RtlCube;
using npuvp::cosim::RtlError;

constexpr uint64_t kL0ab = 64 * 1024, kL0c = 128 * 1024, kBt = 1024;  // A2 sizes

CubeUnit::Params a2_params() {
  CubeUnit::Params p;
  p.a2_types = true;
  return p;
}

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// ---- Value generators (raw bits). Each Mmad draws its operands from one of these.
using Gen = std::function<uint32_t(std::mt19937_64&)>;

uint32_t half_bits(std::mt19937_64& rng, uint32_t exp_lo, uint32_t exp_hi) {
  return (uint32_t(rng() & 1) << 15) | ((exp_lo + uint32_t(rng() % (exp_hi - exp_lo + 1))) << 10) |
         uint32_t(rng() & 0x3ff);
}

struct F16Dist {
  const char* name;
  Gen ab;  // A and B elements (16 bits)
  Gen c;   // initial L0C values (f32 bits)
};

std::vector<F16Dist> f16_dists() {
  const Gen moderate_c = [](std::mt19937_64& rng) {
    return uint32_t((rng() & 0x80000000u) | ((110 + rng() % 40) << 23) | (rng() & 0x7fffffu));
  };
  return {
      {"moderate", [](std::mt19937_64& r) { return half_bits(r, 10, 20); }, moderate_c},
      {"whole exponent range",
       [](std::mt19937_64& r) { return half_bits(r, 1, 30); },
       // any sign and exponent but 255 (bit 23 clear: the exponent is even)
       [](std::mt19937_64& r) { return uint32_t(r()) & 0xff7fffffu; }},
      {"huge and tiny",
       [](std::mt19937_64& r) {
         return r() % 2 ? half_bits(r, 27, 30) : half_bits(r, 1, 3);
       },
       // near the f32 limits: sums overflow to inf, tiny and subnormal accumulators
       [](std::mt19937_64& r) {
         const uint32_t s = uint32_t(r() & 1) << 31;
         switch (r() % 3) {
           case 0: return s | ((250 + uint32_t(r() % 5)) << 23) | uint32_t(r() & 0x7fffff);
           case 1: return s | uint32_t(r() & 0x7fffff);  // subnormal or zero
           default: return s | ((1 + uint32_t(r() % 5)) << 23) | uint32_t(r() & 0x7fffff);
         }
       }},
      {"zeros and subnormals",
       [](std::mt19937_64& r) {
         const uint32_t s = uint32_t(r() & 1) << 15;
         const uint32_t pick = uint32_t(r() % 4);
         return pick == 0 ? s : pick == 1 ? s | uint32_t(1 + r() % 0x3ff) : half_bits(r, 1, 15);
       },
       [](std::mt19937_64& r) { return uint32_t(r() & 1) << 31; }},  // +-0
      {"cancellation",
       // a few magnitudes with random signs: sums cancel exactly or nearly
       [](std::mt19937_64& r) {
         static const uint16_t mags[] = {0x3c00, 0x3e00, 0x3c01, 0x4000, 0x3bff, 0x5640};
         return uint32_t(r() & 1) << 15 | mags[r() % 6];
       },
       [](std::mt19937_64& r) {
         static const uint32_t vals[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u,
                                         0x40400000u, 0x33800000u};
         return vals[r() % 6];
       }},
      {"sparse inf and NaN",
       [](std::mt19937_64& r) {
         const uint32_t pick = uint32_t(r() % 400), s = uint32_t(r() & 1) << 15;
         if (pick == 0) return s | 0x7c00u;                            // inf
         if (pick == 1) return s | 0x7c00u | uint32_t(1 + r() % 0x3ff);  // NaN (quiet or signalling)
         if (pick < 30) return s;
         return half_bits(r, 1, 30);
       },
       [](std::mt19937_64& r) {
         const uint32_t pick = uint32_t(r() % 50), s = uint32_t(r() & 1) << 31;
         if (pick == 0) return s | 0x7f800000u;
         if (pick == 1) return s | 0x7f800000u | uint32_t(1 + r() % 0x7fffff);
         return s | ((120 + uint32_t(r() % 20)) << 23) | uint32_t(r() & 0x7fffff);
       }},
  };
}

// ---- One random Mmad on both sides.
struct Side {
  std::vector<uint8_t> l0a, l0b, l0c, bt;
};

struct Tally {
  int mmads = 0;
  uint64_t steps = 0, nan = 0, inf = 0, neg_zero = 0, subnormal = 0;
};

void fill(std::vector<uint8_t>& buf, unsigned size, const Gen& gen, std::mt19937_64& rng) {
  for (size_t off = 0; off + size <= buf.size(); off += size) {
    const uint32_t v = gen(rng);
    std::memcpy(buf.data() + off, &v, size);
  }
}

// Picks an address for `bytes` in a buffer of `size`, aligned to `align`.
uint64_t place(std::mt19937_64& rng, uint64_t size, uint64_t bytes, uint64_t align) {
  const uint64_t slots = (size - bytes) / align + 1;
  return (rng() % slots) * align;
}

// Describes the first differing element of L0C, as the lockstep message does.
std::string first_difference(const Mmad& op, const std::vector<uint8_t>& model,
                             const std::vector<uint8_t>& rtl) {
  for (size_t off = 0; off + 4 <= model.size(); off += 4) {
    if (std::memcmp(model.data() + off, rtl.data() + off, 4) == 0) continue;
    uint32_t want, got;
    std::memcpy(&want, model.data() + off, 4);
    std::memcpy(&got, rtl.data() + off, 4);
    std::ostringstream s;
    s << describe(op) << ": L0C byte 0x" << std::hex << off;
    if (off >= op.c && off < op.c + uint64_t(ceil_div(op.m, 16)) * ceil_div(op.n, 16) * 1024) {
      const uint64_t e = (off - op.c) / 4;
      s << std::dec << " (fractal " << e / 256 << ", row " << e % 256 / 16 << ", col " << e % 16 << ")";
    } else {
      s << " (outside C)";
    }
    s << std::hex << ": model 0x" << want << ", RTL 0x" << got;
    return s.str();
  }
  return {};
}

// Fills the bytes `op` reads (A, B, the C region, the bias row) with fresh values; the rest of
// the buffers keeps older data (and L0C around C must come out unchanged).
void load_operands(Side& side, const Mmad& op, const Gen& ab, const Gen& c, std::mt19937_64& rng) {
  const uint64_t M1 = ceil_div(op.m, 16), N1 = ceil_div(op.n, 16);
  const uint64_t K1 = ceil_div(op.k, 32 / dtype_size(op.a_type));
  const unsigned ab_size = dtype_size(op.a_type);
  std::vector<uint8_t> a(M1 * K1 * 512), b(K1 * N1 * 512), cv(M1 * N1 * 1024), bias(N1 * 64);
  fill(a, ab_size, ab, rng);
  fill(b, ab_size, ab, rng);
  fill(cv, 4, c, rng);
  fill(bias, 4, c, rng);
  std::copy(a.begin(), a.end(), side.l0a.begin() + long(op.a));
  std::copy(b.begin(), b.end(), side.l0b.begin() + long(op.b));
  std::copy(cv.begin(), cv.end(), side.l0c.begin() + long(op.c));
  std::copy(bias.begin(), bias.end(), side.bt.begin() + long(op.bias_addr));
}

Side a2_buffers() {
  return Side{std::vector<uint8_t>(kL0ab), std::vector<uint8_t>(kL0ab), std::vector<uint8_t>(kL0c),
              std::vector<uint8_t>(kBt)};
}

// Runs `op` (already placed) on the model and on the RTL from the same buffers; returns the
// first difference ("" if none) and tallies the result's special values.
std::string compare_one(RtlCube& rtl, const CubeUnit& model, const Mmad& op, const Side& in,
                        Tally& tally) {
  EXPECT_EQ(model.check(op, in.l0a.size(), in.l0b.size(), in.l0c.size(), in.bt.size()), "");
  EXPECT_EQ(rtl.supports(op), "");
  std::vector<uint8_t> want = in.l0c, got = in.l0c;
  model.execute(op, in.l0a.data(), in.l0b.data(), want.data(), in.bt.data());
  const uint64_t cycles = rtl.run(op, in.l0a.data(), in.l0b.data(), got.data(), in.bt.data());
  const uint64_t M1 = ceil_div(op.m, 16), N1 = ceil_div(op.n, 16);
  const uint64_t K1 = ceil_div(op.k, op.a_type == DType::F16 ? 16 : 32);
  EXPECT_EQ(cycles, M1 * N1 * std::max<uint64_t>(K1, 1) + 2) << describe(op);
  ++tally.mmads;
  tally.steps += M1 * N1 * K1;
  for (uint64_t e = 0; e < M1 * N1 * 256; ++e) {
    uint32_t v;
    std::memcpy(&v, want.data() + op.c + e * 4, 4);
    if (op.c_type != DType::F32) continue;
    tally.nan += (v & 0x7fffffffu) > 0x7f800000u;
    tally.inf += (v & 0x7fffffffu) == 0x7f800000u;
    tally.neg_zero += v == 0x80000000u;
    tally.subnormal += (v & 0x7f800000u) == 0 && (v & 0x7fffffu) != 0;
  }
  return first_difference(op, want, got);
}

// A random placed Mmad of `a` x `b` -> `c` with M1, N1 <= 3 and K1 <= max_k1, and a random
// initial value source (0, L0C, or BT bias for f32).
Mmad random_mmad(std::mt19937_64& rng, DType a, DType b, DType c, uint32_t max_k1) {
  Mmad op;
  op.a_type = a;
  op.b_type = b;
  op.c_type = c;
  const uint32_t K0 = 32 / dtype_size(a);
  op.m = 1 + uint32_t(rng() % 48);
  op.n = 1 + uint32_t(rng() % 48);
  op.k = rng() % 40 == 0 ? 0 : 1 + uint32_t(rng() % (max_k1 * K0));
  const uint32_t init = uint32_t(rng() % 3);
  op.init_c = init == 0;
  op.bias = init == 2 && c == DType::F32;
  const uint64_t M1 = ceil_div(op.m, 16), N1 = ceil_div(op.n, 16), K1 = ceil_div(op.k, K0);
  op.a = place(rng, kL0ab, M1 * K1 * 512, 512);
  op.b = place(rng, kL0ab, K1 * N1 * 512, 512);
  op.c = place(rng, kL0c, M1 * N1 * 1024, 64);
  op.bias_addr = place(rng, kBt, N1 * 64, 64);
  return op;
}

// ---- f16 x f16 -> f32.
void random_f16(uint64_t seed, int count, Tally& tally) {
  std::mt19937_64 rng(seed);
  const auto dists = f16_dists();
  const CubeUnit model(a2_params());
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  Side side = a2_buffers();
  for (int i = 0; i < count; ++i) {
    const F16Dist& d = dists[size_t(i) % dists.size()];
    const Mmad op = random_mmad(rng, DType::F16, DType::F16, DType::F32, 6);
    load_operands(side, op, d.ab, d.c, rng);
    const std::string diff = compare_one(*rtl, model, op, side, tally);
    ASSERT_EQ(diff, "") << "Mmad " << i << " (" << d.name << ")";
  }
}

TEST(CubeRtl, F16RandomMmadsBitExact) {
  Tally t;
  random_f16(1, 1200, t);
  EXPECT_EQ(t.mmads, 1200);
  // The values did reach what they were drawn for.
  EXPECT_GT(t.nan, 0u);
  EXPECT_GT(t.inf, 0u);
  EXPECT_GT(t.neg_zero, 0u);
  EXPECT_GT(t.subnormal, 0u);
  RecordProperty("steps", std::to_string(t.steps));
  RecordProperty("nan_inf_negzero_subnormal", std::to_string(t.nan) + " " + std::to_string(t.inf) +
                                                  " " + std::to_string(t.neg_zero) + " " +
                                                  std::to_string(t.subnormal));
}

TEST(CubeRtl, F16RandomMmadsBitExactSecondSeed) {
  Tally t;
  random_f16(2, 1200, t);
  EXPECT_EQ(t.mmads, 1200);
  EXPECT_GT(t.nan, 0u);
  EXPECT_GT(t.inf, 0u);
}

// NaN payloads: NaNs in both operands at the same k, NaN accumulators, inf * 0, inf - inf.
TEST(CubeRtl, F16NanRanking) {
  std::mt19937_64 rng(3);
  const CubeUnit model(a2_params());
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  Side side = a2_buffers();
  const Gen nan_heavy = [](std::mt19937_64& r) {
    const uint32_t pick = uint32_t(r() % 30), s = uint32_t(r() & 1) << 15;
    if (pick < 2) return s | 0x7c00u | uint32_t(1 + r() % 0x3ff);
    if (pick < 4) return s | 0x7c00u;
    if (pick < 7) return s;
    return half_bits(r, 10, 20);
  };
  Tally t;
  for (int i = 0; i < 200; ++i) {
    const Mmad op = random_mmad(rng, DType::F16, DType::F16, DType::F32, 3);
    load_operands(side, op, nan_heavy, [](std::mt19937_64& r) {  // 1.0 or inf or a NaN
      return r() % 8 ? uint32_t(0x3f800000u) : uint32_t(0x7f800000u | (r() & 0x807fffffu));
    }, rng);
    const std::string diff = compare_one(*rtl, model, op, side, t);
    ASSERT_EQ(diff, "") << "Mmad " << i;
  }
  EXPECT_GT(t.nan, 1000u);
}

// ---- int8.
void random_int8(uint64_t seed, int count, DType a_type, Tally& tally) {
  std::mt19937_64 rng(seed);
  const CubeUnit model(a2_params());
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  Side side = a2_buffers();
  const Gen bytes = [](std::mt19937_64& r) {
    static const uint8_t edges[] = {0x80, 0x7f, 0xff, 0x00, 0x81, 0x01};
    return r() % 2 ? uint32_t(edges[r() % 6]) : uint32_t(r() & 0xff);
  };
  // Initial accumulators near the int32 limits make the sums wrap.
  const Gen acc = [](std::mt19937_64& r) {
    switch (r() % 3) {
      case 0: return uint32_t(0x7fffffffu - r() % 100000);
      case 1: return uint32_t(0x80000000u + r() % 100000);
      default: return uint32_t(r());
    }
  };
  for (int i = 0; i < count; ++i) {
    const Mmad op = random_mmad(rng, a_type, DType::S8, DType::S32, 5);
    load_operands(side, op, bytes, acc, rng);
    const std::string diff = compare_one(*rtl, model, op, side, tally);
    ASSERT_EQ(diff, "") << "Mmad " << i;
  }
}

TEST(CubeRtl, S8RandomMmadsBitExact) {
  Tally t;
  random_int8(4, 1200, DType::S8, t);
  EXPECT_EQ(t.mmads, 1200);
  EXPECT_GT(t.steps, 10000u);
}

TEST(CubeRtl, U8RandomMmadsBitExact) {
  Tally t;
  random_int8(5, 600, DType::U8, t);
  EXPECT_EQ(t.mmads, 600);
}

// Sums past the int32 range wrap the same way on both sides.
TEST(CubeRtl, Int8WrapsLikeTheModel) {
  const CubeUnit model(a2_params());
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  Side side{std::vector<uint8_t>(kL0ab, 0x80), std::vector<uint8_t>(kL0ab, 0x80),
            std::vector<uint8_t>(kL0c), std::vector<uint8_t>(kBt)};
  Mmad op;
  op.m = op.n = 16;
  op.k = 64;
  op.a_type = op.b_type = DType::S8;
  op.c_type = DType::S32;
  op.init_c = false;
  const uint32_t start = 0x7fff0000u;  // + 64 * 16384 = 0x80000000 + 0xfff0000: wraps
  for (size_t e = 0; e < 256; ++e) std::memcpy(side.l0c.data() + e * 4, &start, 4);
  Tally t;
  EXPECT_EQ(compare_one(*rtl, model, op, side, t), "");
  std::vector<uint8_t> got = side.l0c;
  rtl->run(op, side.l0a.data(), side.l0b.data(), got.data(), side.bt.data());
  int32_t v;
  std::memcpy(&v, got.data(), 4);
  EXPECT_EQ(uint32_t(v), start + 64u * 16384u);
  EXPECT_LT(v, 0);
}

// ---- Timing: the RTL's cycles are the model's cost.
TEST(CubeRtl, TimingAgreesWithTheModelsParameters) {
  // The parameters the A2 platform runs with (head_cycles, steps per cycle).
  npuvp::testing::make_device({}, "core910b");
  const CubeUnit::Params p = AiCore::params_from_config().cube;
  const CubeUnit model(p);
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  Side side = a2_buffers();
  // Latency: an Mmad of one step; throughput: what each further step adds.
  const auto cycles = [&](uint32_t m, uint32_t n, uint32_t k, DType a, DType c) {
    Mmad op;
    op.m = m;
    op.n = n;
    op.k = k;
    op.a_type = a;
    op.b_type = a == DType::U8 ? DType::S8 : a;
    op.c_type = c;
    const uint64_t rtl_cycles = rtl->run(op, side.l0a.data(), side.l0b.data(), side.l0c.data(), side.bt.data());
    EXPECT_EQ(rtl_cycles, model.cost(op)) << describe(op);
    return rtl_cycles;
  };
  for (DType a : {DType::F16, DType::S8}) {
    const DType c = a == DType::F16 ? DType::F32 : DType::S32;
    const uint32_t K0 = a == DType::F16 ? 16 : 32;
    const uint64_t one = cycles(16, 16, K0, a, c);
    const uint64_t many = cycles(64, 48, 5 * K0, a, c);  // 4 * 3 * 5 = 60 steps
    const double steps_per_cycle = 59.0 / double(many - one);
    const double model_rate = a == DType::F16 ? p.f16_fractal_steps_per_cycle : p.s8_fractal_steps_per_cycle;
    EXPECT_EQ(one, p.head_cycles + 1);        // latency: head_cycles, plus the step itself
    EXPECT_DOUBLE_EQ(steps_per_cycle, model_rate);  // throughput
    const std::string says = std::string(a == DType::F16 ? "f16" : "s8") + ": the RTL takes " +
                             std::to_string(one) + " cycles for a 1-step Mmad and 1 cycle per further step (" +
                             std::to_string(steps_per_cycle) + " steps/cycle); the model charges core.cube.head_cycles=" +
                             std::to_string(p.head_cycles) + " + steps / " + std::to_string(model_rate) +
                             ": they agree";
    RecordProperty(a == DType::F16 ? "f16_timing" : "s8_timing", says);
    std::printf("%s\n", says.c_str());
    // Odd shapes and k not a multiple of the fractal depth, too.
    cycles(17, 33, K0 * 3 - 5, a, c);
    cycles(1, 1, 1, a, c);
    cycles(48, 16, K0 * 6, a, c);
  }
}

// ---- An RTL that stops: $fatal/$error end the Mmad with an RtlError, not the process.
// (This uses our RTL's protocol checks: an illegal in_mode, an in_kcount beyond the fractal.
// A swapped-in cube without such checks fails it, and only it.)
TEST(CubeRtl, RtlStopIsAnErrorNotAnExit) {
  auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube");
  std::vector<uint8_t> a(512), b(512), c(1024), out(1024);
  CubeStep s{true, true, 3, 16, a.data(), b.data(), c.data(), out.data()};  // mode 3 is illegal
  try {
    rtl->run_steps({s});
    ADD_FAILURE() << "mode 3 was accepted";
  } catch (const RtlError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the RTL stopped ($stop, $error or $fatal) at "), std::string::npos) << what;
    EXPECT_NE(what.find(".sv:"), std::string::npos) << what;  // the RTL's file and line
    EXPECT_NE(what.find("npuvp_cube: illegal in_mode 3"), std::string::npos) << what;
  }
  // The model is not used again.
  try {
    rtl->run_steps({s});
    ADD_FAILURE() << "a stopped RTL ran again";
  } catch (const RtlError& e) {
    EXPECT_NE(std::string(e.what()).find("stopped earlier"), std::string::npos) << e.what();
  }
  // Another instance is independent, and $error (kcount beyond the fractal) stops it too.
  auto second = npuvp::cosim::make_rtl_cube("npuvp_cube");
  s.mode = 0;
  s.kcount = 17;
  try {
    second->run_steps({s});
    ADD_FAILURE() << "kcount 17 was accepted";
  } catch (const RtlError& e) {
    EXPECT_NE(std::string(e.what()).find("in_kcount 17 exceeds the fractal depth"), std::string::npos) << e.what();
  }
}

TEST(CubeRtl, VerilatorHooksDoNotEndTheProcess) {
  const std::vector<std::string> seen = npuvp::cosim::detail::exercise_verilator_hooks();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], "the RTL called $finish at hooks_test.sv:1");
  EXPECT_EQ(seen[1], "the RTL stopped ($stop, $error or $fatal) at hooks_test.sv:3");
  EXPECT_EQ(seen[2], "Verilator fatal error at hooks_test.sv:4: test");
}

TEST(CubeRtl, BrokenVariantIsBuiltAndDiffers) {
  // The truncating build of the same RTL: equal where no rounding happens, different where it does.
  auto good = npuvp::cosim::make_rtl_cube("npuvp_cube");
  auto bad = npuvp::cosim::make_rtl_cube("npuvp_cube_truncate");
  std::vector<uint8_t> a(512), b(512), c(1024), out_good(1024), out_bad(1024);
  const uint16_t one = 0x3c00, third = 0x3557;  // 1.0 and ~1/3: 341.75 units of 1e4's ulp
  for (int x = 0; x < 256; ++x) {
    std::memcpy(a.data() + 2 * x, &one, 2);
    std::memcpy(b.data() + 2 * x, &third, 2);
  }
  const float start = 1e4f;  // each addition rounds up (RNE) or down (truncation)
  for (int x = 0; x < 256; ++x) std::memcpy(c.data() + 4 * x, &start, 4);
  EXPECT_EQ(good->run_steps({CubeStep{true, true, 0, 16, a.data(), b.data(), c.data(), out_good.data()}}), 3u);
  EXPECT_EQ(bad->run_steps({CubeStep{true, true, 0, 16, a.data(), b.data(), c.data(), out_bad.data()}}), 3u);
  float g, t;
  std::memcpy(&g, out_good.data(), 4);
  std::memcpy(&t, out_bad.data(), 4);
  _Float16 third_h;
  std::memcpy(&third_h, &third, 2);
  float want = start;  // the contract: 16 rounded additions of the exact product 1 * third
  for (int k = 0; k < 16; ++k) want = want + 1.0f * float(third_h);
  EXPECT_EQ(g, want);
  EXPECT_LT(t, g);  // truncation toward zero loses the rounding-up steps
}

TEST(CubeRtl, WaveformDump) {
  const std::string path = ::testing::TempDir() + "npuvp_cube_wave.vcd";
  std::remove(path.c_str());
  {
    auto rtl = npuvp::cosim::make_rtl_cube("npuvp_cube", {"test", path});
    std::vector<uint8_t> a(512), b(512), c(1024), out(1024);
    rtl->run_steps({CubeStep{true, false, 0, 16, a.data(), b.data(), c.data(), nullptr},
                    CubeStep{false, true, 0, 16, a.data(), b.data(), c.data(), out.data()}});
  }
  std::ifstream f(path);
  ASSERT_TRUE(f.good()) << path;
  std::stringstream text;
  text << f.rdbuf();
  const std::string vcd = text.str();
  EXPECT_NE(vcd.find("$enddefinitions"), std::string::npos);
  EXPECT_NE(vcd.find(" in_valid "), std::string::npos);
  EXPECT_NE(vcd.find(" out_c [8191:0] "), std::string::npos);
  EXPECT_NE(vcd.find("\n#9\n"), std::string::npos);  // reset (2 cycles) + 3 cycles, 2 samples each
}

}  // namespace
