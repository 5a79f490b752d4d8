#include "models/memory/memory_controller.h"

#include <gtest/gtest.h>
#include "tests/support/tlm_initiator.h"
#include "tlm/memory.h"
#include "tlm/stats.h"

namespace memory_controller_test {

using npuvp::memory::MemoryController;
using npuvp::testing::Initiator;
using sc_core::SC_NS;
using sc_core::sc_time;

// initiator -> controller (`channels` channels of 1 GB/s, i.e. 1 B/ns; 100 ns; 256 B
// interleave) -> 1 MiB of memory that takes no time itself.
struct Bench {
  npuvp::testing::FreshStats fresh_stats;  // first
  Initiator init{"init"};
  MemoryController mc;
  npuvp::Memory mem;

  static MemoryController::Params params(unsigned channels) {
    MemoryController::Params p;
    p.channels = channels;
    p.channel_gbps = 1;
    p.latency_ns = 100;
    p.base = 0x10000;
    return p;
  }
  explicit Bench(unsigned channels) : mc("mc", params(channels)), mem("mem", npuvp::testing::untimed_memory(1 << 20)) {
    init.socket.bind(mc.upstream);
    mc.downstream.bind(mem.socket);
  }
};

TEST(MemoryControllerTest, ATransferTakesItsBytesOnAChannelPlusTheLatency) {
  Bench b(1);
  sc_time delay;
  b.init.script = [&](Initiator& self) {
    delay = sc_core::SC_ZERO_TIME;
    uint8_t buf[256];
    self.access(tlm::TLM_READ_COMMAND, 0x10000, buf, 256, delay);
  };
  sc_core::sc_start();
  EXPECT_EQ(delay, sc_time(256 + 100, SC_NS));
}

TEST(MemoryControllerTest, InterleavedChannelsServeAStreamTogether) {
  Bench b(4);
  sc_time delay;
  b.init.script = [&](Initiator& self) {
    delay = sc_core::SC_ZERO_TIME;
    // 4 KiB: 16 granules of 256 B spread over the 4 channels, 1 KiB each.
    self.spans(tlm::TLM_READ_COMMAND, {{0x10000, 4096}}, delay);
  };
  sc_core::sc_start();
  EXPECT_EQ(delay, sc_time(1024 + 100, SC_NS));
  for (unsigned c = 0; c < 4; ++c) {
    EXPECT_EQ(npuvp::Stats::global().value("mc.channel" + std::to_string(c) + ".bytes"), 1024u) << c;
  }
}

TEST(MemoryControllerTest, AnAddressBelowItsBaseIsAnAddressError) {
  Bench b(1);
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  b.init.script = [&](Initiator& self) {
    uint8_t buf[16];
    status = self.access(tlm::TLM_READ_COMMAND, 0x100, buf, 16);
  };
  sc_core::sc_start();
  EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(MemoryControllerTest, BackToBackTransfersQueueOnTheirChannel) {
  Bench b(1);
  sc_time first, second;
  b.init.script = [&](Initiator& self) {
    uint8_t buf[512];
    first = second = sc_core::SC_ZERO_TIME;
    self.access(tlm::TLM_READ_COMMAND, 0x10000, buf, 512, first);
    self.access(tlm::TLM_READ_COMMAND, 0x10200, buf, 512, second);  // same start time
  };
  sc_core::sc_start();
  EXPECT_EQ(first, sc_time(512 + 100, SC_NS));
  EXPECT_EQ(second, sc_time(1024 + 100, SC_NS));
}

}  // namespace memory_controller_test
