#include "models/memory/atomic_rmw.h"

#include <cmath>
#include <cstring>

#include "models/numerics/bfloat16.h"
#include "models/numerics/fp16.h"

namespace npuvp::memory {

namespace {
using Op = AtomicExtension::Op;

template <class T>
T pick(Op op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a : b;
  }
  return op == Op::Max ? (b > a ? b : a) : (b < a ? b : a);
}

// Element by element over host bytes (GM need not be aligned in the host's view).
template <class Stored, class Combine>
void each(uint8_t* mem, const uint8_t* src, uint64_t bytes, Combine&& combine) {
  for (uint64_t at = 0; at + sizeof(Stored) <= bytes; at += sizeof(Stored)) {
    Stored a, b;
    std::memcpy(&a, mem + at, sizeof a);
    std::memcpy(&b, src + at, sizeof b);
    const Stored r = combine(a, b);
    std::memcpy(mem + at, &r, sizeof r);
  }
}

template <class Int>
void integers(Op op, uint8_t* mem, const uint8_t* src, uint64_t bytes) {
  using Unsigned = std::make_unsigned_t<Int>;
  each<Int>(mem, src, bytes, [op](Int a, Int b) {
    if (op == Op::Add) return static_cast<Int>(static_cast<Unsigned>(Unsigned(a) + Unsigned(b)));
    return pick(op, a, b);
  });
}
}  // namespace

void atomic_combine(const AtomicExtension& atomic, uint8_t* mem, const uint8_t* src, uint64_t bytes) {
  const Op op = atomic.op;
  switch (atomic.type) {
    case AtomicExtension::Type::F32:
      each<float>(mem, src, bytes, [op](float a, float b) { return op == Op::Add ? a + b : pick(op, a, b); });
      break;
    case AtomicExtension::Type::F16:
      each<uint16_t>(mem, src, bytes, [op](uint16_t a, uint16_t b) {
        const double x = double(f16_from_bits(a)), y = double(f16_from_bits(b));
        if (op == Op::Add) return f16_bits(static_cast<_Float16>(x + y));  // exact in double: one rounding
        return f16_bits(static_cast<_Float16>(pick(op, x, y)));
      });
      break;
    case AtomicExtension::Type::BF16:
      each<uint16_t>(mem, src, bytes, [op](uint16_t a, uint16_t b) {
        const float x = bfloat16_t::from_bits(a), y = bfloat16_t::from_bits(b);
        // f32 addition, then to bf16 (each rounding to nearest-even).
        return bfloat16_t(op == Op::Add ? x + y : pick(op, x, y)).bits;
      });
      break;
    case AtomicExtension::Type::S32: integers<int32_t>(op, mem, src, bytes); break;
    case AtomicExtension::Type::S16: integers<int16_t>(op, mem, src, bytes); break;
    case AtomicExtension::Type::S8: integers<int8_t>(op, mem, src, bytes); break;
  }
}

}  // namespace npuvp::memory
