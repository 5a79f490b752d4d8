// The AI Core's pipes: the next event of each, and what an instruction does when it starts
// and when it completes (run in simulated-time order by AiCore::run_pipes, ai_core.cpp), and
// its GM accesses through the BIU.
#include "models/aicore/ai_core.h"
#include "models/check/sanitizer.h"

#include <cstring>
#include <fmt/format.h>

#include "tlm/extensions.h"
#include "tlm/log.h"
#include "tlm/sim_time.h"

namespace npuvp::aicore {

__attribute__((always_inline)) inline void AiCore::refresh(size_t i) {  // its one caller is next_pipe_event
  PipeSlot& slot = slots_[i];
  PipeUnit& u = *slot.unit;
  const uint32_t bit = 1u << i;
  uint64_t& key = slot_keys_[i];
  key = kNotReady;
  waits_other_core_slots_ &= ~bit;
  if (u.idle()) return;
  if (u.in_flight() > 0) {
    slot.next = {&u, u.completes_at(), true};
  } else {
    const QueuedInstruction& front = u.front();
    slot.next = {&u, std::max(u.free_at(), front.issue_time), false};
    if (auto* f = std::get_if<WaitFlag>(&front.instr)) {
      if (!flags_.is_set(f->src, f->dst, f->id)) {
        u.mark_blocked();  // until a set marks the pipe changed
        return;
      }
      // A pipe that waited starts when the flag was set: with the last event run.
      slot.next.at = std::max(slot.next.at, last_event_);
    } else if (auto* f = std::get_if<CrossCoreWaitFlag>(&front.instr)) {
      stale_slots_ |= bit;  // another core may set it any time: looked at again each time
      if (!cross_core_->is_set(id_, f->id)) {
        u.mark_blocked();
        waits_other_core_slots_ |= bit;
        return;
      }
      slot.next.at = std::max({slot.next.at, last_event_, sim_time()});
    }
  }
  // Time, then a completion (0) before a start (1); a time is capped at 2^62 units (53 days
  // of picoseconds, never reached) so that the key stays below kNotReady.
  key = (std::min<uint64_t>(slot.next.at.value(), kNotReady >> 2) << 1) | (slot.next.completion ? 0 : 1);
}

AiCore::PipeEvent AiCore::next_pipe_event() {
  uint32_t stale = stale_slots_;
  stale_slots_ = 0;  // refresh() marks again the slots that must be looked at every time
  for (; stale != 0; stale &= stale - 1) refresh(static_cast<size_t>(__builtin_ctz(stale)));
  pipe_waits_other_core_ = waits_other_core_slots_ != 0;
  // Earliest first; at equal times a completion before a start, then by pipe (the first).
  if (slot_keys_.empty()) return PipeEvent{};
  const uint64_t* keys = slot_keys_.data();
  uint64_t best_key = keys[0];
  size_t best = 0;
  for (size_t i = 1, n = slot_keys_.size(); i < n; ++i) {
    const uint64_t key = keys[i];
    if (key < best_key) {
      best_key = key;
      best = i;
    }
  }
  return best_key == kNotReady ? PipeEvent{} : slots_[best].next;
}

void AiCore::start_front(PipeUnit& u, const sc_core::sc_time& at) {
  last_event_ = event_time_ = at;
  pipe_changed(u.pipe_kind());
  in_pipe_event_ = true;
  const QueuedInstruction& front = u.front();
  // The instruction counts from when the pipe reached it (a WaitFlag's wait included).
  const sc_core::sc_time reached = std::max(u.free_at(), front.issue_time);
  const size_t n = u.queued() > 1 ? burst_length(u.queue(), at) : 1;
  if (n == 1) {
    issuing_atomic_ = front.atomic;
    if (auto* san = check::Sanitizer::active()) {
      san->started(id_, u.pipe_kind(), front.instr, front.atomic.op != AtomicExtension::Op::None, at);
    }
    const ExecResult r = start_instruction(u.pipe_kind(), front.instr, at);
    issuing_atomic_.op = AtomicExtension::Op::None;
    u.record(front.instr, r, reached, at + r.duration);
    u.started(1, at + r.duration);
  } else {
    const Instruction* const* members = front_instructions(u, n);
    if (auto* san = check::Sanitizer::active()) {
      for (size_t i = 0; i < n; ++i) san->started(id_, u.pipe_kind(), *members[i], false, at);
    }
    burst_results_.resize(n);
    burst_ends_.resize(n);
    issuing_ = u.pipe_kind();
    issuing_instr_ = members[0];
    mover_.start_reads(members, n, cycle_, burst_results_.data(), burst_ends_.data());
    u.burst_instructions += n;
    sc_core::sc_time from = reached;
    for (size_t i = 0; i < n; ++i) {
      const auto [src, dst] = move_spaces(*members[i]);
      path_counter(src, dst) += burst_results_[i].bytes;
      u.record(*members[i], burst_results_[i], from, at + burst_ends_[i]);
      from = at + burst_ends_[i];
    }
    u.started(n, at + burst_ends_[n - 1]);
  }
  in_pipe_event_ = false;
}

const Instruction* const* AiCore::front_instructions(const PipeUnit& u, size_t n) {
  burst_.resize(n);
  for (size_t i = 0; i < n; ++i) burst_[i] = &u.queue()[i].instr;
  return burst_.data();
}

void AiCore::complete_front(PipeUnit& u, const sc_core::sc_time& at) {
  last_event_ = event_time_ = at;
  pipe_changed(u.pipe_kind());
  in_pipe_event_ = true;
  const size_t n = u.in_flight();
  if (n == 1) {
    complete_instruction(u.front().instr, at);
  } else {
    mover_.complete_reads(front_instructions(u, n), n);
  }
  u.completed();
  in_pipe_event_ = false;
}

Counter& AiCore::path_counter(MemSpace src, MemSpace dst) {
  Counter*& c = path_bytes_[static_cast<size_t>(src)][static_cast<size_t>(dst)];
  if (!c) {
    c = &Stats::global().counter(
        fmt::format("{}.path.{}->{}.bytes", basename(), mem_space_name(src), mem_space_name(dst)), "bytes");
  }
  return *c;
}

ExecResult AiCore::start_instruction(Pipe p, const Instruction& instr, const sc_core::sc_time& at) {
  issuing_ = p;
  issuing_instr_ = &instr;
  // In functional mode nothing takes time; in perf mode no data is computed.
  auto lasting = [this](const sc_core::sc_time& time) {
    ExecResult r;
    if (timed()) r.duration = time;
    return r;
  };
  if (auto* op = std::get_if<VectorOp>(&instr)) return lasting(cycle_ * double(vector_.cost(*op)));
  if (auto* op = std::get_if<Mmad>(&instr)) {
    cube_macs_ += uint64_t(op->m) * op->n * op->k;
    try {  // the model, the RTL or both (core.cube.impl)
      // perf mode computes nothing, so the model's cost times the Mmad (an RTL needs data).
      return lasting(cycle_ * double(moves_data() ? cube_path_.start(*op, l0_buffers()) : cube_.cost(*op)));
    } catch (const CubeFault& fault) {  // the message already names the instruction
      wait_until(at);
      raise(name(), "{}", fault.what());
    }
  }
  if (auto* f = std::get_if<WaitFlag>(&instr)) {
    flags_.take(f->src, f->dst, f->id);  // set: run_pipes starts a WaitFlag only then
    return lasting(sync_cost_);
  }
  if (auto* f = std::get_if<CrossCoreWaitFlag>(&instr)) {
    cross_core_->take(id_, f->id);
    return lasting(sync_cost_);
  }
  if (std::holds_alternative<SetFlag>(instr) || std::holds_alternative<Barrier>(instr) ||
      std::holds_alternative<CrossCoreSetFlag>(instr)) {
    return lasting(sync_cost_);  // a barrier: the pipe is in order already
  }
  const ExecResult r = mover_.start(instr, cycle_);  // every kind of data move
  const auto [src, dst] = move_spaces(instr);
  path_counter(src, dst) += r.bytes;
  return r;
}

void AiCore::complete_instruction(const Instruction& instr, const sc_core::sc_time& at) {
  if (auto* op = std::get_if<VectorOp>(&instr)) {
    if (!moves_data()) return;
    try {
      vector_.execute(*op, ub_->data());
    } catch (const VectorFault& fault) {  // the message already names the instruction
      wait_until(at);
      raise(name(), "{}", fault.what());
    }
    return;
  }
  if (auto* op = std::get_if<Mmad>(&instr)) {
    if (!moves_data()) return;
    try {
      cube_path_.finish(*op, l0_buffers());
    } catch (const CubeFault& fault) {
      wait_until(at);
      raise(name(), "{}", fault.what());
    }
    return;
  }
  if (auto* f = std::get_if<SetFlag>(&instr)) {
    flags_.set(f->src, f->dst, f->id);
    pipe_changed(f->dst);
    return;
  }
  if (auto* f = std::get_if<CrossCoreSetFlag>(&instr)) {
    if (timed()) wait_until(at);  // the other cores see it at its simulated time
    std::string why = cross_core_->set(id_, f->mode, f->id);
    if (!why.empty()) fail(describe(instr), why);
    return;
  }
  if (std::holds_alternative<WaitFlag>(instr) || std::holds_alternative<CrossCoreWaitFlag>(instr) ||
      std::holds_alternative<Barrier>(instr)) {
    return;
  }
  mover_.complete(instr);
}

CubePath::Buffers AiCore::l0_buffers() {
  const LocalBuffer* bt = buffer(MemSpace::BT);
  return {buffer(MemSpace::L0A)->data(), buffer(MemSpace::L0B)->data(), buffer(MemSpace::L0C)->data(),
          bt ? bt->data() : nullptr};
}

size_t AiCore::burst_length(const InstructionQueue& queue, const sc_core::sc_time& start) {
  if (!timed() || params_.mte.burst_bytes == 0) return 1;
  // A member must be a GM read wholly inside GM (a bad address is reported by running the
  // instruction alone) issued before the burst starts. Only simulated times decide, so the
  // same burst forms however far the scalar unit has run ahead: anything it issues later
  // is stamped at or after the start.
  auto joins = [&](const Instruction& instr) {
    if (!mover_.is_gm_read(instr)) return false;
    const layout::Range r = mover_.gm_read_range(instr);
    return gm_host_pointer(r.begin, r.end - r.begin) != nullptr;
  };
  if (!joins(queue.front().instr)) return 1;
  uint64_t bytes = mover_.gm_read_bytes(queue.front().instr);
  size_t n = 1;
  for (; n < queue.size(); ++n) {
    const QueuedInstruction& next = queue[n];
    if (next.issue_time >= start || !joins(next.instr)) break;
    const uint64_t more = mover_.gm_read_bytes(next.instr);
    if (bytes + more > params_.mte.burst_bytes) break;
    bytes += more;
  }
  return n;
}

sc_core::sc_time AiCore::gm_access(tlm::tlm_command cmd, DataMover::GmSpans& spans, Pipe p) {
  // The memory system and the other cores see the access at its simulated time.
  if (timed()) wait_until(event_time_);
  const bool read = cmd == tlm::TLM_READ_COMMAND;
  if (!read && issuing_atomic_.op != AtomicExtension::Op::None) return gm_atomic_write(spans, p);
  const std::vector<AddressSpan>& list = spans.list.spans;
  // Every span is GM when the range that holds them all is (one window check).
  const bool in_window =
      list.empty() || (spans.list.bounded && gm_host_pointer(spans.list.low, spans.list.high - spans.list.low));
  if (!in_window) {
    // Some span is not GM: one transaction per span, so the memory system reports the bad one.
    sc_core::sc_time memory = sc_core::SC_ZERO_TIME;
    for (size_t i = 0; i < list.size(); ++i) {
      for (uint64_t off = 0; off < list[i].length; off += kGmBatchBytes) {
        const auto n = static_cast<uint32_t>(std::min<uint64_t>(kGmBatchBytes, list[i].length - off));
        uint8_t* data = spans.where(i) ? spans.where(i) + off : nullptr;
        memory = std::max(memory, gm_transaction(cmd, list[i].address + off, data, n, p));
      }
    }
    return memory;
  }
  // The bytes move through the host view of GM (the backing store itself: the L2 holds no
  // data), when the instruction starts.
  if (moves_data()) {
    for (size_t i = 0; i < list.size(); ++i) {
      uint8_t* gm = gm_host_pointer(list[i].address, list[i].length);
      if (read) {
        std::memcpy(spans.where(i), gm, list[i].length);
      } else {
        std::memcpy(gm, spans.where(i), list[i].length);
      }
    }
  }
  (read ? gm_read_bytes_ : gm_write_bytes_) += spans.bytes;
  if (!timed() || list.empty()) return sc_core::SC_ZERO_TIME;
  // The time: timing-only span-list transactions of at most kGmBatchBytes each, all sent at
  // the start (the memory system serves each span; tlm/extensions.h). The usual instruction
  // fits in one, and its own span list goes as it is.
  sc_core::sc_time memory = sc_core::SC_ZERO_TIME;
  InitiatorExtension ext(id_, static_cast<int>(p), /*data=*/false);
  tlm::tlm_generic_payload& tx = timing_tx_;  // reused: a payload allocates its extension slots
  BorrowedExtension<InitiatorExtension> with_initiator(tx, &ext);
  auto send = [&](SpanListExtension& batch, uint64_t bytes) {
    prepare(tx, cmd, batch.spans.front().address, nullptr, bytes);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    {
      BorrowedExtension<SpanListExtension> with_spans(tx, &batch);
      gm_socket->b_transport(tx, delay);
    }
    if (tx.is_response_error()) {
      fail(issuing_instr_ ? describe(*issuing_instr_) : fmt::format("pipe {}", pipe_name(p)),
           fmt::format("GM {} at 0x{:x} failed: {}", read ? "read" : "write", batch.spans.front().address,
                       tx.get_response_string()));
    }
    memory = std::max(memory, delay);
  };
  // The span list carries its range (in the GM window, checked above): the interconnect
  // checks that range once instead of every row.
  if (spans.bytes <= kGmBatchBytes) {
    send(spans.list, spans.bytes);
  } else {
    uint64_t batch_bytes = 0;
    batch_.spans.clear();
    batch_.bounded = true;  // a batch's spans are parts of the instruction's
    batch_.low = spans.list.low;
    batch_.high = spans.list.high;
    for (const AddressSpan& s : list) {
      for (uint64_t off = 0; off < s.length;) {
        const uint64_t n = std::min(s.length - off, kGmBatchBytes - batch_bytes);
        batch_.add(s.address + off, n);
        batch_bytes += n;
        off += n;
        if (batch_bytes == kGmBatchBytes) {
          send(batch_, batch_bytes);
          batch_.spans.clear();
          batch_bytes = 0;
        }
      }
    }
    if (batch_bytes > 0) send(batch_, batch_bytes);
  }
  return memory;
}

sc_core::sc_time AiCore::gm_atomic_write(DataMover::GmSpans& spans, Pipe p) {
  // Atomic writes are rare and never batched: the home node needs each span's bytes.
  sc_core::sc_time memory = sc_core::SC_ZERO_TIME;
  const std::vector<AddressSpan>& list = spans.list.spans;
  for (size_t i = 0; i < list.size(); ++i) {
    for (uint64_t off = 0; off < list[i].length; off += kGmBatchBytes) {
      const auto n = static_cast<uint32_t>(std::min<uint64_t>(kGmBatchBytes, list[i].length - off));
      uint8_t* data = spans.where(i) ? spans.where(i) + off : nullptr;
      memory = std::max(memory, gm_transaction(tlm::TLM_WRITE_COMMAND, list[i].address + off, data, n, p,
                                               &issuing_atomic_));
    }
  }
  gm_atomic_bytes_ += spans.bytes;
  return memory;
}

sc_core::sc_time AiCore::gm_transaction(tlm::tlm_command cmd, uint64_t address, uint8_t* data, uint32_t length,
                                        Pipe p, const AtomicExtension* atomic) {
  if (timed()) wait_until(event_time_);  // the memory system sees it at its simulated time
  tlm::tlm_generic_payload tx;
  InitiatorExtension ext(id_, static_cast<int>(p), moves_data() && data != nullptr);
  AtomicExtension atomic_ext;
  if (atomic) atomic_ext = *atomic;
  prepare(tx, cmd, address, data, length);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  {
    BorrowedExtension<InitiatorExtension> with_initiator(tx, &ext);
    BorrowedExtension<AtomicExtension> with_atomic(tx, atomic ? &atomic_ext : nullptr);
    gm_socket->b_transport(tx, delay);
  }
  if (tx.is_response_error()) {
    const char* what = cmd == tlm::TLM_READ_COMMAND ? "read" : atomic ? "atomic write" : "write";
    std::string why = tx.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE
                          ? fmt::format("GM {} of {} bytes at 0x{:x} is outside every mapped range "
                                        "(TLM_ADDRESS_ERROR_RESPONSE)", what, length, address)
                      : atomic && tx.get_response_status() == tlm::TLM_COMMAND_ERROR_RESPONSE
                          ? fmt::format("GM atomic write at 0x{:x} reached no L2 home node to combine it "
                                        "(the platform has no L2: l2.slices=0)", address)
                          : fmt::format("GM {} at 0x{:x} failed: {}", what, address,
                                        tx.get_response_string());
    fail(issuing_instr_ ? describe(*issuing_instr_) : fmt::format("pipe {}", pipe_name(p)), why);
  }
  (cmd == tlm::TLM_READ_COMMAND ? gm_read_bytes_ : gm_write_bytes_) += length;
  return timed() ? delay : sc_core::SC_ZERO_TIME;
}

}  // namespace npuvp::aicore
