// The AI Core's pipes: in-order queues that run in parallel, stall only on flags, and charge
// the time SPEC.md's parameters give. Instructions are issued directly (no kernel API).
#include <gtest/gtest.h>
#include <cmath>
#include "models/aicore/ai_core.h"
#include "platforms/coupled_soc.h"
#include "tests/support/device_fixture.h"
#include "tlm/stats.h"

namespace ai_core_test {
using namespace npuvp::aicore;
using npuvp::Stats;

VectorOp adds(uint64_t addr, uint32_t repeat) {
  VectorOp v;
  v.op = VecOp::Adds;
  v.dtype = DType::F32;
  v.dst = v.src0 = addr;
  v.scalar = 1;
  v.mask_hi = 0;  // 64 elements of f32 per repeat
  v.repeat = repeat;
  return v;
}

// One core whose memory system adds no time, so pipe timing shows alone (MTE2 at 32 B/cycle).
std::vector<std::string> ideal_memory() {
  return {"platform.cores=1", "l2.slices=0", "dram.latency_ns=0", "dram.channel_gbps=1e6",
          "interconnect.hop_cycles=0", "interconnect.link_bytes_per_cycle=1e6", "core.mte.gm_read_bytes_per_cycle=32"};
}

DataMove gm_to_ub(uint64_t gm, uint64_t ub, uint32_t units) {
  DataMove m;
  m.pipe = Pipe::MTE2;
  m.src = {MemSpace::GM, gm};
  m.dst = {MemSpace::UB, ub};
  m.block_len = units;
  m.elem_size = 4;
  return m;
}

// Vector cost = head + repeats; two pipes with independent work overlap in time.
TEST(AiCoreTest, IndependentPipesOverlap) {
  auto& dev = npuvp::testing::make_device(ideal_memory());
  void* buf = dev.malloc(64 * 1024);
  const uint64_t gm = dev.device_address(buf);
  auto r = dev.launch("overlap", 1, [&] {
    AiCore& c = *AiCore::current();
    c.issue(adds(0, 100));                     // 37 + 100 cycles on V
    c.issue(gm_to_ub(gm, 64 * 1024, 137));     // 137 * 32 B at 32 B/cycle = 137 cycles on MTE2
  });
  EXPECT_EQ(Stats::global().value("core0.V.busy_cycles"), 137u);
  EXPECT_EQ(Stats::global().value("core0.MTE2.busy_cycles"), 137u);
  EXPECT_LT(r.cycles, 137u + 137u);  // in parallel, not in series
  EXPECT_GE(r.cycles, 137u);
}

// A WaitFlag stalls exactly the pipe that waits, until the producer's SetFlag executes.
TEST(AiCoreTest, FlagStallsOnlyTheWaitingPipe) {
  auto& dev = npuvp::testing::make_device(ideal_memory());
  void* buf = dev.malloc(64 * 1024);
  const uint64_t gm = dev.device_address(buf);
  dev.launch("flags", 1, [&] {
    AiCore& c = *AiCore::current();
    c.issue(gm_to_ub(gm, 0, 1000));  // 1000 cycles on MTE2
    c.issue(SetFlag{Pipe::MTE2, Pipe::V, 0});
    c.issue(WaitFlag{Pipe::MTE2, Pipe::V, 0});
    c.issue(adds(0, 1));
  });
  const uint64_t stalled = Stats::global().value("core0.V.stall.flag_cycles");
  EXPECT_GE(stalled, 990u);  // V waited for the copy
  EXPECT_LE(stalled, 1010u);
  EXPECT_EQ(Stats::global().value("core0.MTE2.stall.flag_cycles"), 0u);
}

// More instructions than the queue holds: the scalar unit stalls on the full queue.
TEST(AiCoreTest, FullQueueStallsTheScalarUnit) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1", "core.queue_depth=4"});
  dev.launch("queue", 1, [&] {
    AiCore& c = *AiCore::current();
    for (int i = 0; i < 20; ++i) c.issue(adds(0, 1));
  });
  EXPECT_GT(Stats::global().value("core0.S.stall.queue_full_cycles"), 0u);
  EXPECT_EQ(Stats::global().value("core0.V.instructions"), 20u);
  EXPECT_EQ(Stats::global().value("core0.V.busy_cycles"), 20u * 38);
}

// A queue slot comes free when the instruction in it completes, not when it starts: with a
// queue of one, the second instruction waits the whole of the first.
TEST(AiCoreTest, AQueueSlotFreesWhenItsInstructionCompletes) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1", "core.queue_depth=1"});
  dev.launch("slot", 1, [&] {
    AiCore& c = *AiCore::current();
    c.issue(adds(0, 63));  // issued at cycle 1, runs 37 + 63 = 100 cycles: done at 101
    c.issue(adds(0, 1));   // ready to issue at cycle 2: waits for cycle 101
  });
  EXPECT_EQ(Stats::global().value("core0.S.stall.queue_full_cycles"), 99u);
  EXPECT_EQ(Stats::global().value("core0.V.busy_cycles"), 100u + 38u);
}

// A flag the scalar unit sets takes effect at the scalar unit's own time (ahead of SystemC
// time): the pipe waiting on it starts then, not earlier and not when SystemC catches up.
TEST(AiCoreTest, AScalarSetReleasesAPipeAtTheScalarUnitsTime) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1", "core.scalar.quantum_ns=100000"});
  dev.launch("scalar_set", 1, [&] {
    AiCore& c = *AiCore::current();
    c.issue(WaitFlag{Pipe::S, Pipe::V, 0});  // issued at cycle 1: V waits from then
    c.charge_scalar(500);                    // scalar work: cycle 501
    c.scalar_set_flag(Pipe::V, 0);           // one sync cycle: set at cycle 502
    c.issue(adds(0, 1));
  });
  // V waited from cycle 1 to the set at 502, then ran the WaitFlag's own cycle.
  EXPECT_EQ(Stats::global().value("core0.V.stall.flag_cycles"), 502u);
  EXPECT_EQ(Stats::global().value("core0.V.busy_cycles"), 38u);
}

// The clock parameter scales every cycle: the same work at 2 GHz takes half the time.
TEST(AiCoreTest, ClockParameterScalesTime) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1", "core.clock_mhz=2000"});
  auto r = dev.launch("clock", 1, [&] { AiCore::current()->issue(adds(0, 63)); });
  EXPECT_EQ(dev.soc().core(0).cycle(), sc_core::sc_time(500, sc_core::SC_PS));
  EXPECT_NEAR(r.sim_time.to_seconds(), (37 + 63 + 2) * 0.5e-9, 1e-9);  // + scalar issue and drain
}

// Memory time: a GM copy waits at least the GM latency, and bandwidth bounds large copies.
TEST(AiCoreTest, GmLatencyAndBandwidthBoundCopies) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1", "l2.slices=0", "dram.controllers=1", "dram.channels=1",
                                           "dram.channel_gbps=8", "dram.latency_ns=500", "interconnect.hop_cycles=0",
                                           "core.mte.gm_read_bytes_per_cycle=32"});
  void* buf = dev.malloc(1 << 20);
  const uint64_t gm = dev.device_address(buf);
  dev.launch("gm", 1, [&] {
    AiCore& c = *AiCore::current();
    c.issue(gm_to_ub(gm, 0, 1));       // 32 B: latency-bound, 500 ns
    c.issue(gm_to_ub(gm, 0, 2048));    // 64 KiB at 8 GB/s = 8192 ns + 500 ns
  });
  const uint64_t busy = Stats::global().value("core0.MTE2.busy_cycles");
  EXPECT_NEAR(double(busy), 500 + 8192 + 500, 5);
}
// A write that misses in L2 on a partly written line is posted at the slice: the writer does
// not wait for the line's fill from DRAM, a reader of a missing line does (and both fills
// cost DRAM bytes).
TEST(AiCoreTest, PartialLineWritesArePostedReadsWaitForTheFill) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1", "l2.line_bytes=512", "dram.interleave_bytes=512", "dram.latency_ns=2000"});
  void* buf = dev.malloc(64 * 1024);
  const uint64_t gm = dev.device_address(buf);
  dev.launch("posted", 1, [&] {
    AiCore& c = *AiCore::current();
    DataMove store;
    store.pipe = Pipe::MTE3;
    store.src = {MemSpace::UB, 0};
    store.dst = {MemSpace::GM, gm};  // 32 B of a cold 512 B line
    store.block_len = 1;
    store.elem_size = 4;
    c.issue(store);
    c.issue(gm_to_ub(gm + 8192, 0, 1));  // 32 B of another cold line
  });
  const uint64_t write_cycles = Stats::global().value("core0.MTE3.busy_cycles");
  const uint64_t read_cycles = Stats::global().value("core0.MTE2.busy_cycles");
  EXPECT_GE(read_cycles, 2000u);  // 1 GHz: the DRAM latency alone
  EXPECT_LT(write_cycles, 500u) << "the write waited for its line's fill";
  uint64_t fills = 0;
  for (unsigned i = 0; i < dev.soc().num_l2_slices(); ++i) fills += Stats::global().value(std::string(dev.soc().l2_slice(i).name()) + ".fills");
  EXPECT_EQ(fills, 2u);  // the write's line was still filled
}
}  // namespace ai_core_test
