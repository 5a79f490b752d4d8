#include "tlm/memory.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <cstring>
#include <fstream>
#include <vector>
#include "tests/support/tlm_initiator.h"
#include "tlm/log.h"
#include "tlm/stats.h"

namespace memory_test {

using npuvp::Memory;
using npuvp::testing::Initiator;
using sc_core::SC_NS;
using sc_core::sc_time;

Memory::Params params(uint64_t size) {
  Memory::Params p;
  p.size = size;
  return p;
}

uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  uint64_t resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

TEST(MemoryTest, HugeMemoryIsCommittedOnlyWhereTouched) {
  npuvp::Stats::global().clear();
  constexpr uint64_t kSize = 64ull << 30;
  const uint64_t rss_before = resident_bytes();
  Initiator init("init");
  Memory mem("gm", params(kSize));
  init.socket.bind(mem.socket);
  ASSERT_EQ(mem.size(), kSize);

  uint64_t value = 0x0123456789abcdefull;
  uint64_t back = 0;
  tlm::tlm_response_status write_status = tlm::TLM_INCOMPLETE_RESPONSE;
  tlm::tlm_response_status read_status = tlm::TLM_INCOMPLETE_RESPONSE;
  init.script = [&](Initiator& self) {
    write_status = self.access(tlm::TLM_WRITE_COMMAND, kSize - 8, &value, 8);
    read_status = self.access(tlm::TLM_READ_COMMAND, kSize - 8, &back, 8);
  };
  sc_core::sc_start();

  EXPECT_EQ(write_status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(read_status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(back, value);
  uint64_t host = 0;
  std::memcpy(&host, mem.data() + kSize - 8, 8);
  EXPECT_EQ(host, value);
  mem.data()[0] = 0x5a;  // the host view reaches both ends
  EXPECT_EQ(mem.data()[0], 0x5a);
  const uint64_t rss_after = resident_bytes();
  EXPECT_LT(rss_after > rss_before ? rss_after - rss_before : 0, 64ull << 20)
      << "resident set grew from " << rss_before << " to " << rss_after << " bytes";
}

TEST(MemoryTest, ReadWriteRoundTripAndCounters) {
  npuvp::Stats::global().clear();
  Initiator init("init");
  Memory mem("mem", params(1 << 20));
  init.socket.bind(mem.socket);

  std::vector<uint8_t> out(16), in(16, 0);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i * 7 + 1);
  tlm::tlm_response_status statuses[2] = {};
  sc_time delays[2];
  init.script = [&](Initiator& self) {
    statuses[0] = self.access(tlm::TLM_WRITE_COMMAND, 0x100, out.data(), 16, delays[0]);
    statuses[1] = self.access(tlm::TLM_READ_COMMAND, 0x100, in.data(), 16, delays[1]);
  };
  sc_core::sc_start();

  EXPECT_EQ(statuses[0], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(statuses[1], tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(in, out);
  EXPECT_EQ(std::memcmp(mem.data() + 0x100, out.data(), 16), 0);
  // Unlimited bandwidth: the delay is the access latency.
  EXPECT_EQ(delays[0], sc_time(100, SC_NS));
  EXPECT_EQ(delays[1], sc_time(100, SC_NS));

  const auto& stats = npuvp::Stats::global();
  EXPECT_EQ(stats.value("mem.bytes_written"), 16u);
  EXPECT_EQ(stats.value("mem.bytes_read"), 16u);
  EXPECT_EQ(stats.value("mem.transactions"), 2u);
  ASSERT_NE(stats.find("mem.bytes_read"), nullptr);
  EXPECT_EQ(stats.find("mem.bytes_read")->unit, "bytes");
  EXPECT_EQ(stats.find("mem.transactions")->unit, "transactions");
}

TEST(MemoryTest, BadAccessesGetErrorResponses) {
  npuvp::Stats::global().clear();
  Initiator init("init");
  Memory mem("mem", params(4096));
  init.socket.bind(mem.socket);

  tlm::tlm_response_status crossing{}, beyond{}, byte_enable{}, burst{}, ignore{}, last{};
  init.script = [&](Initiator& self) {
    uint8_t buf[16] = {};
    crossing = self.access(tlm::TLM_READ_COMMAND, 4096 - 4, buf, 8);
    beyond = self.access(tlm::TLM_WRITE_COMMAND, 1ull << 40, buf, 4);
    last = self.access(tlm::TLM_WRITE_COMMAND, 4096 - 16, buf, 16);  // exactly fits

    tlm::tlm_generic_payload tx;
    sc_time delay = sc_core::SC_ZERO_TIME;
    unsigned char enables[4] = {0xff, 0, 0xff, 0};
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(0);
    tx.set_data_ptr(buf);
    tx.set_data_length(4);
    tx.set_streaming_width(4);
    tx.set_byte_enable_ptr(enables);
    tx.set_byte_enable_length(4);
    self.socket->b_transport(tx, delay);
    byte_enable = tx.get_response_status();

    tx.set_byte_enable_ptr(nullptr);
    tx.set_byte_enable_length(0);
    tx.set_streaming_width(2);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    self.socket->b_transport(tx, delay);
    burst = tx.get_response_status();

    tx.set_command(tlm::TLM_IGNORE_COMMAND);
    tx.set_streaming_width(4);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    self.socket->b_transport(tx, delay);
    ignore = tx.get_response_status();
  };
  sc_core::sc_start();

  EXPECT_EQ(crossing, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(beyond, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(last, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(byte_enable, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  EXPECT_EQ(burst, tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(ignore, tlm::TLM_OK_RESPONSE);
  // Only the good write counts.
  EXPECT_EQ(npuvp::Stats::global().value("mem.transactions"), 1u);
  EXPECT_EQ(npuvp::Stats::global().value("mem.bytes_written"), 16u);
}

TEST(MemoryTest, DmiGrantsTheWholeMemory) {
  npuvp::Stats::global().clear();
  Initiator init("init");
  Memory::Params p = params(1 << 20);
  p.latency = sc_time(20, SC_NS);
  Memory mem("mem", p);
  init.socket.bind(mem.socket);

  bool granted = false;
  bool dmi_hint = false;
  tlm::tlm_dmi dmi;
  init.script = [&](Initiator& self) {
    uint32_t word = 0;
    tlm::tlm_generic_payload tx;
    sc_time delay = sc_core::SC_ZERO_TIME;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(0x40);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    tx.set_data_length(4);
    tx.set_streaming_width(4);
    self.socket->b_transport(tx, delay);
    dmi_hint = tx.is_dmi_allowed();
    granted = self.socket->get_direct_mem_ptr(tx, dmi);
  };
  sc_core::sc_start();

  EXPECT_TRUE(dmi_hint);
  ASSERT_TRUE(granted);
  EXPECT_EQ(dmi.get_dmi_ptr(), mem.data());
  EXPECT_EQ(dmi.get_start_address(), 0u);
  EXPECT_EQ(dmi.get_end_address(), (1u << 20) - 1);
  EXPECT_TRUE(dmi.is_read_write_allowed());
  EXPECT_EQ(dmi.get_read_latency(), sc_time(20, SC_NS));
  EXPECT_EQ(dmi.get_write_latency(), sc_time(20, SC_NS));
}

TEST(MemoryTest, DmiCanBeDisabled) {
  npuvp::Stats::global().clear();
  Initiator init("init");
  Memory::Params p = params(4096);
  p.dmi = false;
  Memory mem("mem", p);
  init.socket.bind(mem.socket);

  bool granted = true;
  bool dmi_hint = true;
  init.script = [&](Initiator& self) {
    uint32_t word = 0;
    tlm::tlm_generic_payload tx;
    sc_time delay = sc_core::SC_ZERO_TIME;
    tx.set_command(tlm::TLM_WRITE_COMMAND);
    tx.set_address(0);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    tx.set_data_length(4);
    tx.set_streaming_width(4);
    self.socket->b_transport(tx, delay);
    dmi_hint = tx.is_dmi_allowed();
    tlm::tlm_dmi dmi;
    granted = self.socket->get_direct_mem_ptr(tx, dmi);
  };
  sc_core::sc_start();
  EXPECT_FALSE(dmi_hint);
  EXPECT_FALSE(granted);
}

TEST(MemoryTest, TransportDbgCopiesWithoutTimingOrCounters) {
  npuvp::Stats::global().clear();
  Initiator init("init");
  Memory mem("mem", params(4096));
  init.socket.bind(mem.socket);

  unsigned wrote = 0, read = 0, clipped = 0, outside = 0;
  char in[8] = {};
  char tail[8] = {};
  init.script = [&](Initiator& self) {
    char text[8] = "abcdefg";
    wrote = self.debug(tlm::TLM_WRITE_COMMAND, 0x10, text, 8);
    read = self.debug(tlm::TLM_READ_COMMAND, 0x10, in, 8);
    clipped = self.debug(tlm::TLM_READ_COMMAND, 4096 - 3, tail, 8);
    outside = self.debug(tlm::TLM_READ_COMMAND, 4096, tail, 8);
  };
  mem.data()[4095] = 'z';
  sc_core::sc_start();

  EXPECT_EQ(wrote, 8u);
  EXPECT_EQ(read, 8u);
  EXPECT_STREQ(in, "abcdefg");
  EXPECT_STREQ(reinterpret_cast<char*>(mem.data() + 0x10), "abcdefg");
  EXPECT_EQ(clipped, 3u);
  EXPECT_EQ(tail[2], 'z');
  EXPECT_EQ(outside, 0u);
  EXPECT_EQ(npuvp::Stats::global().value("mem.transactions"), 0u);
  EXPECT_EQ(npuvp::Stats::global().value("mem.bytes_read"), 0u);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
}

TEST(MemoryTest, BandwidthQueuesBackToBackTransactions) {
  npuvp::Stats::global().clear();
  Initiator init("init");
  Memory::Params p = params(1 << 20);
  p.bandwidth = 1e9;  // 1 GB/s: 1 ns per byte
  p.latency = sc_core::SC_ZERO_TIME;
  Memory mem("mem", p);
  init.socket.bind(mem.socket);

  sc_time first, second, third;
  init.script = [&](Initiator& self) {
    std::vector<uint8_t> buf(1024);
    first = sc_core::SC_ZERO_TIME;
    self.access(tlm::TLM_WRITE_COMMAND, 0, buf.data(), 1024, first);
    second = sc_core::SC_ZERO_TIME;  // issued at the same time: queues behind the first
    self.access(tlm::TLM_WRITE_COMMAND, 1024, buf.data(), 1024, second);
    sc_core::wait(second);  // synchronise; the port is idle again now
    third = sc_core::SC_ZERO_TIME;
    self.access(tlm::TLM_READ_COMMAND, 0, buf.data(), 1024, third);
  };
  sc_core::sc_start();

  const sc_time per_kib = sc_time(1, SC_NS) * 1024;
  EXPECT_EQ(first, per_kib);
  EXPECT_EQ(second, 2 * per_kib);
  EXPECT_EQ(third, per_kib);
  EXPECT_EQ(mem.port().busy_time(), 3 * per_kib);
}

TEST(MemoryTest, LatencyComesOnTopOfTheTransfer) {
  npuvp::Stats::global().clear();
  Initiator init("init");
  Memory::Params p = params(1 << 20);
  p.bandwidth = 1e9;
  p.latency = sc_time(100, SC_NS);
  Memory mem("mem", p);
  init.socket.bind(mem.socket);

  sc_time delay = sc_time(50, SC_NS);  // the initiator's local time offset
  init.script = [&](Initiator& self) {
    std::vector<uint8_t> buf(256);
    self.access(tlm::TLM_READ_COMMAND, 0, buf.data(), 256, delay);
  };
  sc_core::sc_start();
  EXPECT_EQ(delay, sc_time(50 + 256 + 100, SC_NS));
}

TEST(MemoryTest, ZeroSizeIsAnError) {
  EXPECT_THROW(Memory("empty", params(0)), sc_core::sc_report);
}
}  // namespace memory_test
