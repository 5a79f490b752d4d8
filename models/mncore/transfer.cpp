#include "models/mncore/transfer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "models/mncore/pe_array.h"
#include "models/numerics/mncore_float.h"
#include "tlm/log.h"
#include "tlm/tracer.h"

namespace npuvp::mncore {

bool conflicts(const Footprint& a, const Footprint& b) {
  return a.mem == b.mem && (a.write || b.write) && a.begin < b.end && b.begin < a.end;
}

// The tree level a transfer crosses: `parents` nodes, each with children arranged as
// fanout[0] x fanout[1] (outer level first; the child index is outer-major).
struct TransferEngine::Level {
  Mem parent_mem, child_mem;
  unsigned parents = 1;
  std::vector<unsigned> fanout;
  bool down = true;
  bool copy = false;
  unsigned children() const {
    unsigned c = 1;
    for (unsigned f : fanout) c *= f;
    return c;
  }
};

namespace {

bool splits(Mode m) { return m == Mode::Dist || m == Mode::Coll; }

const LinkSpec& link_of(const Topology& t, Engine e) {
  switch (e) {
    case Engine::Pdm: return t.pdm_link;
    case Engine::Dram: return t.dram_link;
    case Engine::L2b: return t.l2b_link;
    case Engine::L1b: return t.l1b_link;
  }
  return t.l1b_link;
}

// acc[i] = acc[i] + x[i] for every lane, in the MN-Core format (rounded per addition).
void add_lanes(uint8_t* acc, const uint8_t* x, uint64_t bytes, LaneType type) {
  const FloatFormat f = float_format(type);
  const unsigned lane = lane_bits(type) / 8;
  for (uint64_t i = 0; i < bytes; i += lane) {
    uint64_t a = 0, b = 0;
    std::memcpy(&a, acc + i, lane);
    std::memcpy(&b, x + i, lane);
    const uint64_t r = add(f, a, b);
    std::memcpy(acc + i, &r, lane);
  }
}

}  // namespace

TransferEngine::TransferEngine(sc_core::sc_module_name name, Engine kind, const Topology& t, const AddressMap& map)
    : sc_module(name),
      socket("socket"),
      kind_(kind),
      t_(t),
      map_(map),
      link_(link_of(t, kind)),
      depth_(t.engine_queue_depth),
      transfers_(Stats::global().counter(std::string(this->name()) + ".transfers", "transfers", "transfers executed")),
      busy_cycles_(Stats::global().counter(std::string(this->name()) + ".busy_cycles", "cycles",
                                           "cycles the engine spent moving data")),
      bytes_down_(Stats::global().counter(std::string(this->name()) + ".bytes_down", "bytes",
                                          "bytes through the parents' ports, root to leaves (all nodes)")),
      bytes_up_(Stats::global().counter(std::string(this->name()) + ".bytes_up", "bytes",
                                        "bytes through the parents' ports, leaves to root (all nodes)")) {
  SC_THREAD(thread);
}

TransferEngine::Level TransferEngine::level(const Instruction& in) const {
  Level lv;
  const Mem src = in.sources.at(0).mem, dst = in.dest.mem;
  lv.copy = in.modes[0] == Mode::Copy;
  lv.down = lv.copy || in.modes[0] == Mode::Bcast || in.modes[0] == Mode::Dist;
  lv.parent_mem = lv.down ? src : dst;
  lv.child_mem = lv.down ? dst : src;
  switch (kind_) {
    case Engine::Pdm:
      if (lv.copy) {  // each Group's PDM <-> its own DRAM
        lv.parents = t_.groups;
        lv.fanout = {1};
      } else {        // Group 0's PDM is the root; every Group's DRAM is a child
        lv.parents = 1;
        lv.fanout = {t_.groups};
      }
      break;
    case Engine::Dram:
      lv.parents = t_.groups;
      lv.fanout = {t_.l2b_per_group};
      break;
    case Engine::L2b:
      lv.parents = t_.l2bs();
      lv.fanout = {t_.l1b_per_l2b};
      break;
    case Engine::L1b:
      lv.parents = t_.l1bs();
      lv.fanout = {t_.mab_per_l1b, t_.pe_per_mab};
      break;
  }
  return lv;
}

uint64_t TransferEngine::address(Mem m, unsigned node, uint64_t byte_offset) const {
  switch (m) {
    case Mem::DRAM: return map_.group_base(node) + byte_offset;
    case Mem::PDM: return map_.group_base(node) + map_.group_pdm + byte_offset;
    case Mem::L2BM: return map_.l2b_base(node / t_.l2b_per_group, node % t_.l2b_per_group) + byte_offset;
    case Mem::L1BM: return map_.l1b_base(node / t_.l1b_per_l2b, node % t_.l1b_per_l2b, t_) + byte_offset;
    default:  // a PE memory; node = flat PE index
      return map_.pe_base(node / t_.pes_per_l1b(), node % t_.pes_per_l1b(), t_) +
             static_cast<unsigned>(m) * map_.pe_memory_window + byte_offset;
  }
}

std::vector<Footprint> TransferEngine::plan(const Instruction& in) const {
  const Level lv = level(in);
  uint64_t blocks = 1;
  for (unsigned i = 0; i < lv.fanout.size(); ++i) {
    if (splits(in.modes[i])) blocks *= lv.fanout[i];
  }
  const uint64_t n = in.count_lw * 8;
  const uint64_t parent_bytes = lv.copy ? n : blocks * n;
  std::vector<Footprint> out;
  for (const Operand* o : {&in.sources.at(0), &in.dest}) {
    const bool is_parent = (o == &in.sources[0]) == lv.down;
    const uint64_t bytes = is_parent ? parent_bytes : n;
    const MemorySpec& spec = t_.mem[static_cast<unsigned>(o->mem)];
    const uint64_t begin = o->address * spec.unit_bytes;
    if (begin % 8 != 0) {
      throw PeFault(fmt::format("'{}': {} address {} is not LW aligned (transfers move whole LW)", o->text,
                                mem_name(o->mem), o->address));
    }
    if (begin > spec.size_bytes() || bytes > spec.size_bytes() - begin) {
      throw PeFault(fmt::format("'{}': {} {} of {} LW from address {} ends at byte {}, beyond the {}'s {} bytes "
                                "({} {})", o->text, mode_name(in.modes[0]), is_parent && blocks > 1
                                    ? fmt::format("{} blocks", blocks) : std::string("a block"),
                                in.count_lw, o->address, begin + bytes, mem_name(o->mem), spec.size_bytes(),
                                spec.size_units(), spec.unit_bytes == 8 ? "LW" : "SW"));
    }
    if (bytes > (1ull << 31)) {
      throw PeFault(fmt::format("'{}': {} bytes in one block; the model moves at most 2 GiB per block and node",
                                o->text, bytes));
    }
    out.push_back({o->mem, begin, begin + bytes, o == &in.dest});
  }
  return out;
}

uint64_t TransferEngine::link_cycles(const Instruction& in) const {
  const Level lv = level(in);
  uint64_t blocks = 1;
  for (unsigned i = 0; i < lv.fanout.size(); ++i) {
    if (splits(in.modes[i])) blocks *= lv.fanout[i];
  }
  const double words = double(lv.copy ? in.count_lw : blocks * in.count_lw);
  return link_.latency_cycles + static_cast<uint64_t>(std::ceil(words / link_.lw_per_cycle));
}

void TransferEngine::push(TransferJob job) {
  queue_.push_back(std::move(job));
  pushed_.notify(sc_core::SC_ZERO_TIME);
}

void TransferEngine::for_each_in_flight(
    const std::function<void(const TransferJob&, const sc_core::sc_time&)>& f) const {
  if (running_) f(*running_, running_until_);
  for (const TransferJob& j : queue_) f(j, sc_core::SC_ZERO_TIME);
}

sc_core::sc_time TransferEngine::transact(tlm::tlm_command command, uint64_t addr, uint8_t* data, uint64_t bytes,
                                          const TransferJob& job) {
  tlm::tlm_generic_payload tx;
  tx.set_command(command);
  tx.set_address(addr);
  tx.set_data_ptr(data);
  tx.set_data_length(static_cast<unsigned>(bytes));
  tx.set_streaming_width(static_cast<unsigned>(bytes));
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(tx, delay);
  if (tx.get_response_status() != tlm::TLM_OK_RESPONSE) {
    raise(name(), "{}: {} of {} bytes at board address {:#x} failed: {}", where(*job.program, *job.instruction),
          command == tlm::TLM_READ_COMMAND ? "read" : "write", bytes, addr, tx.get_response_string());
  }
  return delay;
}

sc_core::sc_time TransferEngine::move(const TransferJob& job) {
  const Instruction& in = *job.instruction;
  const Level lv = level(in);
  const unsigned levels = static_cast<unsigned>(lv.fanout.size());
  uint64_t blocks = 1;
  for (unsigned i = 0; i < levels; ++i) {
    if (splits(in.modes[i])) blocks *= lv.fanout[i];
  }
  const uint64_t n = in.count_lw * 8;
  const Operand& src = in.sources[0];
  const Operand& dst = in.dest;
  const uint64_t src_offset = src.address * t_.mem[static_cast<unsigned>(src.mem)].unit_bytes;
  const uint64_t dst_offset = dst.address * t_.mem[static_cast<unsigned>(dst.mem)].unit_bytes;
  const unsigned children = lv.children();
  const sc_core::sc_time cycle(t_.cycle_ns(), sc_core::SC_NS);
  const uint64_t link_lw = lv.copy ? in.count_lw : blocks * in.count_lw;
  const sc_core::sc_time link_time = cycle * double(link_cycles(in));

  // The block a child takes (down) or gives (up): its digits at the splitting levels.
  auto block_of = [&](unsigned c) {
    uint64_t index = 0;
    unsigned rest = c;
    std::vector<unsigned> digits(levels);
    for (unsigned i = levels; i-- > 0;) {
      digits[i] = rest % lv.fanout[i];
      rest /= lv.fanout[i];
    }
    for (unsigned i = 0; i < levels; ++i) {
      if (splits(in.modes[i])) index = index * lv.fanout[i] + digits[i];
    }
    return index;
  };
  auto child_node = [&](unsigned parent, unsigned c) {
    if (kind_ == Engine::Pdm) return lv.copy ? parent : c;
    return parent * children + c;
  };

  sc_core::sc_time longest = sc_core::SC_ZERO_TIME;
  std::vector<uint8_t> staging, leaves;
  for (unsigned p = 0; p < lv.parents; ++p) {
    sc_core::sc_time memory_time = sc_core::SC_ZERO_TIME;
    auto note = [&](const sc_core::sc_time& d) { memory_time = std::max(memory_time, d); };
    if (lv.copy) {
      staging.resize(n);
      note(transact(tlm::TLM_READ_COMMAND, address(src.mem, p, src_offset), staging.data(), n, job));
      note(transact(tlm::TLM_WRITE_COMMAND, address(dst.mem, p, dst_offset), staging.data(), n, job));
    } else if (lv.down) {
      staging.resize(blocks * n);
      note(transact(tlm::TLM_READ_COMMAND, address(src.mem, p, src_offset), staging.data(), blocks * n, job));
      for (unsigned c = 0; c < children; ++c) {
        note(transact(tlm::TLM_WRITE_COMMAND, address(dst.mem, child_node(p, c), dst_offset),
                      staging.data() + block_of(c) * n, n, job));
      }
    } else {
      leaves.resize(uint64_t(children) * n);
      for (unsigned c = 0; c < children; ++c) {
        note(transact(tlm::TLM_READ_COMMAND, address(src.mem, child_node(p, c), src_offset),
                      leaves.data() + uint64_t(c) * n, n, job));
      }
      // Combine level by level, innermost first. Entries are consecutive runs of `entry`
      // bytes; a group of F entries is concatenated (coll) or summed in index order (red).
      uint64_t entries = children, entry = n;
      for (unsigned i = levels; i-- > 0;) {
        const unsigned f = lv.fanout[i];
        const uint64_t groups = entries / f;
        if (in.modes[i] == Mode::Red) {
          for (uint64_t g = 0; g < groups; ++g) {
            uint8_t* acc = leaves.data() + g * f * entry;
            for (unsigned k = 1; k < f; ++k) add_lanes(acc, acc + k * entry, entry, in.type);
            if (g != 0) std::memmove(leaves.data() + g * entry, acc, entry);
          }
        } else {
          entry *= f;  // coll: the group is already contiguous, in child order
        }
        entries = groups;
      }
      note(transact(tlm::TLM_WRITE_COMMAND, address(dst.mem, p, dst_offset), leaves.data(), blocks * n, job));
    }
    const bool toward_leaves = lv.copy ? src.mem == Mem::PDM : lv.down;
    (toward_leaves ? bytes_down_ : bytes_up_) += link_lw * 8;
    longest = std::max({longest, link_time, memory_time});
  }
  return longest;
}

void TransferEngine::thread() {
  Tracer& tracer = Tracer::global();
  for (;;) {
    while (queue_.empty()) wait(pushed_);
    running_ = std::move(queue_.front());
    queue_.pop_front();
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    const sc_core::sc_time duration = move(*running_);
    running_until_ = start + duration;
    changed_.notify(sc_core::SC_ZERO_TIME);
    wait(duration);
    ++transfers_;
    busy_cycles_ += static_cast<uint64_t>(std::llround(duration.to_seconds() * t_.clock_mhz * 1e6));
    if (tracer.enabled()) {
      if (track_ < 0) track_ = tracer.track("mncore2", std::string("engine ") + engine_name(kind_));
      tracer.slice(track_, running_->instruction->text, start, duration, {{"line", running_->instruction->line}});
    }
    running_.reset();
    changed_.notify(sc_core::SC_ZERO_TIME);
  }
}

}  // namespace npuvp::mncore
