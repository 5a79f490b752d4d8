#include "tlm/router.h"

#include <gtest/gtest.h>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include "tlm/log.h"
#include "tlm/memory.h"
#include "tests/support/error_of.h"

namespace router_test {

using npuvp::Memory;
using npuvp::Router;
using sc_core::sc_time;

constexpr uint64_t kBaseA = 0x1000'0000;
constexpr uint64_t kBaseB = 0x2000'0000;
constexpr uint64_t kMiB = 1 << 20;

// Runs `script` in an SC_THREAD and records DMI invalidations it receives.
struct Initiator : sc_core::sc_module {
  SC_HAS_PROCESS(Initiator);
  tlm_utils::simple_initiator_socket<Initiator> socket;
  std::function<void(Initiator&)> script;
  std::vector<std::pair<uint64_t, uint64_t>> invalidated;

  explicit Initiator(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_invalidate_direct_mem_ptr(this, &Initiator::invalidate);
    SC_THREAD(run);
  }
  void run() {
    if (script) script(*this);
  }
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) { invalidated.emplace_back(start, end); }

  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, void* data,
                                  unsigned length, uint64_t* address_after = nullptr) {
    tlm::tlm_generic_payload tx;
    sc_time delay = sc_core::SC_ZERO_TIME;
    tx.set_command(cmd);
    tx.set_address(address);
    tx.set_data_ptr(static_cast<unsigned char*>(data));
    tx.set_data_length(length);
    tx.set_streaming_width(length);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    socket->b_transport(tx, delay);
    if (address_after) *address_after = tx.get_address();
    return tx.get_response_status();
  }
  unsigned debug(tlm::tlm_command cmd, uint64_t address, void* data, unsigned length) {
    tlm::tlm_generic_payload tx;
    tx.set_command(cmd);
    tx.set_address(address);
    tx.set_data_ptr(static_cast<unsigned char*>(data));
    tx.set_data_length(length);
    return socket->transport_dbg(tx);
  }
  bool dmi(uint64_t address, tlm::tlm_dmi& out) {
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(address);
    return socket->get_direct_mem_ptr(tx, out);
  }
};

Memory::Params params(uint64_t size) {
  Memory::Params p;
  p.size = size;
  return p;
}

// Two 1 MiB memories behind a router: "a" at kBaseA (target 0), "b" at kBaseB (target 1).
struct Platform {
  Initiator init{"init"};
  Router router{"router"};
  Memory a{"a", params(kMiB)};
  Memory b{"b", params(kMiB)};
  Platform() {
    init.socket.bind(router.target_socket);
    router.initiator_socket.bind(a.socket);
    router.initiator_socket.bind(b.socket);
    router.map("a", kBaseA, kMiB, 0);
    router.map("b", kBaseB, kMiB, 1);
  }
};

using npuvp::testing::error_of;

TEST(RouterTest, DataLandsInTheRightTargetAtTheLocalOffset) {
  Platform p;
  uint32_t to_b = 0xb0b0cafe, to_a = 0xa0a0beef, back = 0;
  uint64_t address_after = 0;
  tlm::tlm_response_status s[3] = {};
  p.init.script = [&](Initiator& self) {
    s[0] = self.access(tlm::TLM_WRITE_COMMAND, kBaseB + 0x10, &to_b, 4, &address_after);
    s[1] = self.access(tlm::TLM_WRITE_COMMAND, kBaseA + kMiB - 4, &to_a, 4);
    s[2] = self.access(tlm::TLM_READ_COMMAND, kBaseB + 0x10, &back, 4);
  };
  sc_core::sc_start();

  for (auto status : s) EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
  uint32_t in_b = 0, in_a = 0, a_at_0x10 = 1;
  std::memcpy(&in_b, p.b.data() + 0x10, 4);
  std::memcpy(&in_a, p.a.data() + kMiB - 4, 4);
  std::memcpy(&a_at_0x10, p.a.data() + 0x10, 4);
  EXPECT_EQ(in_b, to_b);
  EXPECT_EQ(in_a, to_a);
  EXPECT_EQ(a_at_0x10, 0u);  // "a" untouched by the write to "b"
  EXPECT_EQ(back, to_b);
  EXPECT_EQ(address_after, kBaseB + 0x10);  // the router restores the global address
}

TEST(RouterTest, UnmappedAndCrossingAccessesAreAddressErrors) {
  Platform p;
  tlm::tlm_response_status below{}, gap{}, crossing{}, above{};
  p.init.script = [&](Initiator& self) {
    uint8_t buf[8] = {};
    below = self.access(tlm::TLM_READ_COMMAND, 0, buf, 4);
    gap = self.access(tlm::TLM_READ_COMMAND, kBaseA + kMiB, buf, 4);
    crossing = self.access(tlm::TLM_READ_COMMAND, kBaseA + kMiB - 4, buf, 8);
    above = self.access(tlm::TLM_WRITE_COMMAND, kBaseB + kMiB, buf, 1);
  };
  sc_core::sc_start();
  EXPECT_EQ(below, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(gap, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(crossing, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(above, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(RouterTest, DmiUsesGlobalAddresses) {
  Platform p;
  bool granted = false, unmapped = true;
  tlm::tlm_dmi dmi;
  p.init.script = [&](Initiator& self) {
    granted = self.dmi(kBaseB + 0x40, dmi);
    tlm::tlm_dmi none;
    unmapped = self.dmi(0x10, none);
  };
  sc_core::sc_start();

  ASSERT_TRUE(granted);
  EXPECT_FALSE(unmapped);
  EXPECT_EQ(dmi.get_start_address(), kBaseB);
  EXPECT_EQ(dmi.get_end_address(), kBaseB + kMiB - 1);
  EXPECT_EQ(dmi.get_dmi_ptr(), p.b.data());
  // A global address maps to ptr + (address - start).
  const uint64_t address = kBaseB + 0x1234;
  dmi.get_dmi_ptr()[address - dmi.get_start_address()] = 0x77;
  EXPECT_EQ(p.b.data()[0x1234], 0x77);
}

TEST(RouterTest, DmiIsClippedToTheMappedRange) {
  Initiator init("init");
  Router router("router");
  Memory mem("mem", params(kMiB));
  init.socket.bind(router.target_socket);
  router.initiator_socket.bind(mem.socket);
  router.map("window", 0x8000, 64 << 10, 0);  // only the first 64 KiB are visible

  bool granted = false;
  tlm::tlm_dmi dmi;
  init.script = [&](Initiator& self) { granted = self.dmi(0x8000 + 0x100, dmi); };
  sc_core::sc_start();
  ASSERT_TRUE(granted);
  EXPECT_EQ(dmi.get_start_address(), 0x8000u);
  EXPECT_EQ(dmi.get_end_address(), 0x8000u + (64 << 10) - 1);
  EXPECT_EQ(dmi.get_dmi_ptr(), mem.data());
}

TEST(RouterTest, TransportDbgIsForwarded) {
  Platform p;
  unsigned wrote = 0, read = 0, clipped = 0, unmapped = 1;
  char in[6] = {};
  p.init.script = [&](Initiator& self) {
    char text[6] = "hello";
    wrote = self.debug(tlm::TLM_WRITE_COMMAND, kBaseA + 0x20, text, 6);
    read = self.debug(tlm::TLM_READ_COMMAND, kBaseA + 0x20, in, 6);
    char tail[8];
    clipped = self.debug(tlm::TLM_READ_COMMAND, kBaseB + kMiB - 2, tail, 8);
    unmapped = self.debug(tlm::TLM_READ_COMMAND, 0x30, in, 6);
  };
  sc_core::sc_start();
  EXPECT_EQ(wrote, 6u);
  EXPECT_EQ(read, 6u);
  EXPECT_STREQ(in, "hello");
  EXPECT_STREQ(reinterpret_cast<char*>(p.a.data() + 0x20), "hello");
  EXPECT_EQ(clipped, 2u);  // stops at the end of the range
  EXPECT_EQ(unmapped, 0u);
}

// A target that invalidates part of its DMI region at time 1 ns.
struct Invalidator : sc_core::sc_module {
  SC_HAS_PROCESS(Invalidator);
  tlm_utils::simple_target_socket<Invalidator> socket;
  explicit Invalidator(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    SC_THREAD(run);
  }
  void run() {
    sc_core::wait(1, sc_core::SC_NS);
    socket->invalidate_direct_mem_ptr(0x100, 0x1ff);
    socket->invalidate_direct_mem_ptr(0, ~0ull);  // "everything"
  }
};

TEST(RouterTest, InvalidationsAreTranslatedToGlobalAddresses) {
  Initiator init("init");
  Router router("router");
  Memory mem("mem", params(kMiB));
  Invalidator inv("inv");
  init.socket.bind(router.target_socket);
  router.initiator_socket.bind(mem.socket);
  router.initiator_socket.bind(inv.socket);
  router.map("mem", 0, kMiB, 0);
  router.map("dev", 0x4000'0000, 0x1000, 1);
  sc_core::sc_start();

  ASSERT_EQ(init.invalidated.size(), 2u);
  EXPECT_EQ(init.invalidated[0], std::make_pair(uint64_t{0x4000'0100}, uint64_t{0x4000'01ff}));
  EXPECT_EQ(init.invalidated[1], std::make_pair(uint64_t{0x4000'0000}, uint64_t{0x4000'0fff}));
}

TEST(RouterTest, MapRejectsOverlapsZeroSizeAndOverflow) {
  Router router("router");
  router.map("gm", 0x1000, 0x1000, 0);
  router.map("ub", 0x3000, 0x1000, 1);
  router.map("top", ~0ull - 0xfff, 0x1000, 2);  // ends exactly at 2^64

  std::string text = error_of([&] { router.map("l1", 0x1800, 0x1000, 2); });
  EXPECT_NE(text.find("'l1'"), std::string::npos) << text;
  EXPECT_NE(text.find("'gm'"), std::string::npos) << text;
  text = error_of([&] { router.map("wide", 0, 0x10000, 2); });
  EXPECT_NE(text.find("'wide'"), std::string::npos) << text;
  EXPECT_THROW(router.map("empty", 0x8000, 0, 0), sc_core::sc_report);
  EXPECT_THROW(router.map("wrap", ~0ull - 0xff, 0x1000, 0), sc_core::sc_report);
  EXPECT_EQ(router.ranges().size(), 3u);
  // Adjacent ranges are fine.
  EXPECT_NO_THROW(router.map("next", 0x2000, 0x1000, 3));
}

TEST(RouterTest, DecodeFindsTheRangeHoldingAnAddress) {
  Router router("router");
  router.map("b", 0x2000, 0x1000, 1);
  router.map("a", 0x1000, 0x800, 0);
  EXPECT_EQ(router.decode(0xfff), nullptr);
  ASSERT_NE(router.decode(0x1000), nullptr);
  EXPECT_EQ(router.decode(0x1000)->name, "a");
  EXPECT_EQ(router.decode(0x17ff)->name, "a");
  EXPECT_EQ(router.decode(0x1800), nullptr);  // hole
  EXPECT_EQ(router.decode(0x2000)->name, "b");
  EXPECT_EQ(router.decode(0x2fff)->target, 1u);
  EXPECT_EQ(router.decode(0x3000), nullptr);
}
}  // namespace router_test
