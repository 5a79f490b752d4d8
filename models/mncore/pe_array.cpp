#include "models/mncore/pe_array.h"

#include <cstring>
#include <fmt/format.h>

#include "models/numerics/mncore_float.h"

namespace npuvp::mncore {

WordBuffer::WordBuffer(uint64_t words) : storage_(words * 4), words_(words) {
  if (words != 0 && !storage_.data()) throw std::bad_alloc();
}

PeArray::PeArray(const Topology& topology) : t_(topology), n_(topology.pes()) {
  for (unsigned m = 0; m < kPeMemories; ++m) {
    memory_[m] = std::make_unique<WordBuffer>(t_.mem[m].size_bytes() / 4 * n_);
  }
  for (auto& id : identity_) id.resize(n_);
  for (unsigned p = 0; p < n_; ++p) {
    const Topology::PeId id = t_.pe_id(p);
    identity_[static_cast<unsigned>(Identity::Group)][p] = id.group;
    identity_[static_cast<unsigned>(Identity::L2B)][p] = id.l2b;
    identity_[static_cast<unsigned>(Identity::L1B)][p] = id.l1b;
    identity_[static_cast<unsigned>(Identity::MAB)][p] = id.mab;
    identity_[static_cast<unsigned>(Identity::PE)][p] = id.pe;
    identity_[static_cast<unsigned>(Identity::Index)][p] = p;
  }
  masks_.assign(t_.mask_registers, std::vector<uint8_t>(n_, 1));  // every PE enabled at reset
  enable_scratch_.resize(n_);
}

void PeArray::read(Mem m, unsigned pe, uint64_t byte_offset, void* out, uint64_t bytes) const {
  auto* dst = static_cast<uint8_t*>(out);
  for (uint64_t i = 0; i < bytes / 4; ++i) {
    const uint32_t w = words(m, byte_offset / 4 + i)[pe];
    std::memcpy(dst + 4 * i, &w, 4);
  }
}

void PeArray::write(Mem m, unsigned pe, uint64_t byte_offset, const void* in, uint64_t bytes) {
  const auto* src = static_cast<const uint8_t*>(in);
  for (uint64_t i = 0; i < bytes / 4; ++i) {
    uint32_t w;
    std::memcpy(&w, src + 4 * i, 4);
    words(m, byte_offset / 4 + i)[pe] = w;
  }
}

void PeArray::check(const Operand& o) const {
  const MemorySpec& spec = t_.mem[index(o.mem)];
  const uint64_t byte = o.address * spec.unit_bytes;
  const uint64_t bytes = uint64_t(o.width_sw) * 4;
  const unsigned align = o.width_sw == 1 ? 4 : 8;
  const char* unit = spec.unit_bytes == 8 ? "LW" : "SW";
  if (byte % align != 0) {
    throw PeFault(fmt::format("'{}': {} address {} is not {} aligned ({}-bit accesses start on a {}-bit boundary)",
                              o.text, mem_name(o.mem), o.address, align == 8 ? "LW" : "SW", bytes * 8, align * 8));
  }
  if (byte + bytes > spec.size_bytes()) {
    throw PeFault(fmt::format("'{}': {} address {} + {} bytes is beyond its {} {} ({} bytes)", o.text, mem_name(o.mem),
                              o.address, bytes, spec.size_units(), unit, spec.size_bytes()));
  }
}

const uint8_t* PeArray::enabled(const Instruction& in) {
  if (in.predicate < 0) return nullptr;
  if (static_cast<unsigned>(in.predicate) >= masks_.size()) {
    throw PeFault(fmt::format("predicate $mk{} does not exist (mncore2.pe.mask_registers = {})", in.predicate,
                              masks_.size()));
  }
  const std::vector<uint8_t>& m = masks_[static_cast<unsigned>(in.predicate)];
  const uint8_t flip = in.predicate_negated ? 1 : 0;
  for (unsigned p = 0; p < n_; ++p) enable_scratch_[p] = static_cast<uint8_t>(m[p] ^ flip);
  return enable_scratch_.data();
}

const uint32_t* PeArray::source_word(const Operand& o, unsigned j, LaneType type,
                                     std::vector<uint32_t>& scratch) const {
  switch (o.kind) {
    case Operand::Kind::Memory:
      return words(o.mem, sw_of(o.mem, o.address) + j);
    case Operand::Kind::Identity:
      return identity_[static_cast<unsigned>(o.identity)].data();
    case Operand::Kind::IntImmediate:
    case Operand::Kind::FloatImmediate: {
      // An immediate fills every lane: a float in the instruction's format, an integer as is.
      uint32_t word = static_cast<uint32_t>(o.int_value);
      if (type == LaneType::Half) {
        const uint32_t h = half_from_double(o.float_value);
        word = h | (h << 16);
      } else if (type == LaneType::Single) {
        word = single_from_double(o.float_value);
      } else if (type == LaneType::Double) {
        const uint64_t d = double_from_ieee(o.float_value);
        word = static_cast<uint32_t>(j % 2 == 0 ? d : d >> 32);
      }
      scratch.assign(n_, word);
      return scratch.data();
    }
    default:
      throw PeFault(fmt::format("'{}' cannot be a source here", o.text));
  }
}

void PeArray::commit(const Operand& dest, const std::vector<uint32_t>& result, const uint8_t* enable) {
  const uint64_t base = sw_of(dest.mem, dest.address);
  for (unsigned j = 0; j < dest.width_sw; ++j) {
    uint32_t* out = words(dest.mem, base + j);
    const uint32_t* r = result.data() + uint64_t(j) * n_;
    if (!enable) {
      std::memcpy(out, r, n_ * sizeof(uint32_t));
    } else {
      for (unsigned p = 0; p < n_; ++p) out[p] = enable[p] ? r[p] : out[p];
    }
  }
}

namespace {

using FloatOp = uint64_t (*)(FloatFormat, uint64_t, uint64_t);

FloatOp float_op(Op op) {
  switch (op) {
    case Op::FAdd: return &add;
    case Op::FSub: return &sub;
    case Op::FMul: return &mul;
    case Op::FMax: return &max;
    case Op::FMin: return &min;
    default: return nullptr;
  }
}

uint32_t int_op(Op op, uint32_t a, uint32_t b) {
  switch (op) {
    case Op::IAdd: return a + b;  // unsigned: two's-complement wrap without UB
    case Op::ISub: return a - b;
    case Op::And: return a & b;
    case Op::Or: return a | b;
    case Op::Xor: return a ^ b;
    case Op::Shl: return a << (b & 31);
    case Op::Shr: return a >> (b & 31);
    default: return 0;
  }
}

// Lane `lane` (of `bits` bits) of PE p, from an operand given as its SW word arrays.
uint64_t get_lane(const std::vector<const uint32_t*>& w, unsigned p, unsigned lane, unsigned bits) {
  if (bits == 64) return uint64_t(w[2 * lane][p]) | (uint64_t(w[2 * lane + 1][p]) << 32);
  if (bits == 32) return w[lane][p];
  return (w[lane / 2][p] >> (16 * (lane % 2))) & 0xFFFF;
}

void set_lane(std::vector<uint32_t>& result, unsigned n, unsigned p, unsigned lane, unsigned bits, uint64_t v) {
  if (bits == 64) {
    result[uint64_t(2 * lane) * n + p] = static_cast<uint32_t>(v);
    result[uint64_t(2 * lane + 1) * n + p] = static_cast<uint32_t>(v >> 32);
  } else if (bits == 32) {
    result[uint64_t(lane) * n + p] = static_cast<uint32_t>(v);
  } else {
    uint32_t& word = result[uint64_t(lane / 2) * n + p];
    const unsigned shift = 16 * (lane % 2);
    word = (word & ~(0xFFFFu << shift)) | (static_cast<uint32_t>(v & 0xFFFF) << shift);
  }
}

bool compare(Cmp c, bool less_ab, bool equal_ab) {
  switch (c) {
    case Cmp::Eq: return equal_ab;
    case Cmp::Ne: return !equal_ab;
    case Cmp::Lt: return less_ab;
    case Cmp::Le: return less_ab || equal_ab;
    case Cmp::Gt: return !less_ab && !equal_ab;
    case Cmp::Ge: return !less_ab;
  }
  return false;
}

}  // namespace

unsigned PeArray::execute(const Instruction& in) {
  for (const Operand& s : in.sources) {
    if (s.kind == Operand::Kind::Memory) check(s);
  }
  if (in.dest.kind == Operand::Kind::Memory) check(in.dest);
  if (in.dest.kind == Operand::Kind::Mask && in.dest.mask >= masks_.size()) {
    throw PeFault(fmt::format("mask register '{}' does not exist (mncore2.pe.mask_registers = {})", in.dest.text,
                              masks_.size()));
  }
  const uint8_t* enable = enabled(in);
  unsigned active = n_;
  if (enable) {
    active = 0;
    for (unsigned p = 0; p < n_; ++p) active += enable[p];
  }

  // Source words, resolved once: sources[i][j] = the n words of source i's jth SW.
  const unsigned width = in.sources.empty() ? 1 : in.sources[0].width_sw;
  std::vector<std::vector<uint32_t>> scratch(in.sources.size() * width);
  std::vector<std::vector<const uint32_t*>> src(in.sources.size());
  for (size_t i = 0; i < in.sources.size(); ++i) {
    for (unsigned j = 0; j < in.sources[i].width_sw; ++j) {
      src[i].push_back(source_word(in.sources[i], j, in.type, scratch[i * width + std::min(j, width - 1)]));
    }
  }

  if (in.op == Op::FCmp || in.op == Op::ICmp) {
    std::vector<uint8_t>& out = masks_[in.dest.mask];
    const unsigned bits = lane_bits(in.type);
    for (unsigned p = 0; p < n_; ++p) {
      if (enable && !enable[p]) continue;
      const uint64_t a = get_lane(src[0], p, 0, bits), b = get_lane(src[1], p, 0, bits);
      bool r;
      if (in.op == Op::ICmp) {
        const int32_t x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
        r = compare(in.cmp, x < y, x == y);
      } else {
        const FloatFormat f = float_format(in.type);
        r = compare(in.cmp, less(f, a, b), equal(f, a, b));
      }
      out[p] = r ? 1 : 0;
    }
    return active;
  }

  std::vector<uint32_t> result(uint64_t(in.dest.width_sw) * n_, 0);
  switch (in.op) {
    case Op::Mov:
      for (unsigned j = 0; j < width; ++j) std::memcpy(&result[uint64_t(j) * n_], src[0][j], n_ * sizeof(uint32_t));
      break;
    case Op::FAdd:
    case Op::FSub:
    case Op::FMul:
    case Op::FMax:
    case Op::FMin: {
      const FloatOp op = float_op(in.op);
      const FloatFormat f = float_format(in.type);
      const unsigned bits = lane_bits(in.type);
      const unsigned lanes = width * 32 / bits;
      for (unsigned lane = 0; lane < lanes; ++lane) {
        for (unsigned p = 0; p < n_; ++p) {
          set_lane(result, n_, p, lane, bits, op(f, get_lane(src[0], p, lane, bits), get_lane(src[1], p, lane, bits)));
        }
      }
      break;
    }
    case Op::FCvt: {
      const unsigned from_bits = lane_bits(in.type), to_bits = lane_bits(in.type_to);
      const unsigned lanes = in.sources[0].width_sw * 32 / from_bits;
      const FloatFormat from = float_format(in.type), to = float_format(in.type_to);
      for (unsigned lane = 0; lane < lanes; ++lane) {
        for (unsigned p = 0; p < n_; ++p) {
          set_lane(result, n_, p, lane, to_bits, convert(from, to, get_lane(src[0], p, lane, from_bits)));
        }
      }
      break;
    }
    case Op::IAdd:
    case Op::ISub:
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Shl:
    case Op::Shr:
      for (unsigned j = 0; j < width; ++j) {
        const uint32_t* a = src[0][j];
        const uint32_t* b = src[1][j];
        uint32_t* r = &result[uint64_t(j) * n_];
        for (unsigned p = 0; p < n_; ++p) r[p] = int_op(in.op, a[p], b[p]);
      }
      break;
    default:
      throw PeFault(fmt::format("'{}' is not an ALU instruction", op_name(in.op)));
  }
  commit(in.dest, result, enable);
  return active;
}

}  // namespace npuvp::mncore
