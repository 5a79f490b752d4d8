#include "models/check/sanitizer.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/aicore/layout.h"
#include "models/aicore/vector_unit.h"
#include "models/check/recycled.h"
#include "models/check/shadow.h"
#include "models/check/site.h"
#include "tlm/config.h"
#include "tlm/log.h"

namespace npuvp::check {

using aicore::DType;
using aicore::Instruction;
using aicore::MemSpace;
using aicore::Pipe;

Sanitizer* Sanitizer::active_ = nullptr;

Options parse_checks(const std::string& list) {
  Options o;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string name = list.substr(start, end - start);
    if (name == "all") {
      o.race = o.memory = o.init = o.sync = true;
    } else if (name == "race") {
      o.race = true;
    } else if (name == "memory") {
      o.memory = true;
    } else if (name == "init") {
      o.init = true;
    } else if (name == "sync") {
      o.sync = true;
    } else if (!name.empty() && name != "none" && name != "off") {
      raise("sanitizer", "unknown check '{}' (known: race, memory, init, sync, all)", name);
    }
    start = end + 1;
  }
  return o;
}

namespace {
using Clock = uint32_t;

// A vector clock: how far each stream is known to have run, sparse (the streams it knows of,
// in order, each with its clock; the rest are 0). Stream ids grow with the blocks of a
// launch, but a block's instructions know only its own few streams until a cross-core flag
// or SyncAll joins others': dense clocks made every join and copy O(blocks x pipes).
struct VC {
  std::vector<std::pair<uint32_t, Clock>> c;  // (stream, clock), streams ascending, clocks > 0
  Clock at(uint32_t s) const {
    auto it = std::lower_bound(c.begin(), c.end(), s, [](const auto& e, uint32_t v) { return e.first < v; });
    return it != c.end() && it->first == s ? it->second : 0;
  }
  void clear() { c.clear(); }
  void join(const VC& o) {
    if (o.c.empty() || &o == this) return;
    // Most joins add nothing new or only raise known streams: merge in place then.
    size_t i = 0, j = 0;
    bool fresh = false;
    while (j < o.c.size()) {
      while (i < c.size() && c[i].first < o.c[j].first) ++i;
      if (i == c.size() || c[i].first != o.c[j].first) {
        fresh = true;
        break;
      }
      c[i].second = std::max(c[i].second, o.c[j].second);
      ++j;
    }
    if (!fresh) return;
    thread_local std::vector<std::pair<uint32_t, Clock>> merged;
    merged.clear();
    merged.reserve(c.size() + o.c.size() - j);
    i = 0;
    size_t k = 0;
    while (i < c.size() || k < o.c.size()) {
      if (k == o.c.size() || (i < c.size() && c[i].first < o.c[k].first)) {
        merged.push_back(c[i++]);
      } else if (i == c.size() || o.c[k].first < c[i].first) {
        merged.push_back(o.c[k++]);
      } else {
        merged.push_back({c[i].first, std::max(c[i].second, o.c[k].second)});
        ++i, ++k;
      }
    }
    c.swap(merged);
  }
  bool covers(const VC& o) const {
    size_t i = 0;
    for (const auto& [s, v] : o.c) {
      while (i < c.size() && c[i].first < s) ++i;
      if (i == c.size() || c[i].first != s || c[i].second < v) return false;
    }
    return true;
  }
  Clock tick(uint32_t s) {
    auto it = std::lower_bound(c.begin(), c.end(), s, [](const auto& e, uint32_t v) { return e.first < v; });
    if (it == c.end() || it->first != s) it = c.insert(it, {s, 0});
    return ++it->second;
  }
};

// One executed instruction (or scalar access) that touched memory, for reports.
struct Event {
  uint64_t seq;  // program order: (block, issue number on its core)
  int core;
  uint32_t block;
  Pipe pipe;
  uint32_t site;
  uint32_t name;  // index into names
  // When it started, as sc_time::to_seconds(). Not an sc_time, whose copy constructor makes
  // the log copy element by element when it grows (millions of events in a large launch).
  double seconds;
};
static_assert(std::is_trivially_copyable_v<Event>);

// Written byte ranges (init), merged.
using Written = std::map<uint64_t, uint64_t, std::less<uint64_t>,
                         Recycled<std::pair<const uint64_t, uint64_t>>>;  // begin -> end

void mark_written(Written& w, uint64_t b, uint64_t e) {
  if (b >= e) return;
  auto it = w.upper_bound(b);
  if (it != w.begin()) {
    auto prev = std::prev(it);
    if (prev->second >= b) {
      b = prev->first;
      e = std::max(e, prev->second);
      it = w.erase(prev);
    }
  }
  while (it != w.end() && it->first <= e) {
    e = std::max(e, it->second);
    it = w.erase(it);
  }
  w[b] = e;
}
// The first unwritten byte of [b, e) and whether all of it is unwritten.
bool unwritten(const Written& w, uint64_t b, uint64_t e, uint64_t& first, bool& all) {
  auto it = w.upper_bound(b);
  uint64_t pos = b;
  bool any_written = false;
  if (it != w.begin()) {
    auto prev = std::prev(it);
    if (prev->second > b) {
      pos = prev->second;
      any_written = true;
    }
  }
  bool found = false;
  while (pos < e) {
    if (it == w.end() || it->first > pos) {
      if (!found) first = pos, found = true;
      if (it == w.end() || it->first >= e) break;
    }
    if (it != w.end() && it->first < e) any_written = true;
    if (it == w.end()) break;
    pos = std::max(pos, it->second);
    ++it;
  }
  all = found && !any_written;
  return found;
}

// A byte range an instruction touches. `exact`: no gap bytes inside it.
struct Span {
  MemSpace space;
  uint64_t begin, end;
  bool write, exact;
  // init: a read is reported only when a whole `grain` of it (from begin) was never written
  // (0: any byte). The cube reads whole fractals; rows past a matrix's edge are the layout's
  // padding, which Nd2Nz leaves alone and whose products land in rows or columns of C that
  // are never copied out.
  uint32_t grain = 0;
};

void move_spans(const aicore::DataMove& m, std::vector<Span>& out) {
  if (m.block_count == 0) return;
  for (int side = 0; side < 2; ++side) {
    const bool dst = side == 1;
    const aicore::Operand& o = dst ? m.dst : m.src;
    const uint64_t block = dst ? aicore::move_dst_block(m) : aicore::move_src_block(m);
    const uint64_t pitch = dst ? aicore::move_dst_pitch(m) : aicore::move_src_pitch(m);
    if (pitch == block || m.block_count == 1) {
      out.push_back({o.space, o.addr, o.addr + uint64_t(m.block_count - 1) * pitch + block, dst, true});
    } else {
      for (uint32_t i = 0; i < m.block_count; ++i) {
        out.push_back({o.space, o.addr + i * pitch, o.addr + i * pitch + block, dst, true});
      }
    }
  }
}

// Rows of `count` bytes, `pitch` apart: one span when contiguous, else one per row (a hull
// past 256 rows).
void rows(MemSpace space, uint64_t at, uint64_t n, uint64_t count, uint64_t pitch, bool write, std::vector<Span>& out) {
  if (n == 0 || count == 0) return;
  if (pitch == count || n == 1) {
    out.push_back({space, at, at + (n - 1) * pitch + count, write, true});
  } else if (n > 256) {
    out.push_back({space, at, at + (n - 1) * pitch + count, write, false});
  } else {
    for (uint64_t i = 0; i < n; ++i) out.push_back({space, at + i * pitch, at + i * pitch + count, write, true});
  }
}

// The exact bytes of a layout's blocks: `count` runs of `bytes` at `at + offset(i)`, merged
// where they touch; past `limit` runs a hull (exact false) instead, to bound the shadow's cost.
template <class Offset>
void blocks(MemSpace space, uint64_t at, uint64_t count, uint64_t bytes, Offset offset, bool write,
            std::vector<Span>& out, uint64_t limit = 4096) {
  if (count == 0 || bytes == 0) return;
  const size_t first = out.size();
  if (count > limit) {
    uint64_t lo = ~0ull, hi = 0;
    for (uint64_t i = 0; i < count; ++i) {
      lo = std::min(lo, at + offset(i));
      hi = std::max(hi, at + offset(i) + bytes);
    }
    out.push_back({space, lo, hi, write, false});
    return;
  }
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t b = at + offset(i);
    if (out.size() > first && out.back().end == b) {
      out.back().end = b + bytes;
    } else {
      out.push_back({space, b, b + bytes, write, true});
    }
  }
}

void spans_of(const Instruction& instr, std::vector<Span>& out) {
  out.clear();
  auto hull = [&](MemSpace space, aicore::layout::Range r, bool write) {
    if (r.end > r.begin) out.push_back({space, r.begin, r.end, write, false});
  };
  if (auto* op = std::get_if<aicore::VectorOp>(&instr)) {
    // Each strided operand as the runs of its enabled elements (models/aicore/vector_unit.h),
    // a function of the instruction's fields alone. Kernels repeat the same few instructions
    // (a tile loop over double buffers, the same buffers on every core): the last results are
    // kept, keyed by the instruction's fields (a miss only costs the computation), compared
    // one by one (the padding between them holds anyone's bytes).
    auto fields = [](const aicore::VectorOp& v) {
      uint64_t scalar_bits;  // bit for bit: -0.0 is not 0.0 here
      std::memcpy(&scalar_bits, &v.scalar, sizeof scalar_bits);
      return std::make_tuple(v.op, v.dtype, v.dst, v.src0, v.src1, scalar_bits, v.counter_mode, v.mask_lo, v.mask_hi, v.repeat,
                             v.dst_blk_stride, v.src0_blk_stride, v.src1_blk_stride, v.dst_rep_stride,
                             v.src0_rep_stride, v.src1_rep_stride, v.dst_dtype, v.round, v.cmp, v.sel, v.order, v.src2,
                             v.gather_pattern, v.round_shift, v.src3, v.proposal_field, v.deq);
    };
    struct Cached {
      aicore::VectorOp op;
      std::vector<aicore::VectorUnit::ExactBytes> bytes;
    };
    thread_local std::array<Cached, 8> cache;
    thread_local size_t next = 0, used = 0;
    const std::vector<aicore::VectorUnit::ExactBytes>* found = nullptr;
    for (size_t i = 0; i < used && !found; ++i) {
      if (fields(cache[i].op) == fields(*op)) found = &cache[i].bytes;
    }
    if (!found) {
      Cached& slot = cache[next];
      next = (next + 1) % cache.size();
      used = std::max(used, next == 0 ? cache.size() : next);
      slot.op = *op;
      aicore::VectorUnit::exact_operand_bytes(*op, slot.bytes);
      found = &slot.bytes;
    }
    for (const auto& b : *found) {
      if (b.end == ~0ull) continue;  // Gather's data reads: anywhere in UB (not checked)
      out.push_back({MemSpace::UB, b.begin, b.end, b.write, b.exact});
    }
  } else if (auto* m = std::get_if<aicore::DataMove>(&instr)) {
    move_spans(*m, out);
  } else if (auto* op = std::get_if<aicore::Nd2Nz>(&instr)) {
    const uint64_t size = aicore::dtype_size(op->dtype);
    for (uint32_t i = 0; i < op->nd_num && op->nd_num <= 16; ++i) {
      rows(op->src.space, op->src.addr + uint64_t(i) * op->src_nd_matrix_stride * size, op->n_value,
           uint64_t(op->d_value) * size, uint64_t(op->src_d_value) * size, false, out);
    }
    if (op->nd_num > 16) hull(op->src.space, aicore::layout::nd2nz_src_range(*op), false);
    // Destination: block b of row j of matrix i at i * matrix stride + j * n stride (32 B
    // units) + b * c0 stride (32 B units), as layout::nd2nz writes them; column by column.
    const uint64_t nblocks = (uint64_t(op->d_value) * size + 31) / 32, rows_n = op->n_value;
    if (op->nd_num > 0 && rows_n > 0 && nblocks > 0) {
      const uint64_t mat = uint64_t(op->dst_nz_matrix_stride) * size, nst = uint64_t(op->dst_nz_n_stride) * 32,
                     c0 = uint64_t(op->dst_nz_c0_stride) * 32;
      if (nst == 32) {  // a column of a matrix is one run of n_value blocks
        blocks(op->dst.space, op->dst.addr, uint64_t(op->nd_num) * nblocks, rows_n * 32,
               [&](uint64_t k) { return (k / nblocks) * mat + (k % nblocks) * c0; }, true, out);
      } else {
        blocks(op->dst.space, op->dst.addr, uint64_t(op->nd_num) * nblocks * rows_n, 32,
               [&](uint64_t k) {
                 const uint64_t i = k / (nblocks * rows_n), b = k / rows_n % nblocks, j = k % rows_n;
                 return i * mat + b * c0 + j * nst;
               },
               true, out);
      }
    }
  } else if (auto* op = std::get_if<aicore::LoadData2D>(&instr)) {
    // Fractal r from start_index + r * src_stride to r * (1 + dst_gap) (layout::load2d).
    constexpr uint64_t kFractal = 512;
    const size_t first = out.size();
    blocks(op->src.space, op->src.addr + uint64_t(op->start_index) * kFractal, op->repeat, kFractal,
           [&](uint64_t r) { return r * op->src_stride * kFractal; }, false, out);
    for (size_t i = first; i < out.size(); ++i) out[i].grain = kFractal;
    blocks(op->dst.space, op->dst.addr, op->repeat, kFractal,
           [&](uint64_t r) { return r * (1 + uint64_t(op->dst_gap)) * kFractal; }, true, out);
  } else if (auto* op = std::get_if<aicore::LoadData3D>(&instr)) {
    hull(op->src.space, aicore::layout::load3d_src_range(*op), false);  // im2col reads: a hull
    const auto d = aicore::layout::load3d_dst_range(*op);                // contiguous fractals
    if (d.end > d.begin) out.push_back({op->dst.space, d.begin, d.end, true, true});
  } else if (auto* op = std::get_if<aicore::Mmad>(&instr)) {
    const uint64_t k0 = 32 / aicore::dtype_size(op->a_type);
    const uint64_t m1 = (op->m + 15) / 16, n1 = (op->n + 15) / 16, k1 = (op->k + k0 - 1) / k0;
    out.push_back({MemSpace::L0A, op->a, op->a + m1 * k1 * 512, false, true});
    out.push_back({MemSpace::L0B, op->b, op->b + k1 * n1 * 512, false, true});
    const uint64_t c_end = op->c + m1 * n1 * 256 * aicore::dtype_size(op->c_type);
    if (!op->init_c && !op->bias) out.push_back({MemSpace::L0C, op->c, c_end, false, true});
    if (op->bias) out.push_back({MemSpace::BT, op->bias_addr, op->bias_addr + n1 * 16 * 4, false, true});
    out.push_back({MemSpace::L0C, op->c, c_end, true, true});
  } else if (auto* op = std::get_if<aicore::Fixpipe>(&instr)) {
    // NZ columns of 16: column n1 holds m_size rows of 16 elements, `stride` apart; the last
    // column of a ragged n only its first (n_size - 1) % 16 + 1 elements of each row.
    auto nz = [&](MemSpace space, uint64_t at, uint64_t column_pitch, uint64_t esize, bool write) {
      if (op->m_size == 0 || op->n_size == 0) return;
      const uint64_t n1n = (op->n_size + 15) / 16, tail = (op->n_size - 1) % 16 + 1, row = 16 * esize;
      const uint64_t whole = tail == 16 ? n1n : n1n - 1;
      blocks(space, at, whole, op->m_size * row, [&](uint64_t c) { return c * column_pitch; }, write, out);
      if (whole < n1n) {
        blocks(space, at + whole * column_pitch, op->m_size, tail * esize, [&](uint64_t r) { return r * row; }, write,
               out);
      }
    };
    const uint64_t csize = aicore::dtype_size(op->src_type), dsize = aicore::dtype_size(op->dst_type);
    nz(MemSpace::L0C, op->src, uint64_t(op->src_stride) * 16 * csize, csize, false);
    if (op->nz2nd) {
      rows(op->dst.space, op->dst.addr, op->m_size, uint64_t(op->n_size) * dsize, uint64_t(op->dst_stride) * dsize, true,
           out);
    } else {
      nz(op->dst.space, op->dst.addr, uint64_t(op->dst_stride) * 32, dsize, true);
    }
  }
}

struct PendingRace {
  uint32_t first_event, second_event;
  MemSpace space;
  uint64_t begin, end;
  unsigned types;  // bits: RAW, WAR, WAW
};

const char* space_name(MemSpace s) { return aicore::mem_space_name(s); }

// A call site in a report's text, resolved to file:line only when the report is printed (at
// the launch's end: reading debug information is slow, and a launch is timed).
std::string site_ref(uint32_t site) { return fmt::format("\x01{}\x02", site); }
// The text with each site_ref replaced by what `name` makes of its site.
template <typename Name>
std::string replace_site_refs(const std::string& text, Name&& name) {
  std::string out;
  size_t from = 0;
  for (size_t at; (at = text.find('\x01', from)) != std::string::npos;) {
    const size_t end = text.find('\x02', at);
    out.append(text, from, at - from);
    out += name(uint32_t(std::stoul(text.substr(at + 1, end - at - 1))));
    from = end + 1;
  }
  out.append(text, from, std::string::npos);
  return out;
}

}  // namespace

struct Sanitizer::State {
  std::vector<std::array<uint32_t, 6>> drain_only;  // drain_only_waits()
  SiteTable sites;
  std::vector<std::string> names;                      // instruction names
  std::unordered_map<uint32_t, uint32_t> name_of_class;  // instr_class -> names index
  std::vector<Event> events;

  struct Issued {
    std::shared_ptr<const VC> snap;
    uint64_t version;
    uint32_t site;
    bool queue;
    uint64_t seq;
  };
  // A FIFO over a vector whose storage stays (a deque frees and allocates a chunk every few
  // dozen instructions as the pipe drains behind the scalar unit).
  struct IssuedQueue {
    std::vector<Issued> items;  // [head, size) pending
    size_t head = 0;
    bool empty() const { return head == items.size(); }
    void push_back(Issued i) {
      if (head >= 32 && 2 * head >= items.size()) {  // never emptied: drop what was taken
        items.erase(items.begin(), items.begin() + ptrdiff_t(head));
        head = 0;
      }
      items.push_back(std::move(i));
    }
    Issued take() {
      Issued i = std::move(items[head]);
      if (++head == items.size()) items.clear(), head = 0;
      return i;
    }
    void clear() { items.clear(), head = 0; }
  };
  struct Token {
    VC vc;
    uint32_t site;
    bool queue;
  };
  // The SetFlags of one (src pipe, dst pipe, event id) of a core not yet waited, in order.
  // Tokens past `tail` keep their clocks' storage: a set after a wait reuses it (no
  // allocation per flag in a steady ping-pong).
  struct FlagQueue {
    std::vector<Token> tokens;  // [head, tail) pending
    size_t head = 0, tail = 0;
    uint32_t waits = 0;  // WaitFlags of it run in this block (drain_only_waits())
    bool empty() const { return head == tail; }
    Token& front() { return tokens[head]; }
    void pop() {
      if (++head == tail) head = tail = 0;
    }
    void push(const VC& vc, uint32_t site, bool queue) {
      if (head >= 32 && 2 * head >= tail) {  // never emptied: move what is pending to the front
        std::rotate(tokens.begin(), tokens.begin() + ptrdiff_t(head), tokens.begin() + ptrdiff_t(tail));
        tail -= head, head = 0;
      }
      if (tail == tokens.size()) tokens.emplace_back();
      Token& t = tokens[tail++];
      t.vc.c.assign(vc.c.begin(), vc.c.end());
      t.site = site, t.queue = queue;
    }
    void reset() { head = tail = 0, waits = 0; }
  };
  // A core's flag queues by key: a few dozen at most (pipe pairs times event ids), so a
  // linear search of a vector beats hashing. Entries stay for the core's later blocks.
  struct FlagTable {
    std::vector<std::pair<uint64_t, FlagQueue>> entries;
    FlagQueue& operator[](uint64_t key) {
      for (auto& e : entries) {
        if (e.first == key) return e.second;
      }
      entries.emplace_back(key, FlagQueue{});
      return entries.back().second;
    }
    auto begin() { return entries.begin(); }
    auto end() { return entries.end(); }
  };
  static uint64_t flag_key(Pipe src, Pipe dst, uint32_t id) {
    return uint64_t(src) << 40 | uint64_t(dst) << 32 | id;
  }
  struct Core {
    bool active = false;
    std::string name;
    uint32_t block = 0;
    bool auto_sync = true;
    bool queue_flags = false;
    int quiet = 0;
    uint64_t issued_count = 0;  // the scalar unit's program order
    std::array<int64_t, aicore::kNumPipes> stream{};  // -1: none yet in this block
    std::array<VC, aicore::kNumPipes> vc;
    // The scalar unit's clock as issued instructions carry it: a snapshot shared by everything
    // issued while it stays the same, and its version (a pipe joins each version once).
    std::array<uint64_t, aicore::kNumPipes> joined{};
    uint64_t scalar_version = 1;
    void scalar_changed() {
      scalar_snap.reset();
      ++scalar_version;
    }
    // Per pipe, what the scalar unit issued and the pipe has not started, oldest first.
    std::array<IssuedQueue, aicore::kNumPipes> issued;
    std::shared_ptr<const VC> scalar_snap;
    FlagTable flags;  // by flag_key(src, dst, id)
    // Per pipe, the last WaitFlag it ran while nothing else has run on it since: (src, dst,
    // id, its occurrence in this block), or src -1. Still there when every pipe drains, it
    // ordered nothing (drain_only_waits()).
    std::array<std::array<int64_t, 4>, aicore::kNumPipes> last_wait;
    std::map<uint32_t, std::deque<VC>> cross;                            // counted-up counters
    VC pending_cross;  // the last CrossCoreSetFlag's clock
    std::array<Shadow, 8> local;
    std::array<Written, 8> written;
    std::array<std::vector<std::pair<uint64_t, uint64_t>>, 8> buffers;  // TPipe's
  };
  std::vector<Core> cores;
  uint32_t streams = 0;
  Shadow gm;
  Written gm_written;
  struct Alloc {
    uint64_t size;
    bool live, host_addressable;
    std::string api;
  };
  std::map<uint64_t, Alloc> allocs;
  std::map<uint64_t, VC> rendezvous;  // cross-core arrivals not yet released
  std::map<uint64_t, VC> barriers;    // SyncAll generations
  std::set<std::tuple<uint32_t, uint32_t, int, uint32_t, uint32_t>> races_seen;  // sites, kind, names
  std::set<std::pair<std::string, uint32_t>> seen;                               // (kind, site)
  std::vector<Span> spans;
  std::string kernel;
  std::set<uint32_t> raced;  // events in a race finding
  std::vector<PendingRace> pending;  // races of the instruction being checked
  std::vector<Finding> unprinted;    // reported, printed at the launch's end
  struct UnwrittenRead {
    uint32_t event;
    MemSpace space;
    uint64_t begin, end, first;
  };
  std::vector<UnwrittenRead> unwritten_reads;

  Core& core(int id) {
    if (size_t(id) >= cores.size()) cores.resize(size_t(id) + 1);
    return cores[size_t(id)];
  }
  uint32_t stream(Core& c, Pipe p) {
    int64_t& s = c.stream[size_t(p)];
    if (s < 0) s = streams++;
    return uint32_t(s);
  }
  std::shared_ptr<const VC> snapshot(Core& c) {
    if (!c.scalar_snap) c.scalar_snap = std::make_shared<const VC>(c.vc[size_t(Pipe::S)]);
    return c.scalar_snap;
  }
  uint32_t name_of(const Instruction& instr) {
    const uint32_t cls = aicore::instr_class(instr);
    auto it = name_of_class.find(cls);
    if (it != name_of_class.end()) return it->second;
    names.push_back(aicore::instr_name(instr));
    return name_of_class[cls] = uint32_t(names.size() - 1);
  }
  uint32_t name_index(const std::string& n) {
    auto it = std::find(names.begin(), names.end(), n);
    if (it != names.end()) return uint32_t(it - names.begin());
    names.push_back(n);
    return uint32_t(names.size() - 1);
  }
  std::string describe(const Event& e) {
    return fmt::format("{} on {} pipe {} (block {}) at {:.3f} us, {}", names[e.name], cores[size_t(e.core)].name,
                       aicore::pipe_name(e.pipe), e.block, e.seconds * 1e6, site_ref(e.site));
  }
};

Sanitizer::Sanitizer(const Options& options) : options_(options), s_(std::make_unique<State>()) {}
Sanitizer::~Sanitizer() = default;

void exit_hook() {
  Sanitizer* s = Sanitizer::active();
  if (!s) return;
  const int status = s->finish();
  if (status != 0) {
    std::fflush(nullptr);
    std::_Exit(status);
  }
}

void Sanitizer::configure(const Options& options) {
  static bool hooked = false;
  if (!options.any()) {
    active_ = nullptr;
    return;
  }
  if (active_) {
    active_->options_ = options;
    return;
  }
  active_ = new Sanitizer(options);  // lives until the process ends: the exit hook reports
  // The unwinder's one-time setup (opening libunwind, its first look at the loaded objects'
  // unwind tables) here, with the rest of the run's setup, not in the first launch.
  active_->s_->sites.capture();
  // Memory a first launch would otherwise fault in page by page, inside its timed part: the
  // shadow's arena and an event log for a few thousand memory instructions (each is kept by
  // later launches at their high-water mark).
  Arena::prefault();
  active_->s_->events.resize(8192);
  active_->s_->events.clear();
  if (!hooked) {
    hooked = true;
    std::atexit(exit_hook);
  }
}

void Sanitizer::configure_from_config() {
  Config& c = Config::global();
  Options o;
  o.race = c.get<bool>("check.race", false, "sanitizer: report data races the ordering allows (docs/sanitizer.md)");
  o.memory = c.get<bool>("check.memory", false, "sanitizer: out-of-bounds, use-after-free, double free, leaks");
  o.init = c.get<bool>("check.init", false, "sanitizer: reads of bytes never written since allocation");
  o.sync = c.get<bool>("check.sync", false, "sanitizer: flags never waited, deadlocks, syncs that order nothing");
  o.report = c.get<std::string>("check.report", "", "sanitizer: write the findings to this JSON file");
  o.sites = c.get<bool>("check.sites", true,
                        "sanitizer: name the kernel's file:line in reports (reads the debug information once per run)");
  if (const char* env = std::getenv("NPUVP_CHECK")) {
    const Options e = parse_checks(env);
    o.race |= e.race, o.memory |= e.memory, o.init |= e.init, o.sync |= e.sync;
  }
  configure(o);
}

void Sanitizer::report(const std::string& kind, bool error, const std::string& text) {
  s_->unprinted.push_back({kind, error, text});
}

void Sanitizer::print_reports() {
  State& s = *s_;
  if (options_.sites) {
    // Every site these reports name, resolved together: one run of the tool per binary.
    std::vector<uint32_t> sites;
    for (const Finding& f : s.unprinted) {
      replace_site_refs(f.text, [&](uint32_t site) {
        sites.push_back(site);
        return std::string();
      });
    }
    if (!sites.empty()) s.sites.resolve_all(sites);
  }
  for (Finding& f : s.unprinted) {
    f.text = replace_site_refs(
        f.text, [&](uint32_t site) { return options_.sites ? s.sites.where(site) : fmt::format("site #{}", site); });
    std::fflush(stdout);
    std::fprintf(stderr, "npuvp: sanitizer: %s: %s%s\n", f.kind.c_str(), f.error ? "" : "note: ", f.text.c_str());
    findings_.push_back(std::move(f));
  }
  s.unprinted.clear();
}

size_t Sanitizer::count(const std::string& kind) const {
  return size_t(std::count_if(findings_.begin(), findings_.end(), [&](const Finding& f) { return f.kind == kind; }));
}
size_t Sanitizer::errors() const {
  return size_t(std::count_if(findings_.begin(), findings_.end(), [](const Finding& f) { return f.error; }));
}
void Sanitizer::clear_findings() { findings_.clear(); }

// ---- launches and blocks ----

void Sanitizer::launch_begin(const std::string& kernel) {
  State& s = *s_;
  // What a failed launch left undecided is reported now; then the event log starts again
  // (nothing recorded refers to an earlier launch's events: everything before is ordered
  // before this launch, and every core's local memory starts unwritten at its next block).
  report_unwritten_reads();
  s.events.clear();
  s.raced.clear();
  for (auto& c : s.cores) {
    for (auto& l : c.local) l.clear();
  }
  s.kernel = kernel;
  s.gm.clear();  // everything before is ordered before this launch
  s.streams = 0;
  s.rendezvous.clear();
  s.barriers.clear();
  for (auto& c : s.cores) c.cross.clear();
}

void Sanitizer::launch_end() {
  report_unwritten_reads();
  print_reports();
}

void Sanitizer::report_unwritten_reads() {
  State& s = *s_;
  for (const State::UnwrittenRead& u : s.unwritten_reads) {
    const Event& e = s.events[u.event];
    if (s.raced.count(u.event) || !s.seen.insert({"uninitialized", e.site}).second) continue;
    report("uninitialized", true,
           fmt::format("{} reads {} bytes [0x{:x}, 0x{:x}) of which byte 0x{:x} was never written since it was "
                       "allocated",
                       s.describe(e), space_name(u.space), u.begin, u.end, u.first));
  }
  s.unwritten_reads.clear();
}

void Sanitizer::block_begin(int core, const std::string& core_name, uint32_t block_idx, bool auto_sync) {
  State::Core& c = s_->core(core);
  c.active = true;
  c.name = core_name;
  c.block = block_idx;
  c.auto_sync = auto_sync;
  c.stream.fill(-1);
  for (auto& v : c.vc) v.clear();
  c.joined.fill(0);
  for (auto& q : c.issued) q.clear();
  c.scalar_changed();
  for (auto& f : c.flags) f.second.reset();
  for (auto& w : c.last_wait) w = {-1, 0, 0, 0};
  // The previous block on this core drained before this one started: local memory is this
  // block's alone, and holds nothing it wrote.
  for (auto& l : c.local) l.clear();
  for (auto& w : c.written) w.clear();
  for (auto& b : c.buffers) b.clear();
}

void Sanitizer::block_end(int core) {
  State& s = *s_;
  State::Core& c = s.core(core);
  if (options_.sync) {
    std::vector<uint64_t> keys;  // in (src, dst, id) order, whatever the order of first use
    for (const auto& [key, q] : c.flags) {
      if (!q.empty()) keys.push_back(key);
    }
    std::sort(keys.begin(), keys.end());
    for (uint64_t key : keys) {
      State::FlagQueue& q = c.flags[key];
      for (size_t i = q.head; i < q.tail; ++i) {
        const State::Token& t = q.tokens[i];
        if (t.queue) continue;
        if (!s.seen.insert({"sync-unwaited", t.site}).second) continue;
        report("sync", true,
               fmt::format("SetFlag<{}_{}>({}) on {} (block {}) is never waited: the flag is still set when the "
                           "block ends ({}); a later kernel's WaitFlag on it would pass at once",
                           aicore::pipe_name(Pipe(key >> 40)), aicore::pipe_name(Pipe(key >> 32 & 0xff)),
                           uint32_t(key), c.name, c.block, site_ref(t.site)));
      }
    }
  }
  for (auto& f : c.flags) f.second.reset();
  c.active = false;
}

// ---- instructions ----

void Sanitizer::issued(int core, Pipe pipe, const Instruction& instr) {
  State& s = *s_;
  State::Core& c = s.core(core);
  // A TQue flag's call site is never reported (sync findings leave the queue's own flags out,
  // and flags touch no memory): the stack walk, most of the cost of an issue, is skipped.
  const bool queue_flag = c.queue_flags && (std::holds_alternative<aicore::SetFlag>(instr) ||
                                            std::holds_alternative<aicore::WaitFlag>(instr));
  c.issued[size_t(pipe)].push_back(
      {s.snapshot(c), c.scalar_version, queue_flag ? 0u : s.sites.capture(), c.queue_flags, c.issued_count++});
}


// One access of `space` (shadow `shadow`, written ranges `written`): race, init and records.
struct SanitizerAccess {
  using State = Sanitizer::State;
  static void touch(Sanitizer& san, Shadow& shadow, Written* written, MemSpace space, const Span& span,
                    const Access& a, const VC& vc, bool check_race) {
    State& s = *san.s_;
    (void)space;
    if (span.begin >= span.end) return;
    if (written && san.options_.init && !span.write) {
      uint64_t first = 0;
      bool all = false;
      bool report = unwritten(*written, span.begin, span.end, first, all) && (span.exact || all);
      if (report && span.grain != 0 && !all) {  // some whole grain unwritten?
        report = false;
        for (uint64_t g = span.begin; g + span.grain <= span.end && !report; g += span.grain) {
          report = unwritten(*written, g, g + span.grain, first, all) && all;
        }
      }
      if (report) {
        // Decided when the launch ends: a read that races with a write is that race's finding.
        s.unwritten_reads.push_back({a.event, span.space, span.begin, span.end, first});
      }
    }
    if (written && span.write) mark_written(*written, span.begin, span.end);
    if (!san.options_.race || !check_race) return;
    // [span.begin, span.end) as whole segments (models/check/shadow.h), each checked against
    // the accesses recorded there and then recording this one.
    std::vector<PendingRace>& pending = s.pending;
    shadow.update(span.begin, span.end, [&](uint64_t seg_begin, uint64_t seg_end, AccessList& acc) {
      size_t keep = 0;
      for (size_t i = 0; i < acc.size(); ++i) {
        const Access& r = acc[i];
        if (r.stream == a.stream) {
          if (r.site == a.site && r.write == a.write && r.atomic == a.atomic) continue;  // superseded
        } else if ((r.write || a.write) && !(r.atomic && a.atomic) && r.clock > vc.at(r.stream)) {
          // Named in program order (which of the two the kernel issued first), not in the
          // order this run happened to start them.
          const bool r_first = s.events[r.event].seq < s.events[a.event].seq;
          const bool first_writes = r_first ? r.write : a.write, second_writes = r_first ? a.write : r.write;
          const unsigned type = first_writes && second_writes ? 4u : first_writes ? 1u : 2u;
          bool merged = false;
          for (PendingRace& p : pending) {
            if (p.first_event == r.event && p.space == span.space) {
              p.begin = std::min(p.begin, seg_begin);
              p.end = std::max(p.end, seg_end);
              p.types |= type;
              merged = true;
              break;
            }
          }
          if (!merged) pending.push_back({r.event, a.event, span.space, seg_begin, seg_end, type});
        }
        acc[keep++] = r;
      }
      acc.resize(keep);
      acc.push_back(a);
    });
  }

  // Reports the races one instruction's accesses found (all its operands: a read and a write
  // of the same bytes are one finding).
  static void flush_races(Sanitizer& san) {
    State& s = *san.s_;
    std::vector<PendingRace>& pending = s.pending;
    for (const PendingRace& p : pending) {
      s.raced.insert(p.first_event);
      s.raced.insert(p.second_event);
      const bool swap = s.events[p.first_event].seq > s.events[p.second_event].seq;
      const Event& e1 = s.events[swap ? p.second_event : p.first_event];
      const Event& e2 = s.events[swap ? p.first_event : p.second_event];
      if (!s.races_seen.insert({e1.site, e2.site, 0, e1.name, e2.name}).second) continue;
      std::string types;
      for (auto [bit, name] : {std::pair{1u, "RAW"}, {2u, "WAR"}, {4u, "WAW"}}) {
        if (p.types & bit) types += (types.empty() ? "" : "+") + std::string(name);
      }
      san.report("race", true,
                 fmt::format("{} on {} bytes [0x{:x}, 0x{:x}) ({} bytes): {} and {} are not ordered by any "
                             "flag, barrier or queue, in either order",
                             types, space_name(p.space), p.begin, p.end, p.end - p.begin, s.describe(e1),
                             s.describe(e2)));
    }
    pending.clear();
  }

  static void memory(Sanitizer& san, State::Core& c, const Span& span, uint32_t event) {
    State& s = *san.s_;
    if (span.space == MemSpace::GM) {
      auto it = s.allocs.upper_bound(span.begin);
      if (it != s.allocs.begin()) {
        --it;
        // Usable: exactly the bytes the host asked for, as msSanitizer's illegal read/write
        // check counts them. aclrtMalloc rounds up (to 32 B, plus 32 B) and a whole-32 B
        // DataCopy of a ragged tensor end reaches into that padding without a fault, but the
        // bytes are no tensor's: such a tail takes DataCopyPad (A2) or a host buffer sized to
        // whole 32 B blocks (docs/sanitizer.md, "memory").
        const uint64_t a = it->first, e = a + it->second.size;
        if (span.begin >= a && span.end <= e) {
          if (it->second.live) return;
          if (s.seen.insert({"use-after-free", s.events[event].site}).second) {
            san.report("use-after-free", true,
                       fmt::format("{} {} GM [0x{:x}, 0x{:x}) inside the {} allocation [0x{:x}, 0x{:x}) after it "
                                   "was freed",
                                   s.describe(s.events[event]), span.write ? "writes" : "reads", span.begin, span.end,
                                   it->second.api, a, e));
          }
          return;
        }
      }
      if (s.allocs.empty()) return;  // nothing allocated through the runtime: nothing to compare with
      if (s.seen.insert({"out-of-bounds", s.events[event].site}).second) {
        std::string near = "no allocation";
        auto next = s.allocs.upper_bound(span.begin);
        if (next != s.allocs.begin()) {
          auto prev = std::prev(next);
          near = fmt::format("the nearest allocation below is {} of {} bytes at [0x{:x}, 0x{:x}){}",
                             prev->second.api, prev->second.size, prev->first, prev->first + prev->second.size,
                             prev->second.live ? "" : " (freed)");
        }
        san.report("out-of-bounds", true,
                   fmt::format("{} {} GM [0x{:x}, 0x{:x}) outside every live allocation; {}",
                               s.describe(s.events[event]), span.write ? "writes" : "reads", span.begin, span.end,
                               near));
      }
      return;
    }
    const auto& regions = c.buffers[size_t(span.space)];
    if (regions.empty()) return;
    for (const auto& [b, e] : regions) {
      if (span.begin >= b && span.end <= e) return;
    }
    if (s.seen.insert({"out-of-bounds", s.events[event].site}).second) {
      san.report("out-of-bounds", true,
                 fmt::format("{} {} {} [0x{:x}, 0x{:x}) outside every buffer TPipe::InitBuffer gave this block, "
                             "or across two of them (a tensor used past its buffer's size?)",
                             s.describe(s.events[event]), span.write ? "writes" : "reads", space_name(span.space),
                             span.begin, span.end));
    }
  }
};

void Sanitizer::started(int core, Pipe pipe, const Instruction& instr, bool atomic, const sc_core::sc_time& at) {
  State& s = *s_;
  State::Core& c = s.core(core);
  const size_t p = size_t(pipe);
  State::Issued issued{nullptr, 0, 0, false, 0};
  if (!c.issued[p].empty()) issued = c.issued[p].take();
  VC& vc = c.vc[p];
  if (issued.snap && c.joined[p] != issued.version) {
    vc.join(*issued.snap);
    c.joined[p] = issued.version;
  }
  // Flags the pipe sets after a wait keep it pending: drain_only_waits() is about accesses.
  if (!std::holds_alternative<aicore::SetFlag>(instr)) c.last_wait[p] = {-1, 0, 0, 0};
  if (auto* f = std::get_if<aicore::WaitFlag>(&instr)) {
    auto& q = c.flags[State::flag_key(f->src, f->dst, f->id)];
    c.last_wait[p] = {int64_t(f->src), int64_t(f->dst), int64_t(f->id), q.waits++};
    if (!q.empty()) {
      // A flag from the scalar unit (S_X) is what the hardware needs after scalar stores; the
      // model's issue order already implies it, so it is not noted as ordering nothing.
      if (options_.sync && !issued.queue && !q.front().queue && f->src != Pipe::S && vc.covers(q.front().vc) &&
          s.seen.insert({"sync-note", issued.site}).second) {
        report("sync", false,
               fmt::format("WaitFlag<{}_{}>({}) on {} at {} orders nothing: everything its SetFlag ({}) follows is "
                           "ordered before it already",
                           aicore::pipe_name(f->src), aicore::pipe_name(f->dst), f->id, c.name,
                           site_ref(issued.site), site_ref(q.front().site)));
      }
      vc.join(q.front().vc);
      q.pop();
    }
  } else if (auto* f = std::get_if<aicore::CrossCoreWaitFlag>(&instr)) {
    auto& q = c.cross[f->id];
    if (!q.empty()) {
      vc.join(q.front());
      q.pop_front();
    }
  }
  const uint32_t stream = s.stream(c, pipe);
  const Clock clock = vc.tick(stream);
  if (auto* f = std::get_if<aicore::SetFlag>(&instr)) {
    c.flags[State::flag_key(f->src, f->dst, f->id)].push(vc, issued.site, issued.queue);
    return;
  }
  if (std::holds_alternative<aicore::CrossCoreSetFlag>(instr)) {
    c.pending_cross = vc;
    return;
  }
  if (c.quiet || !(options_.race || options_.memory || options_.init)) return;
  spans_of(instr, s.spans);
  if (s.spans.empty()) return;
  s.events.push_back({(uint64_t(c.block) << 40) | issued.seq, core, c.block, pipe, issued.site, s.name_of(instr), at.to_seconds()});
  const uint32_t event = uint32_t(s.events.size() - 1);
  auto visit = [&](const Span& span) {
    const bool gm = span.space == MemSpace::GM;
    const Access a{stream, clock, event, issued.site, span.write, atomic && gm && span.write};
    if (options_.memory) SanitizerAccess::memory(*this, c, span, event);
    Shadow& shadow = gm ? s.gm : c.local[size_t(span.space)];
    Written* written = gm ? nullptr : &c.written[size_t(span.space)];
    if (gm && options_.init) {
      // GM the host can address directly counts as written by it.
      auto it = s.allocs.upper_bound(span.begin);
      const bool device_only = it != s.allocs.begin() && !std::prev(it)->second.host_addressable;
      if (device_only) written = &s.gm_written;
      if (!device_only && span.write) mark_written(s.gm_written, span.begin, span.end);
    }
    SanitizerAccess::touch(*this, shadow, written, span.space, span, a, vc, true);
  };
  // Reads before writes: an in-place operand (Add(sum, sum, x)) reads the bytes before it
  // writes them, so its own write must not count as their initialisation. Two passes rather
  // than a stable_partition, which takes a temporary buffer on every instruction.
  for (const Span& span : s.spans) {
    if (!span.write) visit(span);
  }
  for (const Span& span : s.spans) {
    if (span.write) visit(span);
  }
  SanitizerAccess::flush_races(*this);
}

void Sanitizer::scalar_set_flag(int core, Pipe dst, uint32_t id) {
  State& s = *s_;
  State::Core& c = s.core(core);
  c.flags[State::flag_key(Pipe::S, dst, id)].push(c.vc[size_t(Pipe::S)], c.queue_flags ? 0u : s.sites.capture(),
                                                  c.queue_flags);
}

void Sanitizer::scalar_wait_flag(int core, Pipe src, uint32_t id) {
  State& s = *s_;
  State::Core& c = s.core(core);
  auto& q = c.flags[State::flag_key(src, Pipe::S, id)];
  if (q.empty()) return;
  c.vc[size_t(Pipe::S)].join(q.front().vc);
  q.pop();
  c.scalar_changed();
}

void Sanitizer::scalar_cross_core_wait(int core, uint32_t id) {
  State::Core& c = s_->core(core);
  auto& q = c.cross[id];
  if (q.empty()) return;
  c.vc[size_t(Pipe::S)].join(q.front());
  q.pop_front();
  c.scalar_changed();
}

void Sanitizer::scalar_access(int core, MemSpace space, uint64_t addr, uint64_t size, bool write,
                              const sc_core::sc_time& at) {
  State& s = *s_;
  State::Core& c = s.core(core);
  if (c.quiet || size == 0) return;
  VC& vc = c.vc[size_t(Pipe::S)];
  const uint32_t stream = s.stream(c, Pipe::S);
  Shadow& shadow = space == MemSpace::GM ? s.gm : c.local[size_t(space)];
  if (c.auto_sync) {
    // Automatic synchronisation orders the access after the MTE2, V and MTE3 instructions of
    // this block that touch its bytes (CANN's compiler sets a flag on the pipe after all it
    // was given and waits for it): join those pipes' clocks.
    for (Pipe p : {Pipe::MTE2, Pipe::V, Pipe::MTE3}) {
      const int64_t ps = c.stream[size_t(p)];
      if (ps < 0) continue;
      const bool depends = shadow.find(addr, addr + size, [&](uint64_t, uint64_t, const AccessList& acc) {
        return std::any_of(acc.begin(), acc.end(),
                           [&](const Access& r) { return r.stream == uint32_t(ps) && (r.write || write); });
      });
      if (depends) vc.join(c.vc[size_t(p)]);
    }
  }
  const Clock clock = vc.tick(stream);
  c.scalar_changed();
  const uint32_t site = s.sites.capture();
  s.events.push_back({(uint64_t(c.block) << 40) | c.issued_count++, core, c.block, Pipe::S, site,
                      s.name_index(write ? "SetValue" : "GetValue"), at.to_seconds()});
  const uint32_t event = uint32_t(s.events.size() - 1);
  const Span span{space, addr, addr + size, write, true};
  if (options_.memory) SanitizerAccess::memory(*this, c, span, event);
  Written* written = space == MemSpace::GM ? nullptr : &c.written[size_t(space)];
  if (space == MemSpace::GM && options_.init) {
    auto it = s.allocs.upper_bound(addr);
    if (it != s.allocs.begin() && !std::prev(it)->second.host_addressable) written = &s.gm_written;
    if (!written && write) mark_written(s.gm_written, addr, addr + size);
  }
  SanitizerAccess::touch(*this, shadow, written, space, span, Access{stream, clock, event, site, write, false}, vc,
                         true);
  SanitizerAccess::flush_races(*this);
}

void Sanitizer::scalar_drained(int core) {
  State::Core& c = s_->core(core);
  for (auto& w : c.last_wait) {
    if (w[0] >= 0) s_->drain_only.push_back({uint32_t(core), c.block, uint32_t(w[0]), uint32_t(w[1]), uint32_t(w[2]), uint32_t(w[3])});
    w = {-1, 0, 0, 0};
  }
  VC& vc = c.vc[size_t(Pipe::S)];
  for (size_t p = 0; p < c.vc.size(); ++p) {
    if (p != size_t(Pipe::S)) vc.join(c.vc[p]);
  }
  c.scalar_changed();
}

const std::vector<std::array<uint32_t, 6>>& Sanitizer::drain_only_waits() const { return s_->drain_only; }

void Sanitizer::queue_flags(int core, bool on) { s_->core(core).queue_flags = on; }

void Sanitizer::cross_core_arrive(int core, uint64_t key) { s_->rendezvous[key].join(s_->core(core).pending_cross); }

void Sanitizer::cross_core_count_up(uint64_t key, int receiver, uint32_t id) {
  s_->core(receiver).cross[id].push_back(s_->rendezvous[key]);
}

void Sanitizer::cross_core_released(uint64_t key) { s_->rendezvous.erase(key); }

void Sanitizer::barrier_arrive(int core, uint64_t key) {
  s_->barriers[key].join(s_->core(core).vc[size_t(Pipe::S)]);
}

void Sanitizer::barrier_leave(int core, uint64_t key) {
  State::Core& c = s_->core(core);
  c.vc[size_t(Pipe::S)].join(s_->barriers[key]);
  c.scalar_changed();
}

void Sanitizer::quiet(int core, bool on) { s_->core(core).quiet += on ? 1 : -1; }

// ---- memory ----

void Sanitizer::gm_alloc(uint64_t addr, uint64_t size, bool host_addressable, const char* api) {
  State& s = *s_;
  s.allocs[addr] = {size, true, host_addressable, api};
  // New memory holds nothing written (for what the host cannot address directly).
  auto it = s.gm_written.lower_bound(addr);
  while (it != s.gm_written.end() && it->first < addr + size) it = s.gm_written.erase(it);
}

bool Sanitizer::gm_free(uint64_t addr, const char* api) {
  State& s = *s_;
  auto it = s.allocs.find(addr);
  if (it != s.allocs.end() && it->second.live) {
    it->second.live = false;
    return true;
  }
  if (options_.memory && it != s.allocs.end()) {
    report("use-after-free", true,
           fmt::format("double free: {} of GM 0x{:x}, which {} allocated and was freed already", api, addr,
                       it->second.api));
    print_reports();
  }
  return false;
}

void Sanitizer::host_write(uint64_t addr, uint64_t size) { mark_written(s_->gm_written, addr, addr + size); }

void Sanitizer::host_read(uint64_t addr, uint64_t size, const char* api) {
  (void)addr, (void)size, (void)api;
}

void Sanitizer::local_buffer(int core, MemSpace space, uint64_t addr, uint64_t size, const char* api) {
  (void)api;
  s_->core(core).buffers[size_t(space)].push_back({addr, addr + size});
}

void Sanitizer::local_buffer_slots(int core, MemSpace space, uint64_t addr, uint64_t slot, uint32_t num) {
  auto& regions = s_->core(core).buffers[size_t(space)];
  const auto whole = std::find(regions.begin(), regions.end(), std::pair<uint64_t, uint64_t>{addr, addr + slot * num});
  if (whole != regions.end()) regions.erase(whole);
  for (uint32_t i = 0; i < num; ++i) regions.push_back({addr + i * slot, addr + (i + 1) * slot});
}

void Sanitizer::deadlock(const std::string& states) {
  if (!options_.sync) return;
  report("sync", true,
         fmt::format("deadlock in kernel '{}': these waits can never be met (no matching SetFlag, cross-core flag or "
                     "SyncAll arrival will come):{}",
                     s_->kernel, states));
  report_unwritten_reads();
  print_reports();
}

// ---- results ----

int Sanitizer::finish() {
  if (finished_) return errors() ? 1 : 0;
  finished_ = true;
  State& s = *s_;
  report_unwritten_reads();
  print_reports();
  if (options_.memory) {
    for (const auto& [addr, a] : s.allocs) {
      if (a.live) {
        report("leak", true, fmt::format("{} of {} bytes at GM 0x{:x} was never freed", a.api, a.size, addr));
      }
    }
    print_reports();
  }
  const char* kinds[] = {"race", "out-of-bounds", "uninitialized", "use-after-free", "leak", "sync"};
  for (const char* k : kinds) {
    size_t errors = 0, notes = 0;
    for (const Finding& f : findings_) {
      if (f.kind == k) (f.error ? errors : notes)++;
    }
    std::fprintf(stderr, "npuvp: sanitizer: summary: %s: %zu error%s%s\n", k, errors, errors == 1 ? "" : "s",
                 notes ? fmt::format(", {} note{}", notes, notes == 1 ? "" : "s").c_str() : "");
  }
  if (!options_.report.empty()) {
    nlohmann::json j;
    j["checks"] = {{"race", options_.race}, {"memory", options_.memory}, {"init", options_.init}, {"sync", options_.sync}};
    j["findings"] = nlohmann::json::array();
    for (const Finding& f : findings_) j["findings"].push_back({{"kind", f.kind}, {"error", f.error}, {"text", f.text}});
    nlohmann::json summary;
    for (const char* k : kinds) summary[k] = count(k);
    j["summary"] = summary;
    j["errors"] = errors();
    std::ofstream out(options_.report);
    if (!out) {
      std::fprintf(stderr, "npuvp: sanitizer: cannot write the report %s\n", options_.report.c_str());
    } else {
      out << j.dump(2) << "\n";
    }
  }
  return errors() ? 1 : 0;
}

}  // namespace npuvp::check
