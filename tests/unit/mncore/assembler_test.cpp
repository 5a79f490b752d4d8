// The MN-Core 2 assembler: operand spellings, word-length prefixes, transfers and their
// levels, and errors that name the line and the column.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "models/mncore/assembler.h"

namespace npuvp::mncore {
namespace {

Instruction one(const std::string& text) {
  Program p = assemble(text, "t.s");
  EXPECT_EQ(p.instructions.size(), 1u);
  return p.instructions.at(0);
}

// The error a line gives: "line L, column C: message".
AssemblyError error_of(const std::string& text) {
  try {
    assemble(text, "t.s");
  } catch (const AssemblyError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for: " << text;
  return AssemblyError("t.s", 0, 0, "");
}

TEST(MncoreAssembler, OperandsAndWordLengthPrefixes) {
  const Instruction in = one("fadd.h $lm8 $ln16, $lr0   # comment");
  EXPECT_EQ(in.op, Op::FAdd);
  EXPECT_EQ(in.type, LaneType::Half);
  ASSERT_EQ(in.sources.size(), 2u);
  EXPECT_EQ(in.sources[0].mem, Mem::LM0);
  EXPECT_EQ(in.sources[0].address, 8u);
  EXPECT_EQ(in.sources[0].width_sw, 2u);
  EXPECT_EQ(in.sources[1].mem, Mem::LM1);
  EXPECT_EQ(in.dest.mem, Mem::GRF0);
  EXPECT_EQ(in.line, 1u);
  EXPECT_EQ(in.text, "fadd.h $lm8 $ln16, $lr0");
}

TEST(MncoreAssembler, SameAddressDifferentWidths) {
  // The seed's note: $m8, $lm8 and $llm8 all start at SW address 8.
  for (const auto& [text, width] : {std::pair{"mov $m8 $s0", 1u}, {"mov $lm8 $ls0", 2u}, {"mov $llm8 $lls0", 4u}}) {
    const Instruction in = one(text);
    EXPECT_EQ(in.sources[0].address, 8u) << text;
    EXPECT_EQ(in.sources[0].width_sw, width) << text;
    EXPECT_EQ(in.dest.mem, Mem::GRF1);
  }
}

TEST(MncoreAssembler, ImmediatesIdentitiesMasksAndPredicates) {
  const Instruction cmp = one("icmp.eq $peid 0 $mk1");
  EXPECT_EQ(cmp.op, Op::ICmp);
  EXPECT_EQ(cmp.cmp, Cmp::Eq);
  EXPECT_EQ(cmp.sources[0].kind, Operand::Kind::Identity);
  EXPECT_EQ(cmp.sources[0].identity, Identity::PE);
  EXPECT_EQ(cmp.sources[1].kind, Operand::Kind::IntImmediate);
  EXPECT_EQ(cmp.dest.kind, Operand::Kind::Mask);
  EXPECT_EQ(cmp.dest.mask, 1u);

  const Instruction add = one("fmul.f $lr0 -2.5 $lr0 ?!$mk1");
  EXPECT_EQ(add.sources[1].kind, Operand::Kind::FloatImmediate);
  EXPECT_EQ(add.sources[1].float_value, -2.5);
  EXPECT_EQ(add.sources[1].width_sw, 2u);  // immediates take the instruction's width
  EXPECT_EQ(add.predicate, 1);
  EXPECT_TRUE(add.predicate_negated);

  const Instruction ids = one("iadd $groupid 0x10 $r3");
  EXPECT_EQ(ids.sources[0].identity, Identity::Group);
  EXPECT_EQ(ids.sources[1].int_value, 16);
}

TEST(MncoreAssembler, TransfersPickTheirLevelFromTheOperands) {
  const Instruction down = one("bcast.dist $lb64 $lm0 16");
  EXPECT_EQ(down.op, Op::Transfer);
  EXPECT_EQ(down.engine, Engine::L1b);
  EXPECT_EQ(down.mode_levels, 2u);
  EXPECT_EQ(down.modes[0], Mode::Bcast);
  EXPECT_EQ(down.modes[1], Mode::Dist);
  EXPECT_EQ(down.count_lw, 16u);
  EXPECT_EQ(down.sources[0].mem, Mem::L1BM);
  EXPECT_EQ(down.dest.mem, Mem::LM0);

  const Instruction both = one("dist $lb0 $llr0 4");  // one mode word covers both levels
  EXPECT_EQ(both.modes[0], Mode::Dist);
  EXPECT_EQ(both.modes[1], Mode::Dist);

  const Instruction up = one("red.f $lc0 $d1024 8");
  EXPECT_EQ(up.engine, Engine::Dram);
  EXPECT_EQ(up.modes[0], Mode::Red);
  EXPECT_EQ(up.type, LaneType::Single);

  EXPECT_EQ(one("copy $p0 $d0 1").engine, Engine::Pdm);
  EXPECT_EQ(one("coll $lb0 $lc0 1").engine, Engine::L2b);
  EXPECT_EQ(one("wait l1b dram").wait_mask, (1u << unsigned(Engine::L1b)) | (1u << unsigned(Engine::Dram)));
  EXPECT_EQ(one("wait").wait_mask, 15u);
}

TEST(MncoreAssembler, LinesCountBlanksAndComments) {
  const Program p = assemble("\n# header\nnop\n\n  mov $m0 $m1 ; tail\n", "t.s");
  ASSERT_EQ(p.instructions.size(), 2u);
  EXPECT_EQ(p.instructions[0].line, 3u);
  EXPECT_EQ(p.instructions[1].line, 5u);
}

TEST(MncoreAssembler, ErrorsNameLineAndColumn) {
  const AssemblyError e = error_of("nop\nfadd.h $lm0 $lq4 $lr0\n");
  EXPECT_EQ(e.line(), 2u);
  EXPECT_EQ(e.column(), 13u);
  EXPECT_NE(std::string(e.what()).find("t.s line 2, column 13: unknown operand '$lq4'"), std::string::npos) << e.what();
}

struct BadLine {
  const char* text;
  unsigned column;
  const char* message;  // a piece of the message
};
void PrintTo(const BadLine& b, std::ostream* os) { *os << b.text; }

class MncoreAssemblerErrors : public ::testing::TestWithParam<BadLine> {};

TEST_P(MncoreAssemblerErrors, Reported) {
  const BadLine& b = GetParam();
  const AssemblyError e = error_of(b.text);
  EXPECT_EQ(e.line(), 1u);
  EXPECT_EQ(e.column(), b.column) << e.what();
  EXPECT_NE(e.message().find(b.message), std::string::npos) << e.what();
}

INSTANTIATE_TEST_SUITE_P(
    Lines, MncoreAssemblerErrors,
    ::testing::Values(
        BadLine{"frob $m0", 1, "unknown instruction 'frob'"},
        BadLine{"fadd $m0 $m1 $m2", 1, "needs a type"},
        BadLine{"fadd.q $m0 $m1 $m2", 6, "unknown float type '.q'"},
        BadLine{"fadd.h $m0 $lm1 $m2", 12, "SW wide"},
        BadLine{"fadd.d $m0 $m1 $m2", 1, "64-bit doubles"},
        BadLine{"fadd.h $m0 $m1", 1, "takes 3 operands"},
        BadLine{"fadd.h $m0 $m1 3", 16, "must be a PE memory"},
        BadLine{"mov $lb0 $m1", 5, "PE instructions use PE memories"},
        BadLine{"iadd $m0 1.5 $m1", 10, "is a float"},
        BadLine{"mov $m $m1", 7, "needs a decimal address"},
        BadLine{"fcmp.lt.h $m0 $m1 $m2", 19, "mask register"},
        BadLine{"icmp.xx $m0 $m1 $mk0", 6, "unknown condition 'xx'"},
        BadLine{"fadd.h $m0 $m1 $m2 ?$m3", 21, "must be a mask register"},
        BadLine{"fadd.h $m0 ?$mk0 $m1 $m2", 12, "must be the last operand"},
        BadLine{"fcvt.f.h $lm0 $lm0", 15, "holds 2 single values but '$lm0' holds 4"},
        BadLine{"mmacc $lm0 $lr0", 1, "mmacc.h"},
        BadLine{"mmacc.h $m0 $lr0", 9, "streams LW"},
        BadLine{"mwload $llm0", 8, "mwload reads LW"},
        BadLine{"bcast $lb0 $m0 4", 12, "whole LW"},
        BadLine{"bcast $d0 $lb0 4", 7, "no transfer path from DRAM to L1BM"},
        BadLine{"coll $d0 $lc0 4", 1, "down the tree the modes are bcast and dist"},
        BadLine{"red $lm0 $lb0 4", 4, "give the number format"},
        BadLine{"dist.h $lb0 $lm0 4", 6, "only applies to reductions"},
        BadLine{"bcast.dist $d0 $lc0 4", 7, "crosses 1 tree level"},
        BadLine{"bcast $lb0 $lm0 0", 17, "positive integer"},
        BadLine{"bcast $lb0 $lm0 4 ?$mk0", 1, "cannot be predicated"},
        BadLine{"copy $lb0 $lm0 4", 1, "copy is PDM <-> DRAM"},
        BadLine{"wait l3b", 6, "unknown engine 'l3b'"},
        BadLine{"mov 1 $m0 ?$mk4294967297", 15, "mask register 4294967297 does not exist"}),
    [](const ::testing::TestParamInfo<BadLine>& p) { return "case" + std::to_string(p.index); });

}  // namespace
}  // namespace npuvp::mncore
