#include "models/mncore/isa.h"

#include <fmt/format.h>

namespace npuvp::mncore {

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::Copy: return "copy";
    case Mode::Bcast: return "bcast";
    case Mode::Dist: return "dist";
    case Mode::Coll: return "coll";
    case Mode::Red: return "red";
  }
  return "?";
}

const char* engine_name(Engine e) {
  switch (e) {
    case Engine::Pdm: return "pdm";
    case Engine::Dram: return "dram";
    case Engine::L2b: return "l2b";
    case Engine::L1b: return "l1b";
  }
  return "?";
}

const char* op_name(Op op) {
  switch (op) {
    case Op::Nop: return "nop";
    case Op::Mov: return "mov";
    case Op::FAdd: return "fadd";
    case Op::FSub: return "fsub";
    case Op::FMul: return "fmul";
    case Op::FMax: return "fmax";
    case Op::FMin: return "fmin";
    case Op::FCvt: return "fcvt";
    case Op::IAdd: return "iadd";
    case Op::ISub: return "isub";
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Xor: return "xor";
    case Op::Shl: return "shl";
    case Op::Shr: return "shr";
    case Op::FCmp: return "fcmp";
    case Op::ICmp: return "icmp";
    case Op::MWLoad: return "mwload";
    case Op::MMAcc: return "mmacc";
    case Op::Transfer: return "transfer";
    case Op::Wait: return "wait";
  }
  return "?";
}

const char* lane_suffix(LaneType t) {
  switch (t) {
    case LaneType::Half: return "h";
    case LaneType::Single: return "f";
    case LaneType::Double: return "d";
    case LaneType::Int: return "i";
    case LaneType::None: return "";
  }
  return "";
}

unsigned lane_bits(LaneType t) {
  switch (t) {
    case LaneType::Half: return 16;
    case LaneType::Single: return 32;
    case LaneType::Double: return 64;
    case LaneType::Int: return 32;
    case LaneType::None: return 32;
  }
  return 32;
}

std::string where(const Program& p, const Instruction& i) {
  return fmt::format("{} line {} `{}`", p.name.empty() ? "program" : p.name, i.line, i.text);
}

}  // namespace npuvp::mncore
