// VSM transfers across the whole board and the debug forms public programs use beyond the
// long word: mvb4 / mvr4 (M 3.5.8.16, 3.5.8.17), mvr into every Group's DRAM (M 3.5.8.21),
// the L1B sets of L2BM instructions (M 3.6.7.1) with l2bmi (M 3.6.7.9), `d set/get` of single
// words, and the u/d requirement of double vector products. Semantics: docs/mncore2-isa.md.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <cstring>
#include <string>
#include <vector>

#include "models/mncore/vsm.h"
#include "tests/support/error_of.h"

namespace npuvp::mncore::vsm {
namespace vsm_board_transfers_test {

using npuvp::testing::error_of;

std::string run(const std::string& text) {
  Machine m;
  std::string dump;
  m.run(parse(text, "f.vsm"), dump);
  return dump;
}
std::string parse_error(const std::string& text) {
  try {
    parse(text, "f.vsm");
  } catch (const AssemblyError& e) {
    return e.what();
  }
  return "";
}
// The "v:0x..." value of every dump line, in order.
std::vector<uint64_t> values(const std::string& dump) {
  std::vector<uint64_t> out;
  for (size_t pos = dump.find("v:0x"); pos != std::string::npos; pos = dump.find("v:0x", pos + 1)) {
    out.push_back(std::strtoull(dump.c_str() + pos + 4, nullptr, 16));
  }
  return out;
}
// n long words of a payload, word k = f(k).
template <class F>
std::string words(unsigned n, F f) {
  std::string s;
  for (unsigned k = 0; k < n; ++k) s += fmt::format("{:016X}", uint64_t(f(k)));
  return s;
}
uint64_t bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}

TEST(VsmBoardTransfers, Mvb4GathersEveryGroupsDramIntoEveryL2bm) {
  // Group g's DRAM word k holds 100g + k. Unit 0: L2B 0 takes words 0..15 of each Group in
  // Group order, L2B 1 words 16..31; unit 1 starts at DRAM word 32.
  std::string text;
  for (unsigned g = 0; g < 4; ++g) text += fmt::format("d set $d0n{} 64 {}\n", g, words(64, [&](unsigned k) { return 100 * g + k; }));
  text += "mvb4/n128i1 $d0 $lc64\nnop ; wait i1\n"
          "d get $lc64n2c0 64\nd get $lc64n1c1 64\nd get $lc128n3c0 64\n";
  const std::vector<uint64_t> v = values(run(text));
  ASSERT_EQ(v.size(), 192u);
  for (unsigned j = 0; j < 64; ++j) {
    const unsigned g = j / 16, k = j % 16;
    EXPECT_EQ(v[j], 100 * g + k) << "L2B 0, word " << j;
    EXPECT_EQ(v[64 + j], 100 * g + 16 + k) << "L2B 1, word " << j;
    EXPECT_EQ(v[128 + j], 100 * g + 32 + k) << "unit 1, word " << j;
  }
  EXPECT_NE(error_of([] { run("mvb4/n64 $d0@1 $lc0\n"); }).find("take no @"), std::string::npos);
  EXPECT_NE(error_of([] { run("mvb4/n64 $p0 $lc0\n"); }).find("DRAM ($d) to L2BM"), std::string::npos);
}

TEST(VsmBoardTransfers, Mvr4ReducesOverGroupsAndSplitsOverTheDrams) {
  // L2BM (g, l) word k = k + 1 + 1000l + g (doubles): the sum over the 4 Groups is
  // 4(k + 1 + 1000l) + 6; Group g's DRAM gets words 16g..16g+15 of L2B 0 at 0, of L2B 1 at 16.
  std::string text;
  for (unsigned g = 0; g < 4; ++g) {
    for (unsigned l = 0; l < 2; ++l) {
      text += fmt::format("d set $lc0n{}c{} 64 {}\n", g, l, words(64, [&](unsigned k) { return bits(k + 1 + 1000.0 * l + g); }));
    }
  }
  text += "mvr4dfadd/n64i3 $lc0 $d0\nnop ; wait i3\nd get $d0n0 32\nd get $d0n3 32\n";
  const std::vector<uint64_t> v = values(run(text));
  ASSERT_EQ(v.size(), 64u);
  for (unsigned j = 0; j < 32; ++j) {
    const unsigned l = j / 16, k = j % 16;
    EXPECT_EQ(v[j], bits(4.0 * (k + 1 + 1000.0 * l) + 6)) << "Group 0, word " << j;
    EXPECT_EQ(v[32 + j], bits(4.0 * (48 + k + 1 + 1000.0 * l) + 6)) << "Group 3, word " << j;
  }
}

TEST(VsmBoardTransfers, MvrIntoEveryDramSplitsTheSumInGroupOrder) {
  // Every L2BM word k = k: the sum over the 8 L2Bs is 8k; Group g gets words 16g..16g+15.
  std::string text = "d set $lc0 64 " + words(64, [](unsigned k) { return k; }) + "\n";
  text += "mvriiadd/n64 $lc0 $d32\nd get $d32n1 16\nd get $d32n3 16\n";
  const std::vector<uint64_t> v = values(run(text));
  ASSERT_EQ(v.size(), 32u);
  for (unsigned k = 0; k < 16; ++k) {
    EXPECT_EQ(v[k], uint64_t(8 * (16 + k))) << k;
    EXPECT_EQ(v[16 + k], uint64_t(8 * (48 + k))) << k;
  }
}

TEST(VsmBoardTransfers, MvdConcatenatesInSixteenWordChunks) {
  // Every L2BM word k = 1000·(2g + l) + k; mvd collects the 8 L2BMs into Group 1's PDM, 16 LW
  // from each in L2B order, then the next 16 (the layout an accepted count_up answer derives).
  std::string text;
  for (unsigned g = 0; g < 4; ++g) {
    for (unsigned l = 0; l < 2; ++l) {
      text += fmt::format("d set $lc0n{}c{} 32 {}\n", g, l, words(32, [&](unsigned k) { return 1000 * (2 * g + l) + k; }));
    }
  }
  text += "mvd/n256 $lc0 $p64@1\nd get $p64n1 256\n";
  const std::vector<uint64_t> v = values(run(text));
  ASSERT_EQ(v.size(), 256u);
  for (unsigned w = 0; w < 256; ++w) EXPECT_EQ(v[w], 1000u * (w % 128 / 16) + 16 * (w / 128) + w % 16) << w;
  EXPECT_NE(error_of([] { run("mvd/n64 $lc0 $p0@0\n"); }).find("16-long-word chunks for 8 nodes"), std::string::npos);
}

TEST(VsmBoardTransfers, L1bSetsSelectTheL1bsOfL2bmInstructions) {
  // L1B b of every L2B holds b + 1 at lb[0..63].
  std::string text;
  for (unsigned b = 0; b < 8; ++b) text += fmt::format("d set $lb0b{} 64 {}\n", b, words(64, [&](unsigned) { return b + 1; }));
  // @0/4 = {0, 4}: their sum; @[2,6] the same set shape; @5 alone.
  text += "l2bmriiadd@0/4 $lb0 $lc0\nl2bmriiadd@[2,6] $lb0 $lc64\nl2bmriiadd@5 $lb0 $lc128\nl2bmriiadd@1,5 $lb0 $lc192\n"
          "d get $lc0n0c0 1\nd get $lc64n1c1 1\nd get $lc128n3c0 1\nd get $lc192n2c0 1\n"
          // l2bmb@[1,3]: only L1Bs 1 and 3 take the broadcast.
          "d set $lc256 64 " + words(64, [](unsigned) { return 0xAB; }) + "\n"
          "l2bmb@[1,3] $lc256 $lb128\nd get $lb128n0c0b1 1\nd get $lb128n0c0b3 1\nd get $lb128n0c0b2 1\n";
  const std::vector<uint64_t> v = values(run(text));
  ASSERT_EQ(v.size(), 7u);
  EXPECT_EQ(v[0], 1u + 5u);
  EXPECT_EQ(v[1], 3u + 7u);
  EXPECT_EQ(v[2], 6u);
  EXPECT_EQ(v[3], 2u + 6u);  // @1,5: the manual's bracketless list
  EXPECT_EQ(v[4], 0xABu);
  EXPECT_EQ(v[5], 0xABu);
  EXPECT_EQ(v[6], 0u);
  EXPECT_NE(parse_error("l2bmb@[0,1,2] $lc0 $lb0\n").find("not an L1B set"), std::string::npos);
  EXPECT_NE(parse_error("l2bm@0/1 $lb0 $lc0\n").find("one L1B"), std::string::npos);
}

TEST(VsmBoardTransfers, L2bmr2ReducesL1bPairsAndConcatenatesThem) {
  // L1B b word k = 100b + k: per cycle c, pair j's 16 words at 16c are summed into
  // lc[64c + 16j + k] = (200(2j) + 100) + 2(16c + k).
  std::string text;
  for (unsigned b = 0; b < 8; ++b) text += fmt::format("d set $lb0b{} 64 {}\n", b, words(64, [&](unsigned k) { return 100 * b + k; }));
  text += "l2bmr2iiadd $lb0 $lc256\nd get $lc256n1c1 256\n";
  const std::vector<uint64_t> v = values(run(text));
  ASSERT_EQ(v.size(), 256u);
  for (unsigned w = 0; w < 256; ++w) {
    const unsigned c = w / 64, j = w % 64 / 16, k = w % 16;
    const uint64_t x = 100 * (2 * j) + 16 * c + k, y = 100 * (2 * j + 1) + 16 * c + k;
    EXPECT_EQ(v[w], ((x + y) & 0xFFFFFFFFu) | (((x >> 32) + (y >> 32)) << 32)) << w;
  }
  EXPECT_NE(parse_error("l2bmr2dfadd $lb8 $lc0\n").find("multiple of 16"), std::string::npos);
  EXPECT_NE(parse_error("l2bmr2dfadd $lb0 $lc32\n").find("multiple of 64"), std::string::npos);
  EXPECT_NE(parse_error("l2bmr2dfadd@0 $lb0 $lc0\n").find("no L1B set"), std::string::npos);
}

TEST(VsmBoardTransfers, L2bmiMulticastsBetweenTheL1bsOfAnL2b) {
  std::string text;
  for (unsigned b = 0; b < 8; ++b) text += fmt::format("d set $lb0b{} 64 {}\n", b, words(64, [&](unsigned k) { return 16 * b + k; }));
  // @1/0: L1B 1's 64 LW to every L1B (a public FAM answer's form); @0/4 then sends L1B 0's
  // lb[0..] to L1Bs 0-3 and L1B 4's to 4-7 (the manual's example).
  text += "l2bmi@1/0 $lb0 $lb256\nd get $lb256n0c0b6 64\n"
          "l2bmi@0/4 $lb0 $lb512\nd get $lb512n2c1b3 1\nd get $lb512n2c1b7 1\nd get $lb512n2c1b4 1\n";
  const std::vector<uint64_t> v = values(run(text));
  ASSERT_EQ(v.size(), 67u);
  for (unsigned k = 0; k < 64; ++k) EXPECT_EQ(v[k], 16u + k) << k;
  EXPECT_EQ(v[64], 0u);
  EXPECT_EQ(v[65], 64u);
  EXPECT_EQ(v[66], 64u);
  EXPECT_NE(parse_error("l2bmi@0/7 $lb0 $lb0\n").find("immode is 0 to 6"), std::string::npos);
  EXPECT_NE(parse_error("l2bmi@0/4 $lb8 $lb0\n").find("multiples of 16"), std::string::npos);
  EXPECT_NE(parse_error("l2bmi $lb0 $lb0\n").find("@<l1b>/<immode>"), std::string::npos);
}

TEST(VsmBoardTransfers, DebugStatementsOnSingleWords) {
  // $s269 is the lower word of $ls268; a d set of words takes 8 hex digits each.
  const std::string d = run(
      "d set $ls268n0c0b0m0p0 1 3F80000040400000\nd set $m5n0c0b0m0p1 2 3E0000003E013E00\n"
      "d getf $s269n0c0b0m0p0 1\nd geth $m5n0c0b0m0p1 2\nd get $s268n0c0b0m0p0 1\nd get $lm4n0c0b0m0p1 1\n");
  EXPECT_NE(d.find("DEBUG-GREG1(n0c0b0m0p0,269):(3) (0x40400000) #d getf $s269n0c0b0m0p0 1\n"), std::string::npos) << d;
  EXPECT_NE(d.find("DEBUG-LM0(n0c0b0m0p1,5):(1, 0) (0x3e00, 0x0000)"), std::string::npos) << d;
  EXPECT_NE(d.find("DEBUG-LM0(n0c0b0m0p1,6):(1.00195, 1) (0x3e01, 0x3e00)"), std::string::npos) << d;
  EXPECT_NE(d.find("DEBUG-GREG1(n0c0b0m0p0,268):(f:1, i:{0x3F80,0x0}, v:0x3F800000)"), std::string::npos) << d;
  EXPECT_NE(d.find("v:0x3E000000)"), std::string::npos) << "$lm4 = words 4 and 5: " << d;
  EXPECT_NE(parse_error("d getd $s1 1\n").find("a double is a long word"), std::string::npos);
  EXPECT_NE(parse_error("d set $s1 1 0000000000000001\n").find("1 words need 8"), std::string::npos);
}

TEST(VsmBoardTransfers, DumpLinesNameTheTRegisterLt) {
  // The emulator quotes a d get of the T register as `$lt` however it was written (T1).
  const std::string d = run("d set $lm4n0c0b0m0p0 1 0000000000000009\nnop/2\nlpassa $lm4 $lt\nd get $tn0c0b0m0p0 1\n");
  EXPECT_NE(d.find("DEBUG-TREG(n0c0b0m0p0,0):(f:0, i:{{0x0,0x0},{0x0,0x9}}, v:0x9) #d get $ltn0c0b0m0p0 1\n"), std::string::npos) << d;
}

TEST(VsmBoardTransfers, DoubleVectorProductsNameTheirPePair) {
  EXPECT_NE(parse_error("dvfma $lm0 $ln0 $lr0 $nowrite\n").find("needs u or d"), std::string::npos);
  EXPECT_NE(parse_error("dvmul $lm0 $ln0 $nowrite\n").find("dvmulu ... $nowrite then dvfmad"), std::string::npos);
}

}  // namespace vsm_board_transfers_test
}  // namespace npuvp::mncore::vsm
