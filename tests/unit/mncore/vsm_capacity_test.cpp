// Capacities on the VSM step machine: an address written in the program that runs past a
// memory's end is an error naming the line and the operand, at the configured sizes; the
// last words of every memory are reachable.
#include <gtest/gtest.h>

#include <string>

#include "models/mncore/vsm.h"
#include "tests/support/error_of.h"

namespace npuvp::mncore::vsm {
namespace vsm_capacity_test {

using npuvp::testing::error_of;

std::string run_error(const std::string& text, const Shape& shape = Shape()) {
  Machine m(shape);
  std::string dump;
  return error_of([&] { m.run(parse(text, "cap.vsm"), dump); });
}

void runs(const std::string& text, const Shape& shape = Shape()) {
  Machine m(shape);
  std::string dump;
  m.run(parse(text, "cap.vsm"), dump);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(VsmCapacity, PeMemoryEndIsReachableAndOneFurtherIsAnError) {
  runs("linc $lm4094 $ln4094\n");  // LM 2 Ki LW = 4096 SW: the last LW
  const std::string e = run_error("nop\nlinc $lm4096 $ln0\n");
  EXPECT_TRUE(contains(e, "cap.vsm line 2 `linc $lm4096 $ln0`")) << e;
  EXPECT_TRUE(contains(e, "'$lm4096': address 4096 (cycle 0) is beyond the memory (4096 words)")) << e;
  // Per-cycle addressing: the fourth cycle of $lr506v (SW 512) runs past GRF0's 512 SW and
  // wraps around to SW 0 (M 3.2).
  Machine m;
  std::string dump;
  m.run(parse("d set $lr0n0c0b0m0p0 1 0000000000000007\nlinc $lr506v $ls0v\nd get $ls6n0c0b0m0p0 1\n", "cap.vsm"), dump);
  EXPECT_TRUE(contains(dump, "v:0x8)")) << dump;
  runs("linc $lr504v $ls504v\n");
}

TEST(VsmCapacity, BlockMemoriesAreCheckedToo) {
  runs("l1bmp $lb8188 $lr0v\n");  // L1BM 8 Ki LW: 8188..8191
  runs("l1bmp $lb8190 $lr0v\n");  // the words after the end wrap around to 0
  EXPECT_TRUE(contains(run_error("l1bmp $lb8192 $lr0v\n"), "L1BM address 8192 is beyond the memory (8192 long words)"));
  EXPECT_TRUE(contains(run_error("mvp/n64i1 $d0@0 $lc32768@0.0\nnop ; wait i1\n"),
                       "L2BM address 32768 is beyond the memory (32768 long words)"));
}

TEST(VsmCapacity, SmallerConfiguredMemoriesAreTheLimit) {
  Shape s;
  s.groups = 1;
  s.l2b_per_group = 1;
  s.l1b_per_l2b = 1;
  s.lm_lw = 64;
  s.l1bm_lw = 100;
  EXPECT_TRUE(contains(run_error("linc $lm128 $ln0\n", s), "beyond the memory (128 words)"));
  EXPECT_TRUE(contains(run_error("l1bmp $lb100 $lr0v\n", s), "L1BM address 100 is beyond the memory (100 long words)"));
  runs("linc $lm126 $ln126\nl1bmp $lb96 $lr0v\n", s);
}

}  // namespace vsm_capacity_test
}  // namespace npuvp::mncore::vsm
