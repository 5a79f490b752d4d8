// The coupled-910 matmul (sw/kernels/matmul_910.cpp) on several blocks under every sanitizer
// check: blocks that share a band of C's tile grid pad A's rows (or B's columns) into their
// own copy of Ap (Bp), so no two blocks touch the same workspace bytes without order. Padding
// into one shared copy was reported as cross-core races (issue 25); here there must be none,
// and C must still match the numeric contract bit for bit.
#include <gtest/gtest.h>
#include <string>
#include <vector>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include "models/check/sanitizer.h"
#include "sw/kernels/matmul.h"
#include "tests/support/child_process.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"
#include "tests/support/matmul_reference.h"
#include "tikicpulib.h"

namespace sanitizer_matmul910_test {

using nlohmann::json;
using npuvp::kernels::MatmulShape;

// m x n x k (K and N not multiples of 16: both pads run) on `blocks` blocks of an 8-core 910.
json checked_matmul_910(uint32_t m, uint32_t n, uint32_t k, uint32_t blocks) {
  return npuvp::testing::in_child_process([&] {
    auto& dev = npuvp::testing::make_device({"platform.cores=8", "sim.mode=functional", "check.race=true",
                                             "check.memory=true", "check.init=true", "check.sync=true"},
                                            "core910");
    auto a = npuvp::testing::random_halves(size_t(m) * k, 11);
    auto b = npuvp::testing::random_halves(size_t(k) * n, 12);
    auto* ga = static_cast<half*>(AscendC::GmAlloc((a.size() * 2 + 31) / 32 * 32 + 32));  // padded as aclrtMalloc pads: the 910's rows are read in whole blocks
    auto* gb = static_cast<half*>(AscendC::GmAlloc((b.size() * 2 + 31) / 32 * 32 + 32));
    auto* gc = static_cast<float*>(AscendC::GmAlloc(size_t(m) * n * 4));
    std::copy(a.begin(), a.end(), ga);
    std::copy(b.begin(), b.end(), gb);
    const MatmulShape shape{m, n, k};
    auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::matmul_910_workspace_bytes(shape, blocks)));
    dev.launch("matmul", blocks, [&] {
      npuvp::kernels::matmul_910<float>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                        reinterpret_cast<GM_ADDR>(gc), ws, shape);
    });
    const long bad = npuvp::testing::first_mismatch(gc, npuvp::testing::matmul_reference(a, b, m, n, k));
    for (void* p : {static_cast<void*>(ga), static_cast<void*>(gb), static_cast<void*>(gc), static_cast<void*>(ws)}) {
      AscendC::GmFree(p);
    }
    npuvp::check::Sanitizer* s = npuvp::check::Sanitizer::active();
    s->finish();
    json errors = json::array();
    for (const auto& f : s->findings()) {
      if (f.error) errors.push_back(f.kind + ": " + f.text);
    }
    const auto grid = npuvp::kernels::matmul_910_tile_grid(shape, blocks);
    return json{{"mismatch", bad}, {"errors", errors}, {"rows", grid.rows}, {"cols", grid.cols}};
  });
}

void expect_clean(uint32_t m, uint32_t n, uint32_t k, uint32_t blocks) {
  const json r = checked_matmul_910(m, n, k, blocks);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  // The shape is chosen so that some band holds several blocks (the case that raced).
  EXPECT_TRUE(r["rows"].get<unsigned>() > 1 || r["cols"].get<unsigned>() > 1) << r.dump();
  EXPECT_EQ(r["mismatch"].get<long>(), -1);
  EXPECT_EQ(r["errors"].size(), 0u) << r["errors"].dump(1);
}

// 3 x 3 tiles on 8 blocks: bands of rows and of columns each shared by several blocks.
TEST(SanitizerMatmul910, EightBlocksSharingBandsNoRace) { expect_clean(300, 260, 70, 8); }
// 4 blocks over a 2 x 2 grid (both pads).
TEST(SanitizerMatmul910, FourBlocksNoRace) { expect_clean(256 + 17, 256 + 9, 45, 4); }

}  // namespace sanitizer_matmul910_test
