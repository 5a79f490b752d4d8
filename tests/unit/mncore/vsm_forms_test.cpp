// VSM forms that public MN-Core 2 programs use, each in our own small program with the value
// it must produce: zero-flush masks on the opcode, input precision conversion (e, r), 0b and
// s".." literals, MV options in any order with mvd/mvb2/mvr2, l1bmd+k, the turnaround pair,
// single and pseudo-single matrix operations, block floating point of every precision,
// logical reductions, quit, the loader's r/c lines. Semantics: docs/mncore2-isa.md.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <cstring>
#include <string>

#include "models/mncore/vsm.h"
#include "tests/support/error_of.h"

namespace npuvp::mncore::vsm {
namespace vsm_forms_test {

using npuvp::testing::error_of;

std::string run(const std::string& text, RunStats* stats = nullptr) {
  Machine m;
  std::string dump;
  m.run(parse(text, "f.vsm"), dump);
  if (stats) *stats = m.stats();
  return dump;
}
// Line `line` of the dump contains `part`.
bool has(const std::string& dump, unsigned line, const std::string& part) {
  size_t pos = 0;
  for (unsigned i = 0; i < line; ++i) pos = dump.find('\n', pos) + 1;
  const size_t end = dump.find('\n', pos);
  return dump.substr(pos, end - pos).find(part) != std::string::npos;
}
std::string parse_error(const std::string& text) {
  try {
    parse(text, "f.vsm");
  } catch (const AssemblyError& e) {
    return e.what();
  }
  return "";
}
// n long words of a payload, word k = f(k).
template <class F>
std::string words(unsigned n, F f) {
  std::string s;
  for (unsigned k = 0; k < n; ++k) s += fmt::format("{:016X}", uint64_t(f(k)));
  return s;
}
uint64_t singles(uint32_t hi, uint32_t lo) { return (uint64_t(hi) << 32) | lo; }

TEST(VsmForms, ZeroFlushMaskOnTheOpcode) {
  // Flags of isub: word 0 (5 >= 0) sets bits 3,2; word 1 (-3) none. ipassa/$imr1 keeps word 0
  // and flushes word 1 to zero; a fixed pattern flushes whole cycles.
  const std::string d = run(
      "d set $lr0n0c0b0m0p0 1 00000005FFFFFFFD\nd set $ls0n0c0b0m0p0 1 1111111122222222\n"
      "d set $ls8n0c0b0m0p0 4 " + words(4, [](unsigned k) { return 0x100 + k; }) + "\n"
      "isub $lr0 $lr2 $omr1\nipassa/$imr1 $ls0 $ls2\nlpassa/0101 $ls8v $ls16v\n"
      "d get $ls2n0c0b0m0p0 1\nd get $ls16n0c0b0m0p0 4\n");
  EXPECT_TRUE(has(d, 0, "v:0x1111111100000000)")) << d;
  EXPECT_TRUE(has(d, 1, "v:0x0)")) << d;
  EXPECT_TRUE(has(d, 2, "v:0x101)")) << d;
  EXPECT_TRUE(has(d, 3, "v:0x0)")) << d;
  EXPECT_TRUE(has(d, 4, "v:0x103)")) << d;
  EXPECT_NE(parse_error("l2bmb/1000 $lc0 $lb0\n").find("takes no zero-flush mask"), std::string::npos);
}

TEST(VsmForms, InputPrecisionConversion) {
  // e: halves 1, 2, 3, 4 widen to singles; r: singles 1.5, 2, 3, 4 narrow to halves (then
  // hvpassa widens them back); e on a double op: singles 1.5, 2 widen to doubles.
  const std::string d = run(
      "d set $lr0n0c0b0m0p0 1 3E00400041004200\n"
      "d set $lr4n0c0b0m0p0 2 3FC00000400000004040000040800000\n"
      "fvpassa $lr0e $ls0\nhvpassa $llr4r $lls8\ndvpassa $lr4e $ls16\n"
      "d getf $ls0n0c0b0m0p0 1\nd getf $ls8n0c0b0m0p0 2\nd getd $ls16n0c0b0m0p0 1\n");
  EXPECT_TRUE(has(d, 0, "(1, 2) (0x3f800000, 0x40000000)")) << d;
  EXPECT_TRUE(has(d, 1, "(1.5, 2)")) << d;
  EXPECT_TRUE(has(d, 2, "(3, 4)")) << d;
  EXPECT_TRUE(has(d, 3, "(1.5) (0x3ff8000000000000)")) << d;
  EXPECT_NE(parse_error("fvpassa $lr0 $ls0e\n").find("unexpected 'e'"), std::string::npos) << "no conversion on a destination";
  // Forwarding paths convert too.
  const std::string f = run("d set $lr0n0c0b0m0p0 1 3E00400041004200\nlpassa $lr0 $nowrite\nfvpassa $alufe $ls0\nd getf $ls0n0c0b0m0p0 1\n");
  EXPECT_TRUE(has(f, 0, "(1, 2)")) << f;
}

TEST(VsmForms, BinaryAndHalfWordLiterals) {
  const std::string d = run("imm i\"0b101\" $lr0\nimm s\"-2\" $lr2\nimm s\"0b11\" $lr4\nd get $lr0n0c0b0m0p0 3\n");
  EXPECT_TRUE(has(d, 0, "v:0x500000005)")) << d;
  EXPECT_TRUE(has(d, 1, "v:0xFFFEFFFEFFFEFFFE)")) << d;
  EXPECT_TRUE(has(d, 2, "v:0x3000300030003)")) << d;
  EXPECT_NE(parse_error("imm s\"70000\" $lr0\n").find("16-bit"), std::string::npos);
}

TEST(VsmForms, MvOptionsDistributeAndGroupBroadcasts) {
  // PDM of Group 0 holds 128 words k = 0..127.
  const std::string d = run(
      "d set $p0n0 128 " + words(128, [](unsigned k) { return k; }) + "\n"
      "mvd/i1n128 $p0@0 $d0\nnop ; wait i1\n"           // Group g's DRAM gets words 64t+16g..64t+16g+15
      "mvd/n128i2 $d0 $p512@0\nnop ; wait i2\n"         // and back, concatenated
      "mvb2/n64i3 $d0 $lc0\nnop ; wait i3\n"            // both L2BMs of a Group get its DRAM's words
      "mvr2liadd/n64i4 $lc0 $d1024\nnop ; wait i4\n"    // a Group's two L2BMs summed into its DRAM
      "mvp/n64i5 $lc0 $p2048\nnop ; wait i5\n"          // Group-parallel: L2B 0 of each Group
      "d get $d0n1 1\nd get $p639n0 1\nd get $lc1n2c1 1\nd get $d1024n1 1\nd get $p2049n3 1\n");
  EXPECT_TRUE(has(d, 0, "v:0x10)")) << d;  // 16 (16-LW chunks, issue 30)
  EXPECT_TRUE(has(d, 1, "v:0x7F)")) << d;  // 127
  EXPECT_TRUE(has(d, 2, "v:0x21)")) << d;  // Group 2's DRAM word 1: 33
  EXPECT_TRUE(has(d, 3, "v:0x20)")) << d;  // 2 x 16
  EXPECT_TRUE(has(d, 4, "v:0x31)")) << d;  // Group 3's word 1: 49
  // mvb4 and mvr4 (issue 30): tests/unit/mncore/vsm_board_transfers_test.cpp
  EXPECT_NE(parse_error("mvp/i1 $p0@0 $lc0@0.0\n").find("needs its size"), std::string::npos);
}

TEST(VsmForms, L1bmdWithAMabShift) {
  const std::string lb = "d set $lb0n0c0b0 64 " + words(64, [](unsigned k) { return k; }) + "\n";
  const std::string d = run(lb + "l1bmd+1 $lb0 $lr0v\nl1bmd-1 $lb0 $lr8v\nd get $lr0n0c0b0m0p0 1\nd get $lr8n0c0b0m0p0 1\n"
                               "d get $lr0n0c0b0m15p3 1\n");
  EXPECT_TRUE(has(d, 0, "v:0x4)")) << d;   // MAB 0 takes MAB 1's share: lb[4]
  EXPECT_TRUE(has(d, 1, "v:0x3C)")) << d;  // l1bmd-1: MAB 15's share, lb[60]
  EXPECT_TRUE(has(d, 2, "v:0x3)")) << d;   // MAB 15 + 1 wraps to MAB 0: lb[3]
  EXPECT_NE(parse_error("l1bmp+1 $lb0 $lr0\n").find("l1bmd only"), std::string::npos);
}

TEST(VsmForms, TurnaroundPairReadsWhatTheStepFound) {
  // The reduction into $lbi is written first on the line but the broadcast still reads the
  // previous step's sums.
  const std::string d = run(
      "d set $lr0n0c0b0m0p0 1 0000000000000005\nd set $lr2n0c0b0m0p0 1 0000000000000009\n"
      "l1bmriiadd $lr0 $lbi\nl1bmriiadd $lr2 $lbi ; l1bmm $lbi $ls0v\nl1bmm $lbi $ls8v\n"
      "d get $ls0n0c0b0m3p0 1\nd get $ls8n0c0b0m3p0 1\n");
  EXPECT_TRUE(has(d, 0, "v:0x5)")) << d;
  EXPECT_TRUE(has(d, 1, "v:0x9)")) << d;
  EXPECT_EQ(parse_error("l1bmm $lbi $lr0v ; l1bmrdfadd $lr8v $lb256 ; l1bmriiadd $lr0 $lbi\n"), "");
  EXPECT_NE(parse_error("l1bmp $lb0 $lr0 ; l1bmp $lb8 $lr2\n").find("same unit"), std::string::npos);
}

TEST(VsmForms, SingleAndPseudoSingleMatrix) {
  // $lx: X[r][k] = 10r + k (row r written in cycle r; element k = PE k/2's upper or lower
  // single); $ly: 2 on the diagonal. The vector: singles 1..8 over the MAB's PEs.
  auto f = [](float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  };
  std::string t;
  for (unsigned p = 0; p < 4; ++p) {
    const auto at = [&](unsigned) { return fmt::format("n0c0b0m0p{}", p); };
    t += "d set $lr0" + at(0) + " 8 " + words(8, [&](unsigned r) { return singles(f(10.f * r + 2 * p), f(10.f * r + 2 * p + 1)); }) + "\n";
    t += "d set $lr16" + at(0) + " 8 " + words(8, [&](unsigned r) { return singles(r == 2 * p ? f(2) : 0, r == 2 * p + 1 ? f(2) : 0); }) + "\n";
    t += "d set $ls0" + at(0) + " 1 " + words(1, [&](unsigned) { return singles(f(2.f * p + 1), f(2.f * p + 2)); }) + "\n";
  }
  t += "gmwrite $lr0v $lx0\ngmwrite $lr8v $lx4\nfmwrite $lr16v $ly0\nfmwrite $lr24v $ly4\n"
       "gmread $lx0 $ls16v\ngmmul $ly $ls0 $ln0\nfmmul $ly $ls0 $ln2\ngmfma $ly $ls0 $ls0 $ln4\nnop\nnop\n"
       "d getf $ls20n0c0b0m0p1 1\nd getf $ln0n0c0b0m0p1 3\n";
  RunStats s;
  const std::string d = run(t, &s);
  EXPECT_TRUE(has(d, 0, "(22, 32)")) << d;  // gmread, PE 1, cycle 2: column 2, rows 2 and 3
  EXPECT_TRUE(has(d, 1, "(6, 8)")) << d;    // gmmul: out[j] = 2 x[j], PE 1: j = 2, 3
  EXPECT_TRUE(has(d, 2, "(6, 0)")) << d;    // fmmul: even columns only
  EXPECT_TRUE(has(d, 3, "(9, 12)")) << d;   // gmfma: 2 x[j] + x[j] (the addend is PE 1's own LW)
  EXPECT_EQ(s.macs, 1024u * 4 * (64 + 32 + 64));
}

TEST(VsmForms, BlockFloatOfEveryPrecision) {
  // fbfn: the upper singles of the 4 PEs are a block: 1 + 2^-23 next to 2^23 rounds to 1; the
  // lower singles are another block and keep 1 + 2^-23. gbfn: the 8 singles share 18
  // mantissa bits. hbfn/6: halves on a grid of 2^(0 + 3 - 6): 1 + 2^-9 -> 1, 1.0625 (a tie) -> 1.
  const std::string d = run(
      "d set $lr0n0c0b0m0p0 1 3F8000013F800001\nd set $lr0n0c0b0m0p1 1 4B0000003F800000\n"
      "d set $lr2n0c0b0m0p0 1 3F8000013FC00000\n"
      "d set $lr4n0c0b0m0p0 1 3E013E403E203E00\n"
      "fbfn $lr0 $ls0\ngbfn $lr2 $ls2\nhbfn/6 $lr4 $ls4\n"
      "d getf $ls0n0c0b0m0p0 2\nd geth $ls4n0c0b0m0p0 1\n");
  EXPECT_TRUE(has(d, 0, "(0x3f800000, 0x3f800001)")) << d;
  EXPECT_TRUE(has(d, 1, "(0x3f800000, 0x3fc00000)")) << d;
  EXPECT_TRUE(has(d, 2, "(1, 1.125, 1, 1)")) << d;
  EXPECT_NE(parse_error("dbfn/6 $lr0 $ls0\n").find("belongs to hbfn"), std::string::npos);
  EXPECT_NE(parse_error("hbfn/5 $lr0 $ls0\n").find("6 to 9"), std::string::npos);
}

TEST(VsmForms, LogicalAndBitwiseReductions) {
  // Every MAB's PE 0 holds 6, MAB 1's holds 3: logical and/or give 1, bitwise and 2, or 7.
  const std::string d = run(
      "d set $lr0n0c0b0p0 1 0000000000000006\nd set $lr0n0c0b0m1p0 1 0000000000000003\n"
      "l1bmrland $lr0 $lb0\nl1bmrlband $lr0 $lb16\nl1bmrlor $lr0 $lb32\nl1bmrlbor $lr0 $lb48\n"
      "d get $lb0n0c0b0 1\nd get $lb16n0c0b0 1\nd get $lb32n0c0b0 1\nd get $lb48n0c0b0 1\n");
  EXPECT_TRUE(has(d, 0, "v:0x1)")) << d;
  EXPECT_TRUE(has(d, 1, "v:0x2)")) << d;
  EXPECT_TRUE(has(d, 2, "v:0x1)")) << d;
  EXPECT_TRUE(has(d, 3, "v:0x7)")) << d;
}

TEST(VsmForms, IlreludQuitAndTheLoadersLines) {
  const std::string d = run(
      "c 0 0 i10 i00 0 000022000 001 0000000000000000\n"
      "r 1 000000010 002 l0000000000000001l0000000000000002\n"
      "nop ; wait i10\n"
      "d set $lr0n0c0b0m0p0 1 BE003E0000000000\nd set $lr2n0c0b0m0p0 1 4100410000000000\n"
      "hilrelud $lr0 $lr2 $ls0\n"
      "d get $d16n1 2\nd geth $ls0n0c0b0m0p0 1\nquit\nthis line is not assembled\n");
  EXPECT_TRUE(has(d, 0, "v:0x1)")) << d;
  EXPECT_TRUE(has(d, 1, "v:0x2)")) << d;
  EXPECT_TRUE(has(d, 2, "(6, 3,")) << d;  // x < 0: y doubled; x >= 0: y
  EXPECT_EQ(parse(std::string("nop\nquit\nnop\n"), "q.vsm").steps(), 1u);
}

TEST(VsmForms, LmBaseAddressRegister) {
  // $lnb = 4: LM1 accesses are 4 words further on (M 3.3, 4.9); LM0 is unaffected.
  const std::string d = run(
      "d set $ln0n0c0b0m0p0 3 000000000000000A000000000000000B000000000000000C\n"
      "imm i\"4\" $lr0\nlpassa $lr0 $lnb\nlpassa $ln0 $lm0\nnop\nnop\nd get $lm0n0c0b0m0p0 1\n");
  EXPECT_TRUE(has(d, 0, "v:0xC)")) << d;
  EXPECT_NE(parse_error("lpassa $lnb $lr0\n").find("written, not read"), std::string::npos);
}

}  // namespace vsm_forms_test
}  // namespace npuvp::mncore::vsm
