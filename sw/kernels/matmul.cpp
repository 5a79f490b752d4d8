// The f16 matmul on A2 (910B AICs), written as an Ascend C programmer writes one: TPipe and
// TQues for every level, so the pipes overlap (MTE2 fetches the next K block of A and B while
// MTE1 feeds L0 and the cube computes).
//
// Tiling, chosen so the cube — not MTE2 — is the busy unit (issues 4 and 23):
//  - C is computed in baseM x baseN blocks held in L0C while K goes by. At cube peak a block
//    needs (baseM + baseN) * 2 B * 4096 / (baseM * baseN) bytes per cycle from GM: 128 B for
//    128 x 128, more than one core's MTE2 reads (110 B/cycle, SPEC.md §1.8), 96 B for
//    128 x 256, which is exactly L0C's 128 KB in f32. So blocks are 128 x 256 unless that
//    leaves AICs idle or unbalanced (small C: 128 x 128, two of them double-buffered in L0C);
//  - K goes to L1 in blocks of 256 (rows of 512 B, whole L2 lines), double-buffered, and from
//    L1 to L0A/L0B in steps of 64 (128 for 128 x 128 blocks), ping-ponged, one Mmad per step;
//  - B's panel (all of K for baseN columns) stays in L1 while the row blocks of one column pass
//    by, when it fits beside A's two blocks; otherwise B's blocks stream like A's;
//  - blocks share C by equal runs of its tiles in column-major order (at most one tile apart),
//    so consecutive tiles of one block share B's panel.
//
// Layouts (models/aicore/isa.h): Nd2Nz writes each band of 16 rows as one "matrix", so A's
// block lands in L1 in ZZ fractal order ((m1, k1) at m1 * K1 + k1) and B's in ZN order
// ((k1, n1) at k1 * N1 + n1); a K step of A is one LoadData per band, a K step of B one
// LoadData of consecutive fractals, transposed.
#include "sw/kernels/matmul.h"
#include "sw/kernels/matmul_tile.h"

#include <algorithm>

namespace npuvp::kernels {

using namespace AscendC;

namespace {
// The file's helpers, in a namespace named after it: a unity batch is one translation unit, in
// which every file's anonymous namespace is the same one. The functions below open it with
// `using namespace` in their bodies; at file scope it would reach the batch's later files.
namespace matmul_cpp {
using matmul_tile::ceil_div;
using matmul_tile::copy_banded;
using matmul_tile::kBuffers;
using matmul_tile::kFractal;
using matmul_tile::round_up;

constexpr uint32_t kA2BaseM = 128;
constexpr uint32_t kA2BlockK = 256;  // K per L1 block
// K per Mmad: an L0B tile of 32 KB, so L0A and L0B ping-pong (64 for 128 x 256 blocks, 128
// for 128 x 128: MTE1's per-instruction start then stays under the cube's time).
constexpr uint32_t kA2L0BBytes = 32 * 1024;
constexpr uint32_t kFractalElems = kFractal * kFractal;

template <class CT>
class KernelMatmul {
 public:
  KernelMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulShape s)
      : s_(s),
        base_n_(matmul_a2_base_n(s, static_cast<uint32_t>(GetBlockNum()), pipe.FreeBytes(TPosition::B1))),
        base_k_(kA2L0BBytes / sizeof(half) / base_n_),
        // Short K: blocks of 128, so the cube starts after a smaller first copy.
        block_k_(s.k < 2 * kA2BlockK ? kA2BlockK / 2 : kA2BlockK),
        k_blocks_(ceil_div(s.k, block_k_)) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), uint64_t(s.m) * s.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), uint64_t(s.k) * s.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), uint64_t(s.m) * s.n);
    const uint32_t a_block = kA2BaseM * block_k_ * sizeof(half), b_block = block_k_ * base_n_ * sizeof(half);
    pipe.InitBuffer(qA1, kBuffers, a_block);
    pipe.InitBuffer(qA2, kBuffers, kA2BaseM * base_k_ * sizeof(half));
    pipe.InitBuffer(qB2, kBuffers, base_k_ * base_n_ * sizeof(half));
    // One C block of 128 x 256 fills L0C; two of 128 x 128 double-buffer it.
    const uint32_t c_bytes = kA2BaseM * base_n_ * sizeof(float);
    pipe.InitBuffer(qCO1, std::min<uint32_t>(kBuffers, pipe.FreeBytes(TPosition::CO1) / c_bytes), c_bytes);
    resident_ = uint64_t(k_blocks_) * b_block <= pipe.FreeBytes(TPosition::B1);
    if (resident_) {
      pipe.InitBuffer(panel_, k_blocks_ * b_block);
      panel_free_ = pipe.next_event_id(HardEvent::MTE1_MTE2);
    } else {
      pipe.InitBuffer(qB1, kBuffers, b_block);
    }
  }

  // The block's (tile, K block) steps in order, each step's copies issued one step ahead of
  // its multiply, so MTE2 fetches the next K block (and the next tile's first one) while the
  // cube works on this one.
  void Process() {
    tiles_m_ = ceil_div(s_.m, kA2BaseM);
    const uint32_t tiles = tiles_m_ * ceil_div(s_.n, base_n_);
    const auto blocks = static_cast<uint32_t>(GetBlockNum()), block = static_cast<uint32_t>(GetBlockIdx());
    const uint64_t first = uint64_t(block) * tiles / blocks * k_blocks_;
    const uint64_t last = uint64_t(block + 1) * tiles / blocks * k_blocks_;
    if (first == last) return;
    CopyIn(first);
    LocalTensor<float> c;
    for (uint64_t step = first; step < last; ++step) {
      // A new panel waits on MTE2 for MTE1 to finish the old one: its copies are issued after
      // the old panel's last multiply, or MTE2's queue could fill before that is issued.
      const bool next_on_new_panel = resident_ && step + 1 < last && TileOf(step + 1).n0 != TileOf(step).n0;
      if (step + 1 < last && !next_on_new_panel) CopyIn(step + 1);
      const Tile t = TileOf(step);
      if (t.kb == 0) c = qCO1.AllocTensor<float>();
      LocalTensor<half> a1 = qA1.DeQue<half>();
      LocalTensor<half> b1;
      if (resident_) {
        // No flag of its own: MTE2 copies the whole panel before this step's A block (CopyIn),
        // and qA1's DeQue above orders the cube's reads after that copy.
        b1 = panel_.Get<half>()[t.kb * block_k_ * base_n_];
      } else {
        b1 = qB1.DeQue<half>();
      }
      Multiply(c, a1, b1, t.m, t.n, t.k, t.kb == 0);
      qA1.FreeTensor(a1);
      if (!resident_) qB1.FreeTensor(b1);
      if (t.kb + 1 == k_blocks_) {
        qCO1.EnQue(c);
        CopyOut(t.m0, t.n0, t.m, t.n);
        // After the panel's last LoadData, MTE2 may overwrite it.
        if (resident_ && (step + 1 == last || next_on_new_panel)) SetFlag<HardEvent::MTE1_MTE2>(panel_free_);
      }
      if (next_on_new_panel) CopyIn(step + 1);
    }
    if (resident_) WaitFlag<HardEvent::MTE1_MTE2>(panel_free_);  // leave no flag pending
  }

 private:
  struct Tile {
    uint32_t m0, n0, m, n;     // the C tile
    uint32_t kb, k0, k;        // the K block
  };
  // Step s is K block s % k_blocks_ of tile s / k_blocks_ (tiles in column-major order).
  Tile TileOf(uint64_t step) const {
    const auto t = static_cast<uint32_t>(step / k_blocks_);
    Tile r;
    r.kb = static_cast<uint32_t>(step % k_blocks_);
    r.m0 = t % tiles_m_ * kA2BaseM;
    r.n0 = t / tiles_m_ * base_n_;
    r.m = std::min(kA2BaseM, s_.m - r.m0);
    r.n = std::min(base_n_, s_.n - r.n0);
    r.k0 = r.kb * block_k_;
    r.k = std::min(block_k_, s_.k - r.k0);
    return r;
  }

  // GM -> L1 for one step: A's block, and B's (or, at a tile on a new panel, B's whole panel).
  void CopyIn(uint64_t step) {
    const Tile t = TileOf(step);
    if (resident_ && t.kb == 0 && t.n0 != panel_n0_) {
      LoadPanel(t.n0, t.n, panel_n0_ == ~0u);
      panel_n0_ = t.n0;
    }
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    copy_banded(a1, aGm[uint64_t(t.m0) * s_.k + t.k0], t.m, t.k, s_.k);
    qA1.EnQue(a1);
    if (resident_) return;
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    copy_banded(b1, bGm[uint64_t(t.k0) * s_.n + t.n0], t.k, t.n, s_.n);
    qB1.EnQue(b1);
  }

  // B's panel: K x n for columns n0.., one banded block per K block; the
  // A block CopyIn copies next is what announces it to MTE1 (its queue's flag).
  void LoadPanel(uint32_t n0, uint32_t n, bool first_panel) {
    if (!first_panel) WaitFlag<HardEvent::MTE1_MTE2>(panel_free_);
    LocalTensor<half> panel = panel_.Get<half>();
    for (uint32_t kb = 0; kb < k_blocks_; ++kb) {
      const uint32_t k0 = kb * block_k_, k = std::min(block_k_, s_.k - k0);
      copy_banded(panel[kb * block_k_ * base_n_], bGm[uint64_t(k0) * s_.n + n0], k, n, s_.n);
    }
  }

  // One L1 block (A m x k, B k x n) in K steps of base_k_: L0A gets one LoadData per band of
  // 16 rows of A, L0B one transposing LoadData of the step's consecutive fractals of B.
  void Multiply(LocalTensor<float>& c, const LocalTensor<half>& a1, const LocalTensor<half>& b1, uint32_t m, uint32_t n,
                uint32_t k, bool first_block) {
    const uint32_t m1 = ceil_div(m, kFractal), n1 = ceil_div(n, kFractal), k1_block = ceil_div(k, kFractal);
    for (uint32_t kk0 = 0; kk0 < k; kk0 += base_k_) {
      const uint32_t kk = std::min(base_k_, k - kk0), k1 = ceil_div(kk, kFractal), k1_start = kk0 / kFractal;
      LocalTensor<half> a2 = qA2.AllocTensor<half>();
      for (uint32_t i = 0; i < m1; ++i) {
        LoadData(a2[i * k1 * kFractalElems], a1, LoadData2DParams(i * k1_block + k1_start, k1, 1, 0, 0, false, 0));
      }
      qA2.EnQue(a2);
      LocalTensor<half> b2 = qB2.AllocTensor<half>();
      LoadData(b2, b1[k1_start * n1 * kFractalElems], LoadData2DParams(0, k1 * n1, 1, 0, 0, true, 0));
      qB2.EnQue(b2);
      a2 = qA2.DeQue<half>();
      b2 = qB2.DeQue<half>();
      MmadParams p;
      p.m = m;
      p.n = n;
      p.k = kk;
      p.cmatrixInitVal = first_block && kk0 == 0;
      Mmad(c, a2, b2, p);
      qA2.FreeTensor(a2);
      qB2.FreeTensor(b2);
    }
  }

  // L0C NZ -> GM ND, converting to CT.
  void CopyOut(uint32_t m0, uint32_t n0, uint32_t m, uint32_t n) {
    LocalTensor<float> c = qCO1.DeQue<float>();
    FixpipeParamsV220 p;
    p.mSize = m;
    p.nSize = n;
    p.srcStride = round_up(m, kFractal);
    p.dstStride = s_.n;
    p.quantPre = std::is_same<CT, half>::value ? F322F16 : NoQuant;
    Fixpipe(cGm[uint64_t(m0) * s_.n + n0], c, p);
    qCO1.FreeTensor(c);
  }

  TPipe pipe;  // first: the tiling asks it for L1's size
  MatmulShape s_;
  uint32_t base_n_;
  uint32_t base_k_;
  uint32_t block_k_;
  uint32_t k_blocks_;
  uint32_t tiles_m_ = 0;
  bool resident_ = false;
  uint32_t panel_n0_ = ~0u;        // the columns of B's panel in L1 (resident_ only)
  int32_t panel_free_ = 0;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  TBuf<TPosition::B1> panel_;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<CT> cGm;
};
}  // namespace matmul_cpp
}  // namespace

uint32_t matmul_a2_base_n(MatmulShape s, uint32_t blocks, uint64_t l1_bytes) {
  using namespace matmul_cpp;
  // The busiest block's time for each width: its tiles times a tile's time, which is the
  // larger of the cube's cycles and MTE2's (~100 B/cycle: A's row panel, and B's column panel
  // unless it stays in L1 for the tiles of its column), plus the drain the cube waits for.
  const uint32_t tiles_m = ceil_div(s.m, kA2BaseM), k_blocks = ceil_div(s.k, kA2BlockK);
  auto busiest = [&](uint32_t base_n) {
    const uint64_t tiles = uint64_t(tiles_m) * ceil_div(s.n, base_n);
    const uint64_t per_block = (tiles + blocks - 1) / std::max<uint32_t>(blocks, 1);
    const uint64_t cube = uint64_t(kA2BaseM / kFractal) * (base_n / kFractal) * ceil_div(s.k, kFractal);
    const uint64_t b_panel = uint64_t(k_blocks) * kA2BlockK * base_n * sizeof(half);
    const bool resident = b_panel + uint64_t(kBuffers) * kA2BaseM * kA2BlockK * sizeof(half) <= l1_bytes;
    const uint64_t b_bytes = resident ? b_panel / std::max<uint64_t>(1, std::min<uint64_t>(tiles_m, per_block)) : b_panel;
    const uint64_t mte2 = (uint64_t(kA2BaseM) * s.k * sizeof(half) + b_bytes) / 100;
    // A 128 x 256 block fills L0C, so the cube waits for its Fixpipe (f32, 32 B/cycle).
    const uint64_t drain = base_n == 256 ? uint64_t(kA2BaseM) * base_n * sizeof(float) / 32 : 0;
    return per_block * (std::max(cube, mte2) + drain);
  };
  return busiest(256) <= busiest(128) ? 256 : 128;
}

namespace {
namespace matmul_cpp {
// int8: one L0 tile per L1 block (K0 = 32 elements per 32 B block).
using matmul_tile::kBaseM;
using matmul_tile::kBaseN;
using matmul_tile::kBlockK;
class KernelMatmulInt8 {
 public:
  KernelMatmulInt8(GM_ADDR a, GM_ADDR bt, GM_ADDR c, MatmulShape s) : s_(s) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), uint64_t(s.m) * s.k);
    btGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(bt), uint64_t(s.n) * s.k);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), uint64_t(s.m) * s.n);
    pipe.InitBuffer(qA1, kBuffers, kBaseM * kBlockK);
    pipe.InitBuffer(qB1, kBuffers, kBlockK * kBaseN);
    pipe.InitBuffer(qA2, kBuffers, kBaseM * kBlockK);
    pipe.InitBuffer(qB2, kBuffers, kBlockK * kBaseN);
    pipe.InitBuffer(qCO1, kBuffers, kBaseM * kBaseN * sizeof(int32_t));
  }

  void Process() {
    for (uint32_t m0 = 0; m0 < s_.m; m0 += kBaseM) {
      for (uint32_t n0 = 0; n0 < s_.n; n0 += kBaseN) {
        const uint32_t m = std::min(kBaseM, s_.m - m0), n = std::min(kBaseN, s_.n - n0);
        LocalTensor<int32_t> c = qCO1.AllocTensor<int32_t>();
        for (uint32_t k0 = 0; k0 < s_.k; k0 += kBlockK) {
          const uint32_t k = std::min(kBlockK, s_.k - k0);
          LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
          DataCopy(a1, aGm[uint64_t(m0) * s_.k + k0], Nd2NzParams(1, m, k, 0, s_.k, round_up(m, kFractal), 1, 0));
          qA1.EnQue(a1);
          LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
          DataCopy(b1, btGm[uint64_t(n0) * s_.k + k0], Nd2NzParams(1, n, k, 0, s_.k, round_up(n, kFractal), 1, 0));
          qB1.EnQue(b1);
          matmul_tile::multiply_int8_from_l1(c, qA1, qB1, qA2, qB2, m, n, k, k0 == 0);
        }
        qCO1.EnQue(c);
        c = qCO1.DeQue<int32_t>();
        FixpipeParamsV220 p;
        p.mSize = m;
        p.nSize = n;
        p.srcStride = round_up(m, kFractal);
        p.dstStride = s_.n;
        Fixpipe(cGm[uint64_t(m0) * s_.n + n0], c, p);
        qCO1.FreeTensor(c);
      }
    }
  }

 private:
  MatmulShape s_;
  TPipe pipe;
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  GlobalTensor<int8_t> aGm, btGm;
  GlobalTensor<int32_t> cGm;
};
}  // namespace matmul_cpp
}  // namespace

void matmul_int8_a2(GM_ADDR a, GM_ADDR bt, GM_ADDR c, MatmulShape shape) {
  matmul_cpp::KernelMatmulInt8 op(a, bt, c, shape);
  op.Process();
}

template <class CT>
void matmul_a2(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulShape shape) {
  matmul_cpp::KernelMatmul<CT> op(a, b, c, shape);
  op.Process();
}

template void matmul_a2<float>(GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);
template void matmul_a2<half>(GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);

}  // namespace npuvp::kernels
