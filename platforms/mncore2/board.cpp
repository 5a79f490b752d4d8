#include "platforms/mncore2/board.h"

#include <chrono>
#include <cmath>
#include <fmt/format.h>

#include "tlm/log.h"
#include "tlm/tracer.h"

namespace npuvp::mncore {

namespace {

Counter& counter(const std::string& name, const char* unit, const char* description) {
  return Stats::global().counter(name, unit, description);
}

}  // namespace

BoardRun& BoardRun::operator+=(const BoardRun& o) {
  sim_time += o.sim_time;
  cycles += o.cycles;
  wall_seconds += o.wall_seconds;
  instructions += o.instructions;
  alu_instructions += o.alu_instructions;
  mmacc_instructions += o.mmacc_instructions;
  mwload_instructions += o.mwload_instructions;
  transfer_instructions += o.transfer_instructions;
  pe_steps += o.pe_steps;
  issue_cycles += o.issue_cycles;
  stall_cycles += o.stall_cycles;
  macs += o.macs;
  for (unsigned e = 0; e < kEngines; ++e) {
    engines[e].transfers += o.engines[e].transfers;
    engines[e].busy_cycles += o.engines[e].busy_cycles;
    engines[e].bytes_down += o.engines[e].bytes_down;
    engines[e].bytes_up += o.engines[e].bytes_up;
  }
  return *this;
}

Board::Board(sc_core::sc_module_name name)
    : sc_module(name),
      t_(Topology::from_config()),
      map_(t_),
      pes_(t_),
      mau_(pes_),
      bus_("bus"),
      host_socket_("host_socket"),
      cycle_(t_.cycle_ns(), sc_core::SC_NS),
      instructions_(counter("mncore2.sequencer.instructions", "instructions", "instructions issued")),
      alu_instructions_(counter("mncore2.sequencer.alu_instructions", "instructions",
                                "ALU instructions (mov, arithmetic, logic, fcvt, compares)")),
      mmacc_instructions_(counter("mncore2.sequencer.mmacc_instructions", "instructions", "MAU mmacc instructions")),
      mwload_instructions_(counter("mncore2.sequencer.mwload_instructions", "instructions",
                                   "MAU weight-register loads")),
      transfer_instructions_(counter("mncore2.sequencer.transfer_instructions", "instructions",
                                     "transfers handed to the engines")),
      pe_steps_(counter("mncore2.sequencer.pe_steps", "steps", "steps the PEs spent on ALU and MAU work")),
      issue_cycles_(counter("mncore2.sequencer.issue_cycles", "cycles", "cycles spent issuing instructions")),
      stall_cycles_(counter("mncore2.sequencer.stall_cycles", "cycles",
                            "cycles the sequencer waited for transfer engines")),
      macs_(counter("mncore2.mau.macs", "MAC", "multiply-accumulates done by all MAUs")),
      pcie_to_device_(counter("mncore2.pcie.bytes_to_device", "bytes", "host -> PDM bytes over PCIe")),
      pcie_to_host_(counter("mncore2.pcie.bytes_to_host", "bytes", "PDM -> host bytes over PCIe")) {
  const unsigned pes_per_group = t_.l2b_per_group * t_.l1b_per_l2b * t_.pes_per_l1b();
  for (unsigned g = 0; g < t_.groups; ++g) {
    groups_.push_back(std::make_unique<Group>(fmt::format("group{}", g).c_str(), t_, map_, pes_, g * pes_per_group));
    bus_.initiator_socket.bind(groups_.back()->bus.target_socket);
    bus_.map(fmt::format("group{}", g), map_.group_base(g), map_.group_window, g);
  }
  for (unsigned e = 0; e < kEngines; ++e) {
    const Engine kind = static_cast<Engine>(e);
    engines_.push_back(
        std::make_unique<TransferEngine>(fmt::format("engine_{}", engine_name(kind)).c_str(), kind, t_, map_));
    engines_.back()->socket.bind(bus_.target_socket);
  }
  host_socket_.bind(bus_.target_socket);
  SC_THREAD(sequencer);
}

Board::~Board() = default;

L2b& Board::l2b(unsigned flat) { return *group(flat / t_.l2b_per_group).l2bs.at(flat % t_.l2b_per_group); }
L1b& Board::l1b(unsigned flat) { return *l2b(flat / t_.l1b_per_l2b).l1bs.at(flat % t_.l1b_per_l2b); }

unsigned Board::nodes(Mem m) const {
  switch (m) {
    case Mem::DRAM:
    case Mem::PDM: return t_.groups;
    case Mem::L2BM: return t_.l2bs();
    case Mem::L1BM: return t_.l1bs();
    default: return t_.pes();
  }
}

uint64_t Board::bus_address(Mem m, unsigned node, uint64_t byte_offset) const {
  switch (m) {
    case Mem::DRAM: return map_.group_base(node) + byte_offset;
    case Mem::PDM: return map_.group_base(node) + map_.group_pdm + byte_offset;
    case Mem::L2BM: return map_.l2b_base(node / t_.l2b_per_group, node % t_.l2b_per_group) + byte_offset;
    case Mem::L1BM: return map_.l1b_base(node / t_.l1b_per_l2b, node % t_.l1b_per_l2b, t_) + byte_offset;
    default:
      return map_.pe_base(node / t_.pes_per_l1b(), node % t_.pes_per_l1b(), t_) +
             static_cast<unsigned>(m) * map_.pe_memory_window + byte_offset;
  }
}

void Board::finish_elaboration() {
  // The routers' multi-sockets take their callbacks at the end of elaboration: until then no
  // transaction, not even a debug one, can cross them. No simulated time passes.
  if (!sc_core::sc_start_of_simulation_invoked()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

void Board::debug(tlm::tlm_command command, Mem m, unsigned node, uint64_t byte_offset, void* data,
                  uint64_t bytes) {
  finish_elaboration();
  const MemorySpec& spec = t_.mem[static_cast<unsigned>(m)];
  if (node >= nodes(m)) raise(name(), "{} {}: there are only {} of them", mem_name(m), node, nodes(m));
  if (byte_offset > spec.size_bytes() || bytes > spec.size_bytes() - byte_offset) {
    raise(name(), "{} {} bytes [{}, {}) are beyond its {} bytes", mem_name(m), node, byte_offset,
          byte_offset + bytes, spec.size_bytes());
  }
  if (is_pe_memory(m) && (byte_offset % 4 != 0 || bytes % 4 != 0)) {
    raise(name(), "{} of PE {}: debug access [{}, +{}) must be whole SW", mem_name(m), node, byte_offset, bytes);
  }
  // transport_dbg carries an unsigned length: go in pieces.
  constexpr uint64_t kPiece = 1u << 30;
  auto* p = static_cast<uint8_t*>(data);
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(kPiece, bytes - done);
    tlm::tlm_generic_payload tx;
    tx.set_command(command);
    tx.set_address(bus_address(m, node, byte_offset + done));
    tx.set_data_ptr(p + done);
    tx.set_data_length(static_cast<unsigned>(piece));
    if (host_socket_->transport_dbg(tx) != piece) {
      raise(name(), "debug access to {} {} at byte {} failed", mem_name(m), node, byte_offset + done);
    }
    done += piece;
  }
}

void Board::debug_write(Mem m, unsigned node, uint64_t byte_offset, const void* data, uint64_t bytes) {
  debug(tlm::TLM_WRITE_COMMAND, m, node, byte_offset, const_cast<void*>(data), bytes);
}

void Board::debug_read(Mem m, unsigned node, uint64_t byte_offset, void* data, uint64_t bytes) {
  debug(tlm::TLM_READ_COMMAND, m, node, byte_offset, data, bytes);
}

void Board::pcie(tlm::tlm_command command, uint64_t pdm_lw_address, void* data, uint64_t bytes) {
  const MemorySpec& pdm = t_.mem[static_cast<unsigned>(Mem::PDM)];
  const uint64_t offset = pdm_lw_address * pdm.unit_bytes;
  const char* what = command == tlm::TLM_WRITE_COMMAND ? "host -> PDM" : "PDM -> host";
  if (offset > pdm.size_bytes() || bytes > pdm.size_bytes() - offset) {
    raise(fmt::format("{}.pcie", name()), "{} of {} bytes at PDM address {}: beyond Group 0's PDM ({} bytes)", what,
          bytes, pdm_lw_address, pdm.size_bytes());
  }
  if (!finished_) raise(fmt::format("{}.pcie", name()), "{} while a program is running", what);
  finish_elaboration();
  tlm::tlm_generic_payload tx;
  tx.set_command(command);
  tx.set_address(bus_address(Mem::PDM, 0, offset));  // only Group 0's PDM is on PCIe
  tx.set_data_ptr(static_cast<uint8_t*>(data));
  tx.set_data_length(static_cast<unsigned>(bytes));
  tx.set_streaming_width(static_cast<unsigned>(bytes));
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  host_socket_->b_transport(tx, delay);
  if (tx.get_response_status() != tlm::TLM_OK_RESPONSE) {
    raise(fmt::format("{}.pcie", name()), "{} failed: {}", what, tx.get_response_string());
  }
  (command == tlm::TLM_WRITE_COMMAND ? pcie_to_device_ : pcie_to_host_) += bytes;
  const sc_core::sc_time duration =
      sc_core::sc_time(t_.pcie_latency_ns, sc_core::SC_NS) + sc_core::sc_time(double(bytes) / t_.pcie_gbps, sc_core::SC_NS);
  sc_core::sc_start(std::max(duration, delay));
}

void Board::host_write(uint64_t pdm_lw_address, const void* data, uint64_t bytes) {
  pcie(tlm::TLM_WRITE_COMMAND, pdm_lw_address, const_cast<void*>(data), bytes);
}

void Board::host_read(uint64_t pdm_lw_address, void* data, uint64_t bytes) {
  pcie(tlm::TLM_READ_COMMAND, pdm_lw_address, data, bytes);
}

double Board::peak_half_flops() const {
  return 2.0 * t_.mabs() * t_.pe_per_mab * t_.mau_k * t_.mau_n / t_.cycles_per_step * t_.clock_mhz * 1e6;
}

std::vector<Footprint> Board::pe_footprint(const Instruction& in) const {
  std::vector<Footprint> out;
  auto add = [&](const Operand& o, unsigned sw, bool write) {
    if (o.kind != Operand::Kind::Memory) return;
    const uint64_t begin = o.address * t_.mem[static_cast<unsigned>(o.mem)].unit_bytes;
    out.push_back({o.mem, begin, begin + uint64_t(sw) * 4, write});
  };
  switch (in.op) {
    case Op::MWLoad:
      add(in.sources[0], (t_.mau_k / t_.pe_per_mab * t_.mau_n + 1) / 2, false);
      break;
    case Op::MMAcc:
      add(in.sources[0], t_.mau_k / 2, false);
      add(in.dest, t_.mau_n, true);
      break;
    default:
      for (const Operand& s : in.sources) add(s, s.width_sw, false);
      add(in.dest, in.dest.width_sw, true);
  }
  return out;
}

void Board::check_hazards(const Instruction& in, const std::vector<Footprint>& touches, int own_engine) const {
  for (unsigned e = 0; e < kEngines; ++e) {
    if (static_cast<int>(e) == own_engine) continue;  // one engine runs its transfers in order
    std::string problem;
    engines_[e]->for_each_in_flight([&](const TransferJob& job, const sc_core::sc_time& until) {
      if (!problem.empty()) return;
      for (const Footprint& mine : touches) {
        for (const Footprint& theirs : job.footprint) {
          if (!conflicts(mine, theirs)) continue;
          problem = fmt::format(
              "{} {} bytes [{}, {}) while the transfer at line {} `{}` (engine {}, {}) {} them; insert `wait {}` "
              "before this instruction", mine.write ? "writes" : "reads", mem_name(mine.mem),
              std::max(mine.begin, theirs.begin), std::min(mine.end, theirs.end), job.instruction->line,
              job.instruction->text, engine_name(static_cast<Engine>(e)),
              until == sc_core::SC_ZERO_TIME ? std::string("queued") : "busy until " + until.to_string(),
              theirs.write ? "writes" : "reads", engine_name(static_cast<Engine>(e)));
          return;
        }
      }
    });
    if (!problem.empty()) throw PeFault(problem);
  }
}

void Board::step(unsigned steps, const Instruction& in) {
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const sc_core::sc_time duration = cycle_ * double(uint64_t(steps) * t_.cycles_per_step);
  issue_cycles_ += uint64_t(steps) * t_.cycles_per_step;
  wait(duration);
  Tracer& tracer = Tracer::global();
  if (tracer.enabled()) {
    if (track_ < 0) track_ = tracer.track("mncore2", "sequencer");
    tracer.slice(track_, in.text, start, duration, {{"line", in.line}});
  }
}

void Board::stall_until_idle(unsigned engine_mask) {
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  for (unsigned e = 0; e < kEngines; ++e) {
    if (!(engine_mask & (1u << e))) continue;
    while (!engines_[e]->idle()) wait(engines_[e]->changed());
  }
  stall_cycles_ += static_cast<uint64_t>(std::llround((sc_core::sc_time_stamp() - start) / cycle_));
}

void Board::issue(const Program& p, const Instruction& in) {
  ++instructions_;
  switch (in.op) {
    case Op::Nop:
      step(1, in);
      return;
    case Op::Wait:
      stall_until_idle(in.wait_mask);
      return;
    case Op::Transfer: {
      TransferEngine& e = engine(in.engine);
      TransferJob job;
      job.program = &p;
      job.instruction = &in;
      job.footprint = e.plan(in);
      check_hazards(in, job.footprint, static_cast<int>(in.engine));
      if (e.full()) {
        const sc_core::sc_time start = sc_core::sc_time_stamp();
        while (e.full()) wait(e.changed());
        stall_cycles_ += static_cast<uint64_t>(std::llround((sc_core::sc_time_stamp() - start) / cycle_));
      }
      job.issued = sc_core::sc_time_stamp();
      e.push(std::move(job));
      ++transfer_instructions_;
      step(1, in);
      return;
    }
    default:
      break;
  }
  check_hazards(in, pe_footprint(in), -1);
  if (in.op == Op::MWLoad) {
    if (in.predicate >= 0) throw PeFault("mwload fills a MAB's shared weight register and cannot be predicated");
    mau_.load_weights(in);
    ++mwload_instructions_;
    pe_steps_ += t_.mau_wload_steps;
    step(t_.mau_wload_steps, in);
  } else if (in.op == Op::MMAcc) {
    macs_ += mau_.multiply_accumulate(in);
    ++mmacc_instructions_;
    ++pe_steps_;
    step(1, in);
  } else {
    pes_.execute(in);
    ++alu_instructions_;
    ++pe_steps_;
    step(1, in);
  }
}

void Board::sequencer() {
  for (;;) {
    // The flag, not only the event: a run before the first sc_start notifies before this
    // thread has reached its wait.
    while (!pending_) wait(start_);
    pending_ = false;
    const Program& p = *program_;
    for (const Instruction& in : p.instructions) {
      std::string fault;
      try {
        issue(p, in);
      } catch (const PeFault& e) {
        fault = e.what();
      }
      if (!fault.empty()) raise(fmt::format("{}.sequencer", name()), "{}: {}", where(p, in), fault);
    }
    stall_until_idle((1u << kEngines) - 1);  // a program ends when its last transfer has landed
    finished_ = true;
  }
}

const BoardRun& Board::run(const Program& program) {
  if (!finished_) raise(name(), "run('{}') while another program is running", program.name);
  finish_elaboration();
  struct Snapshot {
    uint64_t v[10];
    uint64_t e[kEngines][4];
  };
  auto snapshot = [&]() {
    Snapshot s{};
    const Counter* cs[] = {&instructions_, &alu_instructions_, &mmacc_instructions_, &mwload_instructions_,
                           &transfer_instructions_, &pe_steps_, &issue_cycles_, &stall_cycles_, &macs_};
    for (unsigned i = 0; i < 9; ++i) s.v[i] = cs[i]->value;
    for (unsigned e = 0; e < kEngines; ++e) {
      const std::string prefix = std::string(engines_[e]->name()) + ".";
      s.e[e][0] = Stats::global().value(prefix + "transfers");
      s.e[e][1] = Stats::global().value(prefix + "busy_cycles");
      s.e[e][2] = Stats::global().value(prefix + "bytes_down");
      s.e[e][3] = Stats::global().value(prefix + "bytes_up");
    }
    return s;
  };
  const Snapshot before = snapshot();
  program_ = &program;
  finished_ = false;
  pending_ = true;
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const auto wall0 = std::chrono::steady_clock::now();
  start_.notify(sc_core::SC_ZERO_TIME);
  sc_core::sc_start();
  if (!finished_) raise(name(), "program '{}' stopped before its end", program.name);
  const Snapshot after = snapshot();

  BoardRun r;
  r.program = program.name;
  r.sim_time = sc_core::sc_time_stamp() - start;
  r.cycles = static_cast<uint64_t>(std::llround(r.sim_time / cycle_));
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  r.instructions = after.v[0] - before.v[0];
  r.alu_instructions = after.v[1] - before.v[1];
  r.mmacc_instructions = after.v[2] - before.v[2];
  r.mwload_instructions = after.v[3] - before.v[3];
  r.transfer_instructions = after.v[4] - before.v[4];
  r.pe_steps = after.v[5] - before.v[5];
  r.issue_cycles = after.v[6] - before.v[6];
  r.stall_cycles = after.v[7] - before.v[7];
  r.macs = after.v[8] - before.v[8];
  for (unsigned e = 0; e < kEngines; ++e) {
    r.engines[e] = {after.e[e][0] - before.e[e][0], after.e[e][1] - before.e[e][1], after.e[e][2] - before.e[e][2],
                    after.e[e][3] - before.e[e][3]};
  }
  last_ = r;
  return last_;
}

}  // namespace npuvp::mncore
