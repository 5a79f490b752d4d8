#include "models/interconnect/chi_interconnect.h"

#include <gtest/gtest.h>
#include <random>
#include <tlm_utils/simple_target_socket.h>
#include "tests/support/tlm_initiator.h"
#include "tlm/memory.h"
#include "tlm/stats.h"

namespace chi_interconnect_test {

using npuvp::interconnect::ChiInterconnect;
using npuvp::testing::Initiator;
using sc_core::SC_NS;
using sc_core::sc_time;

// Places and binds the nodes of a ring of 8 stops: the requester at stop 0, home nodes at
// stops 1 ("near") and 4 ("far"), the memory controller at stop 6.
template <class Near, class Far>
void place(ChiInterconnect& noc, Initiator& init, Near& near, Far& far, npuvp::Memory& dram) {
  noc.add_requester("init", 0);
  noc.add_home("near", 1);
  noc.add_home("far", 4);
  noc.add_subordinate("dram", 6);
  noc.finalize(8);
  init.socket.bind(noc.target_socket);
  noc.initiator_socket.bind(near.socket);
  noc.initiator_socket.bind(far.socket);
  noc.initiator_socket.bind(dram.socket);
}

// That ring at 1 GHz, 2-cycle hops, 32 B links. The homes and the memory are plain memories
// that take no time, so what is measured is the network.
struct Ring {
  npuvp::testing::FreshStats fresh_stats;  // first
  Initiator init{"init"};
  ChiInterconnect noc;
  npuvp::Memory near, far, dram;

  static ChiInterconnect::Params params() {
    ChiInterconnect::Params p;
    p.clock_mhz = 1000;
    p.hop_cycles = 2;
    p.link_bytes_per_cycle = 32;
    p.gm_size = 1 << 20;
    p.home_interleave_bytes = 128;
    return p;
  }
  Ring()
      : noc("ring", params()),
        near("near", npuvp::testing::untimed_memory(1 << 20)),
        far("far", npuvp::testing::untimed_memory(1 << 20)),
        dram("dram", npuvp::testing::untimed_memory(1 << 20)) {
    place(noc, init, near, far, dram);
  }
  // The first 128 B granule that home `home` serves.
  uint64_t granule_of(unsigned home) const {
    for (uint64_t a = 0;; a += 128) {
      if (noc.home_of(a) == home) return a;
    }
  }
};

TEST(ChiInterconnectTest, AFarHomeNodeTakesLongerThanANearOne) {
  Ring r;
  sc_time near_delay, far_delay;
  r.init.script = [&](Initiator& self) {
    uint8_t buf[128];
    near_delay = far_delay = sc_core::SC_ZERO_TIME;
    self.access(tlm::TLM_READ_COMMAND, r.granule_of(0), buf, 128, near_delay);
    sc_core::wait(sc_time(1, sc_core::SC_US));  // the links are idle again
    self.access(tlm::TLM_READ_COMMAND, r.granule_of(1), buf, 128, far_delay);
  };
  sc_core::sc_start();
  // 1 hop each way and 128 B on a 32 B link (4 cycles), against 4 hops each way.
  EXPECT_EQ(far_delay - near_delay, sc_time(2 * 3 * 2, SC_NS));
  EXPECT_EQ(near_delay, sc_time(2 * 2 + 4, SC_NS));
}

TEST(ChiInterconnectTest, RequestAndDataTrafficAreCountedApart) {
  Ring r;
  r.init.script = [&](Initiator& self) {
    uint8_t buf[128];
    self.access(tlm::TLM_READ_COMMAND, r.granule_of(1), buf, 128);  // 4 hops each way, clockwise on the tie
  };
  sc_core::sc_start();
  EXPECT_EQ(npuvp::Stats::global().value("ring.request_bytes"), 16u * 4);
  EXPECT_EQ(npuvp::Stats::global().value("ring.data_bytes"), 128u * 4);
  EXPECT_EQ(npuvp::Stats::global().value("ring.link.7-0.data.bytes"), 128u);  // 4 -> 5 -> 6 -> 7 -> 0
  EXPECT_EQ(npuvp::Stats::global().value("ring.link.7-0.request.bytes"), 0u);
  EXPECT_EQ(npuvp::Stats::global().value("ring.link.0-1.request.bytes"), 16u);
}

TEST(ChiInterconnectTest, TransfersSharingALinkQueue) {
  Ring r;
  sc_time first, second;
  r.init.script = [&](Initiator& self) {
    first = second = sc_core::SC_ZERO_TIME;
    // Two 2 KiB span lists from the far home, sent at the same time: the data of the
    // second waits behind the first's on every shared link (64 cycles each).
    std::vector<npuvp::AddressSpan> spans;
    for (uint64_t a = 0; spans.size() < 16; a += 128) {
      if (r.noc.home_of(a) == 1) spans.push_back({a, 128});
    }
    self.spans(tlm::TLM_READ_COMMAND, spans, first);
    self.spans(tlm::TLM_READ_COMMAND, spans, second);
  };
  sc_core::sc_start();
  EXPECT_GE(second - first, sc_time(64, SC_NS));
}

TEST(ChiInterconnectTest, AnAddressOutsideGmIsAnAddressError) {
  Ring r;
  tlm::tlm_response_status plain = tlm::TLM_OK_RESPONSE, list = tlm::TLM_OK_RESPONSE;
  r.init.script = [&](Initiator& self) {
    uint8_t buf[16];
    plain = self.access(tlm::TLM_READ_COMMAND, 2 << 20, buf, 16);
    sc_time d = sc_core::SC_ZERO_TIME;
    list = self.spans(tlm::TLM_READ_COMMAND, {{0, 128}, {(1 << 20) - 64, 128}}, d);  // runs off the end
  };
  sc_core::sc_start();
  EXPECT_EQ(plain, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(list, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// A span list that says which range holds its spans is checked once by that range when it
// lies in GM, and span by span when it does not (so a bad span is still reported).
TEST(ChiInterconnectTest, ABoundedSpanListIsCheckedByItsRangeOnlyInsideGm) {
  Ring r;
  const std::vector<npuvp::AddressSpan> good = {{0, 128}, {4096, 256}};
  const std::vector<npuvp::AddressSpan> bad = {{0, 128}, {(1 << 20) - 64, 128}};
  const npuvp::AddressSpan good_range{0, 4096 + 256}, bad_range{0, (1 << 20) + 64};
  tlm::tlm_response_status plain = tlm::TLM_INCOMPLETE_RESPONSE, bounded = tlm::TLM_INCOMPLETE_RESPONSE,
                           bad_bounded = tlm::TLM_INCOMPLETE_RESPONSE;
  sc_time plain_delay = sc_core::SC_ZERO_TIME, bounded_delay = sc_core::SC_ZERO_TIME;
  r.init.script = [&](Initiator& self) {
    plain = self.spans(tlm::TLM_READ_COMMAND, good, plain_delay);
    sc_core::wait(sc_time(10, sc_core::SC_US));  // the links idle again
    bounded = self.spans(tlm::TLM_READ_COMMAND, good, bounded_delay, 0, &good_range);
    sc_time d = sc_core::SC_ZERO_TIME;
    bad_bounded = self.spans(tlm::TLM_READ_COMMAND, bad, d, 0, &bad_range);
  };
  sc_core::sc_start();
  EXPECT_EQ(plain, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bounded, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bounded_delay, plain_delay);
  EXPECT_EQ(bad_bounded, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// A home node that records the spans of every transaction it serves.
struct SpanRecorder : sc_core::sc_module {
  tlm_utils::simple_target_socket<SpanRecorder> socket;
  std::vector<std::vector<npuvp::AddressSpan>> received;  // by transaction
  explicit SpanRecorder(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_b_transport(this, &SpanRecorder::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& tx, sc_time&) {
    auto& spans = received.emplace_back();
    npuvp::for_each_span(tx, [&](uint64_t a, uint64_t n) { spans.push_back({a, n}); });
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// Each home receives exactly the plain split of a span list: every span cut at the
// `granule` B granules, each piece to the home of its granule, pieces that touch merged;
// lists come again in random order, and a list with a span outside GM is an error every time.
void check_plain_split(uint64_t granule) {
  npuvp::testing::FreshStats fresh_stats;
  Initiator init{"init"};
  ChiInterconnect::Params params = Ring::params();
  params.home_interleave_bytes = granule;
  ChiInterconnect noc("ring", params);
  SpanRecorder home0("home0"), home1("home1");
  SpanRecorder* homes[2] = {&home0, &home1};
  npuvp::Memory dram("dram", npuvp::testing::untimed_memory(1 << 20));
  place(noc, init, home0, home1, dram);

  std::mt19937_64 rng(11);
  std::vector<std::vector<npuvp::AddressSpan>> pool;
  for (int i = 0; i < 40; ++i) {
    std::vector<npuvp::AddressSpan> list;
    const size_t count = 1 + rng() % 12;
    for (size_t j = 0; j < count; ++j) list.push_back({rng() % ((1 << 20) - 1024), 1 + rng() % 700});
    pool.push_back(list);
  }
  const std::vector<npuvp::AddressSpan> bad = {{0, 128}, {(1 << 20) - 64, 128}};
  std::vector<size_t> order;
  for (int round = 0; round < 5; ++round) {
    for (size_t i = 0; i < pool.size(); ++i) order.push_back(i);
  }
  std::shuffle(order.begin(), order.end(), rng);

  std::vector<tlm::tlm_response_status> bad_status;
  std::vector<std::vector<npuvp::AddressSpan>> expected[2];
  init.script = [&](Initiator& self) {
    for (size_t n = 0; n < order.size(); ++n) {
      const auto& list = pool[order[n]];
      sc_time d = sc_core::SC_ZERO_TIME;
      ASSERT_EQ(self.spans(tlm::TLM_READ_COMMAND, list, d), tlm::TLM_OK_RESPONSE);
      npuvp::SpanListExtension plain[2];
      for (const auto& s : list) {
        for (uint64_t at = s.address; at < s.address + s.length;) {
          const uint64_t piece = std::min(s.address + s.length, (at / granule + 1) * granule) - at;
          plain[noc.home_of(at)].add(at, piece);
          at += piece;
        }
      }
      for (int h = 0; h < 2; ++h) {
        if (!plain[h].spans.empty()) expected[h].push_back(plain[h].spans);
      }
      if (n % 50 == 0) {
        sc_time bd = sc_core::SC_ZERO_TIME;
        bad_status.push_back(self.spans(tlm::TLM_READ_COMMAND, bad, bd));
      }
    }
  };
  sc_core::sc_start();
  for (int h = 0; h < 2; ++h) {
    ASSERT_EQ(homes[h]->received.size(), expected[h].size()) << "home " << h;
    for (size_t i = 0; i < expected[h].size(); ++i) {
      const auto& got = homes[h]->received[i];
      const auto& want = expected[h][i];
      ASSERT_EQ(got.size(), want.size()) << "home " << h << " transaction " << i;
      for (size_t j = 0; j < want.size(); ++j) {
        ASSERT_EQ(got[j].address, want[j].address) << "home " << h << " transaction " << i << " span " << j;
        ASSERT_EQ(got[j].length, want[j].length) << "home " << h << " transaction " << i << " span " << j;
      }
    }
  }
  ASSERT_EQ(bad_status.size(), (order.size() + 49) / 50);
  for (auto status : bad_status) EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(ChiInterconnectTest, EachHomeReceivesThePlainSplitOfASpanList) { check_plain_split(128); }

// The split's general form (a granule that is not a power of two divides instead of shifting).
TEST(ChiInterconnectTest, EachHomeReceivesThePlainSplitWithAGranuleNotAPowerOfTwo) { check_plain_split(384); }

}  // namespace chi_interconnect_test
