// The built-in AI CPU kernels: what ONNX graphs need beyond the AI Cores (TopK, ArgMax,
// NonMaxSuppression), with ONNX's semantics (onnx.ai/onnx/operators: TopK-11, ArgMax-13,
// NonMaxSuppression-11). Each reads and writes GM through its AicpuContext and charges its
// work by op class (docs/soc.md "AI CPU cost model"). Argument layouts are in aicpu_kernels.h.
#include "models/soc/aicpu_kernels.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <fmt/format.h>

namespace npuvp::soc {

namespace {

void need(AicpuContext& ctx, size_t tensors, size_t ints, size_t floats) {
  const AicpuArgs& a = ctx.args();
  if (a.tensors.size() < tensors || a.ints.size() < ints || a.floats.size() < floats) {
    ctx.fail(fmt::format("needs {} tensors, {} integer and {} real arguments; got {}, {} and {}", tensors, ints,
                         floats, a.tensors.size(), a.ints.size(), a.floats.size()));
  }
}

// Rows [first, last) of `rows` rows handled by this block.
std::pair<uint64_t, uint64_t> my_rows(const AicpuContext& ctx, uint64_t rows) {
  const uint64_t per = (rows + ctx.block_num() - 1) / ctx.block_num();
  const uint64_t first = std::min<uint64_t>(rows, per * ctx.block_idx());
  return {first, std::min<uint64_t>(rows, first + per)};
}

// TopK along axis 1 of an [outer, n, inner] float tensor (inner 1: the last axis).
void topk(AicpuContext& ctx) {
  need(ctx, 3, 3, 0);
  const auto& a = ctx.args();
  const int64_t rows = a.ints[0], n = a.ints[1], k = a.ints[2];
  const bool largest = a.ints.size() > 3 ? a.ints[3] != 0 : true;
  const bool sorted = a.ints.size() > 4 ? a.ints[4] != 0 : true;
  const int64_t inner = a.ints.size() > 5 ? a.ints[5] : 1;
  if (rows < 0 || n < 1 || k < 0 || k > n || inner < 1) {
    ctx.fail(fmt::format("TopK: k={} must be in [0, n={}] (rows {}, inner {})", k, n, rows, inner));
  }
  const auto [first, last] = my_rows(ctx, uint64_t(rows));
  if (first >= last) return;
  const uint64_t mine = last - first;
  const float* x = ctx.input<float>(a.tensors[0] + first * n * inner * 4, mine * n * inner);
  float* values = ctx.output<float>(a.tensors[1] + first * k * inner * 4, mine * k * inner);
  int64_t* indices = ctx.output<int64_t>(a.tensors[2] + first * k * inner * 8, mine * k * inner);
  // A partial sort: about n log2(k) comparisons per row.
  const double lines = double(mine) * double(inner);
  ctx.charge(AicpuOpClass::Compare, lines * double(n) * std::max(1.0, std::log2(double(k) + 1)));
  ctx.charge(AicpuOpClass::Branchy, lines * double(k));
  if (!ctx.has_data()) return;
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (uint64_t r = 0; r < mine; ++r) {
    for (int64_t j = 0; j < inner; ++j) {
      auto at = [&](int64_t i) { return x[(int64_t(r) * n + i) * inner + j]; };
      std::iota(order.begin(), order.end(), 0);
      // ONNX: of equal values the lower index comes first.
      auto before = [&](int64_t p, int64_t q) {
        if (at(p) != at(q)) return largest ? at(p) > at(q) : at(p) < at(q);
        return p < q;
      };
      std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      if (!sorted) std::sort(order.begin(), order.begin() + k);  // unsorted: any order; ours is by index
      for (int64_t i = 0; i < k; ++i) {
        values[(int64_t(r) * k + i) * inner + j] = at(order[i]);
        indices[(int64_t(r) * k + i) * inner + j] = order[i];
      }
    }
  }
}

// ArgMax along axis 1 of an [outer, n, inner] float tensor (int64 indices [outer, inner]).
void argmax(AicpuContext& ctx) {
  need(ctx, 2, 2, 0);
  const auto& a = ctx.args();
  const int64_t rows = a.ints[0], n = a.ints[1];
  const bool select_last = a.ints.size() > 2 && a.ints[2] != 0;
  const int64_t inner = a.ints.size() > 3 ? a.ints[3] : 1;
  if (rows < 0 || n < 1 || inner < 1) ctx.fail(fmt::format("ArgMax: shape [{}, {}, {}] is empty", rows, n, inner));
  const auto [first, last] = my_rows(ctx, uint64_t(rows));
  if (first >= last) return;
  const uint64_t mine = last - first;
  const float* x = ctx.input<float>(a.tensors[0] + first * n * inner * 4, mine * n * inner);
  int64_t* out = ctx.output<int64_t>(a.tensors[1] + first * inner * 8, mine * inner);
  ctx.charge(AicpuOpClass::Compare, double(mine) * double(n) * double(inner));
  if (!ctx.has_data()) return;
  for (uint64_t r = 0; r < mine; ++r) {
    for (int64_t j = 0; j < inner; ++j) {
      auto at = [&](int64_t i) { return x[(int64_t(r) * n + i) * inner + j]; };
      int64_t best = 0;
      for (int64_t i = 1; i < n; ++i) {
        if (at(i) > at(best) || (select_last && at(i) == at(best))) best = i;
      }
      out[int64_t(r) * inner + j] = best;
    }
  }
}

struct Box { float y1, x1, y2, x2; };

Box corners(const float* b, bool center) {
  if (center) {  // [x_center, y_center, width, height]
    return {b[1] - b[3] / 2, b[0] - b[2] / 2, b[1] + b[3] / 2, b[0] + b[2] / 2};
  }
  // [y1, x1, y2, x2], any pair of diagonal corners
  return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

float iou(const Box& a, const Box& b) {
  const float ih = std::max(0.0f, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
  const float iw = std::max(0.0f, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
  const float inter = ih * iw;
  const float uni = (a.y2 - a.y1) * (a.x2 - a.x1) + (b.y2 - b.y1) * (b.x2 - b.x1) - inter;
  return uni > 0 ? inter / uni : 0.0f;
}

void nms(AicpuContext& ctx) {
  need(ctx, 4, 4, 2);
  const auto& a = ctx.args();
  const int64_t batches = a.ints[0], classes = a.ints[1], spatial = a.ints[2];
  int64_t max_out = a.ints[3];
  const bool center = a.ints.size() > 4 && a.ints[4] != 0;
  double iou_threshold = a.floats[0], score_threshold = a.floats[1];
  // ONNX passes these as (optional) scalar tensors: read from GM where given.
  auto scalar_tensor = [&](size_t t) { return a.tensors.size() > t && a.tensors[t] != 0; };
  // (Perf mode has no data: the ints/floats stand.)
  if (scalar_tensor(4)) {
    const int64_t* v = ctx.input<int64_t>(a.tensors[4], 1);
    if (ctx.has_data()) max_out = *v;
  }
  if (scalar_tensor(5)) {
    const float* v = ctx.input<float>(a.tensors[5], 1);
    if (ctx.has_data()) iou_threshold = double(*v);
  }
  if (scalar_tensor(6)) {
    const float* v = ctx.input<float>(a.tensors[6], 1);
    if (ctx.has_data()) score_threshold = double(*v);
  }
  if (batches < 0 || classes < 0 || spatial < 0) ctx.fail("NonMaxSuppression: negative dimension");
  if (iou_threshold < 0 || iou_threshold > 1) {
    ctx.fail(fmt::format("NonMaxSuppression: iou_threshold {} is outside [0, 1]", iou_threshold));
  }
  const float* boxes = ctx.input<float>(a.tensors[0], uint64_t(batches * spatial * 4));
  const float* scores = ctx.input<float>(a.tensors[1], uint64_t(batches * classes * spatial));
  const uint64_t capacity = uint64_t(batches * classes) * uint64_t(std::max<int64_t>(0, std::min(max_out, spatial)));
  int64_t* selected = ctx.output<int64_t>(a.tensors[2], capacity * 3);
  int64_t* count = ctx.output<int64_t>(a.tensors[3], 1);
  const double cand = double(spatial);
  ctx.charge(AicpuOpClass::Compare, double(batches * classes) * cand * std::max(1.0, std::log2(cand + 1)));
  ctx.charge(AicpuOpClass::Arithmetic, double(batches * classes) * cand * double(std::min(max_out, spatial)) * 12);
  if (!ctx.has_data()) return;
  int64_t out = 0;
  std::vector<int64_t> order;
  std::vector<Box> kept;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t c = 0; c < classes; ++c) {
      const float* s = scores + (b * classes + c) * spatial;
      order.clear();
      for (int64_t i = 0; i < spatial; ++i) {
        if (double(s[i]) > score_threshold) order.push_back(i);
      }
      std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return s[i] > s[j]; });
      kept.clear();
      for (int64_t i : order) {
        if (int64_t(kept.size()) >= max_out) break;
        const Box box = corners(boxes + (b * spatial + i) * 4, center);
        bool keep = true;
        for (const Box& k : kept) {
          if (double(iou(box, k)) > iou_threshold) {
            keep = false;
            break;
          }
        }
        if (!keep) continue;
        kept.push_back(box);
        selected[out * 3 + 0] = b;
        selected[out * 3 + 1] = c;
        selected[out * 3 + 2] = i;
        ++out;
      }
    }
  }
  *count = out;
}

}  // namespace

void register_builtin_aicpu_kernels(AicpuRegistry& registry) {
  registry.add({"TopK", "ONNX TopK along the last axis of [rows, n] f32: values f32, indices i64", topk, nullptr});
  registry.add({"ArgMax", "ONNX ArgMax along the last axis of [rows, n] f32: indices i64", argmax, nullptr});
  registry.add({"NonMaxSuppression", "ONNX NonMaxSuppression: selected [num, 3] i64 and its count", nms, nullptr});
}

}  // namespace npuvp::soc
