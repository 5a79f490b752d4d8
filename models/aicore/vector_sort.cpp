// The vector unit's sorting instructions (A2; docs/vector-isa.md §3.6): Sort32 sorts each
// repeat's 32 scores, descending, into 8 B records (score in the low bytes, its u32 index in
// the high 4 B); MrgSort merges up to four such sorted queues into one. Both are stable: of
// equal scores the earlier element (or the earlier queue) comes first (Sort32.md, MrgSort.md).
#include "models/aicore/vector_repeat.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace npuvp::aicore::vector {
namespace {
namespace vector_sort_cpp {  // named after the file: unity batches share anonymous namespaces

// One record: the score widened to float for ordering, and its 8 bytes as they are.
struct Record {
  float score;
  uint64_t bytes;
};

// Descending, with NaN above everything (the model's choice; the docs are silent): true if
// `a` goes before `b` strictly. Equal scores (+0 and -0 too) keep their order.
inline bool before(float a, float b) {
  if (a != a) return b == b;
  if (b != b) return false;
  return a > b;
}

template <typename T>
float score_of(uint64_t bytes) {
  T s;
  std::memcpy(&s, &bytes, sizeof(T));
  return static_cast<float>(s);
}

template <typename T>
void run_sort32(const VectorOp& op, uint8_t* ub) {
  for (uint32_t r = 0; r < op.repeat; ++r) {
    Record rec[32];
    for (unsigned i = 0; i < 32; ++i) {
      T s;
      uint32_t index;
      std::memcpy(&s, ub + op.src0 + (uint64_t(r) * 32 + i) * sizeof(T), sizeof(T));
      std::memcpy(&index, ub + op.src1 + (uint64_t(r) * 32 + i) * 4, 4);
      uint64_t bytes = 0;  // f16: the 2 B between score and index are written as 0
      std::memcpy(&bytes, &s, sizeof(T));
      bytes |= uint64_t(index) << 32;
      rec[i] = {static_cast<float>(s), bytes};
    }
    std::stable_sort(rec, rec + 32, [](const Record& a, const Record& b) { return before(a.score, b.score); });
    for (unsigned i = 0; i < 32; ++i) std::memcpy(ub + op.dst + (uint64_t(r) * 32 + i) * 8, &rec[i].bytes, 8);
  }
}

template <typename T>
void run_mrg_sort(const VectorOp& op, uint8_t* ub, VectorUnit::MrgSortResult* result) {
  const MrgSortFields f = mrg_sort_fields(op);
  const uint64_t step = f.total() * 8;
  std::vector<uint64_t> out;
  for (uint32_t r = 0; r < op.repeat; ++r) {
    // Every queue is read before anything is written (the docs forbid overlap anyway).
    std::vector<uint64_t> queue[4];
    for (unsigned q = 0; q < 4; ++q) {
      if (!((f.valid >> q) & 1)) continue;
      queue[q].resize(f.length[q]);
      if (f.length[q] > 0) std::memcpy(queue[q].data(), ub + f.queue[q] + r * step, f.length[q] * 8ull);
    }
    size_t head[4] = {0, 0, 0, 0};
    out.clear();
    for (;;) {
      int best = -1;
      bool exhausted = false;
      for (unsigned q = 0; q < 4; ++q) {
        if (!((f.valid >> q) & 1)) continue;
        if (head[q] == queue[q].size()) {
          exhausted = true;
          continue;
        }
        if (best < 0 || before(score_of<T>(queue[q][head[q]]), score_of<T>(queue[best][head[best]]))) best = int(q);
      }
      if (best < 0 || (exhausted && f.stop_when_exhausted)) break;
      out.push_back(queue[best][head[best]++]);
    }
    if (!out.empty()) std::memcpy(ub + op.dst + r * step, out.data(), out.size() * 8);
    for (unsigned q = 0; q < 4; ++q) result->taken[q] = static_cast<uint16_t>(head[q]);
  }
}

}  // namespace vector_sort_cpp
}  // namespace

MrgSortFields mrg_sort_fields(const VectorOp& op) {
  MrgSortFields f;
  f.queue[0] = op.src0;
  f.queue[1] = op.src1;
  f.queue[2] = op.src2;
  f.queue[3] = op.src3;
  for (unsigned q = 0; q < 4; ++q) f.length[q] = static_cast<uint32_t>((op.mask_lo >> (16 * q)) & 0xffff);
  f.valid = static_cast<unsigned>(op.mask_hi & 0xff);
  f.stop_when_exhausted = (op.mask_hi >> 8) & 1;
  // Only the valid queues count.
  for (unsigned q = 0; q < 4; ++q) {
    if (!((f.valid >> q) & 1)) f.length[q] = 0;
  }
  return f;
}

// MrgSort.md and MrgSort4.md: validBit 3, 7 or 15; lengths in [0, 4095]; more than one repeat
// only over four queues of one length stored back to back, running to the end.
std::string merge_check(const VectorOp& op, uint64_t record_bytes) {
  const unsigned valid = static_cast<unsigned>(op.mask_hi & 0xff);
  if (valid != 3 && valid != 7 && valid != 15) return fmt::format("validBit {} is not 3, 7 or 15", valid);
  const MrgSortFields f = mrg_sort_fields(op);
  for (unsigned q = 0; q < 4; ++q) {
    if (f.length[q] > 4095) return fmt::format("elementLengths[{}] {} out of range [0, 4095]", q, f.length[q]);
  }
  if (op.repeat > 1) {
    const uint64_t n = f.length[0], bytes = n * record_bytes;
    const bool equal = f.length[1] == n && f.length[2] == n && f.length[3] == n;
    const bool contiguous = f.queue[1] == f.queue[0] + bytes && f.queue[2] == f.queue[1] + bytes &&
                            f.queue[3] == f.queue[2] + bytes;
    if (valid != 15 || f.stop_when_exhausted || !equal || !contiguous) {
      return fmt::format("repeatTimes {} needs four queues (validBit 15) of one length stored back to back and "
                         "ifExhaustedSuspension false", op.repeat);
    }
  }
  return {};
}

std::string sort_check(const VectorOp& op) { return op.op == VecOp::MrgSort ? merge_check(op, 8) : std::string(); }

void execute_sort(const VectorOp& op, uint8_t* ub, VectorUnit::MrgSortResult* result) {
  const bool f16 = op.dtype == DType::F16;
  if (op.dtype != DType::F16 && op.dtype != DType::F32) unsupported(op);
  if (op.op == VecOp::Sort32) return f16 ? vector_sort_cpp::run_sort32<_Float16>(op, ub) : vector_sort_cpp::run_sort32<float>(op, ub);
  return f16 ? vector_sort_cpp::run_mrg_sort<_Float16>(op, ub, result) : vector_sort_cpp::run_mrg_sort<float>(op, ub, result);
}

}  // namespace npuvp::aicore::vector
