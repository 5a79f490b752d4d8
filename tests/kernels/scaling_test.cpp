// Scaling sanity on the 32-core Ascend 910 (issue 5) and the PCIe host bridge: relations on
// simulated time, never wall-clock. Each configuration runs in its own child process
// (tests/support/child_process.h), as in timing_test.cpp.
#include <gtest/gtest.h>
#include <cstring>
#include <fmt/format.h>
#include "platforms/coupled_soc.h"
#include "sw/kernels/elementwise.h"
#include "sw/kernels/matmul.h"
#include "tests/support/child_process.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"
#include "tlm/stats.h"

namespace scaling_test {
using npuvp::Device;
using npuvp::Stats;
using nlohmann::json;
using Overrides = std::vector<std::string>;

// ---- Workloads ----

// f16 matmul m x n x k on the Ascend 910 built with `cores` cores, launched on `blocks`
// blocks, perf mode.
json matmul_910_run(unsigned cores, unsigned blocks, uint32_t m, uint32_t n, uint32_t k) {
  auto& dev = npuvp::testing::make_device({fmt::format("platform.cores={}", cores), "sim.mode=perf"}, "ascend910");
  const npuvp::kernels::MatmulShape shape{m, n, k};
  auto* a = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(m) * k * 2));
  auto* b = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(k) * n * 2));
  auto* c = static_cast<uint8_t*>(AscendC::GmAlloc(size_t(m) * n * 2));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(npuvp::kernels::matmul_910_workspace_bytes(shape, blocks)));
  const auto& r = dev.launch("matmul", blocks, [&] { npuvp::kernels::matmul_910<half>(a, b, c, ws, shape); });
  return {{"seconds", r.sim_time.to_seconds()}, {"cycles", r.cycles}, {"wall", r.wall_seconds}};
}

struct AddOp {
  void operator()(const AscendC::LocalTensor<float>& z, const AscendC::LocalTensor<float>& x,
                  const AscendC::LocalTensor<float>& y, int32_t n) const {
    AscendC::Add(z, x, y, n);
  }
};

// z = x + y over `elements` floats on `blocks` blocks of the 32-core Ascend 910.
json vector_add_910_run(unsigned blocks, uint64_t elements) {
  auto& dev = npuvp::testing::make_device({"sim.mode=perf"}, "ascend910");
  auto* x = static_cast<uint8_t*>(AscendC::GmAlloc(elements * 4));
  auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(elements * 4));
  auto* z = static_cast<uint8_t*>(AscendC::GmAlloc(elements * 4));
  constexpr int32_t kTile = 8192;
  const auto block_length = static_cast<int32_t>(elements / blocks);
  const auto& r = dev.launch("add", blocks, [&] {
    npuvp::kernels::KernelElementwise<float, 2, AddOp> op(AddOp{}, block_length, block_length / kTile / 2);
    op.Init(x, y, z);
    op.Process();
  });
  auto& soc = dev.soc();
  uint64_t dram = 0;
  for (unsigned i = 0; i < soc.num_memory_controllers(); ++i) dram += soc.memory_controller(i).bytes();
  return {{"seconds", r.sim_time.to_seconds()},
          {"dram_bytes_per_second", double(dram) / r.sim_time.to_seconds()},
          {"dram_peak", soc.dram_peak_bytes_per_second()},
          {"wall", r.wall_seconds}};
}

// ---- Scaling ----

// "1 core" is one block on the same 32-core chip (same ring, L2 and HBM); a chip built with
// a single core has a shorter ring, hence lower GM latency, and is checked more loosely: the
// 910 matmul's MTE2 copies are 4 KiB strided DataCopys whose time is mostly ring latency.
TEST(Scaling, Matmul2048On32CoresIsAtLeast20TimesFasterThanOn1) {
  const json one = npuvp::testing::in_child_process([] { return matmul_910_run(32, 1, 2048, 2048, 2048); });
  const json all = npuvp::testing::in_child_process([] { return matmul_910_run(32, 32, 2048, 2048, 2048); });
  const json lone = npuvp::testing::in_child_process([] { return matmul_910_run(1, 1, 2048, 2048, 2048); });
  const double speedup = one["seconds"].get<double>() / all["seconds"].get<double>();
  const double speedup_vs_lone = lone["seconds"].get<double>() / all["seconds"].get<double>();
  EXPECT_GE(speedup, 20.0) << "1 block " << one["seconds"] << " s, 32 blocks " << all["seconds"] << " s simulated";
  EXPECT_GE(speedup_vs_lone, 15.0) << "1-core chip " << lone["seconds"] << " s, 32 cores " << all["seconds"] << " s";
  // Sanity: one core cannot beat its own cube (2048^3 / 4096 MAC per cycle at 1 GHz).
  EXPECT_GE(lone["seconds"].get<double>(), 2048.0 * 2048 * 2048 / 4096 / 1e9);
  std::printf("matmul 2048^3 f16 on 910 (perf): 1 of 32 cores %.3f ms (wall %.1f s), 32 cores %.3f ms (wall %.1f s): "
              "%.1fx; 1-core chip %.3f ms (wall %.1f s): %.1fx\n",
              one["seconds"].get<double>() * 1e3, one["wall"].get<double>(), all["seconds"].get<double>() * 1e3,
              all["wall"].get<double>(), speedup, lone["seconds"].get<double>() * 1e3, lone["wall"].get<double>(),
              speedup_vs_lone);
}

TEST(Scaling, MemoryBoundVectorAddStopsScalingOnceDramIsSaturated) {
  constexpr uint64_t kElements = 32ull << 20;  // 128 MiB per array: 384 MiB of traffic, 12x the L2
  std::map<unsigned, json> r;
  for (unsigned blocks : {1u, 4u, 16u, 32u}) {
    r[blocks] = npuvp::testing::in_child_process([&] { return vector_add_910_run(blocks, kElements); });
  }
  auto t = [&](unsigned cores) { return r[cores]["seconds"].get<double>(); };
  // Few cores: each core's own copy rate limits, so 4 cores are nearly 4x faster than one.
  EXPECT_GT(t(1) / t(4), 3.6) << "t1 " << t(1) << " t4 " << t(4);
  EXPECT_LT(t(1) / t(4), 4.05);
  // Many cores: DRAM is the limit, so doubling the cores from 16 to 32 buys little ...
  EXPECT_LT(t(16) / t(32), 1.2) << "t16 " << t(16) << " t32 " << t(32);
  // ... because 16 already run DRAM near its peak.
  EXPECT_GT(r[16]["dram_bytes_per_second"].get<double>(), 0.85 * r[16]["dram_peak"].get<double>());
  std::printf("vector add 32 Mi floats on 910: t1/t4 %.2f, t16/t32 %.3f, DRAM at 16 cores %.0f%% of peak\n",
              t(1) / t(4), t(16) / t(32),
              100 * r[16]["dram_bytes_per_second"].get<double>() / r[16]["dram_peak"].get<double>());
}

// ---- Host bridge (PCIe) ----

// Copies `bytes` to the device and back; returns both times and whether the data survived.
json pcie_round_trip(const Overrides& overrides, uint64_t bytes) {
  auto& dev = npuvp::testing::make_device(overrides, "ascend910");
  std::vector<uint8_t> host(bytes), back(bytes);
  for (uint64_t i = 0; i < bytes; ++i) host[i] = uint8_t((i * 2654435761u) >> 13);
  auto* gm = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  const double t0 = sc_core::sc_time_stamp().to_seconds();
  dev.memcpy(gm, host.data(), bytes, Device::Copy::HostToDevice);
  const double t1 = sc_core::sc_time_stamp().to_seconds();
  const bool landed = std::memcmp(gm, host.data(), bytes) == 0;  // GM itself holds the bytes
  dev.memcpy(back.data(), gm, bytes, Device::Copy::DeviceToHost);
  const double t2 = sc_core::sc_time_stamp().to_seconds();
  auto& bridge = dev.soc().host_bridge();
  return {{"h2d", t1 - t0},
          {"d2h", t2 - t1},
          {"landed", landed},
          {"back", back == host},
          {"bytes_per_second", bridge.bytes_per_second()},
          {"latency", bridge.params().latency_ns * 1e-9},
          {"stats", Stats::global().to_json()}};
}

TEST(HostBridge, CopyTakesBytesOverBandwidthPlusLatency) {
  constexpr uint64_t kBytes = 16ull << 20;
  const json r = npuvp::testing::in_child_process([] { return pcie_round_trip({}, kBytes); });
  EXPECT_TRUE(r["landed"].get<bool>());
  EXPECT_TRUE(r["back"].get<bool>());
  const double want = double(kBytes) / r["bytes_per_second"].get<double>() + r["latency"].get<double>();
  for (const char* direction : {"h2d", "d2h"}) {
    const double got = r[direction].get<double>();
    EXPECT_GE(got / want, 1.0) << direction << " " << got << " s, analytic " << want << " s";
    EXPECT_LE(got / want, 1.02) << direction << " " << got << " s, analytic " << want << " s";
  }
  const json& s = r["stats"]["host_bridge"];
  EXPECT_EQ(s["h2d_bytes"].get<uint64_t>(), kBytes);
  EXPECT_EQ(s["d2h_bytes"].get<uint64_t>(), kBytes);
  EXPECT_EQ(s["copies"].get<uint64_t>(), 2u);
  EXPECT_EQ(s["bursts"].get<uint64_t>(), 2 * kBytes / 256);
  // The copy travelled the ring as a requester of its own.
  EXPECT_GT(r["stats"]["ring"]["host_bridge"]["transactions"].get<uint64_t>(), 0u);
}

TEST(HostBridge, SmallCopyIsLatencyBound) {
  const json r = npuvp::testing::in_child_process([] { return pcie_round_trip({"pcie.latency_ns=2000"}, 4096); });
  EXPECT_TRUE(r["back"].get<bool>());
  // 4 KiB at 32 GB/s is 128 ns: the 2 us latency dominates, the ring adds little.
  EXPECT_GE(r["h2d"].get<double>(), 2000e-9 + 4096 / 32e9);
  EXPECT_LE(r["h2d"].get<double>(), 1.15 * (2000e-9 + 4096 / 32e9));
}

TEST(HostBridge, DoublingPcieBandwidthHalvesALargeCopy) {
  constexpr uint64_t kBytes = 16ull << 20;
  const json base = npuvp::testing::in_child_process([] { return pcie_round_trip({}, kBytes); });
  const json fast = npuvp::testing::in_child_process([] { return pcie_round_trip({"pcie.gbps=64"}, kBytes); });
  for (const char* direction : {"h2d", "d2h"}) {
    const double ratio = base[direction].get<double>() / fast[direction].get<double>();
    EXPECT_GT(ratio, 1.9) << direction;
    EXPECT_LT(ratio, 2.02) << direction;
  }
  EXPECT_TRUE(fast["back"].get<bool>());
}

TEST(HostBridge, FunctionalModeCopiesTheDataInNoTime) {
  const json r = npuvp::testing::in_child_process([] { return pcie_round_trip({"sim.mode=functional"}, 100000); });
  EXPECT_TRUE(r["landed"].get<bool>());
  EXPECT_TRUE(r["back"].get<bool>());
  EXPECT_EQ(r["h2d"].get<double>(), 0.0);
  EXPECT_EQ(r["d2h"].get<double>(), 0.0);
  EXPECT_EQ(r["stats"]["host_bridge"]["h2d_bytes"].get<uint64_t>(), 100000u);
}

TEST(HostBridge, PerfModeStillMovesTheData) {
  const json r = npuvp::testing::in_child_process([] { return pcie_round_trip({"sim.mode=perf"}, 1000003); });
  EXPECT_TRUE(r["landed"].get<bool>());
  EXPECT_TRUE(r["back"].get<bool>());
  EXPECT_GT(r["h2d"].get<double>(), 1000003 / 32e9);
}

TEST(HostBridge, CopyFromInsideAKernelIsAClearError) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1"}, "minimal");
  auto* gm = static_cast<uint8_t*>(AscendC::GmAlloc(64));
  std::vector<uint8_t> host(64);
  const std::string error = npuvp::testing::kernel_error(
      dev, 1, [&] { dev.memcpy(gm, host.data(), 64, Device::Copy::HostToDevice); });
  EXPECT_THAT(error, ::testing::HasSubstr("soc.host_bridge @ "));
  EXPECT_THAT(error, ::testing::HasSubstr("memcpy HostToDevice of 64 bytes"));
  EXPECT_THAT(error, ::testing::HasSubstr("not from a kernel"));
}

TEST(HostBridge, CopyOutsideGmIsAClearError) {
  auto& dev = npuvp::testing::make_device({}, "minimal");
  std::vector<uint8_t> host(64), other(64);
  std::string error;
  try {
    dev.memcpy(other.data(), host.data(), 64, Device::Copy::HostToDevice);  // "device" pointer is host memory
  } catch (const std::exception& e) {
    error = npuvp::error_text(e);
  }
  EXPECT_THAT(error, ::testing::MatchesRegex("soc\\.host_bridge @ [0-9.]+ [a-z]+: memcpy HostToDevice of 64 bytes: "
                                             "the destination .* is not inside GM.*"));
  // A copy that starts inside GM but runs past its end is refused too.
  auto* gm = static_cast<uint8_t*>(AscendC::GmAlloc(64));
  const uint64_t gm_size = dev.soc().params().gm_size;
  error.clear();
  try {
    dev.memcpy(host.data(), gm + 64, gm_size, Device::Copy::DeviceToHost);  // refused before any byte moves
  } catch (const std::exception& e) {
    error = npuvp::error_text(e);
  }
  EXPECT_THAT(error, ::testing::HasSubstr("memcpy DeviceToHost"));
  EXPECT_THAT(error, ::testing::HasSubstr("the source"));
  // A null host pointer is refused, not dereferenced.
  error.clear();
  try {
    dev.memcpy(gm, nullptr, 64, Device::Copy::HostToDevice);
  } catch (const std::exception& e) {
    error = npuvp::error_text(e);
  }
  EXPECT_THAT(error, ::testing::HasSubstr("the source is a null pointer"));
}

}  // namespace scaling_test
