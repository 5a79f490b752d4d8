// The matmul for coupled Ascend 910 cores, which have neither ND2NZ nor FixPipe (the shared
// steps are in cube_910.h):
//   1. pad:    A[M][K] -> Ap[M][Kp], B[K][N] -> Bp[K][Np] in GM (Kp, Np multiples of 16) by the
//              vector unit, row by row through UB, the pad zeroed; skipped when K (for A) or N
//              (for B) is already a multiple of 16, and then Ap is A (Bp is B);
//   2. cube:   strided DataCopy builds NZ tiles in L1 (one 32 B block per row per column of
//              fractals), LoadData2D feeds L0A/L0B as on A2, Mmad accumulates over K in L0C;
//              L0C -> UB in matrix mode (f32, or converted to f16), then UB -> Cp[M][Np] with
//              one 16-element row block per DataCopy block (Cp is C when N is a multiple of 16);
//   3. unpad:  Cp -> C[M][N] row by row, whole 32 B blocks by DataCopy and the rest of each
//              row by scalar stores.
//
// Several blocks: C's 128 x 128 tiles form a grid, and each block takes one rectangle of it
// (a band of tile rows x a band of tile columns; blocks past the rectangles idle). The 910 has
// no cross-core synchronisation, so a block never reads what another block wrote: it pads the
// rows of A and the columns of B its rectangle needs itself, into its own copy of Ap (one per
// band of tile columns) and of Bp (one per band of tile rows). Blocks that share a band pad the
// same values, which costs vector time; padding into shared bytes would be a cross-core race
// (the sanitizer reports it: no order between the blocks' writes and the other's cube reads).
#include <algorithm>
#include <type_traits>

#include "sw/kernels/matmul.h"
#include "sw/kernels/cube_910.h"
#include "sw/kernels/matmul_tile.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
namespace matmul_910_cpp {  // named after the file: unity batches share anonymous namespaces
using namespace matmul_tile;
using cube_910::RowCopier;

template <class CT>
class KernelMatmul910 {
 public:
  KernelMatmul910(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ws, MatmulShape s)
      : s_(s), kp_(round_up(s.k, 16)), np_(round_up(s.n, 16)), a_(a), b_(b), c_(c), ws_(ws) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), uint64_t(s.m) * s.k);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), uint64_t(s.k) * s.n);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), uint64_t(s.m) * s.n);
  }

  void Process() {
    if (!TakeShare()) return;  // more blocks than tiles: this one has nothing to do
    // The workspace (matmul_910_workspace_bytes): grid.cols copies of Ap, grid.rows copies of
    // Bp, then Cp (blocks write disjoint rectangles of it).
    auto* w = reinterpret_cast<__gm__ uint8_t*>(ws_);
    const uint64_t ap_bytes = uint64_t(s_.m) * kp_ * 2, bp_bytes = uint64_t(s_.k) * np_ * 2;
    apGm.SetGlobalBuffer(pad_a() ? reinterpret_cast<__gm__ half*>(w + band_j_ * ap_bytes)
                                 : reinterpret_cast<__gm__ half*>(a_),
                         uint64_t(s_.m) * kp_);
    bpGm.SetGlobalBuffer(pad_n() ? reinterpret_cast<__gm__ half*>(w + grid_.cols * ap_bytes + band_i_ * bp_bytes)
                                 : reinterpret_cast<__gm__ half*>(b_),
                         uint64_t(s_.k) * np_);
    cpGm.SetGlobalBuffer(pad_n() ? reinterpret_cast<__gm__ CT*>(w + grid_.cols * ap_bytes + grid_.rows * bp_bytes)
                                 : reinterpret_cast<__gm__ CT*>(c_),
                         uint64_t(s_.m) * np_);
    const uint32_t width = n_end_ - n_begin_, padded_width = round_up(width, 16);
    if (pad_a() || pad_n()) {
      TPipe pipe;
      RowCopier<half> rows(pipe, std::max(kp_, padded_width));
      if (pad_a()) {
        for (uint32_t i = m_begin_; i < m_end_; ++i) rows.Pad(apGm[uint64_t(i) * kp_], aGm[uint64_t(i) * s_.k], s_.k, kp_);
      }
      if (pad_n()) {
        for (uint32_t i = 0; i < s_.k; ++i) {
          rows.Pad(bpGm[uint64_t(i) * np_ + n_begin_], bGm[uint64_t(i) * s_.n + n_begin_], width, padded_width);
        }
      }
    }
    PipeBarrier<PIPE_ALL>();  // the padded copies are in GM before the cube reads them
    Cube();
    PipeBarrier<PIPE_ALL>();
    if (!pad_n()) return;  // the cube wrote C itself
    TPipe pipe;
    RowCopier<CT> rows(pipe, padded_width);
    for (uint32_t i = m_begin_; i < m_end_; ++i) {
      rows.Unpad(cGm[uint64_t(i) * s_.n + n_begin_], cpGm[uint64_t(i) * np_ + n_begin_], width, padded_width);
    }
  }

 private:
  void Cube() {
    TPipe pipe;
    const uint32_t k_steps = ceil_div(s_.k, kBlockK);
    pipe.InitBuffer(qA1, kBuffers, kBaseM * kBlockK * sizeof(half));
    pipe.InitBuffer(qA2, kBuffers, kBaseM * kBaseK * sizeof(half));
    pipe.InitBuffer(qB2, kBuffers, kBaseK * kBaseN * sizeof(half));
    pipe.InitBuffer(qCO1, kBuffers, kBaseM * kBaseN * sizeof(float));
    pipe.InitBuffer(qCO2, kBuffers, kBaseM * kBaseN * sizeof(CT));
    // B's panel for a tile column (all of K) stays in L1 while every row tile of the block's
    // rectangle passes by, when it fits beside A's two blocks: GM traffic per C tile is then
    // A's row panel only.
    const bool resident = uint64_t(k_steps) * kPanelBlockElems * sizeof(half) <= pipe.FreeBytes(TPosition::B1);
    if (resident) {
      pipe.InitBuffer(panel_, k_steps * kPanelBlockElems * sizeof(half));
      panel_ready_ = pipe.next_event_id(HardEvent::MTE2_MTE1);
      panel_free_ = pipe.next_event_id(HardEvent::MTE1_MTE2);
    } else {
      pipe.InitBuffer(qB1, kBuffers, kBlockK * kBaseN * sizeof(half));
    }
    const uint32_t m_tiles = ceil_div(m_end_ - m_begin_, kBaseM);
    for (uint32_t n0 = n_begin_; n0 < n_end_; n0 += kBaseN) {
      const uint32_t n = std::min(kBaseN, n_end_ - n0);
      // The previous panel's last LoadData is done before its L1 is overwritten.
      if (resident && n0 != n_begin_) WaitFlag<HardEvent::MTE1_MTE2>(panel_free_);
      // Blocks that share A's rows start at different row tiles, so they do not all read the
      // same L2 lines at once (the order of C tiles does not change any result).
      for (uint32_t t = 0; t < m_tiles; ++t) {
        const uint32_t m0 = m_begin_ + (t + rotation_) % m_tiles * kBaseM;
        const uint32_t m = std::min(kBaseM, m_end_ - m0);
        LocalTensor<float> c = qCO1.AllocTensor<float>();
        for (uint32_t step = 0; step < k_steps; ++step) {
          const uint32_t k0 = step * kBlockK, k = std::min(kBlockK, s_.k - k0);
          if (!resident) {
            CopyIn(m0, n0, k0, m, n, k);
            matmul_tile::multiply_from_l1(c, qA1, qB1, qA2, qB2, m, n, k, k0 == 0);
            continue;
          }
          // The first row tile loads the panel a K block at a time, just ahead of its own A
          // block, so the cube starts after one block rather than after the whole panel.
          LocalTensor<half> b1 = panel_.Get<half>()[step * kPanelBlockElems];
          if (t == 0) {
            cube_910::copy_nz_tile(b1, bpGm[uint64_t(k0) * np_ + n0], k, n, np_);
            SetFlag<HardEvent::MTE2_MTE1>(panel_ready_);
          }
          LocalTensor<half> a1 = qA1.AllocTensor<half>();
          cube_910::copy_nz_tile(a1, apGm[uint64_t(m0) * kp_ + k0], m, k, kp_);
          qA1.EnQue(a1);
          a1 = qA1.DeQue<half>();
          if (t == 0) WaitFlag<HardEvent::MTE2_MTE1>(panel_ready_);
          matmul_tile::multiply_l1_tiles(c, a1, b1, qA2, qB2, m, n, k, k0 == 0);
          qA1.FreeTensor(a1);
        }
        qCO1.EnQue(c);
        CopyOut(m0, n0, m, n);
      }
      if (resident) SetFlag<HardEvent::MTE1_MTE2>(panel_free_);  // after the panel's last LoadData
    }
    if (resident) WaitFlag<HardEvent::MTE1_MTE2>(panel_free_);  // leave no flag pending
  }

  static constexpr uint32_t kPanelBlockElems = kBlockK * kBaseN;  // one K block of B's panel, NZ

  bool pad_a() const { return kp_ != s_.k; }
  bool pad_n() const { return np_ != s_.n; }  // B's rows and C's rows

  // This block's rectangle of C, in elements (tile-aligned); false if it has none.
  bool TakeShare() {
    const TileGrid grid = grid_ = matmul_910_tile_grid(s_, static_cast<uint32_t>(GetBlockNum()));
    const auto block = static_cast<uint32_t>(GetBlockIdx());
    if (block >= grid.rows * grid.cols) return false;
    const uint32_t tiles_m = ceil_div(s_.m, kBaseM), tiles_n = ceil_div(s_.n, kBaseN);
    const uint32_t bi = block / grid.cols, bj = block % grid.cols;
    band_i_ = bi, band_j_ = bj;
    // Balanced bands: band i of g over T tiles is [i T / g, (i + 1) T / g).
    m_begin_ = bi * tiles_m / grid.rows * kBaseM;
    m_end_ = std::min(s_.m, (bi + 1) * tiles_m / grid.rows * kBaseM);
    n_begin_ = bj * tiles_n / grid.cols * kBaseN;
    n_end_ = std::min(s_.n, (bj + 1) * tiles_n / grid.cols * kBaseN);
    rotation_ = bj;
    return m_begin_ < m_end_ && n_begin_ < n_end_;
  }

  // Padded GM -> L1 NZ: A's m x k block and B's k x n block.
  void CopyIn(uint32_t m0, uint32_t n0, uint32_t k0, uint32_t m, uint32_t n, uint32_t k) {
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    cube_910::copy_nz_tile(a1, apGm[uint64_t(m0) * kp_ + k0], m, k, kp_);
    qA1.EnQue(a1);
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    cube_910::copy_nz_tile(b1, bpGm[uint64_t(k0) * np_ + n0], k, n, np_);
    qB1.EnQue(b1);
  }

  // L0C -> UB (matrix mode, converting to CT) -> Cp.
  void CopyOut(uint32_t m0, uint32_t n0, uint32_t m, uint32_t n) {
    cube_910::drain_l0c_tile<float, CT>(qCO1, qCO2, cpGm[uint64_t(m0) * np_ + n0], np_, m, n);
  }

  MatmulShape s_;
  uint32_t kp_, np_;
  GM_ADDR a_, b_, c_, ws_;
  TileGrid grid_;
  uint32_t band_i_ = 0, band_j_ = 0;  // this block's band of tile rows and of tile columns
  uint32_t m_begin_ = 0, m_end_ = 0, n_begin_ = 0, n_end_ = 0;  // this block's share of C
  uint32_t rotation_ = 0;  // the row tile this block starts at, within its band
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TBuf<TPosition::B1> panel_;
  int32_t panel_ready_ = 0, panel_free_ = 0;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  TQue<TPosition::CO2, kBuffers> qCO2;
  GlobalTensor<half> aGm, bGm, apGm, bpGm;
  GlobalTensor<CT> cGm, cpGm;
};
}  // namespace matmul_910_cpp
}  // namespace

TileGrid matmul_910_tile_grid(MatmulShape s, uint32_t blocks) {
  // The rectangle count that gives the fewest tiles to the busiest block; among those, the
  // least GM traffic per block: B's panel once per tile column, A's row panel once per tile.
  const uint32_t tiles_m = matmul_910_cpp::ceil_div(s.m, matmul_910_cpp::kBaseM), tiles_n = matmul_910_cpp::ceil_div(s.n, matmul_910_cpp::kBaseN);
  TileGrid best{1, 1};
  uint64_t best_load = ~0ull, best_traffic = ~0ull;
  for (uint32_t rows = 1; rows <= std::min(blocks, tiles_m); ++rows) {
    const uint32_t cols = std::min(tiles_n, blocks / rows);
    const uint64_t load = uint64_t(matmul_910_cpp::ceil_div(tiles_m, rows)) * matmul_910_cpp::ceil_div(tiles_n, cols);
    const uint64_t traffic = uint64_t(matmul_910_cpp::ceil_div(tiles_n, cols)) * (1 + matmul_910_cpp::ceil_div(tiles_m, rows));
    if (load < best_load || (load == best_load && traffic < best_traffic)) {
      best = {rows, cols};
      best_load = load;
      best_traffic = traffic;
    }
  }
  return best;
}

uint64_t matmul_910_workspace_bytes(MatmulShape s, uint32_t blocks) {
  // A copy of Ap per band of tile columns and of Bp per band of tile rows in f16, Cp in f32
  // (the larger output), plus one 32 B block of over-read slack.
  const TileGrid grid = matmul_910_tile_grid(s, blocks);
  return (uint64_t(grid.cols) * s.m * matmul_910_cpp::round_up(s.k, 16) + uint64_t(grid.rows) * s.k * matmul_910_cpp::round_up(s.n, 16)) * 2 +
         uint64_t(s.m) * matmul_910_cpp::round_up(s.n, 16) * 4 + 64;
}

template <class CT>
void matmul_910(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, MatmulShape shape) {
  matmul_910_cpp::KernelMatmul910<CT> op(a, b, c, workspace, shape);
  op.Process();
}

template void matmul_910<float>(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);
template void matmul_910<half>(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape);

}  // namespace npuvp::kernels
