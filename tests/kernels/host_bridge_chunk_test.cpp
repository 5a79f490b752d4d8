// The host bridge's chunked host-to-device writes (pcie.h2d_chunk_bytes, a speed knob) against
// the per-TLP model (pcie.h2d_chunk_bytes=0): the copy takes the same simulated time, moves
// the same bytes and TLPs, and leaves the L2 holding the same lines (a kernel reading the data
// afterwards takes the same time and hits as often). Each configuration in its own process.
#include <gtest/gtest.h>
#include <cstring>
#include <fmt/format.h>
#include "tests/support/child_process.h"
#include "tests/support/device_fixture.h"
#include "tikicpulib.h"
#include "tlm/stats.h"

namespace host_bridge_chunk_test {
using npuvp::Device;
using npuvp::Stats;
using nlohmann::json;

// Copies `floats` floats (an odd byte count, so the last TLP is partial) to the 910B, reads
// them into UB on 8 AIV blocks (through the L2 the copy filled) and copies them back.
json copy_then_read(const std::string& chunk, uint64_t floats) {
  auto& dev = npuvp::testing::make_device({"pcie.h2d_chunk_bytes=" + chunk, "sim.mode=perf"}, "ascend910b");
  const uint64_t bytes = floats * 4;
  std::vector<float> x(floats), y(floats);
  for (uint64_t i = 0; i < floats; ++i) x[i] = float(i % 1000) * 0.5f;
  auto* gx = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  const double t0 = sc_core::sc_time_stamp().to_seconds();
  dev.memcpy(gx, x.data(), bytes, Device::Copy::HostToDevice);
  const double t1 = sc_core::sc_time_stamp().to_seconds();
  const uint64_t copy_misses = Stats::global().value("l2.by_initiator.other.misses");
  constexpr uint32_t kBlocks = 8;
  constexpr uint64_t kTile = 32 * 1024;
  const uint64_t per_block = bytes / kBlocks / kTile * kTile;
  const uint64_t cycles = dev.launch("read", kBlocks, [&] {
                               AscendC::TPipe pipe;
                               AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
                               pipe.InitBuffer(buf, kTile);
                               AscendC::GlobalTensor<uint8_t> g;
                               g.SetGlobalBuffer(gx + per_block * AscendC::GetBlockIdx(), per_block);
                               auto ub = buf.Get<uint8_t>();
                               for (uint64_t at = 0; at < per_block; at += kTile) {
                                 AscendC::DataCopy(ub, g[at], uint32_t(kTile));
                               }
                             }).cycles;
  dev.memcpy(y.data(), gx, bytes, Device::Copy::DeviceToHost);
  // The kernel's lookups: every initiator's but the bridge's ("other").
  uint64_t l2_hits = 0, l2_misses = 0;
  for (const auto& [name, counter] : Stats::global().counters()) {
    if (name.rfind("l2.by_initiator.", 0) != 0 || name.rfind("l2.by_initiator.other.", 0) == 0) continue;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".hits") == 0) l2_hits += counter->value;
    if (name.size() > 7 && name.compare(name.size() - 7, 7, ".misses") == 0) l2_misses += counter->value;
  }
  return {{"h2d", t1 - t0},
          {"kernel_cycles", cycles},
          {"landed", std::memcmp(gx, x.data(), bytes) == 0},
          {"back", x == y},
          {"bursts", Stats::global().value("host_bridge.bursts")},
          {"copy_misses", copy_misses},
          {"l2_hits", l2_hits},
          {"l2_misses", l2_misses}};
}

TEST(HostBridgeChunks, SameTimeAndCacheStateAsOneWritePerTlp) {
  constexpr uint64_t kFloats = (1u << 20) + 37;  // 4 MiB + 148 B: many chunks and a partial TLP
  const json per_tlp = npuvp::testing::in_child_process([] { return copy_then_read("0", kFloats); });
  const json chunked = npuvp::testing::in_child_process([] { return copy_then_read("65536", kFloats); });
  for (const json* r : {&per_tlp, &chunked}) {
    EXPECT_TRUE((*r)["landed"].get<bool>());
    EXPECT_TRUE((*r)["back"].get<bool>());
  }
  // The copy ends when the per-TLP model's does (the ring keeps up: its last chunk goes TLP
  // by TLP), to the picosecond.
  EXPECT_DOUBLE_EQ(chunked["h2d"].get<double>(), per_tlp["h2d"].get<double>());
  EXPECT_EQ(chunked["bursts"], per_tlp["bursts"]);
  // The same lines were looked up and left in the L2: the kernel reading them behaves alike.
  EXPECT_EQ(chunked["copy_misses"], per_tlp["copy_misses"]);
  EXPECT_EQ(chunked["l2_hits"], per_tlp["l2_hits"]);
  EXPECT_EQ(chunked["l2_misses"], per_tlp["l2_misses"]);
  EXPECT_GT(chunked["l2_hits"].get<uint64_t>(), 0u);  // the kernel found the copied lines
  EXPECT_EQ(chunked["kernel_cycles"], per_tlp["kernel_cycles"]);
  std::printf("4 MiB host to device: %.3f us either way; kernel after it %llu cycles\n",
              chunked["h2d"].get<double>() * 1e6, (unsigned long long)chunked["kernel_cycles"].get<uint64_t>());
}

}  // namespace host_bridge_chunk_test
