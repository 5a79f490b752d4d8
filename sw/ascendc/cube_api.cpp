// The cube-side kernel API: each call becomes one instruction on MTE1, MTE2, M or FIX.
#include <cstring>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "sw/ascendc/kernel_operator.h"
#include "tlm/log.h"

namespace npuvp::ascendc {

using aicore::AiCore;
using aicore::DType;
using aicore::MemSpace;
using aicore::Pipe;

namespace {
// The pipe for `what` from src to dst on this core's product; fails naming path and product.
Pipe require_path(AiCore& c, std::optional<Pipe> pipe, const char* what, const CopyEnd& src, const CopyEnd& dst) {
  if (!pipe) {
    c.fail(fmt::format("{} {}->{}", what, aicore::mem_space_name(src.space), aicore::mem_space_name(dst.space)),
           fmt::format("not a legal data path on {}", aicore::product_name(c.product())));
  }
  return *pipe;
}

// The cube reads and writes its operands in fixed buffers: a tensor of another position there
// would silently alias an unrelated address.
// `instruction` is described only on failure (formatting is costly on every Mmad).
template <typename Instr>
void require_space(const CopyEnd& operand, MemSpace want, const char* what, const Instr& instruction) {
  if (operand.space != want) {
    core().fail(aicore::describe(aicore::Instruction(instruction)),
                fmt::format("{} is in {}, but this instruction takes it from {}", what,
                            aicore::mem_space_name(operand.space), aicore::mem_space_name(want)));
  }
}
}  // namespace

void nd2nz_copy(CopyEnd dst, CopyEnd src, DType type, const AscendC::Nd2NzParams& p) {
  AiCore& c = core();
  aicore::Nd2Nz op;
  op.pipe = require_path(c, aicore::nd2nz_pipe(c.product(), src.space, dst.space), "DataCopy.Nd2Nz", src, dst);
  op.dst = {dst.space, dst.addr};
  op.src = {src.space, src.addr};
  op.dtype = type;
  op.nd_num = p.ndNum;
  op.n_value = p.nValue;
  op.d_value = p.dValue;
  op.src_nd_matrix_stride = p.srcNdMatrixStride;
  op.src_d_value = p.srcDValue;
  op.dst_nz_c0_stride = p.dstNzC0Stride;
  op.dst_nz_n_stride = p.dstNzNStride;
  op.dst_nz_matrix_stride = p.dstNzMatrixStride;
  c.issue(op);
}

void load_2d(CopyEnd dst, CopyEnd src, DType type, const AscendC::LoadData2DParams& p) {
  AiCore& c = core();
  aicore::LoadData2D op;
  op.pipe = require_path(c, aicore::load2d_pipe(c.product(), src.space, dst.space), "LoadData2D", src, dst);
  op.dst = {dst.space, dst.addr};
  op.src = {src.space, src.addr};
  op.dtype = type;
  op.start_index = p.startIndex;
  op.repeat = p.repeatTimes;
  op.src_stride = p.srcStride;
  op.dst_gap = p.dstGap;
  op.transpose = p.ifTranspose;
  c.issue(op);
}

void load_3d(CopyEnd dst, CopyEnd src, DType type, const aicore::LoadData3D& shape) {
  aicore::LoadData3D op = shape;
  op.dst = {dst.space, dst.addr};
  op.src = {src.space, src.addr};
  op.dtype = type;
  core().issue(op);
}

void mmad(CopyEnd c, CopyEnd a, CopyEnd b, DType ct, DType at, DType bt, const AscendC::MmadParams& p,
          bool with_bias, CopyEnd bias) {
  aicore::Mmad op;
  op.c = c.addr;
  op.a = a.addr;
  op.b = b.addr;
  op.m = p.m;
  op.n = p.n;
  op.k = p.k;
  op.a_type = at;
  op.b_type = bt;
  op.c_type = ct;
  op.bias = with_bias || p.cmatrixSource;
  op.init_c = op.bias ? false : p.cmatrixInitVal;
  op.bias_addr = bias.addr;
  require_space(c, MemSpace::L0C, "C (dst)", op);
  require_space(a, MemSpace::L0A, "A", op);
  require_space(b, MemSpace::L0B, "B", op);
  if (with_bias) require_space(bias, MemSpace::BT, "the bias", op);
  core().issue(op);
}

void fixpipe(CopyEnd dst, CopyEnd src, DType dt, DType st, const AscendC::FixpipeParamsV220& p, bool nz2nd) {
  aicore::Fixpipe op;
  op.dst = {dst.space, dst.addr};
  op.src = src.addr;
  op.src_type = st;
  op.dst_type = dt;
  op.m_size = p.mSize;
  op.n_size = p.nSize;
  op.src_stride = p.srcStride;
  op.dst_stride = p.dstStride;
  op.relu = p.reluEn;
  op.nz2nd = nz2nd;
  uint32_t scale_bits = static_cast<uint32_t>(p.deqScalar);
  std::memcpy(&op.deq_scale, &scale_bits, sizeof(float));
  switch (p.quantPre) {
    case AscendC::NoQuant: op.quant = aicore::QuantMode::None; op.deq_scale = 1.0f; break;
    case AscendC::F322F16: op.quant = aicore::QuantMode::F322F16; break;
    case AscendC::F322BF16: op.quant = aicore::QuantMode::F322BF16; break;
    case AscendC::DEQF16: case AscendC::VDEQF16: op.quant = aicore::QuantMode::DEQF16; break;
    case AscendC::QF322B8_PRE: case AscendC::VQF322B8_PRE: op.quant = aicore::QuantMode::QF322B8; break;
    case AscendC::REQ8: case AscendC::VREQ8: op.quant = aicore::QuantMode::REQ8; break;
  }
  require_space(src, MemSpace::L0C, "src", op);
  core().issue(op);
}

void local_copy(CopyEnd dst, CopyEnd src, DType dt, DType st, const AscendC::DataCopyParams& p, bool matrix_mode) {
  AiCore& c = core();
  aicore::DataMove m;
  m.pipe = require_path(c, aicore::copy_pipe(c.product(), src.space, dst.space), "DataCopy", src, dst);
  m.dst = {dst.space, dst.addr};
  m.src = {src.space, src.addr};
  m.block_count = p.blockCount;
  m.block_len = p.blockLen;
  m.src_gap = p.srcStride;
  m.dst_gap = p.dstStride;
  m.src_type = st;
  m.dst_type = dt;
  m.elem_size = aicore::dtype_size(st);
  // Units: one 16x16 fractal of the source type in matrix mode, else copy_unit().
  m.unit = matrix_mode ? 256 * aicore::dtype_size(st) : copy_unit(dst.space);
  c.issue(m);
}

}  // namespace npuvp::ascendc
