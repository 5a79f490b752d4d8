#include "sw/onnx/window_gather.h"

#include <algorithm>
#include <map>
#include <limits>
#include <tuple>

namespace npuvp::onnx {

using namespace AscendC;

namespace {
namespace window_gather_cpp {  // named after the file: unity batches share anonymous namespaces
uint32_t round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

// The table of one job shape: for each destination element the byte offset of its tap in the
// UB source (channel pitch cp; row r of the buffer is input row first_row + r).
std::vector<uint32_t> build_table(const GatherPlan& plan, const GatherLayout& layout, int64_t ih0, uint32_t first_row,
                                  uint32_t ow0, uint32_t tw, uint32_t cc, bool last_chunk) {
  const WindowGeometry& g = plan.g;
  std::vector<uint32_t> table(plan.table_entries, plan.slot_base() + uint32_t(GatherSlot::Zero));
  const uint32_t pad = plan.slot_base() + uint32_t(layout.pad);
  for (uint32_t p = 0; p < tw; ++p) {
    const int64_t iw0 = int64_t(ow0 + p) * g.sw - g.pad_left;
    for (uint32_t j = 0; j < cc; ++j) {
      for (uint32_t i = 0; i < g.kh; ++i) {
        const int64_t ih = ih0 + int64_t(i) * g.dh;
        for (uint32_t k = 0; k < g.kw; ++k) {
          const int64_t iw = iw0 + int64_t(k) * g.dw;
          const bool inside = ih >= 0 && ih < g.h && iw >= 0 && iw < g.w;
          uint32_t offset = pad;
          if (inside) offset = uint32_t((uint64_t(j) * plan.cp + uint64_t(ih - first_row) * g.w + iw) * 4);
          table[layout.index(p, j, i * g.kw + k, tw, cc)] = offset;
        }
      }
    }
  }
  if (layout.extra) layout.extra(tw, cc, last_chunk, table, plan.slot_base());
  return table;
}
}  // namespace window_gather_cpp
}  // namespace

bool plan_window_gather(GatherPlan& plan, const GatherLayout& layout, uint32_t bytes_per_entry, uint32_t ub_budget) {
  const WindowGeometry& g = plan.g;
  const uint32_t rows_max = std::min(g.window_rows(), g.h);
  plan.cp = window_gather_cpp::round_up(rows_max * g.w, 8);
  uint32_t cc = plan.group_channels, tw = g.ow;
  auto fits = [&](uint32_t c, uint32_t t) {
    const uint64_t entries = window_gather_cpp::round_up(layout.tile_elements(t, c), 8);
    return uint64_t(c) * plan.cp * 4 + 128 + entries * (4 + bytes_per_entry) <= ub_budget;
  };
  while (!fits(cc, tw)) {
    if (cc > 1) {
      cc = (cc + 1) / 2;
    } else if (tw > plan.tw_multiple) {
      tw = std::max(plan.tw_multiple, (tw + 1) / 2 / plan.tw_multiple * plan.tw_multiple);
    } else {
      return false;
    }
  }
  plan.cc = cc;
  plan.tw = tw;
  plan.table_entries = window_gather_cpp::round_up(layout.tile_elements(tw, cc), 8);
  plan.tables.clear();
  plan.jobs.clear();

  // One table per (window rows against the border, columns, chunk shape).
  std::map<std::tuple<int64_t, uint32_t, uint32_t, uint32_t, uint32_t, bool>, uint32_t> known;
  for (uint32_t n = 0; n < g.n; ++n) {
    for (uint32_t grp = 0; grp < plan.groups; ++grp) {
      for (uint32_t oh = 0; oh < g.oh; ++oh) {
        const int64_t ih0 = int64_t(oh) * g.sh - g.pad_top;
        const int64_t lo = std::max<int64_t>(ih0, 0);
        const int64_t hi = std::min<int64_t>(ih0 + g.window_rows(), g.h);
        const uint32_t first_row = uint32_t(std::min<int64_t>(lo, g.h - 1));
        const uint32_t rows = hi > lo ? uint32_t(hi - lo) : 1;  // an all-padding window loads one row
        for (uint32_t c0 = 0; c0 < plan.group_channels; c0 += cc) {
          const uint32_t jcc = std::min(cc, plan.group_channels - c0);
          const bool last_chunk = c0 + jcc == plan.group_channels;
          for (uint32_t ow0 = 0; ow0 < g.ow; ow0 += tw) {
            const uint32_t jtw = std::min(tw, g.ow - ow0);
            const auto key = std::make_tuple(ih0 - int64_t(first_row), rows, ow0, jtw, jcc, last_chunk);
            auto it = known.find(key);
            if (it == known.end()) {
              it = known.emplace(key, uint32_t(plan.tables.size())).first;
              plan.tables.push_back(window_gather_cpp::build_table(plan, layout, ih0, first_row, ow0, jtw, jcc, last_chunk));
            }
            GatherJob job;
            job.table = it->second;
            job.src = ((uint64_t(n) * g.c + uint64_t(grp) * plan.group_channels + c0) * g.h + first_row) * g.w;
            job.rows = rows;
            job.cc = jcc;
            job.image = n;
            job.group = grp;
            job.channel = c0;
            job.oh = oh;
            job.ow0 = ow0;
            job.tw = jtw;
            plan.jobs.push_back(job);
          }
        }
      }
    }
  }
  return true;
}

bool window_gather_fits(const WindowGeometry& g, const GatherLayout& layout, uint32_t min_columns,
                        uint32_t bytes_per_entry, uint32_t ub_budget) {
  const uint64_t cp = window_gather_cpp::round_up(std::min(g.window_rows(), g.h) * g.w, 8);
  const uint64_t entries = window_gather_cpp::round_up(layout.tile_elements(std::min(min_columns, g.ow), 1), 8);
  return cp * 4 + 128 + entries * (4 + bytes_per_entry) <= ub_budget;
}

std::vector<uint32_t> flatten_tables(const GatherPlan& plan) {
  std::vector<uint32_t> all;
  all.reserve(plan.tables.size() * plan.table_entries);
  for (const auto& t : plan.tables) all.insert(all.end(), t.begin(), t.end());
  return all;
}

WindowGatherer::WindowGatherer(const GatherPlan& plan, GM_ADDR x, GM_ADDR tables, TPipe& pipe) : plan_(plan) {
  const WindowGeometry& g = plan.g;
  x_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), uint64_t(g.n) * g.c * g.h * g.w);
  tables_.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(tables),
                          uint64_t(plan.tables.size()) * plan.table_entries);
  pipe.InitBuffer(src_, plan.src_bytes());
  pipe.InitBuffer(table_, plan.table_entries * 4);
  // The constant slots: 0, 1 and -inf, 8 of each (one 32 B block apiece).
  LocalTensor<float> slots = src_.Get<float>()[plan.slot_base() / 4];
  Duplicate(slots, 0.0f, 8);
  Duplicate(slots[8], 1.0f, 8);
  Duplicate(slots[16], -std::numeric_limits<float>::infinity(), 8);
}

void WindowGatherer::load(const GatherJob& job) {
  const WindowGeometry& g = plan_.g;
  if (job.table != loaded_table_) {
    DataCopy(table_.Get<uint32_t>(), tables_[uint64_t(job.table) * plan_.table_entries], plan_.table_entries);
    loaded_table_ = job.table;
  }
  // cc channels of `rows` rows each: one block per channel, the channel pitch apart in UB.
  const uint32_t block = job.rows * g.w * 4;
  if (!plan_.separated) {
    // No DataCopyPad: whole 32 B blocks per channel (reading up to 7 floats past its rows).
    for (uint32_t j = 0; j < job.cc; ++j) {
      DataCopy(src_.Get<float>()[j * plan_.cp], x_[job.src + uint64_t(j) * g.h * g.w], window_gather_cpp::round_up(job.rows * g.w, 8));
    }
    return;
  }
  DataCopyExtParams p(static_cast<uint16_t>(job.cc), block, (g.h * g.w) * 4 - block,
                      (plan_.cp * 4 - window_gather_cpp::round_up(block, 32)) / 32, 0);
  DataCopyPad(src_.Get<float>(), x_[job.src], p, DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
}

void WindowGatherer::gather(const LocalTensor<float>& tile) {
  Gather(tile, src_.Get<float>(), table_.Get<uint32_t>(), 0, plan_.table_entries);
}

}  // namespace npuvp::onnx
