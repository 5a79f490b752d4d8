// The vector unit's region-proposal instructions (Atlas training products and 310P; the TIK
// reference's vrpsort16, vmrgsort4, vconcat, vextract; Ascend C's RpSort16.md, MrgSort4.md,
// ProposalConcat.md, ProposalExtract.md). A proposal is 8 elements of the dtype (16 B of half
// or 32 B of float): x1, y1, x2, y2, score, label and two reserved ones. The sorts order by
// the score, descending, and are stable: of equal scores the earlier proposal (or the earlier
// queue) comes first, as the references say. NaN sorts above every number, as in Sort32.
#include "models/aicore/vector_repeat.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace npuvp::aicore::vector {
namespace {

constexpr unsigned kPerRepeat = 16;  // proposals (or field elements) per repeat
constexpr unsigned kFields = 8;
constexpr unsigned kScore = 4;

inline bool before(float a, float b) {
  if (a != a) return b == b;
  if (b != b) return false;
  return a > b;
}

template <typename T>
float score_at(const uint8_t* proposal) {
  T s;
  std::memcpy(&s, proposal + kScore * sizeof(T), sizeof(T));
  return static_cast<float>(s);
}

template <typename T>
void rp_sort16(const VectorOp& op, uint8_t* ub) {
  constexpr size_t rp = kFields * sizeof(T);
  for (uint32_t r = 0; r < op.repeat; ++r) {
    uint8_t in[kPerRepeat][rp];
    std::memcpy(in, ub + op.src0 + uint64_t(r) * kPerRepeat * rp, sizeof in);  // dst may be src
    unsigned order[kPerRepeat];
    for (unsigned i = 0; i < kPerRepeat; ++i) order[i] = i;
    std::stable_sort(order, order + kPerRepeat,
                     [&](unsigned a, unsigned b) { return before(score_at<T>(in[a]), score_at<T>(in[b])); });
    for (unsigned i = 0; i < kPerRepeat; ++i) {
      std::memcpy(ub + op.dst + (uint64_t(r) * kPerRepeat + i) * rp, in[order[i]], rp);
    }
  }
}

template <typename T>
void mrg_sort4(const VectorOp& op, uint8_t* ub, VectorUnit::MrgSortResult* result) {
  constexpr size_t rp = kFields * sizeof(T);
  const MrgSortFields f = mrg_sort_fields(op);
  const uint64_t step = f.total() * rp;
  for (uint32_t r = 0; r < op.repeat; ++r) {
    std::vector<uint8_t> queue[4];  // read before anything is written
    for (unsigned q = 0; q < 4; ++q) {
      queue[q].resize(f.length[q] * rp);
      if (f.length[q] > 0) std::memcpy(queue[q].data(), ub + f.queue[q] + r * step, queue[q].size());
    }
    uint32_t head[4] = {0, 0, 0, 0};
    std::vector<uint8_t> out;
    for (;;) {
      int best = -1;
      bool exhausted = false;
      for (unsigned q = 0; q < 4; ++q) {
        if (!((f.valid >> q) & 1)) continue;
        if (head[q] == f.length[q]) {
          exhausted = true;
          continue;
        }
        if (best < 0 || before(score_at<T>(&queue[q][head[q] * rp]), score_at<T>(&queue[best][head[best] * rp]))) {
          best = int(q);
        }
      }
      if (best < 0 || (exhausted && f.stop_when_exhausted)) break;
      const uint8_t* p = &queue[best][head[best]++ * rp];
      out.insert(out.end(), p, p + rp);
    }
    if (!out.empty()) std::memcpy(ub + op.dst + r * step, out.data(), out.size());
    for (unsigned q = 0; q < 4; ++q) result->taken[q] = static_cast<uint16_t>(head[q]);
  }
}

// ProposalConcat writes only its field of each proposal; ProposalExtract writes 16 packed
// elements per repeat.
template <typename T>
void concat_extract(const VectorOp& op, uint8_t* ub) {
  constexpr size_t rp = kFields * sizeof(T);
  const bool concat = op.op == VecOp::ProposalConcat;
  for (uint64_t i = 0; i < uint64_t(op.repeat) * kPerRepeat; ++i) {
    const uint64_t field = i * rp + op.proposal_field * sizeof(T), packed = i * sizeof(T);
    if (concat) {
      std::memmove(ub + op.dst + field, ub + op.src0 + packed, sizeof(T));
    } else {
      std::memmove(ub + op.dst + packed, ub + op.src0 + field, sizeof(T));
    }
  }
}

template <typename T>
void run(const VectorOp& op, uint8_t* ub, VectorUnit::MrgSortResult* result) {
  switch (op.op) {
    case VecOp::RpSort16: return rp_sort16<T>(op, ub);
    case VecOp::MrgSort4: return mrg_sort4<T>(op, ub, result);
    default: return concat_extract<T>(op, ub);
  }
}

}  // namespace

// MrgSort4.md: validBit 3, 7 or 15, lengths in [0, 4095], repeats over four queues of one
// length stored back to back; ProposalConcat.md: modeNumber in [0, 5].
std::string proposal_check(const VectorOp& op) {
  if (op.op == VecOp::ProposalConcat || op.op == VecOp::ProposalExtract) {
    if (op.proposal_field > 5) return fmt::format("modeNumber {} out of range [0, 5]", op.proposal_field);
    return {};
  }
  if (op.op != VecOp::MrgSort4) return {};
  return merge_check(op, 8 * dtype_size(op.dtype));  // a proposal is 8 elements
}

void execute_proposal(const VectorOp& op, uint8_t* ub, VectorUnit::MrgSortResult* result) {
  if (op.dtype == DType::F16) return run<_Float16>(op, ub, result);
  if (op.dtype == DType::F32) return run<float>(op, ub, result);
  unsupported(op);
}

}  // namespace npuvp::aicore::vector
