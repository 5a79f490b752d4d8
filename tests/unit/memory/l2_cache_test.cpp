#include "models/memory/l2_cache.h"

#include <gtest/gtest.h>
#include <cstring>
#include <vector>
#include "models/memory/memory_controller.h"
#include "tests/support/tlm_initiator.h"
#include "tlm/memory.h"
#include "tlm/stats.h"

namespace l2_cache_test {

using npuvp::Stats;
using npuvp::memory::L2Slice;
using npuvp::memory::MemoryController;
using npuvp::testing::Initiator;
using sc_core::sc_time;

// initiator -> one L2 slice (2 sets x 2 ways of 128 B lines, 1 GHz, 24-cycle hits) ->
// a memory controller (1 channel, 100 ns) -> 1 MiB of memory.
struct Chain {
  npuvp::testing::FreshStats fresh_stats;  // first
  Initiator init{"init"};
  L2Slice l2;
  MemoryController mc;
  npuvp::Memory mem;

  static L2Slice::Params l2_params() {
    L2Slice::Params p;
    p.geometry.size = 2 * 2 * 128;
    p.geometry.line_bytes = 128;
    p.geometry.ways = 2;
    return p;
  }
  static MemoryController::Params mc_params() {
    MemoryController::Params p;
    p.channels = 1;
    return p;
  }
  Chain() : l2("l2", l2_params()), mc("mc", mc_params()), mem("mem", npuvp::testing::untimed_memory(1 << 20)) {
    init.socket.bind(l2.upstream);
    l2.downstream.bind(mc.upstream);
    mc.downstream.bind(mem.socket);
  }
  uint64_t counter(const char* name) const { return Stats::global().value(name); }
};

TEST(L2SliceTest, AMissGoesToMemoryAndTheSecondReadHits) {
  Chain c;
  uint8_t buf[64] = {};
  sc_time miss, hit;
  c.init.script = [&](Initiator& self) {
    miss = hit = sc_core::SC_ZERO_TIME;
    self.access(tlm::TLM_READ_COMMAND, 0x400, buf, 64, miss);
    self.access(tlm::TLM_READ_COMMAND, 0x440, buf, 64, hit);  // the same line
  };
  sc_core::sc_start();
  EXPECT_EQ(c.l2.misses(), 1u);
  EXPECT_EQ(c.l2.hits(), 1u);
  EXPECT_EQ(c.counter("l2.fills"), 1u);
  EXPECT_EQ(c.counter("mc.bytes_read"), 128u);  // the whole line was filled
  // The hit latency, then 64 B through a 128 B/cycle port.
  EXPECT_EQ(hit, sc_time(24, sc_core::SC_NS) + sc_time(0.5, sc_core::SC_NS));
  EXPECT_GT(miss, hit + sc_time(100, sc_core::SC_NS));  // + the memory's latency
}

TEST(L2SliceTest, DataPassesThroughToMemory) {
  Chain c;
  std::vector<uint8_t> out(200), in(200, 0);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i * 3 + 1);
  tlm::tlm_response_status w = tlm::TLM_INCOMPLETE_RESPONSE, r = tlm::TLM_INCOMPLETE_RESPONSE;
  c.init.script = [&](Initiator& self) {
    w = self.access(tlm::TLM_WRITE_COMMAND, 0x1010, out.data(), 200);
    r = self.access(tlm::TLM_READ_COMMAND, 0x1010, in.data(), 200);
  };
  sc_core::sc_start();
  EXPECT_EQ(w, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(in, out);
  EXPECT_EQ(std::memcmp(c.mem.data() + 0x1010, out.data(), out.size()), 0);  // write-through of the data
}

TEST(L2SliceTest, AWriteOfWholeLinesNeedsNoFillAPartialOneDoes) {
  Chain c;
  std::vector<uint8_t> line(128, 7);
  c.init.script = [&](Initiator& self) {
    self.access(tlm::TLM_WRITE_COMMAND, 0x800, line.data(), 128);  // one whole line
    self.access(tlm::TLM_WRITE_COMMAND, 0x900, line.data(), 64);   // half of another
  };
  sc_core::sc_start();
  EXPECT_EQ(c.l2.misses(), 2u);
  EXPECT_EQ(c.counter("l2.fills"), 1u);
}

TEST(L2SliceTest, ADirtyVictimIsWrittenBack) {
  Chain c;
  std::vector<uint8_t> line(128, 1);
  c.init.script = [&](Initiator& self) {
    // Lines 0x000, 0x100, 0x200 share set 0 of 2 ways: the third evicts the first, written.
    self.access(tlm::TLM_WRITE_COMMAND, 0x000, line.data(), 128);
    self.access(tlm::TLM_READ_COMMAND, 0x100, line.data(), 128);
    self.access(tlm::TLM_READ_COMMAND, 0x200, line.data(), 128);
  };
  sc_core::sc_start();
  EXPECT_EQ(c.counter("l2.writebacks"), 1u);
  EXPECT_EQ(c.counter("mc.bytes_written"), 128u);
  EXPECT_FALSE(c.l2.tags().contains(0x000));
}

TEST(L2SliceTest, ASpanListLooksUpEveryLineOfEverySpan) {
  Chain c;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  c.init.script = [&](Initiator& self) {
    sc_time delay = sc_core::SC_ZERO_TIME;
    // Three rows of 192 B, 1 KiB apart: each starts mid-line and covers two lines.
    status = self.spans(tlm::TLM_READ_COMMAND, {{0x0040, 192}, {0x0440, 192}, {0x0840, 192}}, delay, 3);
  };
  sc_core::sc_start();
  EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(c.l2.hits() + c.l2.misses(), 6u);
  EXPECT_EQ(c.counter("l2.by_initiator.core3.misses"), c.l2.misses());
}

}  // namespace l2_cache_test
