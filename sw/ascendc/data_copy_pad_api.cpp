// The non-template half of DataCopyPad and SetPadValue (sw/ascendc/ascendc/data_copy_pad.h):
// each call becomes one DataMove in byte units (models/aicore/isa.h); the data mover checks
// and executes it.
#include <map>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/product.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

using aicore::AiCore;
using aicore::MemSpace;

namespace {
// The pad-value register, per core like the hardware's (it outlives a kernel).
std::map<const AiCore*, uint64_t>& pad_registers() {
  static std::map<const AiCore*, uint64_t> registers;
  return registers;
}
}  // namespace

void set_pad_value(uint64_t bits, unsigned elem_size) {
  AiCore& c = core();
  if (!aicore::is_a2(c.product())) {
    c.fail("SetPadValue", fmt::format("not supported on {}", aicore::product_name(c.product())));
  }
  const uint64_t mask = elem_size >= 8 ? ~0ull : (1ull << (8 * elem_size)) - 1;
  pad_registers()[&c] = bits & mask;
}

void data_copy_pad(CopyEnd dst, CopyEnd src, const PadCopy& p, unsigned elem_size) {
  AiCore& c = core();
  // blockCount or blockLen 0 is a no-op on A2 (docs/api/context/DataCopyPad(ISASI).md).
  if (p.block_count == 0 || p.block_len == 0) return;
  aicore::DataMove m;
  auto pipe = aicore::copy_pipe(c.product(), src.space, dst.space);
  m.pipe = pipe ? *pipe : aicore::Pipe::MTE2;  // an illegal path is named by the mover's check
  m.dst = {dst.space, dst.addr};
  m.src = {src.space, src.addr};
  m.elem_size = elem_size;
  m.unit = 1;
  m.block_count = p.block_count;
  m.block_len = p.block_len;
  m.src_gap = p.src_stride;
  m.dst_gap = p.dst_stride;
  m.pad = true;
  m.pad_left = p.left * elem_size;
  m.pad_right = p.right * elem_size;
  if (m.pad_left != 0 || m.pad_right != 0) {
    auto reg = pad_registers().find(&c);
    m.pad_value = p.is_pad ? p.pad_value : reg != pad_registers().end() ? reg->second : 0;
  }
  c.issue(m);
}

}  // namespace npuvp::ascendc
