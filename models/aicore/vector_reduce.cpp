// The vector unit's reductions (docs/vector-isa.md): ReduceSum/Max/Min (one result over every
// repeat), WholeReduceSum/Max/Min (one per repeat), BlockReduceSum/Max/Min (one per 32 B
// block) and PairReduceSum (one per adjacent pair). They read their source through the repeat engine like every instruction, but write
// packed result records (value, index or both) instead of strided blocks, and the order of
// their additions (binary trees, rounded to f16 with saturation) and the NaN and tie rules of
// their extremes are a numeric contract of their own.
#include "models/aicore/vector_repeat.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace npuvp::aicore::vector {
namespace {

// The unsigned type of an element's bits.
template <unsigned kSize>
using BitsT = std::conditional_t<kSize == 1, uint8_t, std::conditional_t<kSize == 2, uint16_t, uint32_t>>;

// One addition of a sum reduction: exact IEEE in float; for f16 rounded to half, with a
// finite overflow saturating to +-65504 (Ascend C's documented BlockReduceSum behaviour).
template <typename T>
inline float reduce_add(float a, float b) {
  const float s = a + b;
  if constexpr (std::is_same_v<T, _Float16>) {
    const float h = static_cast<float>(static_cast<_Float16>(s));
    if (std::isinf(h) && std::isfinite(a) && std::isfinite(b)) return std::copysign(65504.0f, s);
    return h;
  } else {
    return s;
  }
}

// Sum of x[0..n) by a binary tree of adjacent pairs, n a power of two; destroys x.
template <typename T>
float tree_sum(float* x, size_t n) {
  for (; n > 1; n /= 2) {
    for (size_t i = 0; i < n / 2; ++i) x[i] = reduce_add<T>(x[2 * i], x[2 * i + 1]);
  }
  return x[0];
}

// Running extreme: the first NaN, else the largest (smallest) value, +0 above -0, the
// earliest of equal candidates.
struct Extreme {
  bool max;
  bool found = false;
  float value = 0;
  uint64_t index = 0;
  void offer(float v, uint64_t i) {
    if (!found) {
      found = true;
      value = v;
      index = i;
      return;
    }
    if (value != value) return;  // a NaN is final
    bool better;
    if (v != v) {
      better = true;
    } else if (v == value) {
      better = v == 0 && (max ? std::signbit(value) && !std::signbit(v)
                              : !std::signbit(value) && std::signbit(v));
    } else {
      better = max ? v > value : v < value;
    }
    if (better) {
      value = v;
      index = i;
    }
  }
};

// Stores a reduction value (already of T's precision) or an index (as T-sized integer bits).
template <typename T>
inline void store_value(uint8_t* out, float v) {
  const T t = static_cast<T>(v);
  std::memcpy(out, &t, sizeof(T));
}
template <typename T>
inline void store_index(uint8_t* out, uint64_t i) {
  const BitsT<sizeof(T)> b = static_cast<BitsT<sizeof(T)>>(i);
  std::memcpy(out, &b, sizeof(T));
}

template <typename T>
void store_record(uint8_t* out, const VectorOp& op, float value, uint64_t index) {
  switch (op.order) {
    case ReduceOrder::ValueIndex:
      store_value<T>(out, value);
      store_index<T>(out + sizeof(T), index);
      break;
    case ReduceOrder::IndexValue:
      store_index<T>(out, index);
      store_value<T>(out + sizeof(T), value);
      break;
    case ReduceOrder::OnlyValue: store_value<T>(out, value); break;
    case ReduceOrder::OnlyIndex: {  // a u32 on every dtype (record_elems)
      const uint32_t i = static_cast<uint32_t>(index);
      std::memcpy(out, &i, sizeof i);
      break;
    }
  }
}

// Calls fn(r, lanes, m) for every executed repeat with an enabled element, lanes being the
// repeat's src0 elements widened to float (lanes of disabled blocks are stale).
template <typename T, typename Fn>
void for_each_source_repeat(const VectorOp& op, const uint8_t* ub, Fn fn) {
  constexpr unsigned epr = 256 / sizeof(T);
  constexpr unsigned epb = 32 / sizeof(T);
  alignas(32) T s[epr] = {};
  alignas(32) float lanes[epr];
  const MaskPlan plan{op, epr};
  const uint32_t runs = plan.repeats();
  for (uint32_t r = 0; r < runs; ++r) {
    const ElemMask m = plan.mask(r);
    uint64_t bits[kBlocksPerRepeat];
    const unsigned live = live_blocks(m, kBlocksPerRepeat, epb, bits);
    if (live == 0) continue;
    gather_blocks(ub, src0_of(op), r, live, s);
    widen<T, epr>(s, lanes);
    fn(r, lanes, m);
  }
}

template <typename T>
void run_reduce(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epr = 256 / sizeof(T);
  if (op.op == VecOp::ReduceSum) {
    std::vector<float> partial;
    for_each_source_repeat<T>(op, ub, [&](uint32_t, float* lanes, const ElemMask& m) {
      for (unsigned i = 0; i < epr; ++i) {
        if (!m.test(i)) lanes[i] = -0.0f;  // the exact identity of IEEE addition
      }
      partial.push_back(tree_sum<T>(lanes, epr));
    });
    if (partial.empty()) return;
    float sum;
    if (op.counter_mode) {  // count form: repeat results added in order
      sum = partial[0];
      for (size_t k = 1; k < partial.size(); ++k) sum = reduce_add<T>(sum, partial[k]);
    } else {  // mask form: repeat results added by a tree too
      size_t n = 1;
      while (n < partial.size()) n *= 2;
      partial.resize(n, -0.0f);
      sum = tree_sum<T>(partial.data(), n);
    }
    store_value<T>(ub + op.dst, sum);
    return;
  }
  Extreme e{op.op == VecOp::ReduceMax};
  for_each_source_repeat<T>(op, ub, [&](uint32_t r, const float* lanes, const ElemMask& m) {
    for (unsigned i = 0; i < epr; ++i) {
      if (m.test(i)) e.offer(lanes[i], static_cast<uint64_t>(r) * epr + i);
    }
  });
  if (e.found) store_record<T>(ub + op.dst, op, e.value, e.index);
}

template <typename T>
void run_whole_reduce(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epr = 256 / sizeof(T);
  const uint64_t rec_bytes = record_elems(op) * sizeof(T);
  // Each repeat reads its source, then writes its record; repeats run in order, so a
  // destination overlapping a later repeat's source feeds it, as with every other op.
  for_each_source_repeat<T>(op, ub, [&](uint32_t r, float* lanes, const ElemMask& m) {
    uint8_t* out = ub + op.dst + static_cast<uint64_t>(r) * op.dst_rep_stride * rec_bytes;
    if (op.op == VecOp::WholeReduceSum) {
      for (unsigned i = 0; i < epr; ++i) {
        if (!m.test(i)) lanes[i] = -0.0f;
      }
      store_value<T>(out, tree_sum<T>(lanes, epr));
      return;
    }
    Extreme e{op.op == VecOp::WholeReduceMax};
    for (unsigned i = 0; i < epr; ++i) {
      if (m.test(i)) e.offer(lanes[i], i);
    }
    store_record<T>(out, op, e.value, e.index);
  });
}

template <typename T>
void run_block_reduce(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epb = 32 / sizeof(T);
  for_each_source_repeat<T>(op, ub, [&](uint32_t r, float* lanes, const ElemMask& m) {
    uint8_t* out = ub + op.dst + static_cast<uint64_t>(r) * op.dst_rep_stride * 8 * sizeof(T);
    for (unsigned b = 0; b < kBlocksPerRepeat; ++b) {
      if (block_bits(m, b, epb) == 0) continue;  // no input: no result
      float* x = lanes + b * epb;
      if (op.op == VecOp::BlockReduceSum) {
        for (unsigned j = 0; j < epb; ++j) {
          if (!m.test(b * epb + j)) x[j] = -0.0f;
        }
        store_value<T>(out + b * sizeof(T), tree_sum<T>(x, epb));
      } else {
        Extreme e{op.op == VecOp::BlockReduceMax};
        for (unsigned j = 0; j < epb; ++j) {
          if (m.test(b * epb + j)) e.offer(x[j], j);
        }
        store_value<T>(out + b * sizeof(T), e.value);
      }
    }
  });
}

// PairReduceSum: each adjacent pair of a repeat's elements gives one sum, the repeat's
// results packed into 128 B. A pair with one disabled element gives the other (added to -0,
// the identity); a pair with none enabled leaves its result unwritten (ReducePairElem.md,
// A2/310P/910 behaviour).
template <typename T>
void run_pair_reduce(const VectorOp& op, uint8_t* ub) {
  constexpr unsigned epr = 256 / sizeof(T);
  for_each_source_repeat<T>(op, ub, [&](uint32_t r, const float* lanes, const ElemMask& m) {
    uint8_t* out = ub + op.dst + static_cast<uint64_t>(r) * op.dst_rep_stride * 128;
    for (unsigned k = 0; k < epr / 2; ++k) {
      const bool a = m.test(2 * k), b = m.test(2 * k + 1);
      if (!a && !b) continue;
      const float sum = reduce_add<T>(a ? lanes[2 * k] : -0.0f, b ? lanes[2 * k + 1] : -0.0f);
      store_value<T>(out + k * sizeof(T), sum);
    }
  });
}

template <typename T>
void dispatch_reduction(const VectorOp& op, uint8_t* ub) {
  if (op.op == VecOp::PairReduceSum) return run_pair_reduce<T>(op, ub);
  if (is_reduce(op.op)) return run_reduce<T>(op, ub);
  if (is_whole_reduce(op.op)) return run_whole_reduce<T>(op, ub);
  return run_block_reduce<T>(op, ub);
}

}  // namespace

void execute_reduction(const VectorOp& op, uint8_t* ub) {
  if (op.dtype == DType::F16) return dispatch_reduction<_Float16>(op, ub);
  if (op.dtype == DType::F32) return dispatch_reduction<float>(op, ub);
  unsupported(op);
}

}  // namespace npuvp::aicore::vector
