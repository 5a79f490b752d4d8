#include "models/aicore/footprint.h"

#include "models/aicore/layout.h"
#include "models/aicore/vector_unit.h"

namespace npuvp::aicore {

namespace {
// [begin, end) of `space` against the operand at `at` spanning [r.begin, r.end).
bool overlaps(MemSpace space, uint64_t begin, uint64_t end, MemSpace at, layout::Range r) {
  return space == at && begin < r.end && r.begin < end;
}

// A data move's source or destination: block_count blocks, a pitch apart (isa.h's block
// geometry, which knows DataCopyPad's byte lengths and 32 B-aligned UB blocks).
layout::Range move_range(const DataMove& m, const Operand& o, bool dst) {
  if (m.block_count == 0) return {o.addr, o.addr};
  const uint64_t block = dst ? move_dst_block(m) : move_src_block(m);
  const uint64_t pitch = dst ? move_dst_pitch(m) : move_src_pitch(m);
  return {o.addr, o.addr + (uint64_t(m.block_count) - 1) * pitch + block};
}
}  // namespace

bool touches(const Instruction& instr, MemSpace space, uint64_t begin, uint64_t end, bool reads_too) {
  // A source counts only when reads count; a destination always.
  auto operands = [&](const Operand& src, layout::Range src_range, const Operand& dst, layout::Range dst_range) {
    return overlaps(space, begin, end, dst.space, dst_range) ||
           (reads_too && overlaps(space, begin, end, src.space, src_range));
  };
  if (auto* op = std::get_if<VectorOp>(&instr)) {
    if (space != MemSpace::UB) return false;
    for (const VectorUnit::OperandBytes& b : VectorUnit::operand_bytes(*op)) {
      if ((b.write || reads_too) && begin < b.end && b.begin < end) return true;
    }
    return false;
  }
  if (auto* m = std::get_if<DataMove>(&instr)) {
    return operands(m->src, move_range(*m, m->src, false), m->dst, move_range(*m, m->dst, true));
  }
  if (auto* op = std::get_if<Nd2Nz>(&instr)) {
    return operands(op->src, layout::nd2nz_src_range(*op), op->dst, layout::nd2nz_dst_range(*op));
  }
  if (auto* op = std::get_if<LoadData2D>(&instr)) {
    return operands(op->src, layout::load2d_src_range(*op), op->dst, layout::load2d_dst_range(*op));
  }
  if (auto* op = std::get_if<LoadData3D>(&instr)) {
    return operands(op->src, layout::load3d_src_range(*op), op->dst, layout::load3d_dst_range(*op));
  }
  if (auto* op = std::get_if<Fixpipe>(&instr)) {
    return operands(Operand{MemSpace::L0C, op->src}, layout::fixpipe_src_range(*op), op->dst,
                    layout::fixpipe_dst_range(*op));
  }
  if (std::holds_alternative<SetFlag>(instr) || std::holds_alternative<WaitFlag>(instr) ||
      std::holds_alternative<Barrier>(instr) || std::holds_alternative<CrossCoreSetFlag>(instr) ||
      std::holds_alternative<CrossCoreWaitFlag>(instr)) {
    return false;
  }
  if (auto* op = std::get_if<Mmad>(&instr)) {
    // Reads L0A, L0B (and BT), writes L0C: the scalar unit does not reach these buffers.
    return space == MemSpace::L0C || (reads_too && (space == MemSpace::L0A || space == MemSpace::L0B ||
                                                     (op->bias && space == MemSpace::BT)));
  }
  return true;
}

}  // namespace npuvp::aicore
