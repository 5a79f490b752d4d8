#include "models/aicore/footprint.h"

#include "models/aicore/layout.h"
#include "models/aicore/vector_unit.h"

namespace npuvp::aicore {

namespace {
// [begin, end) of `space` against the operand at `at` spanning [r.begin, r.end).
bool overlaps(MemSpace space, uint64_t begin, uint64_t end, MemSpace at, layout::Range r) {
  return space == at && begin < r.end && r.begin < end;
}

// A DataCopy's source or destination: block_count blocks of block_len units, gap units apart
// (the destination's unit scales with a converting copy's element sizes).
layout::Range move_range(const DataMove& m, const Operand& o, bool dst) {
  uint64_t unit = m.unit;
  if (dst) unit = unit * dtype_size(m.dst_type) / dtype_size(m.src_type);
  const uint64_t gap = dst ? m.dst_gap : m.src_gap;
  if (m.block_count == 0) return {o.addr, o.addr};
  return {o.addr, o.addr + ((uint64_t(m.block_count) - 1) * (m.block_len + gap) + m.block_len) * unit};
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
