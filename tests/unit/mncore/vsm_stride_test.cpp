// `v<k>` advances an operand by k SW addresses per cycle whatever its width (`v` alone by the
// width). Public challenge answers rely on it: Matrix-Square writes `$lln0v8`/`$lln4v8` to
// fill ln0..31, FMul-2 interleaves `$ln0v4` with `$ln2v4`, Contains reads one flag per MAB
// with `$lmt32v32` after `lpackbit $mabid ... $t`. Semantics: docs/mncore2-isa.md.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <string>

#include "models/mncore/vsm.h"

namespace npuvp::mncore::vsm {
namespace vsm_stride_test {

std::string run(const std::string& text) {
  Machine m;
  std::string dump;
  m.run(parse(text, "f.vsm"), dump);
  return dump;
}
// The `v:` payload of dump line `line`.
std::string value(const std::string& dump, unsigned line) {
  size_t pos = 0;
  for (unsigned i = 0; i < line; ++i) pos = dump.find('\n', pos) + 1;
  const size_t v = dump.find("v:", pos);
  return dump.substr(v + 2, dump.find(')', v) - v - 2);
}
std::string words(unsigned n, unsigned base) {
  std::string s;
  for (unsigned k = 0; k < n; ++k) s += fmt::format("{:016X}", uint64_t(base + k));
  return s;
}

TEST(VsmStride, LongWordStrideCountsSingleWordAddresses) {
  // $lm0v4 reads LM words 0, 4, 8, 12 (LW 0, 2, 4, 6); $ln0v4 then $ln2v4 interleave into
  // ln0..ln14 without overlap.
  const std::string d = run("d set $lm0n0c0b0m0p0 8 " + words(8, 0x10) + "\nnop/2\n"
                            "lpassa $lm0v4 $ln0v4\nlpassa $lm2v4 $ln2v4\nd get $ln0n0c0b0m0p0 8\n");
  for (unsigned k = 0; k < 8; ++k) EXPECT_EQ(value(d, k), fmt::format("0x{:X}", 0x10 + k)) << k << "\n" << d;
}

TEST(VsmStride, DoubleLongWordStrideEight) {
  // $lln0v8 writes LW pairs at ln0, ln8, ln16, ln24; $lln4v8 fills the gaps (ln4, 12, 20, 28).
  const std::string d = run("d set $lm0n0c0b0m0p0 16 " + words(16, 0x20) + "\nnop/2\n"
                            "lpassa $llm0v $lln0v8\nlpassa $llm16v $lln4v8\nd get $ln0n0c0b0m0p0 16\n");
  // Source LW j (0..7) -> cycle j/2, half j%2 -> ln 8*(j/2) + 2*(j%2); LW 8+j -> ln 4 + the same.
  for (unsigned j = 0; j < 16; ++j) {
    const unsigned ln = (j % 8 / 2) * 8 + (j % 2) * 2 + (j < 8 ? 0 : 4);
    EXPECT_EQ(value(d, ln / 2), fmt::format("0x{:X}", 0x20 + j)) << "source LW " << j << "\n" << d;
  }
}

TEST(VsmStride, TIndirectionWithStridePicksOneWordPerMab) {
  // T = 2 * mabid; $lmt0v32 reads, in cycle c, LM word 32c + 2m on MAB m: the m-th flag of
  // record c. The sum over the 16 MABs of record c is then sum_m (100c + m).
  std::string set;
  for (unsigned c = 0; c < 4; ++c) {
    std::string payload;
    for (unsigned m = 0; m < 16; ++m) payload += fmt::format("{:016X}", uint64_t(100 * c + m));
    set += fmt::format("d set $lm{}n0c0b0 16 {}\n", 32 * c, payload);  // every MAB, every PE
  }
  const std::string d = run(set + "nop/2\nlpackbit $mabid $ls0 $t\nnop\nl1bmrliadd $lmt0v32 $lb0\nnop/2\n"
                                  "d get $lb0n0c0b0 16\n");
  for (unsigned c = 0; c < 4; ++c) {
    for (unsigned q = 0; q < 4; ++q) {
      EXPECT_EQ(value(d, 4 * c + q), fmt::format("0x{:X}", 16 * 100 * c + 120)) << c << "," << q << "\n" << d;
    }
  }
}

TEST(VsmStride, AStrideThatBreaksAlignmentIsAnError) {
  try {
    parse("lpassa $lm0v3 $ln0v\n", "f.vsm");
    FAIL() << "accepted";
  } catch (const AssemblyError& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of 2"), std::string::npos) << e.what();
  }
}

}  // namespace vsm_stride_test
}  // namespace npuvp::mncore::vsm
