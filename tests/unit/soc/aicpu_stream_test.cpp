// AI CPU kernels as tasks of the task scheduler's stream (issue 28): in order with AI Core
// kernels (each starts after the one before it has finished, and reads what it wrote), shown
// in the scheduler's status registers and statistics; and each AI CPU core its own ring port.
#include <gtest/gtest.h>
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernel_operator.h"
#include "models/soc/aicpu.h"
#include "platforms/ascend_soc.h"
#include "sw/runtime/device.h"
#include "tlm/stats.h"

namespace aicpu_stream_test {
using npuvp::Device;
using npuvp::soc::AicpuArgs;
using npuvp::soc::TaskScheduler;

constexpr int32_t kN = 256;

// y = x + c on one AI Core (one block).
void add_scalar(GM_ADDR x, GM_ADDR y, float c) {
  using namespace AscendC;
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
  TPipe pipe;
  TQue<TPosition::VECIN, 1> in;
  TQue<TPosition::VECOUT, 1> out;
  pipe.InitBuffer(in, 1, kN * 4);
  pipe.InitBuffer(out, 1, kN * 4);
  LocalTensor<float> a = in.AllocTensor<float>();
  DataCopy(a, xg, kN);
  in.EnQue(a);
  a = in.DeQue<float>();
  LocalTensor<float> b = out.AllocTensor<float>();
  Adds(b, a, c, kN);
  out.EnQue(b);
  in.FreeTensor(a);
  b = out.DeQue<float>();
  DataCopy(yg, b, kN);
  out.FreeTensor(b);
}

uint64_t addr(const void* p) { return Device::instance().device_address(p); }

TEST(AicpuStreamTest, AiCpuTasksRunInOrderWithAiCoreKernels) {
  Device::configure("ascend310p");
  auto& dev = Device::instance();
  std::vector<float> x(kN);
  for (int32_t i = 0; i < kN; ++i) x[size_t(i)] = float((i * 37) % kN);  // a permutation: one maximum
  auto* gx = static_cast<float*>(dev.malloc(kN * 4));
  auto* gy = static_cast<float*>(dev.malloc(kN * 4));
  auto* gi = static_cast<int64_t*>(dev.malloc(8));
  auto* gv = static_cast<float*>(dev.malloc(4));
  auto* gj = static_cast<int64_t*>(dev.malloc(8));
  dev.memcpy(gx, x.data(), kN * 4, Device::Copy::HostToDevice);
  const TaskScheduler& ts = dev.soc().scheduler();
  const size_t before = ts.history().size();
  const uint64_t cpu_tasks0 = npuvp::Stats::global().value("task_scheduler.aicpu_tasks");
  const uint64_t core_tasks0 = npuvp::Stats::global().value("task_scheduler.aicore_tasks");

  // AI Core: y = x + 1; AI CPU: argmax(y); AI Core: x = y + 1 (in place of x); AI CPU: top-1 of x.
  dev.launch("plus_one", 1, [&] { add_scalar(reinterpret_cast<GM_ADDR>(gx), reinterpret_cast<GM_ADDR>(gy), 1.0f); });
  dev.launch_aicpu("ArgMax", AicpuArgs{{addr(gy), addr(gi)}, {1, kN}, {}}, 1);
  dev.launch("plus_one_again", 1,
             [&] { add_scalar(reinterpret_cast<GM_ADDR>(gy), reinterpret_cast<GM_ADDR>(gx), 1.0f); });
  dev.launch_aicpu("TopK", AicpuArgs{{addr(gx), addr(gv), addr(gj)}, {1, kN, 1}, {}}, 1);

  // Each read what the task before it wrote.
  const int64_t argmax = int64_t(std::max_element(x.begin(), x.end()) - x.begin());
  EXPECT_EQ(*gi, argmax);
  EXPECT_EQ(*gj, argmax);
  EXPECT_EQ(*gv, x[size_t(argmax)] + 2.0f);

  // The scheduler's history: the four tasks in issue order, each starting after the one
  // before it ended, each taking time.
  const auto& h = ts.history();
  ASSERT_EQ(h.size(), before + 4);
  const TaskScheduler::Engine want[] = {TaskScheduler::Engine::AiCore, TaskScheduler::Engine::AiCpu,
                                        TaskScheduler::Engine::AiCore, TaskScheduler::Engine::AiCpu};
  const char* names[] = {"plus_one", "ArgMax", "plus_one_again", "TopK"};
  for (size_t i = 0; i < 4; ++i) {
    const auto& t = h[before + i];
    EXPECT_EQ(t.engine, want[i]) << i;
    EXPECT_EQ(t.name, names[i]);
    EXPECT_GT(t.end, t.start) << names[i];
    if (i > 0) {
      EXPECT_GE(t.start, h[before + i - 1].end) << names[i] << " starts after " << names[i - 1] << " ends";
    }
  }
  // Status registers and statistics.
  EXPECT_EQ(ts.register_value(0x10), uint32_t(h.size()));
  EXPECT_EQ(ts.register_value(0x14), 1u) << "the last task ran on the AI CPU";
  EXPECT_EQ(ts.register_value(0x18), uint32_t(cpu_tasks0 + 2));
  EXPECT_EQ(ts.register_value(0x1C), 1u);
  EXPECT_EQ(ts.register_value(0x20), 0u) << "idle after the launch";
  EXPECT_EQ(npuvp::Stats::global().value("task_scheduler.aicpu_tasks"), cpu_tasks0 + 2);
  EXPECT_EQ(npuvp::Stats::global().value("task_scheduler.aicore_tasks"), core_tasks0 + 2);
}

TEST(AicpuStreamTest, EachAiCpuCoreIsItsOwnRingRequester) {
  Device::configure("ascend310p", {"aicpu.launch_overhead_us=0"});
  auto& dev = Device::instance();
  const unsigned cores = dev.soc().aicpu().ai_cores();
  ASSERT_GE(cores, 4u);
  const int64_t rows = 4, n = 8192;
  auto* gx = static_cast<float*>(dev.malloc(size_t(rows * n) * 4));
  auto* gi = static_cast<int64_t*>(dev.malloc(size_t(rows) * 8));
  std::memset(gx, 0, size_t(rows * n) * 4);
  std::vector<uint64_t> before(cores);
  for (unsigned c = 0; c < cores; ++c) before[c] = npuvp::Stats::global().value("ring.aicpu" + std::to_string(c) + ".transactions");
  dev.launch_aicpu("ArgMax", AicpuArgs{{addr(gx), addr(gi)}, {rows, n}, {}}, 4);  // block b on core b
  for (unsigned c = 0; c < cores; ++c) {
    const uint64_t t = npuvp::Stats::global().value("ring.aicpu" + std::to_string(c) + ".transactions") - before[c];
    if (c < 4) {
      // Its rows' lines: n * 4 B / 64 B each, over its own port.
      EXPECT_GE(t, uint64_t(n * 4 / 64)) << "core " << c;
    } else {
      EXPECT_EQ(t, 0u) << "core " << c << " ran no block";
    }
  }
}

}  // namespace aicpu_stream_test
