// The MN-Core 2 board as built from the configuration: the tree of SystemC modules, every
// capacity and address unit at its SPEC.md §2 default, overrides, and bad configurations.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

#include "tests/support/mncore_board.h"
#include "tlm/log.h"
#include "tests/support/error_of.h"

namespace npuvp::mncore {
namespace {

// Modules under `root` whose dynamic type is T.
template <class T>
unsigned count_modules(sc_core::sc_object* root) {
  unsigned n = dynamic_cast<T*>(root) ? 1 : 0;
  for (sc_core::sc_object* child : root->get_child_objects()) n += count_modules<T>(child);
  return n;
}

using npuvp::testing::error_of;

TEST(MncoreBoard, DefaultTreeIsSpecSection2) {
  auto board = test::make_board({});
  const Topology& t = board->topology();
  EXPECT_EQ(t.groups, 4u);
  EXPECT_EQ(t.l2b_per_group, 2u);
  EXPECT_EQ(t.l1b_per_l2b, 8u);
  EXPECT_EQ(t.mab_per_l1b, 16u);
  EXPECT_EQ(t.pe_per_mab, 4u);
  EXPECT_EQ(t.pes(), 4096u);
  EXPECT_EQ(t.clock_mhz, 750.0);
  EXPECT_EQ(t.cycles_per_step, 4u);
  // The modules really are there, as a tree.
  EXPECT_EQ(count_modules<Group>(board.get()), 4u);
  EXPECT_EQ(count_modules<L2b>(board.get()), 8u);
  EXPECT_EQ(count_modules<L1b>(board.get()), 64u);
  EXPECT_EQ(count_modules<Mab>(board.get()), 1024u);
  EXPECT_EQ(count_modules<Pe>(board.get()), 4096u);
  EXPECT_EQ(count_modules<Mab>(&board->l1b(63)), 16u);
  EXPECT_EQ(count_modules<Pe>(board->l1b(0).mabs.at(15).get()), 4u);
  EXPECT_STREQ(board->l1b(63).mabs.at(15)->pes.at(3)->name(), "mncore2.group3.l2b1.l1b7.mab15.pe3");
  EXPECT_EQ(board->l1b(63).mabs.at(15)->pes.at(3)->index(), 4095u);
  EXPECT_EQ(count_modules<TransferEngine>(board.get()), 4u);
}

TEST(MncoreBoard, DefaultCapacitiesAndAddressUnits) {
  auto board = test::make_board({});
  const Topology& t = board->topology();
  const uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
  // Bytes, from the seed: DRAM 4 GiB, PDM 4 MiB = 512 Ki LW, L2BM 32 Ki LW, L1BM 8 Ki LW,
  // LM0/LM1 2 Ki LW each, GRF0/GRF1 256 LW each; LW = 8 bytes, SW = 4 bytes.
  EXPECT_EQ(board->group(0).dram.size(), 4 * GiB);
  EXPECT_EQ(board->group(3).pdm.size(), 4 * MiB);
  EXPECT_EQ(board->l2b(7).l2bm.size(), 32 * KiB * 8);
  EXPECT_EQ(board->l1b(63).l1bm.size(), 8 * KiB * 8);
  EXPECT_EQ(board->pes().sw_count(Mem::LM0), 2 * KiB * 2);
  EXPECT_EQ(board->pes().sw_count(Mem::LM1), 2 * KiB * 2);
  EXPECT_EQ(board->pes().sw_count(Mem::GRF0), 256u * 2);
  EXPECT_EQ(board->pes().sw_count(Mem::GRF1), 256u * 2);
  // LW units for DRAM, PDM, L2BM, L1BM; SW units for LM0, LM1, GRF0, GRF1.
  for (Mem m : {Mem::DRAM, Mem::PDM, Mem::L2BM, Mem::L1BM}) EXPECT_EQ(t.mem[unsigned(m)].unit_bytes, 8u) << mem_name(m);
  for (Mem m : {Mem::LM0, Mem::LM1, Mem::GRF0, Mem::GRF1}) EXPECT_EQ(t.mem[unsigned(m)].unit_bytes, 4u) << mem_name(m);
  // Peak half throughput: 1024 MABs x 16 x 16 MAC per 4-cycle step... x 4 PEs at 750 MHz.
  EXPECT_NEAR(board->peak_half_flops() / 1e12, 393.2, 0.1);
}

TEST(MncoreBoard, CountsAndCapacitiesAreParameters) {
  auto board = test::make_board({{"mncore2.groups", "1"},
                                 {"mncore2.l2b_per_group", "3"},
                                 {"mncore2.l1b_per_l2b", "2"},
                                 {"mncore2.mab_per_l1b", "5"},
                                 {"mncore2.pe_per_mab", "2"},
                                 {"mncore2.l1bm.size_lw", "100"},
                                 {"mncore2.grf1.size_lw", "3"},
                                 {"mncore2.dram.size_lw", "1Mi"}});
  EXPECT_EQ(board->topology().pes(), 1u * 3 * 2 * 5 * 2);
  EXPECT_EQ(count_modules<L2b>(board.get()), 3u);
  EXPECT_EQ(count_modules<Pe>(board.get()), 60u);
  EXPECT_EQ(board->l1b(5).l1bm.size(), 800u);
  EXPECT_EQ(board->pes().sw_count(Mem::GRF1), 6u);
  EXPECT_EQ(board->group(0).dram.size(), 8u << 20);
}

TEST(MncoreBoard, AddressUnitIsAParameter) {
  auto overrides = test::small_board();
  overrides["mncore2.lm0.address_unit"] = "\"LW\"";
  auto board = test::make_board(overrides);
  // With LW units, $m1 is the SW at byte 8 (not byte 4).
  const uint32_t marker = 0x12345678, other = 0x0BADF00D;
  board->debug_write(Mem::LM0, 5, 8, &marker, 4);
  board->debug_write(Mem::LM0, 5, 4, &other, 4);
  test::run(*board, "mov $m1 $r0");
  uint32_t got = 0;
  board->debug_read(Mem::GRF0, 5, 0, &got, 4);
  EXPECT_EQ(got, marker);
}

TEST(MncoreBoard, BadValuesNameTheKey) {
  EXPECT_NE(error_of([] { test::make_board({{"mncore2.groups", "0"}}); }).find("'mncore2.groups': 0 is out of range"),
            std::string::npos);
  EXPECT_NE(error_of([] { test::make_board({{"mncore2.lm1.address_unit", "\"HW\""}}); })
                .find("'mncore2.lm1.address_unit': expected \"LW\" or \"SW\""),
            std::string::npos);
  EXPECT_NE(error_of([] { test::make_board({{"mncore2.mau.k", "6"}}); }).find("mncore2.mau.k (6) must be a multiple"),
            std::string::npos);
  EXPECT_NE(error_of([] { test::make_board({{"mncore2.clock_mhz", "-1"}}); })
                .find("config key 'mncore2.clock_mhz': -1.0 is out of range [0.001, 100000.0]"),
            std::string::npos);
  EXPECT_NE(error_of([] { test::make_board({{"mncore2.pcie.latency_ns", "1e30"}}); })
                .find("config key 'mncore2.pcie.latency_ns': 1e+30 is out of range [0.0, 1000000.0]"),
            std::string::npos);
}

TEST(MncoreBoard, UnknownKeyIsAnError) {
  const std::string e = error_of([] { test::make_board({{"mncore2.l1bm.size_wl", "4"}}); });
  EXPECT_NE(e.find("unknown config key 'mncore2.l1bm.size_wl'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'mncore2.l1bm.size_lw'"), std::string::npos) << e;
}

TEST(MncoreBoard, DebugAccessReachesEveryLevelThroughTheBus) {
  auto board = test::make_board();
  uint64_t v = 0x1122334455667788ull, back = 0;
  for (Mem m : {Mem::DRAM, Mem::PDM, Mem::L2BM, Mem::L1BM, Mem::LM0, Mem::LM1, Mem::GRF0, Mem::GRF1}) {
    const unsigned last = board->nodes(m) - 1;
    board->debug_write(m, last, 16, &v, 8);
    board->debug_read(m, last, 16, &back, 8);
    EXPECT_EQ(back, v) << mem_name(m);
    ++v;
  }
  // The PE memory went into the structure-of-arrays: word 4 and 5 of the last PE.
  EXPECT_EQ(board->pes().words(Mem::GRF1, 4)[63], static_cast<uint32_t>(v - 1));
  EXPECT_NE(error_of([&] { board->debug_read(Mem::L1BM, 8, 0, &back, 8); }).find("there are only 8"), std::string::npos);
}

TEST(MncoreBoard, HostReachesOnlyGroup0PdmOverPcie) {
  auto overrides = test::small_board();
  overrides["mncore2.pcie.bandwidth_gbps"] = "10";
  overrides["mncore2.pcie.latency_ns"] = "500";
  auto board = test::make_board(overrides);
  std::vector<uint8_t> data(10000, 7), back(10000);
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  board->host_write(16, data.data(), data.size());
  // 10000 bytes at 10 GB/s = 1000 ns, plus 500 ns latency.
  EXPECT_EQ(sc_core::sc_time_stamp() - t0, sc_core::sc_time(1500, sc_core::SC_NS));
  board->debug_read(Mem::PDM, 0, 16 * 8, back.data(), back.size());
  EXPECT_EQ(back, data);
  std::fill(back.begin(), back.end(), 0);
  board->host_read(16, back.data(), back.size());
  EXPECT_EQ(back, data);
  EXPECT_EQ(Stats::global().value("mncore2.pcie.bytes_to_device"), 10000u);
  EXPECT_NE(error_of([&] { board->host_write(16 * 1024 - 1, data.data(), 16); }).find("beyond Group 0's PDM"),
            std::string::npos);
}

}  // namespace
}  // namespace npuvp::mncore
