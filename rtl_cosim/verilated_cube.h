// The transactor: an RtlCube driving a Verilated (--cc) model of a cube RTL with the port list
// of rtl_cube.h, clock by clock, inside the calling thread (the M pipe's SystemC thread). No
// SystemC time passes here: the cycles are counted and returned, and the caller waits them.
//
// VTop is the class Verilator generated (e.g. Vnpuvp_cube). To co-simulate another cube RTL
// with the same ports: verilate it with its own --prefix, and register
// `std::make_unique<VerilatedCube<Vyours>>("yours", options)` (see docs/rtl-cosim.md).
#pragma once
#include <fmt/format.h>
#include <verilated.h>
#include <verilated_vcd_c.h>

#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rtl_cosim/rtl_cube.h"

namespace npuvp::cosim {

namespace detail {
// Set by the Verilator hooks (verilator_hooks.cpp) when the RTL stops the simulation: what
// stopped it, with the last line the RTL printed. Empty if nothing did.
std::string take_rtl_stop();
// Runs `close` at exit (std::atexit, installed after Verilator's own statics exist, so it
// runs before they are destroyed), unless forgotten first. A waveform writer must be closed
// before Verilator's static callback lists go: a cube owned by a static (the CLI's device)
// would otherwise be destroyed after them.
void close_at_exit(const void* owner, std::function<void()> close);
void forget_at_exit(const void* owner);
}  // namespace detail

template <class VTop>
class VerilatedCube final : public RtlCube {
 public:
  VerilatedCube(std::string rtl_name, const aicore::RtlCubeOptions& options)
      : rtl_name_(std::move(rtl_name)), instance_(options.instance) {
    context_ = std::make_unique<VerilatedContext>();  // also becomes the thread's context
    context_->fatalOnError(false);  // $stop/$error come back to us (and vl_stop is ours anyway)
    if (!options.vcd_path.empty()) context_->traceEverOn(true);
    top_ = std::make_unique<VTop>(context_.get(), "cube");
    if (!options.vcd_path.empty()) {
      vcd_ = std::make_unique<VerilatedVcdC>();
      top_->trace(vcd_.get(), 99);
      vcd_->open(options.vcd_path.c_str());
      if (!vcd_->isOpen()) {
        throw RtlError(fmt::format("cannot write the waveform file {}", options.vcd_path));
      }
      detail::close_at_exit(this, [this] { close_vcd(); });
    }
    top_->clk = 0;
    top_->rst_n = 0;
    top_->in_valid = 0;
    top_->eval();
    for (int i = 0; i < 2; ++i) tick();  // synchronous reset
    top_->rst_n = 1;
    cycles_ = 0;
  }

  ~VerilatedCube() override {
    // Verilator's runtime finds "the" context through a per-thread pointer (the model's scopes
    // unregister from it when destroyed): point it at ours, and away from ours once it is gone.
    Verilated::threadContextp(context_.get());
    if (!dead_) top_->final();
    if (vcd_) {
      detail::forget_at_exit(this);
      close_vcd();
    }
    top_.reset();
    context_.reset();
    Verilated::threadContextp(nullptr);
  }

  uint64_t run_steps(const std::vector<CubeStep>& steps) override {
    if (dead_) throw RtlError(fmt::format("the RTL cube {} stopped earlier: {}", rtl_name_, dead_why_));
    Verilated::threadContextp(context_.get());  // several cubes (cores) may live in one process
    std::deque<uint8_t*> pending;  // outputs of last steps presented, oldest first
    size_t expected = 0;
    for (const CubeStep& s : steps) expected += s.last ? 1 : 0;
    // A result is due a few cycles after the last step; allow generous slack for other RTL.
    const uint64_t limit = steps.size() + kMaxLatency;
    uint64_t cycles = 0;
    size_t next = 0, done = 0;
    while (done < expected) {
      if (next < steps.size()) {
        const CubeStep& s = steps[next++];
        top_->in_valid = 1;
        top_->in_first = s.first;
        top_->in_last = s.last;
        top_->in_mode = s.mode;
        top_->in_kcount = s.kcount;
        std::memcpy(top_->in_a.data(), s.a, 512);
        std::memcpy(top_->in_b.data(), s.b, 512);
        if (s.first) std::memcpy(top_->in_c.data(), s.c, 1024);
        if (s.last) pending.push_back(s.out);
      } else {
        top_->in_valid = 0;
      }
      tick();
      ++cycles;
      if (top_->out_valid) {
        if (pending.empty()) fail("out_valid rose with no output fractal pending");
        std::memcpy(pending.front(), top_->out_c.data(), 1024);
        pending.pop_front();
        ++done;
      }
      if (cycles > limit) {
        fail(fmt::format("{} of {} results after {} cycles for {} steps", done, expected, cycles,
                         steps.size()));
      }
    }
    top_->in_valid = 0;
    if (vcd_) vcd_->flush();  // the waveform is complete up to here, even if the run dies later
    return cycles;
  }

  uint64_t cycles() const override { return cycles_; }
  const std::string& rtl_name() const override { return rtl_name_; }

 private:
  static constexpr uint64_t kMaxLatency = 1000;

  void close_vcd() {
    if (!vcd_) return;
    vcd_->close();
    vcd_.reset();
  }

  // One clock cycle: rising edge (the registers move), falling edge.
  void tick() {
    top_->clk = 1;
    eval();
    top_->clk = 0;
    eval();
    ++cycles_;
  }

  void eval() {
    try {
      top_->eval();
    } catch (const RtlError& e) {  // vl_fatal: the model is in an unknown state
      dead_ = true;
      dead_why_ = e.what();
      throw RtlError(fmt::format("{} (cycle {} of the RTL)", e.what(), cycles_));
    }
    if (vcd_) vcd_->dump(context_->time());
    context_->timeInc(1);
    const std::string stop = detail::take_rtl_stop();
    if (!stop.empty()) {
      fail(stop);
    }
  }

  [[noreturn]] void fail(const std::string& why) {
    dead_ = true;
    dead_why_ = why;
    top_->in_valid = 0;
    throw RtlError(fmt::format("{} (cycle {} of the RTL)", why, cycles_));
  }

  std::string rtl_name_, instance_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<VTop> top_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t cycles_ = 0;
  bool dead_ = false;
  std::string dead_why_;
};

}  // namespace npuvp::cosim
