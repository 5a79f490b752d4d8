// The non-template half of the vector API (sw/ascendc/ascendc/vector.h): count and mask
// forms become VectorOps on the current core, and each core's mask register (Normal/Counter
// mode, mask bits or element count) lives here. docs/vector-isa.md describes the semantics.
#include <algorithm>
#include <map>
#include <string>

#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/vector_unit.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

using aicore::AiCore;
using aicore::DType;
using aicore::MemSpace;
using aicore::VecOp;
using aicore::VectorOp;
using aicore::VectorUnit;

namespace {

// The mask register. Hardware keeps it per core; so does the model, keyed by the core (a
// core's state persists across kernels, like the register, until a kernel changes it).
struct MaskState {
  bool counter = false;
  uint64_t lo = ~0ull, hi = ~0ull;  // Normal: bits; Counter: lo is the element count
};

MaskState& mask_state(const AiCore& c) {
  static std::map<const AiCore*, MaskState> states;
  return states[&c];
}

uint64_t first_bits_lo(uint64_t n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
uint64_t first_bits_hi(uint64_t n) { return n <= 64 ? 0 : n >= 128 ? ~0ull : (1ull << (n - 64)) - 1; }

// Issues `v` over `count` elements in Counter mode, as instructions of at most max_repeat
// repeats, each starting where the previous one stopped.
void issue_counted(AiCore& c, VectorOp v, uint64_t count) {
  const uint64_t epr = VectorUnit::repeat_elems(v);
  const uint64_t per_instr = epr * VectorUnit::max_repeat(v.op);
  while (count > 0) {
    const uint64_t n = std::min(count, per_instr);
    VectorOp chunk = v;
    chunk.counter_mode = true;
    chunk.mask_lo = n;
    chunk.mask_hi = 0;
    chunk.repeat = static_cast<uint32_t>((n + epr - 1) / epr);
    c.issue(chunk);
    v = VectorUnit::advance(v, chunk.repeat);
    count -= n;
  }
}

}  // namespace

uint64_t vector_address(MemSpace space, uint64_t addr, const char* api) {
  if (space != MemSpace::UB) {
    core().fail(api, fmt::format("operand is in {}; vector instructions work on UB only",
                                 aicore::mem_space_name(space)));
  }
  return addr;
}

void vector_fail(const char* api, const char* why) { core().fail(api, why); }

uint32_t vector_nonneg(int64_t value, const char* what, const char* api) {
  if (value < 0) vector_fail(api, fmt::format("{} {} is negative", what, value).c_str());
  return static_cast<uint32_t>(std::min<int64_t>(value, UINT32_MAX));
}

void vector_count(VectorOp v, int64_t count) {
  AiCore& c = core();
  const char* api = aicore::vec_op_name(v.op);
  if (count < 0) c.fail(api, fmt::format("count {} is negative", count));
  if (v.op == VecOp::Cast) {
    // Contiguous elements: the narrower operand's repeat is fewer than 8 blocks long.
    const unsigned epr = VectorUnit::repeat_elems(v);
    v.src0_rep_stride = epr * aicore::dtype_size(v.dtype) / 32;
    v.dst_rep_stride = epr * aicore::dtype_size(v.dst_dtype) / 32;
  }
  if (v.op == VecOp::Compare || v.op == VecOp::CompareScalar) {
    const uint64_t epr = VectorUnit::repeat_elems(v);
    if (static_cast<uint64_t>(count) % epr != 0) {
      c.fail(api, fmt::format("count {} of {} is not a whole number of 256 B repeats ({} elements); "
                              "the bit-mask result is written per repeat",
                              count, aicore::dtype_name(v.dtype), epr));
    }
  }
  issue_counted(c, v, static_cast<uint64_t>(count));
  mask_state(c) = MaskState{};  // Ascend C's count forms restore Normal mode and a full mask
}

void vector_masked(VectorOp v, VecMask mask, bool set_mask, int64_t repeat) {
  AiCore& c = core();
  MaskState& st = mask_state(c);
  const unsigned epr = VectorUnit::repeat_elems(v);
  if (repeat < 0) c.fail(aicore::vec_op_name(v.op), fmt::format("repeatTimes {} is negative", repeat));
  if (set_mask) {
    if (st.counter) {
      st.lo = mask.lo;  // Counter mode: the (first) mask word is the element count
      st.hi = 0;
    } else if (mask.bitwise) {
      st.lo = mask.lo;
      st.hi = mask.hi;
    } else {
      // Continuous mode: the first `mask` elements of every repeat.
      const uint64_t max = std::min<uint64_t>(epr, 128);
      if (mask.lo < 1 || mask.lo > max) {
        v.repeat = static_cast<uint32_t>(std::min<int64_t>(repeat, UINT32_MAX));
        c.fail(aicore::describe(v), fmt::format("continuous mask {} out of range [1, {}] for {}", mask.lo,
                                                max, aicore::dtype_name(v.dtype)));
      }
      st.lo = first_bits_lo(mask.lo);
      st.hi = first_bits_hi(mask.lo);
    }
  }
  if (st.counter) {
    issue_counted(c, v, st.lo);  // repeatTimes does not apply in Counter mode
    return;
  }
  v.mask_lo = st.lo;
  // An explicit mask is checked as given ("mask_hi must be 0 for f32"); the register's high
  // word is simply not used by 64-element repeats.
  v.mask_hi = !set_mask && epr <= 64 ? 0 : st.hi;
  v.repeat = static_cast<uint32_t>(std::min<int64_t>(repeat, UINT32_MAX));
  c.issue(v);
}

void vector_issue(const VectorOp& v) { core().issue(v); }

VectorOp prepare_select(DType type, AscendC::SELMODE mode, uint64_t dst, uint64_t sel, uint64_t src0,
                        uint64_t src1, double scalar, bool scalar_form) {
  const bool scalar_mode = mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE;
  if (scalar_form != scalar_mode) {
    vector_fail("Select", scalar_form ? "a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE"
                                      : "SELMODE::VSEL_TENSOR_SCALAR_MODE needs a scalar src1");
  }
  VectorOp v = vec_op(VecOp::Select, type, dst, src0, src1, scalar);
  v.sel = static_cast<aicore::SelMode>(mode);
  if (mode == AscendC::SELMODE::VSEL_CMPMASK_SPR) {
    // Mode 0 selects with the CMPMASK register: load it from selMask, as Ascend C does.
    VectorOp load = vec_op(VecOp::SetCmpMask, type, 0, sel);
    core().issue(load);
  } else {
    v.src2 = sel;
  }
  return v;
}

void set_vector_mask_len(DType type, bool counter, int64_t len) {
  AiCore& c = core();
  MaskState& st = mask_state(c);
  if (counter) {
    if (len < 0) c.fail("SetVectorMask", fmt::format("element count {} is negative", len));
    st.lo = static_cast<uint64_t>(len);
    st.hi = 0;
    return;
  }
  const int64_t max = std::min<int64_t>(VectorUnit::elems_per_repeat(type), 128);
  if (len < 1 || len > max) {
    c.fail("SetVectorMask", fmt::format("continuous mask {} out of range [1, {}] for {}", len, max,
                                        aicore::dtype_name(type)));
  }
  st.lo = first_bits_lo(static_cast<uint64_t>(len));
  st.hi = first_bits_hi(static_cast<uint64_t>(len));
}

void set_vector_mask_bits(uint64_t hi, uint64_t lo) {
  MaskState& st = mask_state(core());
  st.lo = lo;
  st.hi = hi;
}

}  // namespace npuvp::ascendc

namespace AscendC {

void SetMaskCount() { npuvp::ascendc::mask_state(npuvp::ascendc::core()).counter = true; }
void SetMaskNorm() { npuvp::ascendc::mask_state(npuvp::ascendc::core()).counter = false; }
void ResetMask() {
  auto& st = npuvp::ascendc::mask_state(npuvp::ascendc::core());
  st.lo = st.hi = ~0ull;
}

}  // namespace AscendC
