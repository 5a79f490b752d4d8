// The high-level Matmul's engine (sw/ascendc/lib/matmul/matmul.h): the cube instructions a
// kernel would issue by hand, in the order a hand-written A2 matmul issues them
// (sw/kernels/matmul.cpp), driven by the host's TCubeTiling.
//
// Per C block (baseM x baseN, accumulated in L0C over singleCoreK):
//   MTE2  A and B to L1, stepKa (MDL; NORM: 1) K steps of baseK per load, ND -> NZ, each
//         operand as the rows it is stored in (so a transposed operand is one Nd2Nz too);
//   MTE1  per K step, L1 -> L0A (ZZ) and L0B (ZN), transposing fractals where the stored
//         orientation needs it (A stored K x M, B stored K x N);
//   M     Mmad, the first K step from zero or from the bias in the BiasTable;
//   FIX   on GetTensorC: L0C -> GM (ND, row pitch N), converting f32 to C's type.
// TQues at every level (two buffers each) give the implicit flags, so MTE2 fetches the next
// L1 block while the cube computes and FixPipe drains one L0C block while the next
// accumulates (two L0C blocks when the tiling's dbL0C is 2).
//
// Layouts: Nd2Nz of a rows x cols block writes fractal (r1, c1) at (c1 * R1 + r1), R1 the row
// fractals. L0A wants A's (m1, k1) at m1 * K1 + k1 with rows m; L0B wants (k1, n1) at
// k1 * N1 + n1 holding B's fractal transposed (rows n). Hence per K step:
//   A as M x K: one LoadData per row of fractals (stride M1);
//   A as K x M: one transposing LoadData per row of fractals (stride 1);
//   B as K x N: one transposing LoadData per k1 row (stride K1 of the L1 block);
//   B as N x K: one LoadData for the whole step (the fractals are in place).
// The engine itself is no kernel file: it does not mark the CPU-debug launches mixed.
#define NPUVP_MATMUL_ENGINE_SOURCE
#include "sw/ascendc/lib/matmul_intf.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "sw/ascendc/scalar_wait.h"
#include "sw/runtime/device.h"
#include "models/check/sanitizer.h"
#include "models/aicore/kernel_body_return.h"
#include "models/aicore/isa_types.h"
#include "models/aicore/kernel_type.h"
#include "models/aicore/product.h"
#include "sw/ascendc/ascendc/broadcast_mm.h"

namespace npuvp::ascendc {

using namespace AscendC;
using aicore::DType;

namespace {
constexpr uint32_t kFractal = 16;
constexpr uint32_t kFractalBytes = 512;
uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
uint32_t round_up(uint32_t a, uint32_t b) { return ceil_div(a, b) * b; }
CopyEnd offset(CopyEnd e, uint64_t bytes) { return {e.space, e.addr + bytes}; }
template <class T>
CopyEnd end_at(const LocalTensor<T>& t) { return end_of(t); }
}  // namespace

struct MatmulEngine::State {
  TCubeTiling t{};
  bool ready = false;
  Types types{};
  std::unique_ptr<TPipe> own_pipe;
  TPipe* pipe = nullptr;
  uint32_t a_size = 2, k0 = 16;  // bytes per A element, K elements per fractal row (32 B)
  // Shapes: the whole matrices (pitches), this core's part, the base block, the L1 K depth.
  uint32_t org_m = 0, org_n = 0, org_ka = 0, org_kb = 0;
  uint32_t single_m = 0, single_n = 0, single_k = 0;
  uint32_t base_m = 0, base_n = 0, base_k = 0, step_k = 1;
  CopyEnd a{}, b{}, bias{};
  bool a_set = false, b_set = false, a_trans = false, b_trans = false, has_bias = false;
  bool a_nz = false, b_nz = false, c_align = false;  // A / B stored NZ in GM; C ND_ALIGN
  // Iteration: the next block index and the block in L0C.
  uint32_t next = 0;
  // IterateAll only (the engine places every block itself): the round starts this many blocks
  // in, different per core, so cores do not all read the same A rows and B columns at once.
  uint32_t rot = 0;
  uint32_t issued = 0, consumed = 0;  // L1 loads (A and B blocks) issued and used this round
  bool pending = false;
  uint32_t cur_m0 = 0, cur_n0 = 0, cur_m = 0, cur_n = 0;
  LocalTensor<uint8_t> c;
  TQue<TPosition::A1, 2> qA1;
  TQue<TPosition::B1, 2> qB1;
  TQue<TPosition::A2, 2> qA2;
  TQue<TPosition::B2, 2> qB2;
  TQue<TPosition::CO1, 2> qCO1;
  TQue<TPosition::C1, 1> qBiasL1;
  TQue<TPosition::C2, 1> qBT;
  // The Atlas inference AI Core (310P, coupled): no Fixpipe and no BiasTable. C drains L0C ->
  // UB (matrix mode, V pipe) -> GM (MTE3, one DataCopy per 16-column band, NZ -> ND); the
  // bias goes GM -> UB and is broadcast into L0C (BroadCastVecToMM), so the Mmads accumulate
  // from it as on the A2.
  bool via_ub = false;
  TQue<TPosition::VECOUT, 2> qCO2;
  TQue<TPosition::VECIN, 1> qBiasUb;
  // The UB for those, taken at the first block: the kernel's SetLocalWorkspace tensor if it
  // gave one (then the bias and C take turns in it, ordered by PIPE_ALL barriers), else buffers
  // of the kernel's TPipe.
  bool ub_ready = false, use_ws = false;
  CopyEnd ws{};
  uint32_t ws_bytes = 0;
  // Mixed mode: an AIV's object is its AIC's client (no buffers of its own).
  bool client = false, ended = false;
  uint32_t group = 0, sub = 0;
};

MatmulEngine::MatmulEngine() = default;
namespace {
void send_end(MatmulEngine::State& s);
// The AIC's Matmul object that serves its AIVs, per core.
std::map<const void*, MatmulEngine*>& servers() {
  static std::map<const void*, MatmulEngine*> map;
  return map;
}
}  // namespace

MatmulEngine::~MatmulEngine() {
  // An AIV that leaves without End still releases its AIC (CANN: the client's destructor).
  if (s_ != nullptr && s_->client && !s_->ended && std::uncaught_exceptions() == 0 && aicore::AiCore::current()) {
    send_end(*s_);
  }
  for (auto it = servers().begin(); it != servers().end();) {
    it = it->second == this ? servers().erase(it) : std::next(it);
  }
  delete s_;
}

namespace {
[[noreturn]] void matmul_fail(const char* api, const std::string& why) {
  core().fail(fmt::format("Matmul::{}", api), why);
}
}  // namespace

void MatmulEngine::init(const TCubeTiling* tiling, TPipe* pipe, const Types& types) {
  const char* api = "Init";
  aicore::AiCore& c = core();
  if (tiling == nullptr) matmul_fail(api, "no tiling (REGIST_MATMUL_OBJ or Init needs the TCubeTiling)");
  if (s_ != nullptr && s_->ready) matmul_fail(api, "this Matmul object was already initialised");
  const bool mixed = c.kernel_type() == aicore::KernelType::Mix1To2 && !types.cube_only;
  if (c.core_kind() == aicore::CoreKind::Aiv && !mixed) {
    matmul_fail(api, fmt::format("{} has no cube: in a mixed kernel (KERNEL_TYPE_MIX_AIC_1_2, without "
                                 "ASCENDC_CUBE_ONLY) its calls go to its AIC; here the kernel is {}{}",
                                 c.kind_text(), aicore::kernel_type_name(c.kernel_type()),
                                 types.cube_only ? " with ASCENDC_CUBE_ONLY" : ""));
  }
  // asc-devkit docs/zh/api/SIMD-API/高阶API/矩阵计算/Matmul-Kernel侧接口 (Init, SetTensorA,
  // Iterate, GetTensorC, IterateAll): supported on the A2/A3 products and the Atlas inference
  // AI Core (310P); not on the Atlas training series (910).
  const bool via_ub = c.product() == aicore::Product::Ascend310P;
  if (!aicore::is_a2(c.product()) && !via_ub) {
    matmul_fail(api, fmt::format("the high-level Matmul is not supported on {} ({}): CANN documents it for the A2/A3 "
                                 "products and the Atlas inference AI Core (ascend310p), not the Atlas training series",
                                 aicore::product_name(c.product()), c.kind_text()));
  }
  const bool f16 = types.a == DType::F16 && types.b == DType::F16 && (types.c == DType::F32 || types.c == DType::F16);
  const bool s8 = types.a == DType::S8 && types.b == DType::S8 && types.c == DType::S32;
  if (!f16 && !s8) {
    matmul_fail(api, "the modelled types are A, B half with C float or half, and A, B int8_t with C int32_t");
  }
  if (types.bias != DType::F32 && types.bias != DType::S32) matmul_fail(api, "the bias type must be float (or int32_t)");
  // asc-devkit Matmul MatmulType page: A ND/NZ/VECTOR, B ND/NZ, C ND/NZ/ND_ALIGN on the A2.
  const auto nd = static_cast<int32_t>(CubeFormat::ND), nz = static_cast<int32_t>(CubeFormat::NZ);
  const auto nd_align = static_cast<int32_t>(CubeFormat::ND_ALIGN);
  if ((types.a_format != nd && types.a_format != nz) || (types.b_format != nd && types.b_format != nz)) {
    matmul_fail(api, "A and B are modelled in the ND and NZ formats (CubeFormat::VECTOR, ZN, ... are not)");
  }
  if ((types.a_format == nz || types.b_format == nz) && !f16) {
    matmul_fail(api, "NZ-format A or B is modelled for half operands only");
  }
  if (types.c_format != nd && types.c_format != nd_align) {
    matmul_fail(api, "C is modelled in the ND and ND_ALIGN formats (an NZ-format C is not)");
  }
  const TCubeTiling& t = *tiling;
  if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0 || t.baseM % 16 || t.baseN % 16 || t.singleCoreM <= 0 ||
      t.singleCoreN <= 0 || t.singleCoreK <= 0 || t.M <= 0 || t.N <= 0 || t.Ka <= 0) {
    matmul_fail(api, fmt::format("the tiling is not one GetTiling returns (M {} N {} Ka {} singleCore {}x{}x{} base "
                                 "{}x{}x{})",
                                 t.M, t.N, t.Ka, t.singleCoreM, t.singleCoreN, t.singleCoreK, t.baseM, t.baseN, t.baseK));
  }
  delete s_;
  s_ = new State();
  State& s = *s_;
  s.t = t;
  s.types = types;
  s.a_size = aicore::dtype_size(types.a);
  s.k0 = 32 / s.a_size;
  if (t.baseK % s.k0 != 0) matmul_fail(api, fmt::format("baseK {} is not a multiple of {}", t.baseK, s.k0));
  s.org_m = t.M, s.org_n = t.N, s.org_ka = t.Ka, s.org_kb = t.Kb > 0 ? t.Kb : t.Ka;
  s.single_m = t.singleCoreM, s.single_n = t.singleCoreN, s.single_k = t.singleCoreK;
  s.base_m = t.baseM, s.base_n = t.baseN, s.base_k = t.baseK;
  s.step_k = types.multi_data_load ? uint32_t(std::max(1, std::min(t.stepKa, t.stepKb))) : 1;
  s.has_bias = t.isBias != 0;
  s.via_ub = via_ub;
  s.a_nz = types.a_format == nz, s.b_nz = types.b_format == nz, s.c_align = types.c_format == nd_align;
  if (c.core_kind() == aicore::CoreKind::Aiv) {  // mixed: the client of its AIC
    s.client = true;
    s.sub = c.block().sub_block_idx;
    s.group = c.block().block_idx / std::max(1u, c.block().sub_block_num);
    s.ready = true;
    return;
  }
  if (mixed) {
    auto& registered = servers()[&c];
    if (registered != nullptr && registered != this) {
      matmul_fail(api, "one Matmul object per mixed kernel is modelled (its AIC serves one)");
    }
    registered = this;
    s.group = c.block_idx();
  }
  if (pipe == nullptr) {
    s.own_pipe = std::make_unique<TPipe>();
    pipe = s.own_pipe.get();
  }
  s.pipe = pipe;
  const uint32_t l1_k = s.step_k * s.base_k;
  pipe->InitBuffer(s.qA1, 2, s.base_m * l1_k * s.a_size);
  pipe->InitBuffer(s.qB1, 2, s.base_n * l1_k * s.a_size);
  pipe->InitBuffer(s.qA2, 2, s.base_m * s.base_k * s.a_size);
  pipe->InitBuffer(s.qB2, 2, s.base_n * s.base_k * s.a_size);
  pipe->InitBuffer(s.qCO1, t.dbL0C == 2 ? 2 : 1, s.base_m * s.base_n * 4);
  if (s.has_bias && !via_ub) {  // the tiling's isBias: SetBias needs the buffers the host counted
    pipe->InitBuffer(s.qBiasL1, 1, round_up(s.base_n, 16) * 4);
    pipe->InitBuffer(s.qBT, 1, round_up(s.base_n, 16) * 4);
  }
  s.ready = true;
}

namespace {
uint64_t c_block_bytes(const MatmulEngine::State& s) {
  return uint64_t(round_up(s.base_m, 16)) * round_up(s.base_n, 16) * aicore::dtype_size(s.types.c);
}

// The 310P's UB for the bias and C's drain (see State::ub_ready), at the first block.
void ensure_ub(MatmulEngine::State& s) {
  if (s.ub_ready) return;
  const uint64_t c_bytes = c_block_bytes(s);
  const uint64_t bias_bytes = s.has_bias ? round_up(s.base_n, 16) * 4 : 0;
  if (s.ws_bytes > 0) {
    if (s.ws_bytes < c_bytes || s.ws_bytes < bias_bytes) {
      matmul_fail("SetLocalWorkspace", fmt::format("the workspace holds {} B; C's {}x{} block needs {} B",
                                                   s.ws_bytes, s.base_m, s.base_n, c_bytes));
    }
    s.use_ws = true;
  } else {
    if (s.has_bias) s.pipe->InitBuffer(s.qBiasUb, 1, static_cast<uint32_t>(bias_bytes));
    // C's drain buffers in UB: two when they fit beside what the kernel took, so V drains one
    // block while MTE3 writes the other.
    const uint64_t free = s.pipe->FreeBytes(TPosition::VECOUT);
    if (c_bytes > free) {
      matmul_fail("Iterate", fmt::format("C's {}x{} block ({} B) does not fit the {} B of UB left for the L0C -> UB "
                                         "drain (SetLocalWorkspace can lend it)",
                                         s.base_m, s.base_n, c_bytes, free));
    }
    s.pipe->InitBuffer(s.qCO2, 2 * c_bytes <= free ? 2 : 1, static_cast<uint32_t>(c_bytes));
  }
  s.ub_ready = true;
}

LocalTensor<uint8_t> ws_tensor(const MatmulEngine::State& s) {
  return LocalTensor<uint8_t>(TPosition::VECCALC, s.ws.addr, s.ws_bytes);
}
}  // namespace


namespace {
MatmulEngine::State& ready(MatmulEngine::State* s, const char* api) {
  if (s == nullptr || !s->ready) matmul_fail(api, "the Matmul object is not initialised (REGIST_MATMUL_OBJ or Init)");
  return *s;
}
// A new round of blocks: L1 loads prefetched for the old one are taken and dropped.
void restart(MatmulEngine::State& s) {
  for (; s.consumed < s.issued; ++s.consumed) {
    LocalTensor<uint8_t> a1 = s.qA1.DeQue<uint8_t>(), b1 = s.qB1.DeQue<uint8_t>();
    s.qA1.FreeTensor(a1);
    s.qB1.FreeTensor(b1);
  }
  s.next = s.issued = s.consumed = 0;
}
}  // namespace

void MatmulEngine::set_local_workspace(CopyEnd ub, uint32_t bytes) {
  State& s = ready(s_, "SetLocalWorkspace");
  if (!s.via_ub) return;  // only the 310P drains C through UB
  if (ub.space != aicore::MemSpace::UB) matmul_fail("SetLocalWorkspace", "the workspace is a UB tensor");
  if (s.ub_ready) matmul_fail("SetLocalWorkspace", "call it before the first Iterate / IterateAll");
  s.ws = ub;
  s.ws_bytes = bytes;
}

void MatmulEngine::set_org_shape(int m, int n, int ka, int kb) {
  State& s = ready(s_, "SetOrgShape");
  if (m <= 0 || n <= 0 || ka <= 0 || kb <= 0) matmul_fail("SetOrgShape", fmt::format("shape {} {} {} {}", m, n, ka, kb));
  s.org_m = m, s.org_n = n, s.org_ka = ka, s.org_kb = kb;
}

void MatmulEngine::set_single_shape(int m, int n, int k) {
  State& s = ready(s_, "SetSingleShape");
  if (m <= 0 || n <= 0 || k <= 0) matmul_fail("SetSingleShape", fmt::format("shape {} {} {}", m, n, k));
  s.single_m = m, s.single_n = n, s.single_k = k;
  restart(s);
}

void MatmulEngine::set_tail(int m, int n, int k) {
  State& s = ready(s_, "SetTail");
  // -1 keeps the tiling's value; 0 or less otherwise is a core with nothing to do, which the
  // kernel must not start (CANN's samples return before SetTail then).
  if (m > 0) s.single_m = m;
  if (n > 0) s.single_n = n;
  if (k > 0) s.single_k = k;
  if ((m == 0 || n == 0 || k == 0) || m < -1 || n < -1 || k < -1) {
    matmul_fail("SetTail", fmt::format("tail {} {} {}: each must be positive, or -1 for the tiling's", m, n, k));
  }
  restart(s);
}

void MatmulEngine::set_a(CopyEnd a, bool transpose) {
  State& s = ready(s_, "SetTensorA");
  if (a.space != aicore::MemSpace::GM) matmul_fail("SetTensorA", "A must be in GM (TPosition::GM) here");
  if (transpose && !s.types.a_trans_allowed) {
    matmul_fail("SetTensorA", "isTransposeA needs A's MatmulType to be declared with isTrans = true");
  }
  if (transpose && s.types.a == DType::S8) matmul_fail("SetTensorA", "a transposed int8 A is not modelled");
  s.a = a, s.a_trans = transpose, s.a_set = true;
  restart(s);
}

void MatmulEngine::set_b(CopyEnd b, bool transpose) {
  State& s = ready(s_, "SetTensorB");
  if (b.space != aicore::MemSpace::GM) matmul_fail("SetTensorB", "B must be in GM (TPosition::GM) here");
  if (transpose && !s.types.b_trans_allowed) {
    matmul_fail("SetTensorB", "isTransposeB needs B's MatmulType to be declared with isTrans = true");
  }
  if (!transpose && s.types.b == DType::S8) {
    matmul_fail("SetTensorB", "int8 B must be stored transposed (N x K, isTransposeB): an int8 fractal cannot be "
                              "transposed on the way to L0B");
  }
  s.b = b, s.b_trans = transpose, s.b_set = true;
  restart(s);
}

void MatmulEngine::set_bias(CopyEnd bias) {
  State& s = ready(s_, "SetBias");
  if (bias.space != aicore::MemSpace::GM) matmul_fail("SetBias", "the bias must be in GM here");
  if (s.t.isBias == 0) matmul_fail("SetBias", "the tiling has no bias (SetBias(true) on the host's tiling)");
  s.bias = bias, s.has_bias = true;
}

void MatmulEngine::disable_bias() { ready(s_, "DisableBias").has_bias = false; }

namespace {

struct Block {
  uint32_t m0, n0, m, n;
};

uint32_t tiles_m(const MatmulEngine::State& s) { return ceil_div(s.single_m, s.base_m); }
uint32_t tiles_n(const MatmulEngine::State& s) { return ceil_div(s.single_n, s.base_n); }
uint32_t l1_blocks(const MatmulEngine::State& s) { return ceil_div(s.single_k, s.step_k * s.base_k); }

// The index-th C block of the round (iterateOrder 0: along M first, then N; 1: along N first).
Block block_at(const MatmulEngine::State& s, uint32_t index) {
  const uint32_t tm = tiles_m(s), tn = tiles_n(s);
  if (s.rot != 0) index = (index + s.rot) % (tm * tn);
  const uint32_t mi = s.t.iterateOrder == 1 ? index / tn : index % tm;
  const uint32_t ni = s.t.iterateOrder == 1 ? index % tn : index / tm;
  const uint32_t m0 = mi * s.base_m, n0 = ni * s.base_n;
  return {m0, n0, std::min(s.base_m, s.single_m - m0), std::min(s.base_n, s.single_n - n0)};
}

// IterateAll's starting block for the `slot`-th core (or AIV) of a launch. The cores' blocks of
// one row of the grid read the same A rows (of one column, the same B columns) in the same
// order; on the A2, whose L2 holds the operands, started apart they stop contending for the
// same L2 lines: 4096^3 on the 910B went from 77.1 % to 82.2 % of cube peak (a third of the
// round apart, odd; measured best of 1, 3, 5, 7, 11 blocks per core). Not on the 310P: its
// 16 MB L2 does not hold them, and cores reading the same lines together share one DRAM
// fetch (staggered, its 4096^3 fell from 84 % to 23 %).
uint32_t stagger(const MatmulEngine::State& s, uint32_t slot) {
  const uint32_t blocks = tiles_m(s) * tiles_n(s);
  if (blocks < 2 || s.via_ub) return 0;
  const uint32_t stride = (blocks / 3) | 1u;
  return uint32_t(uint64_t(slot) * stride % blocks);
}

// MTE2: the rows x cols block at (r0, c0) of a half matrix stored NZ in GM (`stored_rows` rows:
// column bands of 16, each the rows rounded up to 16, of 32 B) into L1 in the layout Nd2Nz
// gives the same block (bands of the block's rows rounded up to 16): one strided DataCopy,
// a 32 B row per burst unit. r0 and c0 are multiples of 16 (base and L1 block starts).
void nz_block_copy(CopyEnd dst, CopyEnd src, uint32_t stored_rows, uint32_t r0, uint32_t rows, uint32_t c0,
                   uint32_t cols) {
  const uint32_t band_rows = round_up(stored_rows, kFractal), rows16 = round_up(rows, kFractal);
  data_copy_params(dst, offset(src, (uint64_t(c0 / kFractal) * band_rows + r0) * 32),
                   DataCopyParams(static_cast<uint16_t>(ceil_div(cols, kFractal)), static_cast<uint16_t>(rows16),
                                  static_cast<uint16_t>(band_rows - rows16), 0),
                   2);
}

// MTE2: the g-th L1 load of the round: A's m x kl (or kl x m) block and B's kl x n (or n x kl)
// block of C block g / l1_blocks, K block g % l1_blocks, ND -> NZ.
void issue_load(MatmulEngine::State& s, uint32_t g) {
  const uint32_t sz = s.a_size, l1_k = s.step_k * s.base_k;
  const Block blk = block_at(s, g / l1_blocks(s));
  const uint32_t m0 = blk.m0, n0 = blk.n0, m = blk.m, n = blk.n;
  const uint32_t kl0 = g % l1_blocks(s) * l1_k, kl = std::min(l1_k, s.single_k - kl0);
  const DType at = s.types.a, bt = s.types.b;
  LocalTensor<uint8_t> a1 = s.qA1.AllocTensor<uint8_t>();
  if (s.a_nz) {
    if (!s.a_trans) {
      nz_block_copy(end_at(a1), s.a, s.org_m, m0, m, kl0, kl);
    } else {
      nz_block_copy(end_at(a1), s.a, s.org_ka, kl0, kl, m0, m);
    }
  } else if (!s.a_trans) {
    nd2nz_copy(end_at(a1), offset(s.a, (uint64_t(m0) * s.org_ka + kl0) * sz), at,
               Nd2NzParams(1, static_cast<uint16_t>(m), static_cast<uint16_t>(kl), 0, static_cast<uint16_t>(s.org_ka),
                           static_cast<uint16_t>(round_up(m, kFractal)), 1, 0));
  } else {
    nd2nz_copy(end_at(a1), offset(s.a, (uint64_t(kl0) * s.org_m + m0) * sz), at,
               Nd2NzParams(1, static_cast<uint16_t>(kl), static_cast<uint16_t>(m), 0, static_cast<uint16_t>(s.org_m),
                           static_cast<uint16_t>(round_up(kl, kFractal)), 1, 0));
  }
  s.qA1.EnQue(a1);
  LocalTensor<uint8_t> b1 = s.qB1.AllocTensor<uint8_t>();
  if (s.b_nz) {
    if (!s.b_trans) {
      nz_block_copy(end_at(b1), s.b, s.org_kb, kl0, kl, n0, n);
    } else {
      nz_block_copy(end_at(b1), s.b, s.org_n, n0, n, kl0, kl);
    }
  } else if (!s.b_trans) {
    nd2nz_copy(end_at(b1), offset(s.b, (uint64_t(kl0) * s.org_n + n0) * sz), bt,
               Nd2NzParams(1, static_cast<uint16_t>(kl), static_cast<uint16_t>(n), 0, static_cast<uint16_t>(s.org_n),
                           static_cast<uint16_t>(round_up(kl, kFractal)), 1, 0));
  } else {
    nd2nz_copy(end_at(b1), offset(s.b, (uint64_t(n0) * s.org_kb + kl0) * sz), bt,
               Nd2NzParams(1, static_cast<uint16_t>(n), static_cast<uint16_t>(kl), 0, static_cast<uint16_t>(s.org_kb),
                           static_cast<uint16_t>(round_up(n, kFractal)), 1, 0));
  }
  s.qB1.EnQue(b1);
}

// The bias values [n0, n0 + n) (4 B each), GM -> dst (L1 or UB), reading only those bytes of
// GM: a one-row Nd2Nz reads exactly n values and zero-fills the rest of its last 32 B block.
// The bias is then read in 16-value (64 B) units (L1 -> BiasTable, BroadCastVecToMM); when the
// values end in the first half of a unit, a one-value Nd2Nz writes its second half (bias[n0]
// and zeros: columns past n, never written out), so no unit holds bytes never written.
void load_bias_row(MatmulEngine::State& s, CopyEnd dst, uint32_t n0, uint32_t n) {
  const CopyEnd src = offset(s.bias, uint64_t(n0) * 4);
  const uint32_t blocks = ceil_div(n, 8);
  nd2nz_copy(dst, src, s.types.bias, Nd2NzParams(1, 1, static_cast<uint16_t>(n), 0, static_cast<uint16_t>(n), 1, 1, 0));
  if (blocks % 2 != 0) nd2nz_copy(offset(dst, uint64_t(blocks) * 32), src, s.types.bias, Nd2NzParams(1, 1, 1, 0, 1, 1, 1, 0));
}

// One C block: m x n at (m0, n0) of this core's part (the round's block `index`),
// accumulated over single_k in s.c. The next L1 load is issued before this one's L0 work, so
// MTE2 runs ahead of MTE1 and the cube by one load, across C blocks too.
void compute_block(MatmulEngine::State& s, uint32_t index) {
  const Block blk = block_at(s, index);
  const uint32_t n0 = blk.n0, m = blk.m, n = blk.n;
  const uint32_t k0 = s.k0, l1_k = s.step_k * s.base_k;
  const uint32_t m1 = ceil_div(m, kFractal), n1 = ceil_div(n, kFractal);
  const DType at = s.types.a, bt = s.types.b;
  const uint32_t loads = tiles_m(s) * tiles_n(s) * l1_blocks(s);
  if (s.via_ub) ensure_ub(s);
  LocalTensor<uint8_t> c = s.qCO1.AllocTensor<uint8_t>();
  LocalTensor<uint8_t> bias_bt;
  if (s.has_bias && s.via_ub) {
    // GM -> UB (MTE2), then each 16 bias values broadcast to a 16 x 16 fractal of every row
    // band of C in L0C (NZ: fractal (j, i) at j * m1 + i); the columns past n are never written.
    const uint32_t m1 = ceil_div(m, kFractal), n1 = ceil_div(n, kFractal);
    LocalTensor<uint8_t> ub;
    if (s.use_ws) {
      core().barrier_all();  // the workspace's last C drain has left it
      ub = ws_tensor(s);
      load_bias_row(s, end_at(ub), n0, n);
      core().barrier_all();
    } else {
      ub = s.qBiasUb.AllocTensor<uint8_t>();
      load_bias_row(s, end_at(ub), n0, n);
      s.qBiasUb.EnQue(ub);
      ub = s.qBiasUb.DeQue<uint8_t>();
    }
    for (uint32_t i = 0; i < m1; ++i) {
      broadcast_vec_to_mm(offset(end_at(c), uint64_t(i) * kFractal * kFractal * 4), end_at(ub), DType::F32,
                          static_cast<int32_t>(n1), 1, 0, m1 - 1);
    }
    if (!s.use_ws) s.qBiasUb.FreeTensor(ub);
    core().barrier_all();  // the Mmads below start from the broadcast bias (V before M)
  } else if (s.has_bias) {
    // GM -> L1 -> BiasTable, whole 64 B units (the columns past n are never written out).
    const uint32_t n16 = round_up(n, 16);
    LocalTensor<uint8_t> l1 = s.qBiasL1.AllocTensor<uint8_t>();
    load_bias_row(s, end_at(l1), n0, n);
    s.qBiasL1.EnQue(l1);
    l1 = s.qBiasL1.DeQue<uint8_t>();
    bias_bt = s.qBT.AllocTensor<uint8_t>();
    local_copy(end_at(bias_bt), end_at(l1), s.types.bias, s.types.bias,
               DataCopyParams(1, static_cast<uint16_t>(n16 * 4 / 64), 0, 0), false);
    s.qBT.EnQue(bias_bt);
    s.qBiasL1.FreeTensor(l1);
    bias_bt = s.qBT.DeQue<uint8_t>();
  }
  bool first = true;
  for (uint32_t kl0 = 0; kl0 < s.single_k; kl0 += l1_k) {
    const uint32_t kl = std::min(l1_k, s.single_k - kl0);
    const uint32_t g = index * l1_blocks(s) + kl0 / l1_k;
    while (s.issued < std::min(loads, g + 2)) issue_load(s, s.issued++);
    LocalTensor<uint8_t> a1 = s.qA1.DeQue<uint8_t>();
    LocalTensor<uint8_t> b1 = s.qB1.DeQue<uint8_t>();
    const uint32_t kl_rows1 = ceil_div(kl, kFractal);  // row fractals of a kl-row block (f16: == kl1)
    for (uint32_t kk0 = 0; kk0 < kl; kk0 += s.base_k) {
      const uint32_t kk = std::min(s.base_k, kl - kk0);
      const uint32_t kk1 = ceil_div(kk, k0), first_k1 = kk0 / k0;
      // MTE1: L1 -> L0A (ZZ) and L0B (ZN).
      LocalTensor<uint8_t> a2 = s.qA2.AllocTensor<uint8_t>();
      for (uint32_t i = 0; i < m1; ++i) {
        const CopyEnd dst = offset(end_at(a2), uint64_t(i) * kk1 * kFractalBytes);
        if (!s.a_trans) {
          load_2d(dst, end_at(a1), at, LoadData2DParams(static_cast<uint16_t>(first_k1 * m1 + i), static_cast<uint8_t>(kk1),
                                                        static_cast<uint16_t>(m1), 0, 0, false, 0));
        } else {
          load_2d(dst, end_at(a1), at, LoadData2DParams(static_cast<uint16_t>(i * kl_rows1 + kk0 / kFractal),
                                                        static_cast<uint8_t>(kk1), 1, 0, 0, true, 0));
        }
      }
      s.qA2.EnQue(a2);
      LocalTensor<uint8_t> b2 = s.qB2.AllocTensor<uint8_t>();
      if (!s.b_trans) {
        for (uint32_t j = 0; j < kk1; ++j) {
          load_2d(offset(end_at(b2), uint64_t(j) * n1 * kFractalBytes), end_at(b1), bt,
                  LoadData2DParams(static_cast<uint16_t>(first_k1 + j), static_cast<uint8_t>(n1),
                                   static_cast<uint16_t>(kl_rows1), 0, 0, true, 0));
        }
      } else {
        for (uint32_t f = 0; f < kk1 * n1; f += 255) {
          load_2d(offset(end_at(b2), uint64_t(f) * kFractalBytes), end_at(b1), bt,
                  LoadData2DParams(static_cast<uint16_t>(first_k1 * n1 + f),
                                   static_cast<uint8_t>(std::min(255u, kk1 * n1 - f)), 1, 0, 0, false, 0));
        }
      }
      s.qB2.EnQue(b2);
      a2 = s.qA2.DeQue<uint8_t>();
      b2 = s.qB2.DeQue<uint8_t>();
      MmadParams p;
      p.m = static_cast<uint16_t>(m);
      p.n = static_cast<uint16_t>(n);
      p.k = static_cast<uint16_t>(kk);
      p.cmatrixInitVal = first && !(s.has_bias && s.via_ub);
      const bool with_bias = first && s.has_bias && !s.via_ub;
      mmad(end_at(c), end_at(a2), end_at(b2), s.types.c == DType::S32 ? DType::S32 : DType::F32, at, bt, p, with_bias,
           with_bias ? end_at(bias_bt) : CopyEnd{});
      s.qA2.FreeTensor(a2);
      s.qB2.FreeTensor(b2);
      first = false;
    }
    s.qA1.FreeTensor(a1);
    s.qB1.FreeTensor(b1);
    ++s.consumed;
  }
  if (s.has_bias && !s.via_ub) s.qBT.FreeTensor(bias_bt);
  s.qCO1.EnQue(c);
  s.c = c;
}

void check_operands(MatmulEngine::State& s, const char* api) {
  if (!s.a_set || !s.b_set) matmul_fail(api, "SetTensorA and SetTensorB come first");
  if (s.has_bias && s.bias.space != aicore::MemSpace::GM) {
    matmul_fail(api, "the tiling enables the bias (isBias) but SetBias was not called");
  }
  if (s.org_ka != s.org_kb) matmul_fail(api, fmt::format("Ka {} and Kb {} differ", s.org_ka, s.org_kb));
  if (s.single_k > s.org_ka) matmul_fail(api, fmt::format("singleCoreK {} exceeds K {}", s.single_k, s.org_ka));
}

}  // namespace

namespace {

// L0C's block (the last compute_block) to dst, row pitch `pitch` elements of C.
// The 310P's drain: L0C -> UB in matrix mode (V; f32 -> f16 when C is half), then per
// 16-column band of the NZ block, cur_m rows of its valid columns to GM (MTE3).
// L0C's block to UB in matrix mode (NZ: band j of 16 columns at j * m1 * 16 rows), into a
// drain buffer or the workspace; the caller frees it with release_drain_ub.
LocalTensor<uint8_t> drain_to_ub(MatmulEngine::State& s) {
  const DType ct = s.types.c;
  const uint32_t m1 = ceil_div(s.cur_m, kFractal), n1 = ceil_div(s.cur_n, kFractal);
  LocalTensor<uint8_t> c = s.qCO1.DeQue<uint8_t>();
  LocalTensor<uint8_t> u;
  if (s.use_ws) {
    core().barrier_all();  // the bias (or the last block) has left the workspace
    u = ws_tensor(s);
  } else {
    u = s.qCO2.AllocTensor<uint8_t>();
  }
  local_copy(end_at(u), end_at(c), ct, ct == DType::S32 ? DType::S32 : DType::F32,
             DataCopyParams(1, static_cast<uint16_t>(m1 * n1), 0, 0), true);
  if (s.use_ws) {
    core().barrier_all();
  } else {
    s.qCO2.EnQue(u);
  }
  s.qCO1.FreeTensor(c);
  if (!s.use_ws) u = s.qCO2.DeQue<uint8_t>();
  return u;
}
void release_drain_ub(MatmulEngine::State& s, LocalTensor<uint8_t>& u) {
  if (!s.use_ws) s.qCO2.FreeTensor(u);
}

// The 310P's GetTensorC into a local tensor: the NZ block in UB rearranged to ND baseM x baseN
// at dst (a UB -> UB copy per 16-column band), ready when GetTensorC returns.
void drain_block_to_local(MatmulEngine::State& s, CopyEnd dst) {
  const uint32_t cs = aicore::dtype_size(s.types.c);
  const uint32_t m1 = ceil_div(s.cur_m, kFractal), n1 = ceil_div(s.cur_n, kFractal);
  const uint32_t row_bytes = kFractal * cs;
  LocalTensor<uint8_t> u = drain_to_ub(s);
  for (uint32_t j = 0; j < n1; ++j) {
    data_copy_params(offset(dst, uint64_t(j) * row_bytes), offset(end_at(u), uint64_t(j) * m1 * kFractal * row_bytes),
                     DataCopyParams(static_cast<uint16_t>(s.cur_m), static_cast<uint16_t>(row_bytes / 32), 0,
                                    static_cast<uint16_t>((s.base_n * cs - row_bytes) / 32)),
                     cs);
  }
  core().barrier_all();  // GetTensorC<true>: the block is in place when it returns
  release_drain_ub(s, u);
  s.pending = false;
}

void drain_block_via_ub(MatmulEngine::State& s, CopyEnd dst, uint32_t pitch, uint8_t atomic) {
  const DType ct = s.types.c;
  const uint32_t cs = aicore::dtype_size(ct);
  const uint32_t m1 = ceil_div(s.cur_m, kFractal), n1 = ceil_div(s.cur_n, kFractal);
  LocalTensor<uint8_t> u = drain_to_ub(s);
  if (atomic == 1) set_atomic(1, ct, "Matmul::GetTensorC");
  const uint32_t row_bytes = kFractal * cs;  // one row of a band in UB
  // The 310P has no DataCopyPad: whole 32 B units only, so C's rows and bands must be 32 B
  // multiples (an N tail that is not would overwrite its neighbours: a clear error instead).
  for (uint32_t j = 0; j < n1; ++j) {
    uint32_t w = std::min(kFractal, s.cur_n - j * kFractal) * cs;  // valid bytes per row
    // ND_ALIGN: the row's pad up to 32 B is C's own, so whole 32 B units may be written.
    if (s.c_align) w = round_up(w, 32);
    if (w % 32 != 0 || (pitch * cs) % 32 != 0) {
      matmul_fail("GetTensorC", fmt::format("on {} C's rows go to GM in 32 B units: N {} (or its tail {}) of {} B "
                                            "elements is not a multiple of 32 B",
                                            aicore::product_name(core().product()), pitch, s.cur_n, cs));
    }
    data_copy_params(offset(dst, uint64_t(j) * row_bytes), offset(end_at(u), uint64_t(j) * m1 * kFractal * row_bytes),
                     DataCopyParams(static_cast<uint16_t>(s.cur_m), static_cast<uint16_t>(w / 32),
                                    static_cast<uint16_t>((row_bytes - w) / 32),
                                    static_cast<uint16_t>((pitch * cs - w) / 32)),
                     cs);
  }
  if (atomic == 1) set_atomic(0, DType::F32, "Matmul::GetTensorC");
  release_drain_ub(s, u);
  s.pending = false;
}

void drain_block(MatmulEngine::State& s, CopyEnd dst, uint32_t pitch, uint8_t atomic) {
  if (s.via_ub) {
    drain_block_via_ub(s, dst, pitch, atomic);
    return;
  }
  const DType ct = s.types.c;
  LocalTensor<uint8_t> c = s.qCO1.DeQue<uint8_t>();
  if (atomic == 1) set_atomic(1, ct, "Matmul::GetTensorC");
  FixpipeParamsV220 p;
  p.mSize = static_cast<uint16_t>(s.cur_m);
  p.nSize = static_cast<uint16_t>(s.cur_n);
  p.srcStride = static_cast<uint16_t>(round_up(s.cur_m, kFractal));
  p.dstStride = pitch;
  p.quantPre = ct == DType::F16 ? F322F16 : NoQuant;
  fixpipe(dst, end_at(c), ct, ct == DType::S32 ? DType::S32 : DType::F32, p, true);
  if (atomic == 1) set_atomic(0, DType::F32, "Matmul::GetTensorC");
  s.qCO1.FreeTensor(c);
  s.pending = false;
}

// The block `index` of the round into L0C.
void compute_at(MatmulEngine::State& s, uint32_t index) {
  // A block out of turn (the AIC serving an AIV's GetTensorC) starts its loads afresh.
  const uint32_t first_load = index * l1_blocks(s);
  if (s.issued == s.consumed && s.issued != first_load) s.issued = s.consumed = first_load;
  const Block blk = block_at(s, index);
  s.cur_m0 = blk.m0, s.cur_n0 = blk.n0, s.cur_m = blk.m, s.cur_n = blk.n;
  compute_block(s, index);
  s.pending = true;
}

// C's row pitch in GM: N, or for ND_ALIGN N rounded up to 32 B of C's type.
uint32_t c_pitch(const MatmulEngine::State& s) {
  return s.c_align ? round_up(s.org_n, 32 / aicore::dtype_size(s.types.c)) : s.org_n;
}

CopyEnd at_block(const MatmulEngine::State& s, CopyEnd c) {
  return offset(c, (uint64_t(s.cur_m0) * c_pitch(s) + s.cur_n0) * aicore::dtype_size(s.types.c));
}

// ---- Mixed mode: an AIV's Matmul calls as messages to its AIC ----
//
// Each AIV has a request slot and a C slot in the system workspace (GetSysWorkSpacePtr; the
// host sizes it with GetLibApiWorkSpaceSize): its group's part, then its sub-block's. A call
// writes the request into GM by the scalar unit (charged as scalar GM stores), then blocks
// until the AIC replies; the AIC, woken, reads the request from GM (scalar GM loads), does the
// cube work, waits for its pipes (the Fixpipe to GM is done), and replies. A GetTensorC into
// the AIV's UB goes through the C slot: the AIC's Fixpipe writes it, the AIV's MTE2 reads it.
constexpr uint64_t kRequestBytes = 512;
constexpr uint64_t kCSlotBytes = 128 * 1024;  // one base block of f32 (L0C's size on the A2)
constexpr uint64_t kSubBytes = kRequestBytes + kCSlotBytes;
constexpr uint64_t kSysWorkspaceBytes = 16u * 1024 * 1024;  // GetLibApiWorkSpaceSize

enum RequestKind : uint32_t { kGetC = 1, kIterateAll = 2, kEnd = 3 };
struct Request {
  uint32_t kind, block;
  uint64_t a, b, bias, dst;
  uint32_t org_m, org_n, org_ka, org_kb, single_m, single_n, single_k;
  uint8_t a_trans, b_trans, has_bias, atomic, dst_local, sequential;
};
static_assert(sizeof(Request) <= kRequestBytes, "a request fits its slot");

struct Channel {
  bool request[2] = {false, false}, reply[2] = {false, false};
  uint32_t ended = 0;    // AIVs whose End the AIC has served
  uint32_t released = 0;  // AIVs that heard back from their End
  sc_core::sc_event to_aic, to_aiv;
};
std::map<uint32_t, Channel>& channels() {  // by AI Core of the running launch
  static std::map<uint32_t, Channel> map;
  return map;
}

// The sanitizer's view of a message (issue 25): the sender's work so far happens before what the
// receiver does after taking it, as with the cross-core flags CANN's mixed Matmul uses. Keys
// set bit 62, apart from SyncAll's generations (sync_all_api.cpp).
uint64_t message_key(uint32_t group, uint32_t sub, bool reply) {
  return (uint64_t(1) << 62) | (uint64_t(group) << 2) | (uint64_t(sub) << 1) | uint64_t(reply);
}
void message_sent(const aicore::AiCore& c, uint64_t key) {
  if (auto* san = check::Sanitizer::active()) san->barrier_arrive(c.id(), key);
}
void message_taken(const aicore::AiCore& c, uint64_t key) {
  if (auto* san = check::Sanitizer::active()) san->barrier_leave(c.id(), key);
}

GM_ADDR sub_slot(const MatmulEngine::State& s, uint32_t sub, const char* api) {
  GM_ADDR ws = AscendC::GetSysWorkSpacePtr();
  if (ws == nullptr) {
    // Kernels written for CANN's older kernel-launch samples never call SetSysWorkspace; their
    // messages go through a region of GM npuvp keeps for the process (allocated once, at the
    // first such call, and never freed).
    static GM_ADDR own = static_cast<GM_ADDR>(Device::instance().malloc(kSysWorkspaceBytes));
    ws = own;
  }
  const uint64_t at = (uint64_t(s.group) * 2 + sub) * kSubBytes;
  if (at + kSubBytes > kSysWorkspaceBytes) {
    matmul_fail(api, fmt::format("AI Core {} has no room in the {} B system workspace", s.group, kSysWorkspaceBytes));
  }
  return ws + at;
}

void call_aic(MatmulEngine::State& s, Request r, const char* api) {
  aicore::AiCore& c = core();
  r.a = s.a.addr, r.b = s.b.addr, r.bias = s.bias.addr;
  r.a_trans = s.a_trans, r.b_trans = s.b_trans, r.has_bias = s.has_bias;
  r.org_m = s.org_m, r.org_n = s.org_n, r.org_ka = s.org_ka, r.org_kb = s.org_kb;
  r.single_m = s.single_m, r.single_n = s.single_n, r.single_k = s.single_k;
  GM_ADDR slot = sub_slot(s, s.sub, api);
  c.scalar_access(aicore::MemSpace::GM, gm_device_address(slot), sizeof(Request), true);
  std::memcpy(slot, &r, sizeof(Request));
  Channel& ch = channels()[s.group];
  c.barrier_all();
  c.scalar_sync();
  message_sent(c, message_key(s.group, s.sub, false));
  ch.request[s.sub] = true;
  ch.to_aic.notify(sc_core::SC_ZERO_TIME);
  wait_until(c, ch.to_aiv, "waiting for its AIC to serve a Matmul call", [&] { return ch.reply[s.sub]; });
  ch.reply[s.sub] = false;
  message_taken(c, message_key(s.group, s.sub, true));
}

void send_end(MatmulEngine::State& s) {
  Request r{};
  r.kind = kEnd;
  call_aic(s, r, "End");
  s.ended = true;
  if (++channels()[s.group].released == 2) channels().erase(s.group);
}

}  // namespace

bool MatmulEngine::iterate(bool partial_sum) {
  State& s = ready(s_, "Iterate");
  if (partial_sum) matmul_fail("Iterate", "enPartialSum is not modelled");
  check_operands(s, "Iterate");
  if (s.pending) matmul_fail("Iterate", "the previous block was not taken with GetTensorC");
  if (s.next >= tiles_m(s) * tiles_n(s)) {
    restart(s);  // ready for the next round (new tensors or shapes)
    return false;
  }
  if (s.client) {  // the AIC computes the block when GetTensorC asks for it
    const Block blk = block_at(s, s.next++);
    s.cur_m0 = blk.m0, s.cur_n0 = blk.n0, s.cur_m = blk.m, s.cur_n = blk.n;
    s.pending = true;
    return true;
  }
  compute_at(s, s.next++);
  return true;
}

void MatmulEngine::get_tensor_c(CopyEnd dst, uint8_t atomic, bool sequential) {
  State& s = ready(s_, "GetTensorC");
  if (!s.pending) matmul_fail("GetTensorC", "no block computed: call Iterate first");
  const bool local = dst.space != aicore::MemSpace::GM;
  if (s.client) {
    if (local && dst.space != aicore::MemSpace::UB) matmul_fail("GetTensorC", "C goes to GM or to UB (VECIN/VECCALC)");
    Request r{};
    r.kind = kGetC;
    r.block = s.next - 1;
    r.dst = dst.addr;
    r.atomic = atomic;
    r.dst_local = local;
    r.sequential = sequential;
    call_aic(s, r, "GetTensorC");
    if (local) {  // the block, ND base_m x base_n, from the C slot into the AIV's UB
      aicore::AiCore& c = core();
      GM_ADDR cslot = sub_slot(s, s.sub, "GetTensorC") + kRequestBytes;
      data_copy_count(dst, {aicore::MemSpace::GM, gm_device_address(cslot)}, s.base_m * s.base_n,
                      aicore::dtype_size(s.types.c));
      c.barrier_all();  // GetTensorC<true>: the block is in UB when it returns
    }
    s.pending = false;
    return;
  }
  if (local && s.via_ub) {
    if (dst.space != aicore::MemSpace::UB) matmul_fail("GetTensorC", "C goes to GM or to UB (VECIN/VECCALC)");
    if (atomic != 0) matmul_fail("GetTensorC", "enAtomic applies to a C in GM");
    drain_block_to_local(s, dst);
    return;
  }
  if (local) {
    matmul_fail("GetTensorC", "on an AIC C goes to GM; a local (VECIN/VECCALC) C is an AIV's, in a mixed kernel");
  }
  // enSequentialWrite: the block at dst itself, baseN apart (the GetTensorC page: dst holds at
  // least baseM * baseN elements).
  drain_block(s, sequential ? dst : at_block(s, dst), sequential ? s.base_n : c_pitch(s), atomic);
}

void MatmulEngine::iterate_all(CopyEnd dst, uint8_t atomic) {
  State& s = ready(s_, "IterateAll");
  if (s.client) {
    if (dst.space != aicore::MemSpace::GM) matmul_fail("IterateAll", "IterateAll to a local tensor is not modelled");
    check_operands(s, "IterateAll");
    Request r{};
    r.kind = kIterateAll;
    r.dst = dst.addr;
    r.atomic = atomic;
    call_aic(s, r, "IterateAll");
    restart(s);
    return;
  }
  // (A local C takes every block at the same place: the last one must stay the last.)
  if (dst.space == aicore::MemSpace::GM) s.rot = stagger(s, core().block_idx());
  while (iterate(false)) get_tensor_c(dst, atomic);
  s.rot = 0;
}

void MatmulEngine::end() {
  State& s = ready(s_, "End");
  if (s.pending) matmul_fail("End", "a computed block was never taken with GetTensorC");
  restart(s);
  if (s.client && !s.ended) send_end(s);
}

void MatmulEngine::end_kernel_body() { throw aicore::KernelBodyReturn{}; }

bool MatmulEngine::serve_if_mixed_aic(bool cube_only) {
  aicore::AiCore& c = core();
  if (cube_only || c.core_kind() != aicore::CoreKind::Aic || c.kernel_type() != aicore::KernelType::Mix1To2) {
    return false;
  }
  auto it = servers().find(&c);
  if (it == servers().end()) {
    matmul_fail("REGIST_MATMUL_OBJ", "the AIC of a mixed kernel serves a Matmul registered with its tiling");
  }
  State& s = *it->second->s_;
  const uint32_t group = s.group, aivs = 2;  // MIX_AIC_1_2: two AIVs per AIC
  Channel& ch = channels()[group];
  while (ch.ended < aivs) {
    wait_until(c, ch.to_aic, "serving its AIVs' Matmul calls", [&] { return ch.request[0] || ch.request[1]; });
    for (uint32_t sub = 0; sub < 2; ++sub) {
      if (!ch.request[sub]) continue;
      ch.request[sub] = false;
      message_taken(c, message_key(group, sub, false));
      GM_ADDR slot = sub_slot(s, sub, "serving a Matmul call");
      c.scalar_access(aicore::MemSpace::GM, gm_device_address(slot), sizeof(Request), false);
      Request r;
      std::memcpy(&r, slot, sizeof(Request));
      // The AIV's operands and shapes for this call.
      restart(s);
      s.a = {aicore::MemSpace::GM, r.a}, s.b = {aicore::MemSpace::GM, r.b}, s.bias = {aicore::MemSpace::GM, r.bias};
      s.a_set = s.b_set = true;
      s.a_trans = r.a_trans, s.b_trans = r.b_trans, s.has_bias = r.has_bias;
      s.org_m = r.org_m, s.org_n = r.org_n, s.org_ka = r.org_ka, s.org_kb = r.org_kb;
      s.single_m = r.single_m, s.single_n = r.single_n, s.single_k = r.single_k;
      if (r.kind == kGetC) {
        compute_at(s, r.block);
        if (r.dst_local) {
          drain_block(s, {aicore::MemSpace::GM, gm_device_address(slot + kRequestBytes)}, s.base_n, 0);
        } else {
          const CopyEnd at{aicore::MemSpace::GM, r.dst};
          drain_block(s, r.sequential ? at : at_block(s, at), r.sequential ? s.base_n : c_pitch(s), r.atomic);
        }
      } else if (r.kind == kIterateAll) {
        s.rot = stagger(s, s.group * 2 + sub);
        for (uint32_t i = 0; i < tiles_m(s) * tiles_n(s); ++i) {
          compute_at(s, i);
          drain_block(s, at_block(s, {aicore::MemSpace::GM, r.dst}), c_pitch(s), r.atomic);
        }
        s.rot = 0;
      } else {
        ++ch.ended;
      }
      c.barrier_all();  // the Fixpipes' data is in GM before the AIV hears back
      c.scalar_sync();
      message_sent(c, message_key(group, sub, true));
      ch.reply[sub] = true;
      ch.to_aiv.notify(sc_core::SC_ZERO_TIME);
    }
  }
  restart(s);
  return true;  // the last AIV to hear back from its End removes the channel
}

}  // namespace npuvp::ascendc

namespace AscendC {

namespace {
// The system workspace per core (each core runs its own kernel body).
std::map<const void*, GM_ADDR>& sys_workspaces() {
  static std::map<const void*, GM_ADDR> map;
  return map;
}
}  // namespace

void SetSysWorkspace(GM_ADDR workspace) { sys_workspaces()[&npuvp::ascendc::core()] = workspace; }

GM_ADDR GetSysWorkSpacePtr() {
  auto& map = sys_workspaces();
  auto it = map.find(&npuvp::ascendc::core());
  return it == map.end() ? nullptr : it->second;
}

GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace == nullptr ? nullptr : workspace + 16u * 1024 * 1024;  // GetLibApiWorkSpaceSize
}

}  // namespace AscendC
