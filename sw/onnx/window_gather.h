// The sliding-window gather shared by the Conv and pooling lowerings (issue 26).
//
// A window op (Conv's im2col, MaxPool, AveragePool) reads, for each output position, the
// KH x KW taps of each channel. Planning happens on the host: the output is cut into jobs of
// one output row x `tw` columns x a chunk of `cc` channels. A job's source is the input rows
// its windows touch, clipped to the image, which one DataCopyPad brings into UB (channel
// pitch `cp` elements). A table of byte offsets into that UB buffer (one per destination
// element, in the order the user of the gather wants: position-major for the cube's Bt
// operand, tap-major for pooling) then lets one vector Gather build the whole tile; padding
// taps point at a constant slot (0, 1 for Conv's bias column, or -inf for MaxPool). Tables
// depend only on how the window meets the image's border, so a layer has a handful of them;
// they sit in GM and a block reloads one only when its next job needs another.
// Every element is float32 (the model's type); the fp16 path casts after the gather.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>
#include "kernel_operator.h"

namespace npuvp::onnx {

struct WindowGeometry {
  uint32_t n = 1, c = 1, h = 1, w = 1;  // input NCHW (c: every channel of the tensor)
  uint32_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  uint32_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  uint32_t oh = 1, ow = 1;
  uint32_t taps() const { return kh * kw; }
  uint32_t window_rows() const { return (kh - 1) * dh + 1; }
};

// Constant slots after the channels in the UB source buffer (byte offsets from the slot base).
enum class GatherSlot : uint32_t { Zero = 0, One = 32, NegInf = 64 };

struct GatherJob {
  uint32_t table = 0;       // index into the plan's tables
  uint64_t src = 0;         // element offset in x of (image, first channel, first loaded row)
  uint32_t rows = 0;        // input rows loaded (the window's rows clipped to the image)
  uint32_t cc = 0;          // channels in this job
  uint32_t image = 0, group = 0, channel = 0;  // channel: first channel, within the group
  uint32_t oh = 0, ow0 = 0, tw = 0;            // output row and columns [ow0, ow0 + tw)
};

// Where destination element (position p < tw, channel j < cc, tap t) goes in the job's tile,
// and how many elements the tile has; extra(p, ...) lets Conv add its bias column.
struct GatherLayout {
  std::function<uint32_t(uint32_t tw, uint32_t cc)> tile_elements;
  std::function<uint32_t(uint32_t p, uint32_t j, uint32_t t, uint32_t tw, uint32_t cc)> index;
  // Entries set to a slot after the taps (e.g. Conv's column of ones); may be empty.
  std::function<void(uint32_t tw, uint32_t cc, bool last_chunk, std::vector<uint32_t>& table, uint32_t slots)> extra;
  GatherSlot pad = GatherSlot::Zero;  // what padding taps read
};

struct GatherPlan {
  WindowGeometry g;
  uint32_t groups = 1, group_channels = 1;  // channels per group (jobs never cross a group)
  bool separated = true;         // A2 (DataCopyPad) or a coupled chip (DataCopy per channel)
  uint32_t tw_multiple = 1;      // a job's first column is a multiple of this (coupled im2col)
  uint32_t cc = 1, tw = 1;       // channels and positions of a full job
  uint32_t cp = 0;               // UB channel pitch (elements)
  uint32_t table_entries = 0;    // per table, padded to 8
  std::vector<std::vector<uint32_t>> tables;
  std::vector<GatherJob> jobs;
  uint32_t src_bytes() const { return cc * cp * 4 + 128; }  // the channels, then the slots
  uint32_t slot_base() const { return cc * cp * 4; }
};

// Plans the jobs of every image and group. `bytes_per_entry`: UB bytes the caller needs per
// tile element besides the table (the gathered f32 tile, casts, accumulators); the plan keeps
// the source, the table and those within `ub_budget`. Channels per job first, then positions,
// shrink until it fits. Returns false if one channel and one position do not fit.
bool plan_window_gather(GatherPlan& plan, const GatherLayout& layout, uint32_t bytes_per_entry, uint32_t ub_budget);

// Whether the smallest job (one channel, `min_columns` positions) fits: what check() asks
// before anything runs, so that plan_window_gather cannot fail later.
bool window_gather_fits(const WindowGeometry& g, const GatherLayout& layout, uint32_t min_columns,
                        uint32_t bytes_per_entry, uint32_t ub_budget);

// The tables laid end to end (each table_entries long), ready to copy into GM.
std::vector<uint32_t> flatten_tables(const GatherPlan& plan);

// Kernel side: loads a job's source rows and its table (when it changes) and gathers its tile.
// Single-buffered; the caller passes flags between the steps (see gather_tile).
class WindowGatherer {
 public:
  WindowGatherer(const GatherPlan& plan, GM_ADDR x, GM_ADDR tables, AscendC::TPipe& pipe);
  // MTE2: the job's source rows and, if needed, its table. Call after the previous tile's
  // Gather has finished (V_MTE2).
  void load(const GatherJob& job);
  // V: tile[e] for every element of the loaded table (entries() of them).
  void gather(const AscendC::LocalTensor<float>& tile);
  uint32_t entries() const { return plan_.table_entries; }

 private:
  const GatherPlan& plan_;
  AscendC::GlobalTensor<float> x_;
  AscendC::GlobalTensor<uint32_t> tables_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> src_, table_;
  uint32_t loaded_table_ = ~0u;
};

}  // namespace npuvp::onnx
