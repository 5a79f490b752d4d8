#include "models/aicore/data_mover.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "models/numerics/fp16.h"

namespace npuvp::aicore {

namespace {
std::string path_text(MemSpace src, MemSpace dst) {
  return fmt::format("{}->{}", mem_space_name(src), mem_space_name(dst));
}
}  // namespace

DataMover::DataMover(Product product, const Params& params, BufferLookup buffers, GmAccess gm)
    : product_(product), params_(params), buffers_(std::move(buffers)), gm_(std::move(gm)) {}

std::string DataMover::check_local(MemSpace space, layout::Range r, const char* what) const {
  const LocalBuffer* buf = buffers_(space);
  if (!buf) return fmt::format("this core has no {}", mem_space_name(space));
  return buf->check(r.begin, r.end - r.begin, what);
}

std::string DataMover::check_gm(uint64_t addr, unsigned elem_size, const char* what) const {
  if (elem_size > 1 && addr % elem_size != 0) {
    return fmt::format("{} GM address 0x{:x} is not aligned to the element size {} B", what, addr, elem_size);
  }
  return {};
}

std::string DataMover::check(const Instruction& instr, Pipe pipe) const {
  auto wrong_pipe = [&](Pipe want) {
    return fmt::format("this move runs on pipe {}, not {}", pipe_name(want), pipe_name(pipe));
  };
  auto no_path = [&](MemSpace src, MemSpace dst, const char* what) {
    return fmt::format("{} {} is not a legal data path on {}", what, path_text(src, dst), product_name(product_));
  };
  // Checks one operand: GM (element alignment; ranges are the memory system's) or local.
  auto operand = [&](const Operand& o, layout::Range r, unsigned elem, const char* what) {
    return o.space == MemSpace::GM ? check_gm(o.addr, elem, what) : check_local(o.space, r, what);
  };
  if (auto* m = std::get_if<DataMove>(&instr)) return check_copy(*m);
  if (auto* op = std::get_if<Nd2Nz>(&instr)) {
    auto p = nd2nz_pipe(product_, op->src.space, op->dst.space);
    if (!p) return no_path(op->src.space, op->dst.space, "DataCopy with Nd2Nz");
    if (*p != pipe) return wrong_pipe(*p);
    std::string why = layout::nd2nz_check(*op);
    if (why.empty()) why = operand(op->src, layout::nd2nz_src_range(*op), dtype_size(op->dtype), "src");
    if (why.empty()) why = operand(op->dst, layout::nd2nz_dst_range(*op), dtype_size(op->dtype), "dst");
    return why;
  }
  if (auto* op = std::get_if<LoadData2D>(&instr)) {
    auto p = load2d_pipe(product_, op->src.space, op->dst.space);
    if (!p) return no_path(op->src.space, op->dst.space, "LoadData 2D");
    if (*p != pipe) return wrong_pipe(*p);
    std::string why = layout::load2d_check(*op);
    if (why.empty()) why = operand(op->src, layout::load2d_src_range(*op), dtype_size(op->dtype), "src");
    if (why.empty()) why = operand(op->dst, layout::load2d_dst_range(*op), dtype_size(op->dtype), "dst");
    return why;
  }
  if (auto* op = std::get_if<LoadData3D>(&instr)) {
    if (!load3d_legal(product_, op->src.space, op->dst.space)) {
      return no_path(op->src.space, op->dst.space, "LoadData 3D");
    }
    if (pipe != Pipe::MTE1) return wrong_pipe(Pipe::MTE1);
    std::string why = layout::load3d_check(*op);
    if (why.empty()) why = check_local(op->src.space, layout::load3d_src_range(*op), "src");
    if (why.empty()) why = check_local(op->dst.space, layout::load3d_dst_range(*op), "dst");
    return why;
  }
  if (auto* op = std::get_if<Fixpipe>(&instr)) {
    if (!fixpipe_legal(product_, op->dst.space)) {
      return is_a2(product_) ? no_path(MemSpace::L0C, op->dst.space, "Fixpipe")
                             : fmt::format("{} has no FixPipe (L0C leaves through UB by DataCopy in matrix mode)",
                                           product_name(product_));
    }
    if (pipe != Pipe::FIX) return wrong_pipe(Pipe::FIX);
    std::string why = layout::fixpipe_check(*op);
    if (why.empty()) why = check_local(MemSpace::L0C, layout::fixpipe_src_range(*op), "src");
    if (why.empty()) why = operand(op->dst, layout::fixpipe_dst_range(*op), dtype_size(op->dst_type), "dst");
    return why;
  }
  return "not a data move";
}

std::string DataMover::check_copy(const DataMove& m) const {
  auto pipe = copy_pipe(product_, m.src.space, m.dst.space);
  if (!pipe) {
    return fmt::format("DataCopy {} is not a legal data path on {}", path_text(m.src.space, m.dst.space),
                       product_name(product_));
  }
  if (*pipe != m.pipe) {
    return fmt::format("DataCopy {} runs on pipe {}, not {}", path_text(m.src.space, m.dst.space),
                       pipe_name(*pipe), pipe_name(m.pipe));
  }
  if (m.src_type != m.dst_type) {
    const bool bias_f16_to_f32 = m.src.space == MemSpace::L1 && m.dst.space == MemSpace::BT &&
                                 m.src_type == DType::F16 && m.dst_type == DType::F32;
    const bool matrix_f32_to_f16 = m.src.space == MemSpace::L0C && m.dst.space == MemSpace::UB &&
                                   m.src_type == DType::F32 && m.dst_type == DType::F16;
    if (!bias_f16_to_f32 && !matrix_f32_to_f16) {
      return fmt::format("DataCopy {} cannot convert {} to {}", path_text(m.src.space, m.dst.space),
                         dtype_name(m.src_type), dtype_name(m.dst_type));
    }
  }
  if (m.block_count < 1 || m.block_count > 4095) {
    return fmt::format("blockCount {} out of range [1, 4095]", m.block_count);
  }
  if (m.pad) {
    std::string why = check_pad(m);
    if (!why.empty()) return why;
  } else {
    if (m.block_len < 1 || m.block_len > 65535) {
      return fmt::format("blockLen {} out of range [1, 65535]", m.block_len);
    }
    if (m.src_gap > 65535 || m.dst_gap > 65535) {
      return fmt::format("srcGap {} / dstGap {} out of range [0, 65535]", m.src_gap, m.dst_gap);
    }
  }
  const uint64_t last = m.block_count - 1;
  for (auto [op, extent, what] :
       {std::tuple{m.src, last * move_src_pitch(m) + move_src_block(m), "src"},
        std::tuple{m.dst, last * move_dst_pitch(m) + move_dst_block(m), "dst"}}) {
    // DataCopyPad reaches GM at any byte address (ASCEND C: DataCopyPad(ISASI).md).
    std::string why = op.space == MemSpace::GM ? check_gm(op.addr, m.pad ? 1 : m.elem_size, what)
                                               : check_local(op.space, {op.addr, op.addr + extent}, what);
    if (!why.empty()) return why;
  }
  return {};
}

// DataCopyPad's own limits (docs/api/context/DataCopyPad(ISASI).md): A2 products, GM <-> UB,
// byte lengths that are whole elements, padding of at most 32 B on either side.
std::string DataMover::check_pad(const DataMove& m) const {
  if (!is_a2(product_)) return fmt::format("DataCopyPad is not supported on {}", product_name(product_));
  const bool gm_to_ub = m.src.space == MemSpace::GM && m.dst.space == MemSpace::UB;
  const bool ub_to_gm = m.src.space == MemSpace::UB && m.dst.space == MemSpace::GM;
  if (!gm_to_ub && !ub_to_gm) {
    return fmt::format("DataCopyPad {} is not supported (GM->UB and UB->GM are)", path_text(m.src.space, m.dst.space));
  }
  if (m.unit != 1) return fmt::format("DataCopyPad counts bytes, not {} B units", m.unit);
  if (m.block_len < 1 || m.block_len > 2097151) {
    return fmt::format("blockLen {} B out of range [1, 2097151]", m.block_len);
  }
  if (m.elem_size == 0 || m.block_len % m.elem_size != 0) {
    return fmt::format("blockLen {} B is not a whole number of {} B elements", m.block_len, m.elem_size);
  }
  if (m.pad_left > 32 || m.pad_right > 32) {
    return fmt::format("leftPadding {} B / rightPadding {} B: each must be at most 32 B", m.pad_left, m.pad_right);
  }
  if (ub_to_gm && (m.pad_left != 0 || m.pad_right != 0)) return "UB->GM takes no padding";
  return {};
}

layout::ConstView DataMover::local_view(MemSpace space) const {
  LocalBuffer* b = buffers_(space);
  return {b->data(), 0, b->size()};
}

DataMover::Result DataMover::timed_result(uint64_t bytes, const sc_core::sc_time& work,
                                          const sc_core::sc_time& memory) const {
  if (params_.mode == SimMode::Functional) return {bytes, sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME};
  return {bytes, memory > work ? memory - work : sc_core::SC_ZERO_TIME, std::max(work, memory)};
}

DataMover::Result DataMover::start(const Instruction& instr, const sc_core::sc_time& cycle) {
  auto cycles = [&](double bytes, double per_cycle) { return cycle * std::ceil(bytes / per_cycle); };
  if (is_gm_read(instr)) {  // a burst of one
    const Instruction* one = &instr;
    Result r;
    sc_core::sc_time end;
    start_reads(&one, 1, cycle, &r, &end);
    return r;
  }
  if (auto* m = std::get_if<DataMove>(&instr)) return start_copy(*m, cycle);

  if (auto* op = std::get_if<LoadData2D>(&instr)) {  // L1 -> L0 (from GM it is a GM read)
    const uint64_t bytes = uint64_t(op->repeat) * 512;
    const double rate = op->dst.space == MemSpace::L0A ? params_.l1_to_l0a_bytes_per_cycle
                                                       : params_.l1_to_l0b_bytes_per_cycle;
    return timed_result(bytes, std::max(cycle * double(params_.mte1_start_cycles), cycles(double(bytes), rate)),
                        sc_core::SC_ZERO_TIME);
  }

  if (auto* op = std::get_if<LoadData3D>(&instr)) {
    const uint64_t bytes = uint64_t(op->m_extent) * op->k_extent * dtype_size(op->dtype);
    const double rate = op->dst.space == MemSpace::L0A ? params_.l1_to_l0a_bytes_per_cycle
                                                       : params_.l1_to_l0b_bytes_per_cycle;
    return timed_result(bytes, std::max(cycle * double(params_.mte1_start_cycles), cycles(double(bytes), rate)),
                        sc_core::SC_ZERO_TIME);
  }

  if (auto* op = std::get_if<Fixpipe>(&instr)) {
    const uint64_t dsize = dtype_size(op->dst_type);
    const uint64_t bytes = uint64_t(op->m_size) * op->n_size * dsize;
    const sc_core::sc_time t = cycles(double(bytes), params_.fix_bytes_per_cycle);
    if (op->dst.space != MemSpace::GM) return timed_result(bytes, t, sc_core::SC_ZERO_TIME);
    // Converted at the start and posted to GM piece by piece: only the bytes Fixpipe
    // writes, so neighbouring data (another core's tile) is never rewritten.
    spans_.clear();
    if (op->nz2nd) {
      // The rows packed in staging: the same conversion into rows n_size apart from 0.
      const uint64_t row = uint64_t(op->n_size) * dsize;
      uint8_t* staged = nullptr;
      if (moves_data()) {
        Fixpipe packed = *op;
        packed.dst.addr = 0;
        packed.dst_stride = op->n_size;
        staged = staging_out_.reserve(bytes);
        layout::fixpipe(packed, local_view(MemSpace::L0C), {staged, 0, bytes});
      }
      spans_.add_rows(op->dst.addr, uint64_t(op->dst_stride) * dsize, op->m_size, row, staged, row);
    } else {
      // NZ: staging laid out as the GM range (its columns are whole 32 B blocks apart).
      const layout::Range dst = layout::fixpipe_dst_range(*op);
      if (moves_data()) {
        // Only the rows Fixpipe writes are stored, so the gaps need no clearing.
        staging_out_.reserve(dst.end - dst.begin);
        layout::fixpipe(*op, local_view(MemSpace::L0C), {staging_out_.data(), dst.begin, dst.end - dst.begin});
      }
      auto staged = [&](uint64_t a) { return moves_data() ? staging_out_.data() + (a - dst.begin) : nullptr; };
      // Whole columns of 16-element rows, except a partial last column, whose rows are
      // written only up to n_size (the rest of GM stays as it was).
      const uint32_t n1 = (op->n_size + 15) / 16;
      for (uint32_t c = 0; c < n1; ++c) {
        const uint64_t col = op->dst.addr + uint64_t(c) * op->dst_stride * 32;
        const uint32_t width = std::min<uint32_t>(16, op->n_size - c * 16);
        if (width == 16) {
          spans_.add(col, uint64_t(op->m_size) * 16 * dsize, staged(col));
          continue;
        }
        spans_.add_rows(col, 16 * dsize, op->m_size, width * dsize, staged(col), 16 * dsize);
      }
    }
    return timed_result(bytes, t, gm_(tlm::TLM_WRITE_COMMAND, spans_));
  }
  return {};
}

void DataMover::complete(const Instruction& instr) {
  if (!moves_data()) return;
  if (is_gm_read(instr)) {
    const Instruction* one = &instr;
    complete_reads(&one, 1);
  } else if (auto* m = std::get_if<DataMove>(&instr)) {
    if (m->dst.space != MemSpace::GM) complete_copy(*m);  // GM writes were posted at the start
  } else if (auto* op = std::get_if<LoadData2D>(&instr)) {
    LocalBuffer* out = buffers_(op->dst.space);
    layout::load2d(*op, local_view(op->src.space), {out->data(), 0, out->size()});
  } else if (auto* op = std::get_if<LoadData3D>(&instr)) {
    LocalBuffer* out = buffers_(op->dst.space);
    layout::load3d(*op, local_view(op->src.space), {out->data(), 0, out->size()});
  } else if (auto* op = std::get_if<Fixpipe>(&instr)) {
    if (op->dst.space == MemSpace::GM) return;
    LocalBuffer* out = buffers_(op->dst.space);
    layout::fixpipe(*op, local_view(MemSpace::L0C), {out->data(), 0, out->size()});
  }
}

namespace {
// A DataMove's block i, as a byte offset from its source (src) or destination (dst; the
// destination's unit is wider or narrower when the move converts).
uint64_t src_offset(const DataMove& m, uint32_t i) { return i * move_src_pitch(m); }
uint64_t dst_offset(const DataMove& m, uint32_t i) { return i * move_dst_pitch(m); }
}  // namespace

DataMover::Result DataMover::start_copy(const DataMove& m, const sc_core::sc_time& cycle) {
  const uint64_t src_block = move_src_block(m);
  const uint64_t total = (m.broadcast ? move_dst_block(m) : src_block) * m.block_count;  // bytes written
  const bool gm_write = m.dst.space == MemSpace::GM;  // GM reads are start_reads'
  double rate = gm_write ? params_.gm_write_bytes_per_cycle : params_.local_bytes_per_cycle;
  uint64_t start = params_.issue_cycles;
  if (m.pipe == Pipe::MTE1) {
    rate = params_.l1_to_bt_fb_bytes_per_cycle;
    start = params_.mte1_start_cycles;
  }
  const sc_core::sc_time work = std::max(cycle * double(start), cycle * std::ceil(double(total) / rate));
  if (!gm_write) return timed_result(total, work, sc_core::SC_ZERO_TIME);
  // GM writes are posted when the move starts.
  uint8_t* local = buffers_(m.src.space)->data();
  spans_.clear();
  spans_.add_rows(m.dst.addr, dst_offset(m, 1), m.block_count, src_block,
                  moves_data() ? local + m.src.addr : nullptr, src_offset(m, 1));
  return timed_result(total, work, gm_(tlm::TLM_WRITE_COMMAND, spans_));
}

void DataMover::complete_copy(const DataMove& m) {
  const unsigned ssize = dtype_size(m.src_type), dsize = dtype_size(m.dst_type);
  const uint64_t src_block = move_src_block(m);
  uint8_t* dst = buffers_(m.dst.space)->data();
  const uint8_t* src = buffers_(m.src.space)->data();
  for (uint32_t i = 0; i < m.block_count; ++i) {
    const uint8_t* from = src + m.src.addr + src_offset(m, i);
    uint8_t* to = dst + m.dst.addr + dst_offset(m, i);
    // Converting copies are local to local: both ends are buffer addresses aligned to at
    // least 32 B (checked), so the bytes can be viewed as elements directly.
    if (m.broadcast) {
      for (uint64_t unit = 0; unit < m.block_len; ++unit) {
        for (unsigned row = 0; row < 16; ++row) std::memcpy(to + (unit * 16 + row) * m.unit, from + unit * m.unit, m.unit);
      }
    } else if (ssize == dsize) {
      std::memmove(to, from, src_block);
    } else if (m.src_type == DType::F16) {  // f16 -> f32 (bias into BT)
      f16_to_f32(reinterpret_cast<const _Float16*>(from), reinterpret_cast<float*>(to), src_block / 2);
    } else {  // f32 -> f16 (L0C -> UB matrix mode)
      f32_to_f16(reinterpret_cast<const float*>(from), reinterpret_cast<_Float16*>(to), src_block / 4);
    }
  }
}

// ---- GM reads ----

bool DataMover::is_gm_read(const Instruction& instr) const {
  if (auto* m = std::get_if<DataMove>(&instr)) return m->src.space == MemSpace::GM;
  if (auto* op = std::get_if<Nd2Nz>(&instr)) return op->src.space == MemSpace::GM;
  if (auto* op = std::get_if<LoadData2D>(&instr)) return op->src.space == MemSpace::GM;
  return false;
}

layout::Range DataMover::gm_read_range(const Instruction& instr) const {
  if (auto* op = std::get_if<Nd2Nz>(&instr)) return layout::nd2nz_src_range(*op);
  if (auto* op = std::get_if<LoadData2D>(&instr)) return layout::load2d_src_range(*op);
  const DataMove& m = std::get<DataMove>(instr);
  return {m.src.addr, m.src.addr + src_offset(m, m.block_count - 1) + move_src_block(m)};
}

uint64_t DataMover::gm_read_bytes(const Instruction& instr) const {
  if (auto* op = std::get_if<Nd2Nz>(&instr)) {
    return uint64_t(op->nd_num) * op->n_value * op->d_value * dtype_size(op->dtype);
  }
  if (auto* op = std::get_if<LoadData2D>(&instr)) return uint64_t(op->repeat) * 512;
  const DataMove& m = std::get<DataMove>(instr);
  return move_src_block(m) * m.block_count;
}

sc_core::sc_time DataMover::gm_read_work(const Instruction& instr, const sc_core::sc_time& cycle) const {
  const double bytes = double(gm_read_bytes(instr));
  return std::max(cycle * double(params_.issue_cycles), cycle * std::ceil(bytes / params_.gm_read_bytes_per_cycle));
}

void DataMover::gather(const Instruction& instr, uint8_t* staging) {
  // Each row, fractal or block lands right after the one before it (nullptr: perf mode).
  if (auto* op = std::get_if<Nd2Nz>(&instr)) {
    const uint64_t size = dtype_size(op->dtype), row = uint64_t(op->d_value) * size;
    for (uint64_t i = 0; i < op->nd_num; ++i) {
      spans_.add_rows(op->src.addr + i * op->src_nd_matrix_stride * size, uint64_t(op->src_d_value) * size,
                      op->n_value, row, staging ? staging + i * op->n_value * row : nullptr, row);
    }
  } else if (auto* op = std::get_if<LoadData2D>(&instr)) {
    spans_.add_rows(op->src.addr + uint64_t(op->start_index) * 512, uint64_t(op->src_stride) * 512, op->repeat, 512,
                    staging, 512);
  } else {  // DataMove
    const DataMove& m = std::get<DataMove>(instr);
    const uint64_t block = move_src_block(m);
    spans_.add_rows(m.src.addr, src_offset(m, 1), m.block_count, block, staging, block);
  }
}

void DataMover::deliver(const Instruction& instr, const uint8_t* staging) {
  // The same transform as from GM, its source now the packed rows: a packed copy of the
  // instruction reads them at their new places and writes exactly what the original would.
  const layout::ConstView packed{staging, 0, gm_read_bytes(instr)};
  if (auto* op = std::get_if<Nd2Nz>(&instr)) {
    Nd2Nz from_staging = *op;
    from_staging.src.addr = 0;
    from_staging.src_d_value = op->d_value;
    from_staging.src_nd_matrix_stride = op->n_value * op->d_value;  // < 2^30 within nd2nz_check's limits
    LocalBuffer* out = buffers_(op->dst.space);
    layout::nd2nz(from_staging, packed, {out->data(), 0, out->size()});
  } else if (auto* op = std::get_if<LoadData2D>(&instr)) {
    LoadData2D from_staging = *op;
    from_staging.src.addr = 0;
    from_staging.start_index = 0;
    from_staging.src_stride = 1;
    LocalBuffer* out = buffers_(op->dst.space);
    layout::load2d(from_staging, packed, {out->data(), 0, out->size()});
  } else {  // GM -> local copies never convert (check_copy)
    const DataMove& m = std::get<DataMove>(instr);
    const uint64_t block = move_src_block(m);
    uint8_t* dst = buffers_(m.dst.space)->data();
    for (uint32_t i = 0; i < m.block_count; ++i) {
      uint8_t* to = dst + m.dst.addr + dst_offset(m, i);
      if (m.pad) {
        deliver_padded(m, staging + i * block, to);
      } else {
        std::memcpy(to, staging + i * block, block);
      }
    }
  }
}

// One DataCopyPad block into UB: left padding, the data, right padding, then up to the 32 B
// boundary. The padding value fills the padding and the rest; with no padding the rest repeats
// the block's first element (docs/api/context/DataCopyPad(ISASI).md).
void DataMover::deliver_padded(const DataMove& m, const uint8_t* data, uint8_t* to) {
  const uint64_t esize = m.elem_size;
  const uint64_t block = move_dst_block(m);
  const bool padded = m.pad_left != 0 || m.pad_right != 0;
  uint8_t fill[8];
  if (padded) {
    std::memcpy(fill, &m.pad_value, esize);  // little-endian host: the low bytes are the element
  } else {
    std::memcpy(fill, data, esize);
  }
  for (uint64_t b = 0; b < m.pad_left; b += esize) std::memcpy(to + b, fill, esize);
  std::memcpy(to + m.pad_left, data, m.block_len);
  for (uint64_t b = m.pad_left + m.block_len; b < block; b += esize) std::memcpy(to + b, fill, esize);
}

void DataMover::start_reads(const Instruction* const* instrs, size_t n, const sc_core::sc_time& cycle,
                            Result* results, sc_core::sc_time* ends) {
  // Each member's bytes land, packed, in its own part of staging_ until the burst completes. Only one pipe of a core reads GM,
  // so staging_ is not shared while the burst is under way.
  staging_offsets_.resize(n);
  size_t staged = 0;
  for (size_t i = 0; i < n; ++i) {
    staging_offsets_[i] = staged;
    if (moves_data()) staged += gm_read_bytes(*instrs[i]);
  }
  staging_.reserve(staged);
  spans_.clear();
  for (size_t i = 0; i < n; ++i) gather(*instrs[i], moves_data() ? staging_.data() + staging_offsets_[i] : nullptr);
  const sc_core::sc_time memory = gm_(tlm::TLM_READ_COMMAND, spans_);
  sc_core::sc_time work = sc_core::SC_ZERO_TIME;
  for (size_t i = 0; i < n; ++i) {
    results[i] = {gm_read_bytes(*instrs[i]), sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME};
    if (params_.mode != SimMode::Functional) work += gm_read_work(*instrs[i], cycle);
    ends[i] = work;
  }
  results[n - 1] = timed_result(results[n - 1].bytes, work, memory);
  ends[n - 1] = results[n - 1].duration;
}

void DataMover::complete_reads(const Instruction* const* instrs, size_t n) {
  if (!moves_data()) return;
  for (size_t i = 0; i < n; ++i) deliver(*instrs[i], staging_.data() + staging_offsets_[i]);
}

}  // namespace npuvp::aicore
