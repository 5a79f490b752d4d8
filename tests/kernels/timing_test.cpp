// Timing that architects can trust (issue 4): relations between runs and ratios to the
// roofline, never wall-clock. A configuration is fixed at elaboration, so each one runs in
// its own child process (tests/support/child_process.h).
#include <gtest/gtest.h>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include "kernel_operator.h"
#include "platforms/coupled_soc.h"
#include "sw/kernels/elementwise.h"
#include "sw/kernels/matmul.h"
#include "tests/support/child_process.h"
#include "tests/support/device_fixture.h"
#include "tests/support/raw_tensors.h"
#include "tikicpulib.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace timing_test {
using npuvp::Stats;
using nlohmann::json;
using Overrides = std::vector<std::string>;

Overrides with(Overrides a, const Overrides& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// ---- Workloads ----

// Single-core f16 matmul on the A2 core.
json matmul_run(const Overrides& overrides, uint32_t m, uint32_t n, uint32_t k) {
  auto& dev = npuvp::testing::make_device(overrides, "core910b");
  auto* a = static_cast<half*>(AscendC::GmAlloc(size_t(m) * k * 2));
  auto* b = static_cast<half*>(AscendC::GmAlloc(size_t(k) * n * 2));
  auto* c = static_cast<half*>(AscendC::GmAlloc(size_t(m) * n * 2));
  for (size_t i = 0; i < size_t(m) * k; ++i) a[i] = half(float(i % 7) - 3);
  for (size_t i = 0; i < size_t(k) * n; ++i) b[i] = half(float(i % 5) - 2);
  const auto& r = dev.launch("matmul", 1, [&] {
    npuvp::kernels::matmul_a2<half>(reinterpret_cast<GM_ADDR>(a), reinterpret_cast<GM_ADDR>(b),
                                    reinterpret_cast<GM_ADDR>(c), {m, n, k});
  });
  const double cycles = double(r.cycles);
  return {{"cycles", r.cycles},
          {"cube_busy", double(Stats::global().value("core0.M.busy_cycles")) / cycles},
          {"c_checksum", [&] {
             double s = 0;
             for (size_t i = 0; i < size_t(m) * n; ++i) s += double(float(c[i])) * double(i % 13 + 1);
             return s;
           }()},
          {"stats", Stats::global().to_json()}};
}

struct AddOp {
  void operator()(const AscendC::LocalTensor<float>& z, const AscendC::LocalTensor<float>& x,
                  const AscendC::LocalTensor<float>& y, int32_t n) const {
    AscendC::Add(z, x, y, n);
  }
};

// z = x + y over `elements` floats on `blocks` blocks, tiles of `tile` elements.
template <int32_t Buffers = 2>
json vector_add_run(const Overrides& overrides, uint64_t elements, uint32_t blocks, uint32_t tile,
                    const std::string& platform = "minimal") {
  auto& dev = npuvp::testing::make_device(overrides, platform);
  auto* x = static_cast<float*>(AscendC::GmAlloc(elements * 4));
  auto* y = static_cast<float*>(AscendC::GmAlloc(elements * 4));
  auto* z = static_cast<float*>(AscendC::GmAlloc(elements * 4));
  const auto block_length = static_cast<int32_t>(elements / blocks);
  const int32_t tiles = block_length / int32_t(tile) / Buffers;
  const auto& r = dev.launch("add", blocks, [&] {
    npuvp::kernels::KernelElementwise<float, 2, AddOp, Buffers> op(AddOp{}, block_length, tiles);
    op.Init(reinterpret_cast<GM_ADDR>(x), reinterpret_cast<GM_ADDR>(y), reinterpret_cast<GM_ADDR>(z));
    op.Process();
  });
  auto& soc = dev.soc();
  uint64_t dram = 0;
  for (unsigned i = 0; i < soc.num_memory_controllers(); ++i) dram += soc.memory_controller(i).bytes();
  return {{"cycles", r.cycles},
          {"seconds", r.sim_time.to_seconds()},
          {"dram_bytes", dram},
          {"dram_peak", soc.dram_peak_bytes_per_second()},
          {"stats", Stats::global().to_json()}};
}

// ---- Pipes ----

TEST(Timing, DoubleBufferedMatmulKeepsTheCubeBusy) {
  const json r = npuvp::testing::in_child_process([] { return matmul_run({"sim.mode=perf"}, 1024, 1024, 1024); });
  EXPECT_GE(r["cube_busy"].get<double>(), 0.85) << "cycles " << r["cycles"];
}

// K = 4096 puts 16 source rows 65536 elements apart, past Nd2Nz's 16-bit matrix stride, so the
// kernel copies each 128 x 128 block as 8 bands of 16 rows, back to back on MTE2.
TEST(Timing, BackToBackGmReadsPayTheMemoryLatencyOnce) {
  const json burst = npuvp::testing::in_child_process([] { return matmul_run({}, 128, 128, 4096); });
  const json alone =
      npuvp::testing::in_child_process([] { return matmul_run({"core.mte.burst_bytes=0"}, 128, 128, 4096); });
  EXPECT_EQ(burst["c_checksum"], alone["c_checksum"]);  // the same data, whatever the timing
  EXPECT_EQ(burst["stats"]["core0"]["MTE2"]["instructions"], alone["stats"]["core0"]["MTE2"]["instructions"]);
  // Alone, each band pays a full round trip through the ring and L2; together, the 8 bands
  // of a block pay one.
  EXPECT_GE(alone["cycles"].get<double>() / burst["cycles"].get<double>(), 1.5)
      << "burst " << burst["cycles"] << " alone " << alone["cycles"];
  EXPECT_LT(burst["stats"]["core0"]["MTE2"]["stall"]["memory_cycles"].get<double>(),
            0.5 * alone["stats"]["core0"]["MTE2"]["stall"]["memory_cycles"].get<double>());
}

// Which GM reads go to memory together: the ones queued behind the first that were issued
// before it started; a barrier in the pipe's queue ends a burst.
TEST(Timing, ABurstTakesTheReadsQueuedBehindItAndStopsAtABarrier) {
  auto run = [](bool barriers) {
    return npuvp::testing::in_child_process([barriers] {
      auto& dev = npuvp::testing::make_device();
      auto* g = static_cast<float*>(AscendC::GmAlloc(16384 * sizeof(float)));
      const auto& r = dev.launch("reads", 1, [&] {
        AscendC::GlobalTensor<float> G;
        G.SetGlobalBuffer(g, 16384);
        for (uint32_t i = 0; i < 4; ++i) {
          AscendC::DataCopy(npuvp::testing::ub_at<float>(i * 4096, 1024), G[i * 1024], 1024);
          if (barriers) AscendC::PipeBarrier<PIPE_MTE2>();
        }
      });
      return json{{"cycles", r.cycles},
                  {"burst", Stats::global().value("core0.MTE2.burst_instructions")},
                  {"reads", Stats::global().value("core0.MTE2.instr.DataCopy")}};
    });
  };
  const json plain = run(false), fenced = run(true);
  EXPECT_EQ(plain["reads"], 4);
  // The first read starts as soon as it is issued, alone; the other three queue behind it
  // and go together when it is done.
  EXPECT_EQ(plain["burst"], 3);
  EXPECT_EQ(fenced["burst"], 0);
  EXPECT_LT(plain["cycles"].get<double>(), fenced["cycles"].get<double>());
}

TEST(Timing, PerfModeGivesTheSameCyclesAsTimed) {
  const json timed = npuvp::testing::in_child_process([] { return matmul_run({}, 512, 384, 640); });
  const json perf = npuvp::testing::in_child_process([] { return matmul_run({"sim.mode=perf"}, 512, 384, 640); });
  EXPECT_EQ(timed["cycles"], perf["cycles"]);
  EXPECT_EQ(timed["stats"]["core0"]["MTE2"]["busy_cycles"], perf["stats"]["core0"]["MTE2"]["busy_cycles"]);
  // And perf really skipped the data: C stayed as allocated.
  EXPECT_NE(timed["c_checksum"], perf["c_checksum"]);
}

TEST(Timing, FunctionalModeComputesTheSameDataInNoTime) {
  const json timed = npuvp::testing::in_child_process([] { return matmul_run({}, 200, 130, 300); });
  const json functional =
      npuvp::testing::in_child_process([] { return matmul_run({"sim.mode=functional"}, 200, 130, 300); });
  EXPECT_EQ(timed["c_checksum"], functional["c_checksum"]);
  EXPECT_GT(timed["cycles"].get<uint64_t>(), 0u);
  EXPECT_EQ(functional["cycles"].get<uint64_t>(), 0u);
}

TEST(Timing, DoubleBufferingIsFaster) {
  // Balanced copy-in and copy-out rates, so the pipes have work to overlap.
  const Overrides cfg = {"platform.cores=1", "sim.mode=perf", "core.mte.gm_write_bytes_per_cycle=110"};
  const json two = npuvp::testing::in_child_process([&] { return vector_add_run<2>(cfg, 1 << 20, 1, 4096); });
  const json one = npuvp::testing::in_child_process([&] { return vector_add_run<1>(cfg, 1 << 20, 1, 4096); });
  EXPECT_GT(one["cycles"].get<double>(), 1.15 * two["cycles"].get<double>());
}

// ---- Memory system ----

TEST(Timing, AllCoreVectorAddSaturatesDram) {
  // The 32-core Ascend 910: x and y 128 MiB each (f32), z 128 MiB.
  const json r = npuvp::testing::in_child_process(
      [] { return vector_add_run({"sim.mode=perf"}, 32ull << 20, 32, 8192, "ascend910"); });
  const double achieved = r["dram_bytes"].get<double>() / r["seconds"].get<double>();
  EXPECT_GE(achieved, 0.85 * r["dram_peak"].get<double>()) << achieved / 1e9 << " GB/s";
}

TEST(Timing, ComputeBoundIgnoresDramBandwidthMemoryBoundFollowsIt) {
  const json mm = npuvp::testing::in_child_process([] { return matmul_run({"sim.mode=perf"}, 1024, 1024, 1024); });
  const json mm2 = npuvp::testing::in_child_process(
      [] { return matmul_run({"sim.mode=perf", "dram.channel_gbps=100"}, 1024, 1024, 1024); });
  const double mm_change = std::abs(mm2["cycles"].get<double>() / mm["cycles"].get<double>() - 1);
  EXPECT_LT(mm_change, 0.05);

  const Overrides add = {"sim.mode=perf"};
  const json v = npuvp::testing::in_child_process(
      [&] { return vector_add_run(add, 8ull << 20, 32, 8192, "ascend910"); });
  const json v_half = npuvp::testing::in_child_process(
      [&] { return vector_add_run(with(add, {"dram.channel_gbps=18.75"}), 8ull << 20, 32, 8192, "ascend910"); });
  EXPECT_GE(v_half["cycles"].get<double>() / v["cycles"].get<double>(), 1.7);
}

// Reads `bytes` of GM at `stride` (32 B each time) into UB, `passes` times, on core 0.
json read_pattern_run(const Overrides& overrides, uint64_t bytes, uint64_t stride, int passes) {
  auto& dev = npuvp::testing::make_device(overrides, "minimal");
  auto* src = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  json hit_rates = json::array();
  uint64_t dram_read = 0;
  for (int p = 0; p < passes; ++p) {
    const uint64_t hits0 = Stats::global().value("l2.by_initiator.core0.hits");
    const uint64_t miss0 = Stats::global().value("l2.by_initiator.core0.misses");
    dev.launch("read", 1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 64 * 1024);
      AscendC::GlobalTensor<uint8_t> g;
      g.SetGlobalBuffer(src, bytes);
      auto ub = buf.Get<uint8_t>();
      if (stride == 32) {
        for (uint64_t at = 0; at < bytes; at += 64 * 1024) AscendC::DataCopy(ub, g[at], 64 * 1024);
      } else {
        // blockCount blocks of one 32 B unit, `stride` apart.
        const uint64_t per_copy = 2048;
        for (uint64_t at = 0; at < bytes; at += per_copy * stride) {
          AscendC::DataCopy(ub, g[at], AscendC::DataCopyParams(uint16_t(per_copy), 1, uint16_t(stride / 32 - 1), 0));
        }
      }
    });
    const double hits = double(Stats::global().value("l2.by_initiator.core0.hits") - hits0);
    const double misses = double(Stats::global().value("l2.by_initiator.core0.misses") - miss0);
    hit_rates.push_back(hits / (hits + misses));
  }
  auto& soc = dev.soc();
  for (unsigned i = 0; i < soc.num_memory_controllers(); ++i) {
    dram_read += Stats::global().value(fmt::format("soc.dram{}.bytes_read", i));
  }
  return {{"hit_rates", hit_rates}, {"dram_read", dram_read}};
}

TEST(Timing, WorkingSetInL2HitsOnTheSecondPass) {
  const json r = npuvp::testing::in_child_process(
      [] { return read_pattern_run({"platform.cores=1", "sim.mode=perf"}, 4 << 20, 32, 2); });
  EXPECT_LT(r["hit_rates"][0].get<double>(), 0.1);  // cold
  EXPECT_GE(r["hit_rates"][1].get<double>(), 0.9);
}

TEST(Timing, StridedReadsMoveMoreDramBytesWithLongerLines) {
  const Overrides cfg = {"platform.cores=1", "sim.mode=perf"};
  const json small = npuvp::testing::in_child_process(
      [&] { return read_pattern_run(with(cfg, {"l2.line_bytes=128"}), 16 << 20, 1024, 1); });
  const json large = npuvp::testing::in_child_process(
      [&] { return read_pattern_run(with(cfg, {"l2.line_bytes=512", "dram.interleave_bytes=512"}), 16 << 20, 1024, 1); });
  EXPECT_GE(large["dram_read"].get<double>(), 3.5 * small["dram_read"].get<double>());
}

// Every core reads 1 MiB whose lines all live in L2 slice 0 (hot) or spread over all slices.
json slice_traffic_run(bool hot) {
  auto& dev = npuvp::testing::make_device({"sim.mode=perf", "l2.interleave_bytes=128"}, "minimal");
  auto& soc = dev.soc();
  auto& ring = soc.interconnect();
  const unsigned cores = soc.num_cores();
  const uint64_t line = 128, lines_per_core = 8192;
  // Host offsets of the lines each core reads.
  auto* region = static_cast<uint8_t*>(AscendC::GmAlloc(cores * lines_per_core * line * ring.num_homes()));
  std::vector<uint64_t> offsets;
  for (uint64_t off = 0; offsets.size() < cores * lines_per_core; off += line) {
    if (!hot || ring.home_of(dev.device_address(region + off)) == 0) offsets.push_back(off);
  }
  dev.launch("slice", cores, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * 1024);
    AscendC::GlobalTensor<uint8_t> g;
    g.SetGlobalBuffer(region, offsets.back() + line);
    const uint64_t first = uint64_t(AscendC::GetBlockIdx()) * lines_per_core;
    for (uint64_t i = 0; i < lines_per_core; ++i) {
      AscendC::DataCopy(buf.Get<uint8_t>()[(i % 256) * line], g[offsets[first + i]], uint32_t(line));
    }
  });
  json latency = json::array(), hops = json::array();
  for (unsigned c = 0; c < cores; ++c) {
    const double sum = double(Stats::global().value(fmt::format("ring.core{}.latency_cycles", c)));
    const double n = double(Stats::global().value(fmt::format("ring.core{}.transactions", c)));
    latency.push_back(sum / n);
    hops.push_back(ring.topology().route(ring.requester_stop(c), ring.home_stop(0)).size());
  }
  // DRAM bytes by channel, every controller's channels in turn (the reads are all misses).
  json channel_bytes = json::array();
  for (unsigned d = 0; d < soc.params().dram_controllers; ++d) {
    for (unsigned c = 0; c < soc.params().dram_channels; ++c) {
      channel_bytes.push_back(Stats::global().value(fmt::format("soc.dram{}.channel{}.bytes", d, c)));
    }
  }
  return {{"latency", latency}, {"hops", hops}, {"channel_bytes", channel_bytes},
          {"max_link", ring.max_link_utilisation(sc_core::sc_time_stamp())}};
}

TEST(Timing, FarCoresSeeMoreLatencyFromAHotSlice) {
  const json r = npuvp::testing::in_child_process([] { return slice_traffic_run(true); });
  size_t nearest = 0, farthest = 0;
  for (size_t c = 0; c < r["hops"].size(); ++c) {
    if (r["hops"][c] < r["hops"][nearest]) nearest = c;
    if (r["hops"][c] > r["hops"][farthest]) farthest = c;
  }
  ASSERT_LT(r["hops"][nearest].get<int>(), r["hops"][farthest].get<int>());
  EXPECT_GT(r["latency"][farthest].get<double>(), r["latency"][nearest].get<double>());
}

// The slices and the memory channels are chosen by independent hashes of the address: the
// misses of one hot slice still spread over every channel of every controller, so a slice's
// fills do not queue on a few channels while the rest idle.
TEST(Timing, OneSlicesMissesReachEveryMemoryChannel) {
  const json r = npuvp::testing::in_child_process([] { return slice_traffic_run(true); });
  const json& bytes = r["channel_bytes"];
  ASSERT_EQ(bytes.size(), 32u);  // minimal: 4 controllers x 8 channels
  double total = 0;
  for (const json& b : bytes) total += b.get<double>();
  ASSERT_GT(total, 0);
  for (size_t c = 0; c < bytes.size(); ++c) {
    EXPECT_GT(bytes[c].get<double>(), 0.5 * total / double(bytes.size())) << "channel " << c << " of " << bytes.size();
  }
}

TEST(Timing, SpreadingTrafficOverSlicesLowersTheBusiestLink) {
  const json hot = npuvp::testing::in_child_process([] { return slice_traffic_run(true); });
  const json spread = npuvp::testing::in_child_process([] { return slice_traffic_run(false); });
  EXPECT_LT(spread["max_link"].get<double>(), hot["max_link"].get<double>());
}

// ---- Simulation properties ----

TEST(Timing, SameRunTwiceGivesIdenticalStats) {
  auto run = [] {
    json a = vector_add_run({"platform.cores=8"}, 1 << 20, 16, 2048);
    return a["stats"];
  };
  const json first = npuvp::testing::in_child_process(run);
  const json second = npuvp::testing::in_child_process(run);
  EXPECT_EQ(first, second);
  EXPECT_FALSE(first.empty());
}

TEST(Timing, QuantumChangesResultsByLessThanTwoPercent) {
  for (bool multicore : {false, true}) {
    auto run = [multicore](const char* quantum) {
      return multicore ? vector_add_run({"platform.cores=8", quantum}, 1 << 20, 16, 2048)["cycles"].get<double>()
                       : matmul_run({quantum}, 256, 256, 512)["cycles"].get<double>();
    };
    const json fine = npuvp::testing::in_child_process([&] { return json(run("core.scalar.quantum_ns=20")); });
    const json coarse = npuvp::testing::in_child_process([&] { return json(run("core.scalar.quantum_ns=2000")); });
    EXPECT_NEAR(coarse.get<double>() / fine.get<double>(), 1.0, 0.02) << (multicore ? "vector add" : "matmul");
  }
}

// On one core the quantum changes nothing at all: the core runs its pipes' events in
// simulated-time order whatever the quantum, and reaches the memory system at each event's
// time, so only how often SystemC catches up differs (AiCore::run_pipes).
TEST(Timing, OnOneCoreTheQuantumChangesNoResult) {
  auto run = [](const char* quantum) {
    json r = matmul_run({quantum}, 256, 256, 512);
    return json{{"cycles", r["cycles"]}, {"stats", r["stats"]}};
  };
  const json fine = npuvp::testing::in_child_process([&] { return run("core.scalar.quantum_ns=10"); });
  const json coarse = npuvp::testing::in_child_process([&] { return run("core.scalar.quantum_ns=100000"); });
  ASSERT_GT(fine["cycles"].get<double>(), 0);
  EXPECT_EQ(fine["cycles"], coarse["cycles"]);
  EXPECT_EQ(fine["stats"], coarse["stats"]);
}

// The trace shows what each pipe did, one instruction after another: on every pipe's track
// the slices follow each other without overlapping, and there is one per instruction the
// pipe counted. (The core runs its pipes' starts and completions in time order itself, so
// this holds only if that order is right.)
TEST(Timing, EachPipeTrackShowsItsInstructionsInOrder) {
  const json r = npuvp::testing::in_child_process([] {
    const std::string path = ::testing::TempDir() + "timing_trace.json";
    npuvp::Tracer::global().open(path);
    json run = matmul_run({}, 256, 256, 512);
    npuvp::Tracer::global().close();
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    run["trace"] = json::parse(text.str());
    return run;
  });
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;  // (pid, tid) -> (ts, dur)
  for (const json& e : r["trace"]) {
    if (e.value("ph", "") == "X") tracks[{e["pid"].get<int>(), e["tid"].get<int>()}].emplace_back(e["ts"], e["dur"]);
  }
  size_t slices = 0;
  for (auto& [track, s] : tracks) {
    std::sort(s.begin(), s.end());
    for (size_t i = 1; i < s.size(); ++i) {
      // Microseconds as doubles: a ps of rounding at most.
      ASSERT_LE(s[i - 1].first + s[i - 1].second, s[i].first + 1e-6) << "track " << track.second << " slice " << i;
    }
    slices += s.size();
  }
  uint64_t instructions = 0;
  for (const char* pipe : {"MTE2", "MTE1", "M", "V", "MTE3", "FIX"}) {  // not S: its count is of issues
    const json& counters = r["stats"]["core0"].value(pipe, json::object());
    if (!counters.contains("instructions")) continue;
    const json& n = counters["instructions"];  // a number, or {"value": ...} with counters below it
    instructions += n.is_object() ? n["value"].get<uint64_t>() : n.get<uint64_t>();
  }
  EXPECT_GT(slices, 100u);
  EXPECT_EQ(slices, instructions);
}

// GetSystemCycle reads the system counter at the kernel's own time: bracketed by barriers it
// times the pipes' work, in ticks of core.system_counter_mhz (50 MHz by default, 20 core
// cycles at 1 GHz).
TEST(Timing, GetSystemCycleTimesPipeWorkInCounterTicks) {
  auto run = [](const char* counter_mhz) {
    auto& dev = npuvp::testing::make_device({"platform.cores=1", counter_mhz}, "minimal");
    int64_t ticks = 0;
    dev.launch("timed_adds", 1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 64 * 1024);
      auto t = buf.Get<float>();
      AscendC::PipeBarrier<PIPE_ALL>();
      const int64_t before = AscendC::GetSystemCycle();
      for (int i = 0; i < 10; ++i) AscendC::Adds(t, t, 1.0f, 64 * 200);  // 10 x (head + 200 repeats)
      AscendC::PipeBarrier<PIPE_ALL>();
      ticks = AscendC::GetSystemCycle() - before;
    });
    return json{{"ticks", ticks}, {"v_busy", Stats::global().value("core0.V.busy_cycles")}};
  };
  const json at50 = npuvp::testing::in_child_process([&] { return run("core.system_counter_mhz=50"); });
  const json at100 = npuvp::testing::in_child_process([&] { return run("core.system_counter_mhz=100"); });
  const double v_busy = at50["v_busy"].get<double>();
  ASSERT_GT(v_busy, 2000);
  // The vector work plus a few cycles of issue, in ticks of 20 (50 MHz) and 10 (100 MHz) cycles.
  EXPECT_GE(at50["ticks"].get<double>(), std::floor(v_busy / 20));
  EXPECT_LE(at50["ticks"].get<double>(), std::ceil((v_busy + 20) / 20));
  EXPECT_GE(at100["ticks"].get<double>(), std::floor(v_busy / 10));
  EXPECT_LE(at100["ticks"].get<double>(), std::ceil((v_busy + 20) / 10));
}

// Scalar work costs time: filling a buffer element by element is slower than one Duplicate.
TEST(Timing, ScalarHeavyKernelIsVisiblySlower) {
  auto run = [](bool scalar) {
    auto& dev = npuvp::testing::make_device({"platform.cores=1"}, "minimal");
    const auto& r = dev.launch("fill", 1, [&] {
      AscendC::TPipe pipe;
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 4096 * 4);
      auto t = buf.Get<float>();
      if (scalar) {
        for (uint32_t i = 0; i < 4096; ++i) t.SetValue(i, 1.0f);
      } else {
        AscendC::Duplicate(t, 1.0f, 4096);
      }
    });
    return json(r.cycles);
  };
  const json scalar = npuvp::testing::in_child_process([&] { return run(true); });
  const json vector = npuvp::testing::in_child_process([&] { return run(false); });
  EXPECT_GT(scalar.get<double>(), 10 * vector.get<double>());
}

}  // namespace timing_test
