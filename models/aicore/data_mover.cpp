#include "models/aicore/data_mover.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace npuvp::aicore {

DataMover::DataMover(const Params& params, BufferLookup buffers, GmAccess gm)
    : params_(params), buffers_(std::move(buffers)), gm_(std::move(gm)) {}

std::optional<Pipe> DataMover::path_pipe(MemSpace src, MemSpace dst) {
  if (src == MemSpace::GM && dst == MemSpace::UB) return Pipe::MTE2;
  if (src == MemSpace::UB && dst == MemSpace::GM) return Pipe::MTE3;
  if (src == MemSpace::UB && dst == MemSpace::UB) return Pipe::V;  // copy_ubuf_to_ubuf
  return std::nullopt;
}

std::string DataMover::check(const DataMove& m) const {
  auto pipe = path_pipe(m.src.space, m.dst.space);
  if (!pipe) {
    return fmt::format("DataCopy {}->{} is not a legal data path on this core",
                       mem_space_name(m.src.space), mem_space_name(m.dst.space));
  }
  if (*pipe != m.pipe) {
    return fmt::format("DataCopy {}->{} runs on pipe {}, not {}", mem_space_name(m.src.space),
                       mem_space_name(m.dst.space), pipe_name(*pipe), pipe_name(m.pipe));
  }
  if (m.block_count < 1 || m.block_count > 4095) {
    return fmt::format("blockCount {} out of range [1, 4095]", m.block_count);
  }
  if (m.block_len < 1 || m.block_len > 65535) {
    return fmt::format("blockLen {} out of range [1, 65535]", m.block_len);
  }
  if (m.src_gap > 65535 || m.dst_gap > 65535) {
    return fmt::format("srcGap {} / dstGap {} out of range [0, 65535]", m.src_gap, m.dst_gap);
  }
  const uint64_t block = uint64_t(m.block_len) * m.unit;
  auto extent = [&](uint32_t gap) {
    return uint64_t(m.block_count - 1) * (uint64_t(m.block_len) + gap) * m.unit + block;
  };
  for (auto [op, gap, what] : {std::tuple{m.src, m.src_gap, "src"}, {m.dst, m.dst_gap, "dst"}}) {
    if (op.space == MemSpace::GM) {
      if (m.elem_size > 1 && op.addr % m.elem_size != 0) {
        return fmt::format("{} GM address 0x{:x} is not aligned to the element size {} B", what,
                           op.addr, m.elem_size);
      }
      continue;  // GM ranges are checked by the memory system (address error response)
    }
    const LocalBuffer* buf = buffers_(op.space);
    if (!buf) return fmt::format("this core has no {}", mem_space_name(op.space));
    std::string why = buf->check(op.addr, extent(gap), what);
    if (!why.empty()) return why;
  }
  return {};
}

uint64_t DataMover::run(const DataMove& m, const sc_core::sc_time& cycle) {
  const uint64_t block = uint64_t(m.block_len) * m.unit;
  const uint64_t total = block * m.block_count;
  auto src_at = [&](uint32_t i) { return m.src.addr + i * (uint64_t(m.block_len) + m.src_gap) * m.unit; };
  auto dst_at = [&](uint32_t i) { return m.dst.addr + i * (uint64_t(m.block_len) + m.dst_gap) * m.unit; };

  const bool gm_read = m.src.space == MemSpace::GM;
  const bool gm_write = m.dst.space == MemSpace::GM;
  const double bytes_per_cycle =
      (gm_read || gm_write) ? params_.gm_bytes_per_cycle : params_.local_bytes_per_cycle;
  sc_core::sc_time duration =
      std::max(cycle * double(params_.issue_cycles),
               cycle * std::ceil(double(total) / bytes_per_cycle));

  // Sources are read when the move starts; GM reads land in staging until it completes.
  if (gm_read) {
    staging_.resize(total);
    sc_core::sc_time memory = sc_core::SC_ZERO_TIME;
    for (uint32_t i = 0; i < m.block_count; ++i) {
      memory = std::max(memory, gm_(tlm::TLM_READ_COMMAND, src_at(i), staging_.data() + i * block,
                                    static_cast<uint32_t>(block)));
    }
    duration = std::max(duration, memory);
  } else if (gm_write) {
    uint8_t* src = buffers_(m.src.space)->data();
    sc_core::sc_time memory = sc_core::SC_ZERO_TIME;
    for (uint32_t i = 0; i < m.block_count; ++i) {
      memory = std::max(memory, gm_(tlm::TLM_WRITE_COMMAND, dst_at(i), src + src_at(i),
                                    static_cast<uint32_t>(block)));
    }
    duration = std::max(duration, memory);
  }

  sc_core::wait(duration);

  if (gm_read) {
    uint8_t* dst = buffers_(m.dst.space)->data();
    for (uint32_t i = 0; i < m.block_count; ++i) {
      std::memcpy(dst + dst_at(i), staging_.data() + i * block, block);
    }
  } else if (!gm_write) {
    uint8_t* src = buffers_(m.src.space)->data();
    uint8_t* dst = buffers_(m.dst.space)->data();
    for (uint32_t i = 0; i < m.block_count; ++i) std::memmove(dst + dst_at(i), src + src_at(i), block);
  }
  return total;
}

}  // namespace npuvp::aicore
