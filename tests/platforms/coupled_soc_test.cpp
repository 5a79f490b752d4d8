// The minimal platform: composition from the configuration, the address map, GM behind it.
#include <gtest/gtest.h>
#include <cstring>
#include <vector>
#include "models/aicore/ai_core.h"
#include "platforms/coupled_soc.h"
#include "platforms/run_summary.h"
#include "tests/support/device_fixture.h"
#include "tlm/config.h"

namespace coupled_soc_test {

TEST(CoupledSocTest, BuildsWhatTheConfigurationSays) {
  auto& dev = npuvp::testing::make_device({"platform.cores=5", "gm.size=2GiB", "gm.base=0x0", "l2.slices=4",
                                           "l2.size=8MiB", "dram.controllers=3", "dram.channels=2",
                                           "dram.channel_gbps=10"});
  auto& soc = dev.soc();
  EXPECT_EQ(soc.num_cores(), 5u);
  EXPECT_EQ(soc.gm().size(), 2ull << 30);
  ASSERT_EQ(soc.num_l2_slices(), 4u);
  EXPECT_EQ(soc.l2_slice(0).tags().geometry().size, 2ull << 20);
  EXPECT_EQ(soc.num_memory_controllers(), 3u);
  EXPECT_DOUBLE_EQ(soc.dram_peak_bytes_per_second(), 3 * 2 * 10e9);
  EXPECT_EQ(soc.interconnect().topology().stops(), 5u + 4u + 3u);
  EXPECT_EQ(soc.interconnect().topology().kind(), "ring");
  for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(soc.core(i).id(), int(i));
}

// GmAlloc memory is simulated GM: host writes are what a core reads through the ring and L2.
TEST(CoupledSocTest, HostPointersAreGmThroughTheMemorySystem) {
  auto& dev = npuvp::testing::make_device();
  auto* p = static_cast<uint32_t*>(dev.malloc(4096));
  p[10] = 0xdeadbeef;
  const uint64_t addr = dev.device_address(p + 10);
  EXPECT_EQ(addr, dev.soc().params().gm_base + uint64_t(reinterpret_cast<uint8_t*>(p + 10) - dev.soc().gm().data()));
  tlm::tlm_generic_payload tx;
  uint32_t got = 0;
  tx.set_command(tlm::TLM_READ_COMMAND);
  tx.set_address(addr);
  tx.set_data_ptr(reinterpret_cast<unsigned char*>(&got));
  tx.set_data_length(4);
  EXPECT_EQ(dev.soc().core(0).gm_socket->transport_dbg(tx), 4u);
  EXPECT_EQ(got, 0xdeadbeefu);
  EXPECT_EQ(dev.soc().core(0).gm_address(p + 10), addr);
  EXPECT_EQ(dev.soc().core(0).gm_host_pointer(addr, 4), reinterpret_cast<uint8_t*>(p + 10));
  EXPECT_EQ(dev.soc().core(0).gm_host_pointer(dev.soc().params().gm_base - 4, 4), nullptr);
}

// A functional run takes no simulated time, yet a long one still reports progress: the
// cores pause the scheduler now and then so the run loop can print (sim.progress_seconds=0:
// from the first chance on).
TEST(CoupledSocTest, FunctionalRunsReportProgress) {
  auto& dev = npuvp::testing::make_device({"sim.mode=functional", "sim.progress_seconds=0", "platform.cores=1"});
  ::testing::internal::CaptureStderr();
  dev.launch("many_flags", 1, [&] {
    auto& core = *npuvp::aicore::AiCore::current();
    for (int i = 0; i < 3000; ++i) {
      core.issue(npuvp::aicore::SetFlag{npuvp::aicore::Pipe::MTE2, npuvp::aicore::Pipe::V, 0});
      core.issue(npuvp::aicore::WaitFlag{npuvp::aicore::Pipe::MTE2, npuvp::aicore::Pipe::V, 0});
    }
  });
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("npuvp: many_flags: 0/1 blocks done"), std::string::npos) << err;
  EXPECT_EQ(dev.last_run().sim_time, sc_core::SC_ZERO_TIME);
}

// The run summary's DRAM, L2 and ring figures are the kernel's own: host copies before a launch
// travel the same L2 and DRAM and must not count against the kernel's time.
TEST(CoupledSocTest, LaunchFiguresLeaveOutHostCopies) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1"});
  std::vector<uint8_t> host(64 * 1024, 7);
  void* gm = dev.malloc(host.size());
  dev.memcpy(host.data(), gm, host.size(), npuvp::Device::Copy::DeviceToHost);  // misses: DRAM reads
  uint64_t dram_total = 0;
  for (unsigned i = 0; i < dev.soc().num_memory_controllers(); ++i) dram_total += dev.soc().memory_controller(i).bytes();
  ASSERT_GE(dram_total, host.size());
  // A kernel that takes time but touches no GM: flags between two pipes.
  const auto& report = dev.launch("flags_only", 1, [] {
    auto& core = *npuvp::aicore::AiCore::current();
    for (int i = 0; i < 100; ++i) {
      core.issue(npuvp::aicore::SetFlag{npuvp::aicore::Pipe::MTE2, npuvp::aicore::Pipe::V, 0});
      core.issue(npuvp::aicore::WaitFlag{npuvp::aicore::Pipe::MTE2, npuvp::aicore::Pipe::V, 0});
    }
  });
  ASSERT_GT(report.sim_time, sc_core::SC_ZERO_TIME);
  const auto& traffic = dev.soc().last_launch_traffic();
  EXPECT_EQ(traffic.dram_bytes, 0u);
  EXPECT_EQ(traffic.l2_lookups, 0u);
  const auto figures = npuvp::platform::run_figures(dev.soc(), report.sim_time);
  EXPECT_EQ(figures.dram_bytes_per_second, 0.0);
  EXPECT_EQ(figures.l2_hit_rate, 0.0);
  // The copy crossed the ring; the launch did not (its busiest link read over 100 % when
  // the copy's link time was set against the launch's time).
  EXPECT_GT(dev.soc().interconnect().max_link_utilisation(sc_core::sc_time_stamp()), 0.0);
  EXPECT_EQ(figures.max_link_utilisation, 0.0);
  EXPECT_EQ(figures.busiest_link, "");
}

TEST(CoupledSocTest, OutOfRangeParameterIsAnError) {
  try {
    npuvp::testing::make_device({"platform.cores=0"});
    FAIL() << "0 cores accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(npuvp::error_text(e).find("platform.cores must be in [1, 1024], got 0"), std::string::npos);
  }
}

TEST(CoupledSocTest, NonPositiveSystemCounterIsAnError) {
  try {
    npuvp::testing::make_device({"core.system_counter_mhz=0"});
    FAIL() << "a 0 MHz system counter accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(npuvp::error_text(e).find("config key 'core.system_counter_mhz': 0.0 is out of range [0.001, 100000.0]"),
              std::string::npos)
        << npuvp::error_text(e);
  }
}
}  // namespace coupled_soc_test
