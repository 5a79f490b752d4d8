#include "models/aicore/isa.h"

#include <fmt/format.h>

namespace npuvp::aicore {

const char* pipe_name(Pipe pipe) {
  switch (pipe) {
    case Pipe::S: return "S";
    case Pipe::V: return "V";
    case Pipe::M: return "M";
    case Pipe::MTE1: return "MTE1";
    case Pipe::MTE2: return "MTE2";
    case Pipe::MTE3: return "MTE3";
    case Pipe::FIX: return "FIX";
    case Pipe::ALL: return "ALL";
  }
  return "?";
}

unsigned dtype_size(DType type) {
  switch (type) {
    case DType::S8: case DType::U8: return 1;
    case DType::F16: case DType::BF16: case DType::S16: case DType::U16: return 2;
    case DType::F32: case DType::S32: case DType::U32: return 4;
  }
  return 1;
}

const char* dtype_name(DType type) {
  switch (type) {
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::F32: return "f32";
    case DType::S8: return "s8";
    case DType::U8: return "u8";
    case DType::S16: return "s16";
    case DType::U16: return "u16";
    case DType::S32: return "s32";
    case DType::U32: return "u32";
  }
  return "?";
}

const char* mem_space_name(MemSpace space) {
  switch (space) {
    case MemSpace::GM: return "GM";
    case MemSpace::UB: return "UB";
    case MemSpace::L1: return "L1";
    case MemSpace::L0A: return "L0A";
    case MemSpace::L0B: return "L0B";
    case MemSpace::L0C: return "L0C";
    case MemSpace::BT: return "BT";
    case MemSpace::FB: return "FB";
  }
  return "?";
}

namespace {
uint64_t round_up_32(uint64_t bytes) { return (bytes + 31) / 32 * 32; }
}  // namespace

uint64_t move_src_block(const DataMove& m) { return uint64_t(m.block_len) * m.unit; }
uint64_t move_dst_block(const DataMove& m) {
  if (m.broadcast) return 16 * move_src_block(m);
  if (m.pad && m.dst.space != MemSpace::GM) return round_up_32(uint64_t(m.pad_left) + m.block_len + m.pad_right);
  return uint64_t(m.block_len) * m.unit * dtype_size(m.dst_type) / dtype_size(m.src_type);
}
uint64_t move_src_pitch(const DataMove& m) {
  if (m.broadcast) return move_src_block(m) + uint64_t(m.src_gap) * 32;
  if (m.pad && m.src.space != MemSpace::GM) return round_up_32(m.block_len) + uint64_t(m.src_gap) * 32;
  return move_src_block(m) + uint64_t(m.src_gap) * m.unit;
}
uint64_t move_dst_pitch(const DataMove& m) {
  if (m.broadcast) return move_dst_block(m) + uint64_t(m.dst_gap) * 16 * m.unit;
  if (m.pad && m.dst.space != MemSpace::GM) return move_dst_block(m) + uint64_t(m.dst_gap) * 32;
  return move_dst_block(m) + uint64_t(m.dst_gap) * m.unit * dtype_size(m.dst_type) / dtype_size(m.src_type);
}

namespace {
struct PipeOf {
  Pipe operator()(const DataMove& i) const { return i.pipe; }
  Pipe operator()(const VectorOp&) const { return Pipe::V; }
  Pipe operator()(const SetFlag& i) const { return i.src; }
  Pipe operator()(const WaitFlag& i) const { return i.dst; }
  Pipe operator()(const Barrier& i) const { return i.pipe; }
  Pipe operator()(const Nd2Nz& i) const { return i.pipe; }
  Pipe operator()(const LoadData2D& i) const { return i.pipe; }
  Pipe operator()(const LoadData3D&) const { return Pipe::MTE1; }
  Pipe operator()(const Mmad&) const { return Pipe::M; }
  Pipe operator()(const Fixpipe&) const { return Pipe::FIX; }
  Pipe operator()(const CrossCoreSetFlag& i) const { return i.pipe; }
  Pipe operator()(const CrossCoreWaitFlag& i) const { return i.pipe; }
};

std::string operand_text(const Operand& o) {
  return fmt::format("{}:0x{:x}", mem_space_name(o.space), o.addr);
}

std::string mask_text(const VectorOp& op) {
  if (op.counter_mode) return fmt::format("count={}", op.mask_lo);
  return fmt::format("mask=0x{:016x}{:016x}", op.mask_hi, op.mask_lo);
}
}  // namespace

Pipe pipe_of(const Instruction& instr) { return std::visit(PipeOf{}, instr); }

std::string instr_name(const Instruction& instr) {
  struct Name {
    std::string operator()(const DataMove& i) const { return i.pad ? "DataCopyPad" : "DataCopy"; }
    std::string operator()(const VectorOp& i) const {
      return fmt::format("{}.{}", vec_op_name(i.op), dtype_name(i.dtype));
    }
    std::string operator()(const SetFlag&) const { return "SetFlag"; }
    std::string operator()(const WaitFlag&) const { return "WaitFlag"; }
    std::string operator()(const Barrier&) const { return "PipeBarrier"; }
    std::string operator()(const Nd2Nz&) const { return "DataCopy.Nd2Nz"; }
    std::string operator()(const LoadData2D&) const { return "LoadData2D"; }
    std::string operator()(const LoadData3D&) const { return "LoadData3D"; }
    std::string operator()(const Mmad& i) const {
      return fmt::format("Mmad.{}{}{}", dtype_name(i.c_type), dtype_name(i.a_type), dtype_name(i.b_type));
    }
    std::string operator()(const Fixpipe&) const { return "Fixpipe"; }
    std::string operator()(const CrossCoreSetFlag&) const { return "CrossCoreSetFlag"; }
    std::string operator()(const CrossCoreWaitFlag&) const { return "CrossCoreWaitFlag"; }
  };
  return std::visit(Name{}, instr);
}

uint32_t instr_class(const Instruction& instr) {
  uint32_t detail = 0;
  if (auto* v = std::get_if<VectorOp>(&instr)) detail = uint32_t(v->op) << 8 | uint32_t(v->dtype);
  if (auto* d = std::get_if<DataMove>(&instr)) detail = d->pad ? 1 : 0;  // "DataCopyPad"
  if (auto* m = std::get_if<Mmad>(&instr)) {
    detail = uint32_t(m->c_type) << 16 | uint32_t(m->a_type) << 8 | uint32_t(m->b_type);
  }
  return uint32_t(instr.index()) << 24 | detail;
}

std::pair<MemSpace, MemSpace> move_spaces(const Instruction& instr) {
  struct Spaces {
    std::pair<MemSpace, MemSpace> operator()(const DataMove& i) const { return {i.src.space, i.dst.space}; }
    std::pair<MemSpace, MemSpace> operator()(const Nd2Nz& i) const { return {i.src.space, i.dst.space}; }
    std::pair<MemSpace, MemSpace> operator()(const LoadData2D& i) const { return {i.src.space, i.dst.space}; }
    std::pair<MemSpace, MemSpace> operator()(const LoadData3D& i) const { return {i.src.space, i.dst.space}; }
    std::pair<MemSpace, MemSpace> operator()(const Fixpipe& i) const { return {MemSpace::L0C, i.dst.space}; }
    std::pair<MemSpace, MemSpace> operator()(const VectorOp&) const { return {MemSpace::UB, MemSpace::UB}; }
    std::pair<MemSpace, MemSpace> operator()(const SetFlag&) const { return {MemSpace::GM, MemSpace::GM}; }
    std::pair<MemSpace, MemSpace> operator()(const WaitFlag&) const { return {MemSpace::GM, MemSpace::GM}; }
    std::pair<MemSpace, MemSpace> operator()(const Barrier&) const { return {MemSpace::GM, MemSpace::GM}; }
    std::pair<MemSpace, MemSpace> operator()(const Mmad&) const { return {MemSpace::L0A, MemSpace::L0C}; }
    std::pair<MemSpace, MemSpace> operator()(const CrossCoreSetFlag&) const { return {MemSpace::GM, MemSpace::GM}; }
    std::pair<MemSpace, MemSpace> operator()(const CrossCoreWaitFlag&) const { return {MemSpace::GM, MemSpace::GM}; }
  };
  return std::visit(Spaces{}, instr);
}

std::string describe(const Instruction& instr) {
  struct Describe {
    std::string operator()(const DataMove& i) const {
      if (i.pad) {
        return fmt::format("DataCopyPad {} <- {} blockCount={} blockLen={}B srcStride={} dstStride={} "
                           "padding=({}B,{}B) padValue=0x{:x}",
                           operand_text(i.dst), operand_text(i.src), i.block_count, i.block_len, i.src_gap,
                           i.dst_gap, i.pad_left, i.pad_right, i.pad_value);
      }
      return fmt::format("DataCopy {} <- {} blockCount={} blockLen={} srcGap={} dstGap={} unit={}B",
                         operand_text(i.dst), operand_text(i.src), i.block_count, i.block_len,
                         i.src_gap, i.dst_gap, i.unit);
    }
    std::string operator()(const VectorOp& i) const {
      std::string srcs;
      int n = vec_op_sources(i.op);
      if (n >= 1) srcs += fmt::format(" src0=UB:0x{:x}", i.src0);
      if (n >= 2) srcs += fmt::format(" src1=UB:0x{:x}", i.src1);
      bool scalar = i.op == VecOp::Adds || i.op == VecOp::Muls || i.op == VecOp::Duplicate;
      return fmt::format(
          "{}.{} dst=UB:0x{:x}{}{} repeat={} {} blkStride=({},{},{}) repStride=({},{},{}){}",
          vec_op_name(i.op), dtype_name(i.dtype), i.dst, srcs,
          scalar ? fmt::format(" scalar={}", i.scalar) : std::string(), i.repeat, mask_text(i),
          i.dst_blk_stride, i.src0_blk_stride, i.src1_blk_stride, i.dst_rep_stride,
          i.src0_rep_stride, i.src1_rep_stride, vec_op_details(i));
    }
    std::string operator()(const SetFlag& i) const {
      return fmt::format("SetFlag<{}_{}>({})", pipe_name(i.src), pipe_name(i.dst), i.id);
    }
    std::string operator()(const WaitFlag& i) const {
      return fmt::format("WaitFlag<{}_{}>({})", pipe_name(i.src), pipe_name(i.dst), i.id);
    }
    std::string operator()(const Barrier& i) const {
      return fmt::format("PipeBarrier<PIPE_{}>", pipe_name(i.pipe));
    }
    std::string operator()(const Nd2Nz& i) const {
      return fmt::format("DataCopy.Nd2Nz.{} {} <- {} ndNum={} nValue={} dValue={} srcNdMatrixStride={} "
                         "srcDValue={} dstNzC0Stride={} dstNzNStride={} dstNzMatrixStride={}",
                         dtype_name(i.dtype), operand_text(i.dst), operand_text(i.src), i.nd_num, i.n_value,
                         i.d_value, i.src_nd_matrix_stride, i.src_d_value, i.dst_nz_c0_stride,
                         i.dst_nz_n_stride, i.dst_nz_matrix_stride);
    }
    std::string operator()(const LoadData2D& i) const {
      return fmt::format("LoadData2D.{} {} <- {} startIndex={} repeatTimes={} srcStride={} dstGap={} ifTranspose={}",
                         dtype_name(i.dtype), operand_text(i.dst), operand_text(i.src), i.start_index, i.repeat,
                         i.src_stride, i.dst_gap, i.transpose);
    }
    std::string operator()(const LoadData3D& i) const {
      return fmt::format("LoadData3D.{} {} <- {} fm={}x{}x{} pad=({},{},{},{}) stride=({},{}) kernel=({},{}) "
                         "dilation=({},{}) m=[{},+{}) k=[{},+{})",
                         dtype_name(i.dtype), operand_text(i.dst), operand_text(i.src), i.channels, i.fm_h, i.fm_w,
                         i.pad_top, i.pad_bottom, i.pad_left, i.pad_right, i.stride_h, i.stride_w, i.kernel_h,
                         i.kernel_w, i.dilation_h, i.dilation_w, i.m_start, i.m_extent, i.k_start, i.k_extent);
    }
    std::string operator()(const Mmad& i) const {
      return fmt::format("Mmad.{}.{}x{} C=L0C:0x{:x} A=L0A:0x{:x} B=L0B:0x{:x} m={} n={} k={} cmatrixInitVal={} "
                         "cmatrixSource={}{}",
                         dtype_name(i.c_type), dtype_name(i.a_type), dtype_name(i.b_type), i.c, i.a, i.b, i.m, i.n,
                         i.k, i.init_c, i.bias, i.bias ? fmt::format(" bias=BT:0x{:x}", i.bias_addr) : "");
    }
    std::string operator()(const Fixpipe& i) const {
      return fmt::format("Fixpipe.{}->{} {} <- L0C:0x{:x} mSize={} nSize={} srcStride={} dstStride={} quant={} "
                         "relu={} nz2nd={}",
                         dtype_name(i.src_type), dtype_name(i.dst_type), operand_text(i.dst), i.src, i.m_size,
                         i.n_size, i.src_stride, i.dst_stride, static_cast<int>(i.quant), i.relu, i.nz2nd);
    }
    std::string operator()(const CrossCoreSetFlag& i) const {
      return fmt::format("CrossCoreSetFlag<{}, PIPE_{}>({})", i.mode, pipe_name(i.pipe), i.id);
    }
    std::string operator()(const CrossCoreWaitFlag& i) const {
      return fmt::format("CrossCoreWaitFlag<{}, PIPE_{}>({})", i.mode, pipe_name(i.pipe), i.id);
    }
  };
  return std::visit(Describe{}, instr);
}

}  // namespace npuvp::aicore
