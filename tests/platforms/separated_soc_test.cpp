// Separated (910B) and 310P platforms: core kinds, the task scheduler (kernel types, block
// dispatch, status registers) and the cross-core flags. Small chips (platform.cores=2: two
// AI Cores = aic0, aic1 and aiv0..aiv3) keep the tests fast.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>
#include "kernel_operator.h"
#include "platforms/ascend_soc.h"
#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_reference.h"
#include "tests/support/bits.h"
#include "tests/support/device_fixture.h"
#include "tests/support/kernel_data.h"

namespace separated_soc_test {

using namespace AscendC;
using npuvp::Device;
using npuvp::LaunchOptions;
using npuvp::aicore::CoreKind;
using npuvp::aicore::KernelType;
using npuvp::soc::TaskScheduler;

Device& small_910b(std::vector<std::string> overrides = {}) {
  overrides.insert(overrides.begin(), "platform.cores=2");
  return npuvp::testing::make_device(overrides, "ascend910b");
}

LaunchOptions of_type(KernelType type) {
  LaunchOptions o;
  o.kernel_type = type;
  return o;
}

std::string launch_error(Device& dev, uint32_t blocks, KernelType type, std::function<void()> body) {
  try {
    dev.launch("test_kernel", blocks, std::move(body), of_type(type));
  } catch (const std::exception& e) {
    return npuvp::error_text(e);
  }
  return {};
}

using npuvp::testing::IsCoreError;

uint32_t status_register(npuvp::platform::AscendSoc& soc, uint64_t offset, unsigned* read = nullptr) {
  tlm::tlm_generic_payload tx;
  uint32_t value = 0xFFFFFFFFu;
  tx.set_command(tlm::TLM_READ_COMMAND);
  tx.set_address(offset);
  tx.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  tx.set_data_length(4);
  const unsigned n = soc.scheduler().status_socket.get_base_interface().transport_dbg(tx);
  if (read) *read = n;
  return value;
}

uint64_t core_register(unsigned core, uint64_t field) {
  return TaskScheduler::kCoreRegistersBase + TaskScheduler::kCoreRegistersStride * core + field;
}

// ---- composition ----

TEST(SeparatedSocTest, BuildsAicsAndAivsFromTheConfiguration) {
  auto& soc = small_910b().soc();
  ASSERT_TRUE(soc.separated());
  ASSERT_EQ(soc.num_cores(), 6u);
  const char* names[] = {"aic0", "aic1", "aiv0", "aiv1", "aiv2", "aiv3"};
  for (unsigned i = 0; i < 6; ++i) {
    EXPECT_STREQ(soc.core(i).basename(), names[i]);
    EXPECT_EQ(soc.core(i).id(), int(i));
    EXPECT_EQ(soc.core(i).core_kind(), i < 2 ? CoreKind::Aic : CoreKind::Aiv);
  }
  // AIC: L1, L0A/B/C, BT, FB and no UB; AIV: UB only (SPEC.md §1.2 sizes for 910B).
  using npuvp::aicore::MemSpace;
  EXPECT_EQ(soc.core(0).buffer(MemSpace::UB), nullptr);
  ASSERT_NE(soc.core(0).buffer(MemSpace::L1), nullptr);
  EXPECT_EQ(soc.core(0).buffer(MemSpace::L1)->size(), 512u * 1024);
  EXPECT_EQ(soc.core(0).buffer(MemSpace::L0C)->size(), 128u * 1024);
  EXPECT_EQ(soc.core(0).buffer(MemSpace::BT)->size(), 1024u);
  EXPECT_EQ(soc.core(0).buffer(MemSpace::FB)->size(), 7u * 1024);
  ASSERT_NE(soc.core(2).buffer(MemSpace::UB), nullptr);
  EXPECT_EQ(soc.core(2).buffer(MemSpace::UB)->size(), 192u * 1024);
  EXPECT_EQ(soc.core(2).buffer(MemSpace::L1), nullptr);
  using npuvp::aicore::Pipe;
  EXPECT_TRUE(soc.core(0).has_pipe(Pipe::FIX));
  EXPECT_FALSE(soc.core(0).has_pipe(Pipe::V));
  EXPECT_FALSE(soc.core(0).has_pipe(Pipe::MTE3));
  EXPECT_TRUE(soc.core(2).has_pipe(Pipe::V));
  EXPECT_FALSE(soc.core(2).has_pipe(Pipe::M));
  EXPECT_FALSE(soc.core(2).has_pipe(Pipe::MTE1));
  // Every core is a requester stop, beside 24 L2 slices and 4 memory controllers.
  EXPECT_EQ(soc.interconnect().topology().stops(), 6u + 24u + 4u);
  EXPECT_DOUBLE_EQ(soc.dram_peak_bytes_per_second(), 4 * 8 * 50e9);
}

TEST(SeparatedSocTest, FullAscend910bHas24AicAnd48Aiv) {
  auto& soc = npuvp::testing::make_device({}, "ascend910b").soc();
  ASSERT_EQ(soc.num_cores(), 72u);
  EXPECT_STREQ(soc.core(23).basename(), "aic23");
  EXPECT_STREQ(soc.core(71).basename(), "aiv47");
  EXPECT_DOUBLE_EQ(soc.core(0).params().clock_mhz, 1800);
  EXPECT_NEAR(soc.peak_flops(), 24 * 4096.0 * 2 * 1.8e9, 1e6);
}

TEST(SeparatedSocTest, Ascend310pHasAiCoresAndVectorCores) {
  auto& dev = npuvp::testing::make_device({}, "ascend310p");
  auto& soc = dev.soc();
  ASSERT_FALSE(soc.separated());
  ASSERT_EQ(soc.num_cores(), 15u);
  EXPECT_EQ(soc.core(7).core_kind(), CoreKind::Coupled);
  EXPECT_EQ(soc.core(8).core_kind(), CoreKind::Aiv);
  EXPECT_STREQ(soc.core(8).basename(), "vcore0");
  EXPECT_EQ(soc.core(8).buffer(npuvp::aicore::MemSpace::L1), nullptr);
  // An AIV-only kernel runs on the AI Cores and the Vector Cores; a vector core has no cube.
  std::vector<int> runs(15, 0);
  dev.launch("where", 15, [&] { ++runs.at(size_t(npuvp::ascendc::core().id())); }, of_type(KernelType::AivOnly));
  EXPECT_EQ(runs, std::vector<int>(15, 1));
  std::vector<int> cube_runs(15, 0);
  dev.launch("where", 15, [&] { ++cube_runs.at(size_t(npuvp::ascendc::core().id())); });
  EXPECT_EQ(std::accumulate(cube_runs.begin(), cube_runs.begin() + 8, 0), 15);
  EXPECT_EQ(std::count(cube_runs.begin() + 8, cube_runs.end(), 0), 7) << "a default kernel ran on a Vector Core";
}

// ---- what a kind lacks ----

TEST(SeparatedSocTest, CubePipeOnAnAivIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AivOnly, [] { PipeBarrier<PIPE_M>(); }),
              IsCoreError("aiv0", "PipeBarrier<PIPE_M>", "an aiv core (ascend910b) has no M pipe"));
}

TEST(SeparatedSocTest, VectorPipeOnAnAicIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AicOnly, [] { PipeBarrier<PIPE_V>(); }),
              IsCoreError("aic0", "PipeBarrier<PIPE_V>", "an aic core (ascend910b) has no V pipe"));
}

TEST(SeparatedSocTest, FlagToAPipeTheCoreLacksIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AivOnly, [] { SetFlag<HardEvent::MTE2_MTE1>(0); }),
              IsCoreError("aiv0", "SetFlag<MTE2_MTE1>(0)", "an aiv core (ascend910b) has no MTE1 pipe"));
}

TEST(SeparatedSocTest, UbOnAnAicIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AicOnly,
                           [] {
                             TPipe pipe;
                             TQue<TPosition::VECIN, 1> q;
                             pipe.InitBuffer(q, 1, 1024);
                           }),
              IsCoreError("aic0", "TPipe::InitBuffer", "this aic core (ascend910b) has no UB for position VECIN"));
}

TEST(SeparatedSocTest, L1OnAnAivIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AivOnly,
                           [] {
                             TPipe pipe;
                             TQue<TPosition::A1, 1> q;
                             pipe.InitBuffer(q, 1, 1024);
                           }),
              IsCoreError("aiv0", "TPipe::InitBuffer", "this aiv core (ascend910b) has no L1 for position A1"));
}

// ---- the task scheduler ----

TEST(TaskSchedulerTest, BlockDimZeroIsAnError) {
  auto& dev = small_910b();
  const std::string e = npuvp::testing::kernel_error(dev, 0, [] {});
  EXPECT_NE(e.find("soc.task_scheduler"), std::string::npos) << e;
  EXPECT_NE(e.find("blockDim 0 out of range [1, 65535]"), std::string::npos) << e;
}

TEST(TaskSchedulerTest, BlockDim65536IsAnError) {
  auto& dev = small_910b();
  const std::string e = npuvp::testing::kernel_error(dev, 65536, [] {});
  EXPECT_NE(e.find("blockDim 65536 out of range [1, 65535]"), std::string::npos) << e;
}

TEST(TaskSchedulerTest, HundredBlocksRunOnceEachOnFourAivs) {
  auto& dev = small_910b();
  std::vector<int> runs(100, 0);
  std::vector<int> on_core(6, 0);
  dev.launch("count", 100, [&] {
    const int64_t b = GetBlockIdx();
    ++runs.at(size_t(b));
    ++on_core.at(size_t(npuvp::ascendc::core().id()));
    PipeBarrier<PIPE_V>();  // some time on a pipe
  });
  EXPECT_EQ(dev.last_run().kernel_type, KernelType::AivOnly);  // the default on a separated chip
  EXPECT_EQ(runs, std::vector<int>(100, 1));
  EXPECT_EQ(on_core[0] + on_core[1], 0) << "an AIC ran a block of an AIV kernel";
  for (int c = 2; c < 6; ++c) EXPECT_GT(on_core[size_t(c)], 0) << "aiv" << c - 2 << " got no block";
  EXPECT_EQ(on_core[2] + on_core[3] + on_core[4] + on_core[5], 100);
}

TEST(TaskSchedulerTest, MixedBlocksRunOnAnAicAndItsTwoAivs) {
  auto& dev = small_910b();
  struct Seen {
    int core;
    int64_t block, sub, sub_num, ration;
  };
  std::vector<Seen> seen;
  dev.launch(
      "mix", 7,
      [&] {
        seen.push_back({npuvp::ascendc::core().id(), GetBlockIdx(), GetSubBlockIdx(), GetSubBlockNum(),
                        GetTaskRation()});
      },
      of_type(KernelType::Mix1To2));
  ASSERT_EQ(seen.size(), 21u);
  std::vector<int> aic_blocks(7, 0), aiv_blocks(14, 0);
  for (const Seen& s : seen) {
    EXPECT_EQ(s.sub_num, 2);
    if (s.core < 2) {
      EXPECT_EQ(s.ration, 1);
      EXPECT_EQ(s.sub, 0);
      ++aic_blocks.at(size_t(s.block));
    } else {
      // aiv j belongs to AI Core j / 2 with sub-block j % 2; its block id is 2 * block + sub.
      EXPECT_EQ(s.ration, 2);
      EXPECT_EQ(s.sub, (s.core - 2) % 2);
      EXPECT_EQ(s.block % 2, s.sub);
      ++aiv_blocks.at(size_t(s.block));
    }
  }
  EXPECT_EQ(aic_blocks, std::vector<int>(7, 1));
  EXPECT_EQ(aiv_blocks, std::vector<int>(14, 1));
}

TEST(TaskSchedulerTest, KernelTaskTypeDefaultSetsTheKernelType) {
  auto& dev = small_910b();
  std::vector<int> on_core(6, 0);
  dev.launch("declared", 2, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    ++on_core.at(size_t(npuvp::ascendc::core().id()));
  });
  EXPECT_EQ(dev.last_run().kernel_type, KernelType::Mix1To2);
  EXPECT_EQ(on_core, std::vector<int>(6, 1));
  dev.launch("declared_aic", 3, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    EXPECT_TRUE(ASCEND_IS_AIC);
    EXPECT_FALSE(ASCEND_IS_AIV);
    ++on_core.at(size_t(npuvp::ascendc::core().id()));
  });
  EXPECT_EQ(dev.last_run().kernel_type, KernelType::AicOnly);
  EXPECT_EQ(on_core[0] + on_core[1], 2 + 3);
  EXPECT_EQ(on_core[2] + on_core[3] + on_core[4] + on_core[5], 4);
}

TEST(TaskSchedulerTest, DeclaredTypeThatContradictsTheLaunchIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AivOnly, [] { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); }),
              IsCoreError("aiv0", "KERNEL_TASK_TYPE_DEFAULT",
                          "declares KERNEL_TYPE_AIC_ONLY but was launched as KERNEL_TYPE_AIV_ONLY"));
}

TEST(TaskSchedulerTest, UnmodelledKernelTypeIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(npuvp::testing::kernel_error(dev, 1, [] { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1); }),
              IsCoreError("aiv0", "KERNEL_TASK_TYPE_DEFAULT", "kernel type 4 is not modelled"));
}

TEST(TaskSchedulerTest, StatusRegistersShowEachCore) {
  auto& dev = small_910b();
  auto& soc = dev.soc();
  dev.launch("six", 6, [] { PipeBarrier<PIPE_V>(); }, of_type(KernelType::AivOnly));
  EXPECT_EQ(status_register(soc, 0x0), 6u);  // cores
  EXPECT_EQ(status_register(soc, 0x4), 6u);  // blockDim
  EXPECT_EQ(status_register(soc, 0x8), 6u);  // blocks finished
  EXPECT_EQ(status_register(soc, 0xC), uint32_t(KernelType::AivOnly));
  uint32_t blocks = 0;
  for (unsigned c = 0; c < 6; ++c) {
    EXPECT_EQ(status_register(soc, core_register(c, 0x00)), c);
    EXPECT_EQ(status_register(soc, core_register(c, 0x04)), c < 2 ? 1u : 2u);  // kind: AIC 1, AIV 2
    EXPECT_EQ(status_register(soc, core_register(c, 0x08)), 0u);              // idle
    EXPECT_EQ(status_register(soc, core_register(c, 0x0C)), 0u);              // no error
    blocks += status_register(soc, core_register(c, 0x14));
  }
  EXPECT_EQ(status_register(soc, core_register(0, 0x14)), 0u);
  EXPECT_EQ(blocks, 6u);
  unsigned read = 99;
  status_register(soc, core_register(6, 0x00), &read);
  EXPECT_EQ(read, 0u) << "a register past the last core answered";
  // Through b_transport as well: reads answer, writes are refused (the registers are read-only).
  tlm::tlm_generic_payload tx;
  uint32_t value = 0;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  tx.set_address(core_register(5, 0x00));
  tx.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
  tx.set_data_length(4);
  tx.set_command(tlm::TLM_READ_COMMAND);
  soc.scheduler().status_socket.get_base_interface().b_transport(tx, delay);
  EXPECT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(value, 5u);
  tx.set_command(tlm::TLM_WRITE_COMMAND);
  soc.scheduler().status_socket.get_base_interface().b_transport(tx, delay);
  EXPECT_EQ(tx.get_response_status(), tlm::TLM_COMMAND_ERROR_RESPONSE);

  // A failing block: its core shows the error state, code and block.
  const std::string e = launch_error(dev, 2, KernelType::AivOnly, [] {
    if (GetBlockIdx() == 1) PipeBarrier<PIPE_M>();
  });
  EXPECT_THAT(e, IsCoreError("aiv1", "PipeBarrier<PIPE_M>", "no M pipe"));
  EXPECT_EQ(status_register(soc, core_register(3, 0x08)), uint32_t(TaskScheduler::CoreState::Error));
  EXPECT_EQ(status_register(soc, core_register(3, 0x0C)), npuvp::aicore::AiCore::kErrorInstruction);
  EXPECT_EQ(status_register(soc, core_register(3, 0x10)), 1u);
  EXPECT_EQ(status_register(soc, core_register(2, 0x0C)), 0u);
}

// ---- kernels ----

// z = x + y over f32, each block its slice of kBlockLength elements.
constexpr int32_t kBlockLength = 1024;

void vector_add_block(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  GlobalTensor<float> xGm, yGm, zGm;
  const int64_t offset = int64_t(kBlockLength) * GetBlockIdx();
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset, kBlockLength);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + offset, kBlockLength);
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset, kBlockLength);
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bz;
  pipe.InitBuffer(bx, kBlockLength * sizeof(float));
  pipe.InitBuffer(by, kBlockLength * sizeof(float));
  pipe.InitBuffer(bz, kBlockLength * sizeof(float));
  LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), lz = bz.Get<float>();
  DataCopy(lx, xGm, kBlockLength);
  DataCopy(ly, yGm, kBlockLength);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  Add(lz, lx, ly, kBlockLength);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(zGm, lz, kBlockLength);
}

TEST(SeparatedKernelTest, VectorAddOverEveryAivMatchesTheReference) {
  auto& dev = small_910b();
  const size_t n = size_t(4) * kBlockLength;
  auto x = npuvp::testing::random_vector<float>(n, 1);
  auto y = npuvp::testing::random_vector<float>(n, 2);
  float *gx = npuvp::testing::to_gm(x), *gy = npuvp::testing::to_gm(y);
  float* gz = npuvp::testing::to_gm(std::vector<float>(n, 0.0f));
  dev.launch("vector_add", 4, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    vector_add_block(reinterpret_cast<GM_ADDR>(gx), reinterpret_cast<GM_ADDR>(gy), reinterpret_cast<GM_ADDR>(gz));
  });
  for (size_t i = 0; i < n; ++i) {
    const float want = x[i] + y[i];
    ASSERT_EQ(npuvp::testing::fbits(gz[i]), npuvp::testing::fbits(want)) << "element " << i;
  }
  for (unsigned c = 2; c < 6; ++c) {
    const std::string core = dev.soc().core(c).basename();
    EXPECT_EQ(npuvp::Stats::global().value(core + ".blocks"), 1u);
    // The L2 names each AIV as the rest of the stats do.
    EXPECT_GT(npuvp::Stats::global().value("l2.by_initiator." + core + ".hits") +
                  npuvp::Stats::global().value("l2.by_initiator." + core + ".misses"),
              0u)
        << core;
  }
}

// The flash-attention structure in miniature: each AIC computes one 128-column panel of
// C = A x B (cube + Fixpipe to a GM workspace) and tells its AIVs (mode 2); each AIV takes
// half the panel's rows, adds 1 and writes the result, then tells the AIC (mode 2), which
// reads back the first element it finished and stores it in `echo`.
TEST(SeparatedKernelTest, AicTileFinishedByItsAivsThroughCrossCoreFlags) {
  auto& dev = small_910b();
  constexpr uint32_t M = 32, N = 256, K = 32, kPanel = 128;
  auto a = npuvp::testing::random_vector<half>(size_t(M) * K, 3, -2, 2);
  auto b = npuvp::testing::random_vector<half>(size_t(K) * N, 4, -2, 2);
  half *ga = npuvp::testing::to_gm(a), *gb = npuvp::testing::to_gm(b);
  float* gc = npuvp::testing::to_gm(std::vector<float>(size_t(M) * N, 0.0f));
  float* gout = npuvp::testing::to_gm(std::vector<float>(size_t(M) * N, 0.0f));
  float* gecho = npuvp::testing::to_gm(std::vector<float>(64, 0.0f));
  dev.launch(
      "mix_epilogue", 2,
      [&] {
        if (ASCEND_IS_AIC) {
          npuvp::kernels::matmul_a2<float>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                           reinterpret_cast<GM_ADDR>(gc), {M, N, K});
          CrossCoreSetFlag<2, PIPE_FIX>(1);
          CrossCoreWaitFlag(2);
          GlobalTensor<float> out, echo;
          out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gout), uint64_t(M) * N);
          echo.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gecho), 64);
          echo.SetValue(uint64_t(GetBlockIdx()), out.GetValue(uint64_t(GetBlockIdx()) * kPanel));
        }
        if (ASCEND_IS_AIV) {
          const uint32_t panel = uint32_t(GetBlockIdx() / GetTaskRation());
          const uint32_t rows = M / uint32_t(GetSubBlockNum());
          const uint64_t first = uint64_t(GetSubBlockIdx()) * rows * N + uint64_t(panel) * kPanel;
          GlobalTensor<float> c, out;
          c.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gc) + first, uint64_t(rows) * N);
          out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gout) + first, uint64_t(rows) * N);
          TPipe pipe;
          TBuf<TPosition::VECCALC> buf;
          pipe.InitBuffer(buf, rows * kPanel * sizeof(float));
          LocalTensor<float> t = buf.Get<float>();
          // rows blocks of one panel row each; the gap skips the other panel's columns.
          const DataCopyParams strided(uint16_t(rows), kPanel * 4 / 32, (N - kPanel) * 4 / 32, 0);
          const DataCopyParams back(uint16_t(rows), kPanel * 4 / 32, 0, (N - kPanel) * 4 / 32);
          CrossCoreWaitFlag(1);
          DataCopy(t, c, strided);
          SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
          WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
          Adds(t, t, 1.0f, int32_t(rows * kPanel));
          if (GetSubBlockIdx() == 0) {  // sub-block 0 (whose row the AIC echoes) finishes late
            for (int i = 0; i < 2000; ++i) PipeBarrier<PIPE_V>();
          }
          SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
          WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
          DataCopy(out, t, back);
          CrossCoreSetFlag<2, PIPE_MTE3>(2);
        }
      },
      of_type(KernelType::Mix1To2));
  const std::vector<float> c_ref = npuvp::kernels::matmul_reference(a, b, M, N, K);
  for (size_t i = 0; i < c_ref.size(); ++i) {
    ASSERT_EQ(npuvp::testing::fbits(gc[i]), npuvp::testing::fbits(c_ref[i])) << "C element " << i;
    const float want = c_ref[i] + 1.0f;
    ASSERT_EQ(npuvp::testing::fbits(gout[i]), npuvp::testing::fbits(want)) << "result element " << i;
  }
  // Each AIC saw its AIVs' result only after both had set the flag.
  for (uint32_t p = 0; p < 2; ++p) {
    EXPECT_EQ(npuvp::testing::fbits(gecho[p]), npuvp::testing::fbits(c_ref[p * kPanel] + 1.0f)) << "panel " << p;
  }
}

// A cube kernel over every AIC: the matmul shares C by 128-column panels, one per block.
TEST(SeparatedKernelTest, MatmulOverEveryAicMatchesTheReference) {
  auto& dev = npuvp::testing::make_device({"platform.cores=4"}, "ascend910b");
  constexpr uint32_t M = 48, N = 512, K = 40;
  auto a = npuvp::testing::random_vector<half>(size_t(M) * K, 5, -2, 2);
  auto b = npuvp::testing::random_vector<half>(size_t(K) * N, 6, -2, 2);
  half *ga = npuvp::testing::to_gm(a), *gb = npuvp::testing::to_gm(b);
  float* gc = npuvp::testing::to_gm(std::vector<float>(size_t(M) * N, 0.0f));
  dev.launch("matmul", 4, [&] {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    npuvp::kernels::matmul_a2<float>(reinterpret_cast<GM_ADDR>(ga), reinterpret_cast<GM_ADDR>(gb),
                                     reinterpret_cast<GM_ADDR>(gc), {M, N, K});
  });
  const std::vector<float> want = npuvp::kernels::matmul_reference(a, b, M, N, K);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(npuvp::testing::fbits(gc[i]), npuvp::testing::fbits(want[i])) << "element " << i;
  }
  for (unsigned c = 0; c < 4; ++c) {
    const std::string core = dev.soc().core(c).basename();
    EXPECT_EQ(npuvp::Stats::global().value(core + ".blocks"), 1u) << core;
    EXPECT_EQ(npuvp::Stats::global().value(core + ".M.macs"), uint64_t(M) * 128 * K) << core;
  }
}

// Each AIV writes its value to GM through MTE3 and sets a flag; after the wait it reads what
// its partners wrote. Without the flag the partner's slot would still be 0.
void write_slot_then_sync(float* slots, uint32_t value, int mode) {
  GlobalTensor<float> slot;
  slot.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(slots) + 8 * GetBlockIdx(), 8);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, float(value), 8);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(slot, t, 8);
  if (mode == 0) CrossCoreSetFlag<0, PIPE_MTE3>(5);
  if (mode == 1) CrossCoreSetFlag<1, PIPE_MTE3>(5);
  CrossCoreWaitFlag(5);
}

TEST(CrossCoreFlagTest, Mode1SynchronisesTheAivsOfOneAiCore) {
  auto& dev = small_910b();
  float* slots = npuvp::testing::to_gm(std::vector<float>(4 * 8, 0.0f));
  float* seen = npuvp::testing::to_gm(std::vector<float>(4, -1.0f));
  dev.launch("mode1", 4, [&] {
    const uint32_t b = uint32_t(GetBlockIdx());
    if (b % 2 == 1) {  // the second AIV of each AI Core is late by far more than a GM write takes
      for (int i = 0; i < 2000; ++i) PipeBarrier<PIPE_V>();
    }
    write_slot_then_sync(slots, b + 1, 1);
    GlobalTensor<float> all, out;
    all.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(slots), 32);
    out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(seen), 4);
    out.SetValue(b, all.GetValue(8 * (b ^ 1)));  // the other AIV of this AI Core
  });
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(seen[b], float((b ^ 1) + 1)) << "aiv" << b;
}

TEST(CrossCoreFlagTest, Mode0SynchronisesEveryAivOfTheLaunch) {
  auto& dev = small_910b();
  float* slots = npuvp::testing::to_gm(std::vector<float>(4 * 8, 0.0f));
  float* sums = npuvp::testing::to_gm(std::vector<float>(4, -1.0f));
  dev.launch("mode0", 4, [&] {
    const uint32_t b = uint32_t(GetBlockIdx());
    if (b == 3) {  // one AIV is late by far more than a GM write takes
      for (int i = 0; i < 2000; ++i) PipeBarrier<PIPE_V>();
    }
    write_slot_then_sync(slots, b + 1, 0);
    GlobalTensor<float> all, out;
    all.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(slots), 32);
    out.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(sums), 4);
    float sum = 0;
    for (uint32_t i = 0; i < 4; ++i) sum += all.GetValue(8 * i);
    out.SetValue(b, sum);
  });
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(sums[b], 1.0f + 2.0f + 3.0f + 4.0f) << "aiv" << b;
}

TEST(CrossCoreFlagTest, CounterOverflowIsAnError) {
  auto& dev = small_910b();
  const std::string e = launch_error(dev, 1, KernelType::Mix1To2, [] {
    if (ASCEND_IS_AIC) {
      for (int i = 0; i < 17; ++i) CrossCoreSetFlag<2, PIPE_FIX>(0);  // the AIVs never wait
    }
  });
  EXPECT_THAT(e, IsCoreError("aic0", "CrossCoreSetFlag<2, PIPE_FIX>(0)",
                             "the flag 0 counter of soc.aiv0 is already at its limit of 16 pending sets"));
}

TEST(CrossCoreFlagTest, FlagIdOutOfRangeIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AivOnly, [] { CrossCoreSetFlag<1, PIPE_MTE3>(11); }),
              IsCoreError("aiv0", "CrossCoreSetFlag<1, PIPE_MTE3>(11)", "flag id 11 out of range [0, 10]"));
}

TEST(CrossCoreFlagTest, WaitOnAnOutOfRangeIdIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AivOnly, [] { CrossCoreWaitFlag(16); }),
              IsCoreError("aiv0", "CrossCoreWaitFlag<0, PIPE_S>(16)", "flag id 16 out of range [0, 10]"));
}

TEST(CrossCoreFlagTest, ModeOutOfRangeIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AivOnly, [] { CrossCoreSetFlag<3, PIPE_MTE3>(0); }),
              IsCoreError("aiv0", "CrossCoreSetFlag<3, PIPE_MTE3>(0)", "mode 3 out of range [0, 2]"));
}

TEST(CrossCoreFlagTest, Mode2WithoutTheAicInTheLaunchIsAnError) {
  auto& dev = small_910b();
  EXPECT_THAT(launch_error(dev, 1, KernelType::AivOnly, [] { CrossCoreSetFlag<2, PIPE_MTE3>(0); }),
              IsCoreError("aiv0", "CrossCoreSetFlag<2, PIPE_MTE3>(0)", "mode 2 needs the AIC of AI Core 0"));
}

TEST(CrossCoreFlagTest, CrossCoreFlagOnACoupledCoreIsAnError) {
  auto& dev = npuvp::testing::make_device({"platform.cores=1"});
  EXPECT_THAT(npuvp::testing::kernel_error(dev, 1, [] { CrossCoreSetFlag<0, PIPE_MTE3>(0); }),
              npuvp::testing::IsKernelError("CrossCoreSetFlag<0, PIPE_MTE3>(0)",
                                            "cross-core flags exist only on separated AIC/AIV cores"));
}

TEST(CrossCoreFlagTest, WaitWithoutASetIsReportedAsADeadlock) {
  auto& dev = small_910b();
  const std::string e = launch_error(dev, 1, KernelType::Mix1To2, [] {
    if (ASCEND_IS_AIV) CrossCoreWaitFlag(4);
  });
  EXPECT_NE(e.find("deadlock: kernel 'test_kernel' stalled with 0 of 1 blocks finished"), std::string::npos) << e;
  EXPECT_NE(e.find("aiv0: S blocked in CrossCoreWaitFlag<0, PIPE_S>(4)"), std::string::npos) << e;
  EXPECT_NE(e.find("aiv1: S blocked in CrossCoreWaitFlag<0, PIPE_S>(4)"), std::string::npos) << e;
  EXPECT_EQ(status_register(dev.soc(), core_register(2, 0x0C)), npuvp::aicore::AiCore::kErrorDeadlock);
  EXPECT_EQ(status_register(dev.soc(), core_register(0, 0x08)), uint32_t(TaskScheduler::CoreState::Idle));
}

TEST(CrossCoreFlagTest, WaitInAPipeBlocksThatPipe) {
  auto& dev = small_910b();
  const std::string e = launch_error(dev, 1, KernelType::Mix1To2, [] {
    if (ASCEND_IS_AIV) CrossCoreWaitFlag<2, PIPE_MTE2>(6);
  });
  EXPECT_NE(e.find("aiv0: S waiting in PipeBarrier<PIPE_ALL>"), std::string::npos) << e;
  EXPECT_NE(e.find("MTE2 running CrossCoreWaitFlag<2, PIPE_MTE2>(6)"), std::string::npos) << e;
}

}  // namespace separated_soc_test
