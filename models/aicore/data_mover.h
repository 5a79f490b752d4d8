// The movers (SPEC.md §1.5): MTE2 (GM -> local), MTE1 (L1 -> L0A/L0B/BT/FB, LoadData),
// MTE3 (local -> GM/L1), FixPipe (L0C -> GM/L1) and the vector pipe's local copies.
// A plain class the core calls when an instruction starts and when it completes (the core
// runs both in simulated-time order). Sources in GM are read when an instruction starts;
// local destinations are written when it completes (so a consumer that skips its flag sees
// stale data); GM destinations are posted when it starts. GM is reached only through `gm`.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <systemc>
#include <tlm>
#include "models/aicore/isa.h"
#include "models/aicore/layout.h"
#include "models/aicore/local_buffer.h"
#include "models/aicore/pipe.h"
#include "models/aicore/product.h"
#include "tlm/extensions.h"
#include "tlm/sim_mode.h"

namespace npuvp::aicore {

class DataMover {
 public:
  struct Params {
    // MTE2 reads from the memory system at up to the L2 -> L1 rate (SPEC.md §1.8: 110); what
    // a core gets from DRAM on a busy chip (the GM -> L1 figure, 32) comes from contention.
    double gm_read_bytes_per_cycle = 110;
    double gm_write_bytes_per_cycle = 32;  // MTE3 UB -> GM
    double local_bytes_per_cycle = 128;  // UB -> UB, UB -> L1, L0C -> UB
    uint64_t issue_cycles = 10;          // start cost of an MTE2/MTE3/V copy
    uint64_t mte1_start_cycles = 26;     // start cost of an MTE1 instruction
    double l1_to_l0a_bytes_per_cycle = 512;
    double l1_to_l0b_bytes_per_cycle = 256;
    double l1_to_bt_fb_bytes_per_cycle = 64;
    double fix_bytes_per_cycle = 32;     // L0C -> GM/L1
    // Consecutive GM reads queued on one pipe go to the memory system together, up to this
    // many bytes (0: each instruction alone); see start_reads.
    uint64_t burst_bytes = 64 * 1024;
    SimMode mode = SimMode::Timed;  // functional: no time; perf: no bytes moved
  };
  // An instruction's GM accesses: its spans as the memory system takes them (a span list,
  // tlm/extensions.h, sent on as it is, with the range that holds them all: list.low,
  // list.high, unless a span runs past the end of the address space), and where each
  // span's bytes come from or go to (nullptr in perf mode).
  struct GmSpans {
    SpanListExtension list;
    // By span; shorter than the list when the spans after it have no bytes (all of them in
    // perf mode, which then pays nothing per row for it): read through where().
    std::vector<uint8_t*> data;
    uint64_t bytes = 0;

    void clear() {
      list.spans.clear();
      list.bounded = true;  // no span yet: [low, high) grows with each
      list.low = UINT64_MAX;
      list.high = 0;
      data.clear();
      bytes = 0;
    }
    uint8_t* where(size_t span) const { return span < data.size() ? data[span] : nullptr; }
    // Field by field: a braced temporary is built on the stack and copied with wide loads
    // that stall on store forwarding, once per row of every data move.
    void add(uint64_t address, uint64_t length, uint8_t* where) {
      AddressSpan& s = list.spans.emplace_back();
      s.address = address;
      s.length = length;
      if (where != nullptr) {
        data.resize(list.spans.size() - 1, nullptr);
        data.push_back(where);
      }
      bytes += length;
      list.low = std::min(list.low, address);
      list.high = std::max(list.high, address + length);
      if (address + length < address) list.bounded = false;  // past the end of the address space
    }
    // `count` rows of `length` bytes, `stride` apart from `address` on, their bytes
    // `where_stride` apart from `where` (nullptr: none). The same as add() row by row, with
    // the range worked out once: rows at a fixed stride run from the first to the last.
    void add_rows(uint64_t address, uint64_t stride, uint64_t count, uint64_t length, uint8_t* where,
                  uint64_t where_stride) {
      if (count == 0) return;
      uint64_t last = 0, end = 0;
      if (__builtin_mul_overflow(count - 1, stride, &last) || __builtin_add_overflow(address, last, &last) ||
          __builtin_add_overflow(last, length, &end)) {  // past the end of the address space: row by row
        for (uint64_t r = 0; r < count; ++r) add(address + r * stride, length, where ? where + r * where_stride : nullptr);
        return;
      }
      auto make_room = [count](auto& v) {  // growing geometrically, as push_back would
        if (v.capacity() < v.size() + count) v.reserve(std::max(v.size() + count, 2 * v.capacity()));
      };
      make_room(list.spans);
      if (where != nullptr) {
        make_room(data);
        data.resize(list.spans.size(), nullptr);
        for (uint64_t r = 0; r < count; ++r) data.push_back(where + r * where_stride);
      }
      for (uint64_t r = 0; r < count; ++r) {
        AddressSpan& s = list.spans.emplace_back();
        s.address = address + r * stride;
        s.length = length;
      }
      bytes += count * length;
      list.low = std::min(list.low, address);
      list.high = std::max(list.high, end);
    }
  };
  // An instruction's GM accesses, all starting when it starts; returns the memory time they
  // take, measured from the start of the instruction. Raises on a transport error.
  using GmAccess = std::function<sc_core::sc_time(tlm::tlm_command, GmSpans& spans)>;
  // A local buffer by memory space, or nullptr if the core has none.
  using BufferLookup = std::function<LocalBuffer*(MemSpace)>;

  DataMover(Product product, const Params& params, BufferLookup buffers, GmAccess gm);

  Product product() const { return product_; }

  // Empty if the move is legal (path on this product, pipe, limits, ranges, alignment).
  std::string check(const Instruction& instr, Pipe pipe) const;

  // Starts the move: its GM accesses, and GM writes' bytes. Returns the bytes it moves, its
  // duration and the time memory adds beyond the mover's own work.
  using Result = ExecResult;  // what the pipe records of the move
  Result start(const Instruction& instr, const sc_core::sc_time& cycle);
  // Completes the move started last on its pipe: writes its local destination.
  void complete(const Instruction& instr);

  // GM reads into local buffers (DataCopy from GM, Nd2Nz from GM, LoadData from GM): a
  // pipe may run a run of them as one burst. Their requests go to the memory system
  // together when the first starts, so the burst pays the memory latency once; the pipe
  // stays busy for max(the members' own work, one after another; the memory time), and the
  // destinations are written, in order, when it completes. Burst or not, a GM read runs here.
  bool is_gm_read(const Instruction& instr) const;
  layout::Range gm_read_range(const Instruction& instr) const;  // the GM bytes it may read
  uint64_t gm_read_bytes(const Instruction& instr) const;       // the bytes it moves
  sc_core::sc_time gm_read_work(const Instruction& instr, const sc_core::sc_time& cycle) const;
  // Starts instrs[0, n) as one burst; results[i] is member i's, ends[i] when it finished,
  // from the start (the last ends with the burst: its duration; any memory stall is the
  // last's). complete_reads writes their destinations.
  void start_reads(const Instruction* const* instrs, size_t n, const sc_core::sc_time& cycle, Result* results,
                   sc_core::sc_time* ends);
  void complete_reads(const Instruction* const* instrs, size_t n);

 private:
  std::string check_copy(const DataMove& m) const;
  std::string check_pad(const DataMove& m) const;
  static void deliver_padded(const DataMove& m, const uint8_t* data, uint8_t* to);
  std::string check_local(MemSpace space, layout::Range r, const char* what) const;
  std::string check_gm(uint64_t addr, unsigned elem_size, const char* what) const;
  Result start_copy(const DataMove& m, const sc_core::sc_time& cycle);
  void complete_copy(const DataMove& m);
  // A GM read's spans (only the rows, blocks or fractals it reads, not the gaps) into spans_,
  // their bytes packed in `staging` in the order read; then its local write from there.
  void gather(const Instruction& instr, uint8_t* staging);
  void deliver(const Instruction& instr, const uint8_t* staging);
  // An instruction's duration = max(own work, memory) and the memory's excess (none in
  // functional mode).
  Result timed_result(uint64_t bytes, const sc_core::sc_time& work, const sc_core::sc_time& memory) const;
  bool moves_data() const { return params_.mode != SimMode::Perf; }
  layout::ConstView local_view(MemSpace space) const;

  Product product_;
  Params params_;
  BufferLookup buffers_;
  GmAccess gm_;
  // Staging areas hold only the bytes a transfer moves, packed (not laid out as the GM range
  // they come from or go to: a Fixpipe's 128 rows of an output plane span megabytes), so each
  // core's areas stay the size of its largest burst and their host pages, once faulted in, are
  // reused by every later transfer. Grows without clearing: every byte used is written first.
  class StagingBuffer {
   public:
    uint8_t* reserve(uint64_t bytes) {
      if (bytes > size_) {
        data_.reset(new uint8_t[bytes]);  // default-initialised: not zeroed
        size_ = bytes;
      }
      return data_.get();
    }
    uint8_t* data() const { return data_.get(); }

   private:
    std::unique_ptr<uint8_t[]> data_;
    uint64_t size_ = 0;
  };
  StagingBuffer staging_, staging_out_;
  GmSpans spans_;  // the GM spans of the instruction under way
  std::vector<size_t> staging_offsets_;
};

}  // namespace npuvp::aicore
