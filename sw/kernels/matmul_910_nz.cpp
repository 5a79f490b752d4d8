// The coupled 910 / 310P f16 matmul on NZ operands (matmul_910_nz.h): GM --DataCopy--> L1
// --LoadData2D--> L0A/L0B --Mmad--> L0C --DataCopy (matrix mode, V pipe)--> UB --DataCopy-->
// GM. With NZ in GM every copy is a few long bursts (a K block of A is K1 runs of 256 rows of
// 32 B), so no vector pass touches the operands and the cube is the busy unit.
//
// Tiling (the rule: a C block of bm x bn held in L0C over all of K needs (bm + bn) * 2 B *
// 4096 / (bm * bn) bytes per cycle from GM at cube peak; one core's MTE2 reads at most
// 110 B/cycle, SPEC.md §1.8):
//  - C blocks of 256 x 256: 64 B/cycle, and 256 KB of f32, exactly L0C. The drain (L0C -> UB
//    at 128 B/cycle, 2048 cycles) is the only time the cube waits per block (65 536 cycles at
//    K = 4096); UB -> GM runs on MTE3 beside the next block. When C has too few such blocks
//    for the cores, 128 x 128 blocks (double-buffered in L0C and UB) keep more cores busy;
//  - K goes to L1 in blocks of 256, A's and B's double-buffered (4 x 128 KB of the 1 MB), the
//    next block's copies issued before this one's multiply; L1 -> L0 in steps of 64 (L0A and
//    L0B ping-pong, 2 x 32 KB each; matmul_tile::multiply_l1_tiles);
//  - blocks share C by waves (MatmulNzTiling), so the tiles that run at the same time share
//    A's and B's bands in L2 and DRAM is not the limit.
#include "sw/kernels/matmul_910_nz.h"

#include <algorithm>
#include <type_traits>

#include "sw/kernels/matmul_tile.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
// The file's helpers, in a namespace named after it: a unity batch is one translation unit, in
// which every file's anonymous namespace is the same one. The functions below open it with
// `using namespace` in their bodies; at file scope it would reach the batch's later files.
namespace matmul_910_nz_cpp {
using matmul_tile::ceil_div;
using matmul_tile::kBuffers;
using matmul_tile::kFractal;
using matmul_tile::round_up;

constexpr uint32_t kNzTile = 256;    // C block edge for large C (128 when that keeps more cores busy)
constexpr uint32_t kNzBlockK = 256;  // K per L1 block
constexpr uint32_t kRowBytes = 32;   // one row of a 16-column band, f16

template <class CT>
class KernelMatmul910Nz {
 public:
  KernelMatmul910Nz(GM_ADDR a, GM_ADDR b, GM_ADDR c, MatmulShape s, MatmulNzTiling tiling)
      : s_(s), tiling_(tiling), mp_(round_up(s.m, kFractal)), np_(round_up(s.n, kFractal)), kp_(round_up(s.k, kFractal)) {
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), nz_elems(s.m, s.k));
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), nz_elems(s.k, s.n));
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), nz_elems(s.m, s.n));
    tile_ = tiling.tile;
    tiles_m_ = ceil_div(mp_, tile_);
    tiles_n_ = ceil_div(np_, tile_);
    k_blocks_ = ceil_div(kp_, kNzBlockK);
    pipe.InitBuffer(qA1, kBuffers, tile_ * kNzBlockK * sizeof(half));
    pipe.InitBuffer(qB1, kBuffers, kNzBlockK * tile_ * sizeof(half));
    pipe.InitBuffer(qA2, kBuffers, tile_ * matmul_tile::kBaseK * sizeof(half));
    pipe.InitBuffer(qB2, kBuffers, matmul_tile::kBaseK * tile_ * sizeof(half));
    // 256 x 256 fills L0C (one block); 128 x 128 blocks double-buffer it.
    const uint32_t c_bytes = tile_ * tile_ * sizeof(float);
    const int32_t c_buffers = std::min<uint32_t>(kBuffers, pipe.FreeBytes(TPosition::CO1) / c_bytes);
    pipe.InitBuffer(qCO1, c_buffers, c_bytes);
    pipe.InitBuffer(qCO2, c_buffers, tile_ * tile_ * sizeof(CT));
  }

  void Process() {
    const uint32_t wave = tiling_.wave_rows * tiling_.wave_cols;
    const auto block = static_cast<uint32_t>(GetBlockIdx());
    if (block >= wave) return;
    // This block's tiles: its place in each wave, for the waves (row-major) that reach the grid.
    const uint32_t waves_m = ceil_div(tiles_m_, tiling_.wave_rows), waves_n = ceil_div(tiles_n_, tiling_.wave_cols);
    for (uint32_t w = 0; w < waves_m * waves_n; ++w) {
      const uint32_t tm = w / waves_n * tiling_.wave_rows + block / tiling_.wave_cols;
      const uint32_t tn = w % waves_n * tiling_.wave_cols + block % tiling_.wave_cols;
      if (tm < tiles_m_ && tn < tiles_n_) tiles_.push_back(tm * tiles_n_ + tn);
    }
    const uint64_t steps = uint64_t(tiles_.size()) * k_blocks_;
    if (steps == 0) return;
    CopyIn(0);
    LocalTensor<float> c;
    for (uint64_t step = 0; step < steps; ++step) {
      if (step + 1 < steps) CopyIn(step + 1);
      const Step t = StepOf(step);
      if (t.kb == 0) c = qCO1.AllocTensor<float>();
      matmul_tile::multiply_from_l1(c, qA1, qB1, qA2, qB2, t.m, t.n, t.k, t.kb == 0);
      if (t.kb + 1 == k_blocks_) {
        qCO1.EnQue(c);
        CopyOut(t.m0, t.n0, t.m, t.n);
      }
    }
  }

 private:
  struct Step {
    uint32_t m0, n0, m, n;  // the C tile (m, n: multiples of 16)
    uint32_t kb, k0, k;     // the K block (k: the real K left, not padded)
  };
  Step StepOf(uint64_t step) const {
    const uint32_t tile = tiles_[step / k_blocks_];
    Step r;
    r.m0 = tile / tiles_n_ * tile_;
    r.n0 = tile % tiles_n_ * tile_;
    r.m = std::min(tile_, mp_ - r.m0);
    r.n = std::min(tile_, np_ - r.n0);
    r.kb = static_cast<uint32_t>(step % k_blocks_);
    r.k0 = r.kb * kNzBlockK;
    r.k = std::min(kNzBlockK, s_.k - r.k0);
    return r;
  }

  // GM NZ -> L1 NZ: A's m x k block is K1 runs of m rows, B's k x n block N1 runs of k rows;
  // one DataCopy each.
  void CopyIn(uint64_t step) {
    const Step t = StepOf(step);
    const uint32_t k = round_up(t.k, kFractal);
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    DataCopy(a1, aGm[(uint64_t(t.k0) * mp_ + uint64_t(t.m0) * kFractal)],
             DataCopyParams(static_cast<uint16_t>(k / kFractal), static_cast<uint16_t>(t.m),
                            static_cast<uint16_t>(mp_ - t.m), 0));
    qA1.EnQue(a1);
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(b1, bGm[(uint64_t(t.n0) * kp_ + uint64_t(t.k0) * kFractal)],
             DataCopyParams(static_cast<uint16_t>(t.n / kFractal), static_cast<uint16_t>(k),
                            static_cast<uint16_t>(kp_ - k), 0));
    qB1.EnQue(b1);
  }

  // L0C -> UB in matrix mode (converting to CT), then UB -> C's NZ bands: N1 runs of m rows.
  void CopyOut(uint32_t m0, uint32_t n0, uint32_t m, uint32_t n) {
    const uint32_t m1 = m / kFractal, n1 = n / kFractal;
    LocalTensor<float> c = qCO1.DeQue<float>();
    LocalTensor<CT> u = qCO2.AllocTensor<CT>();
    DataCopyEnhancedParams matrix;
    matrix.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy(u, c, DataCopyParams(1, static_cast<uint16_t>(m1 * n1), 0, 0), matrix);
    qCO2.EnQue(u);
    qCO1.FreeTensor(c);
    u = qCO2.DeQue<CT>();
    constexpr uint32_t row_units = kFractal * sizeof(CT) / kRowBytes;  // 32 B units per 16-element row
    DataCopy(cGm[uint64_t(n0) * mp_ + uint64_t(m0) * kFractal], u,
             DataCopyParams(static_cast<uint16_t>(n1), static_cast<uint16_t>(m * row_units), 0,
                            static_cast<uint16_t>((mp_ - m) * row_units)));
    qCO2.FreeTensor(u);
  }

  TPipe pipe;
  MatmulShape s_;
  MatmulNzTiling tiling_;
  uint32_t mp_, np_, kp_;
  uint32_t tile_ = kNzTile, tiles_m_ = 0, tiles_n_ = 0, k_blocks_ = 0;
  std::vector<uint32_t> tiles_;  // this block's C tiles (row-major tile index), in order
  TQue<TPosition::A1, kBuffers> qA1;
  TQue<TPosition::B1, kBuffers> qB1;
  TQue<TPosition::A2, kBuffers> qA2;
  TQue<TPosition::B2, kBuffers> qB2;
  TQue<TPosition::CO1, kBuffers> qCO1;
  TQue<TPosition::CO2, kBuffers> qCO2;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<CT> cGm;
};
}  // namespace matmul_910_nz_cpp
}  // namespace

MatmulNzTiling matmul_910_nz_tiling(MatmulShape s, uint32_t blocks, uint64_t l2_bytes) {
  using namespace matmul_910_nz_cpp;
  const uint32_t mp = round_up(s.m, kFractal), np = round_up(s.n, kFractal), kp = round_up(s.k, kFractal);
  // MTE2's rate per core: ~100 B/cycle alone, but the ring and L2 deliver about 2 KB/cycle to
  // all cores together (the 910's 32 cores measured ~1.7 KB/cycle at 4096^3).
  const uint64_t mte2_rate = std::max<uint64_t>(1, std::min<uint64_t>(100, 2048 / std::max<uint32_t>(blocks, 1)));
  // For one tile edge: the waves with the fewest tiles for the busiest block, then the least
  // DRAM traffic, and that block's time (its tiles times a tile's: the larger of the cube's
  // cycles and MTE2's, plus the L0C -> UB drain the cube waits for when one block fills L0C).
  auto plan = [&](uint32_t tile, uint64_t* time) {
    const uint32_t tiles_m = ceil_div(mp, tile), tiles_n = ceil_div(np, tile);
    const uint64_t band = uint64_t(tile) * kp * sizeof(half);  // one tile row of A
    const uint64_t a_bytes = band * tiles_m, b_bytes = band * tiles_n;
    MatmulNzTiling best;
    best.tile = tile;
    uint64_t best_load = ~0ull, best_traffic = ~0ull;
    for (uint32_t rows = 1; rows <= std::min(blocks, tiles_m); ++rows) {
      const uint32_t cols = std::min(tiles_n, blocks / rows);
      const uint64_t load = uint64_t(ceil_div(tiles_m, rows)) * ceil_div(tiles_n, cols);  // waves
      // Waves walk along N: A's band of `rows` tiles is read once if it stays in L2 (a
      // quarter of it: B's bands and C stream past it); B is read once per band of A.
      const bool a_stays = rows * band <= l2_bytes / 4;
      const uint64_t traffic =
          (a_stays ? a_bytes : a_bytes * ceil_div(tiles_n, cols)) + b_bytes * ceil_div(tiles_m, rows);
      if (load < best_load || (load == best_load && traffic < best_traffic)) {
        best.wave_rows = rows;
        best.wave_cols = cols;
        best_load = load;
        best_traffic = traffic;
      }
    }
    const uint64_t cube = uint64_t(tile / kFractal) * (tile / kFractal) * (kp / kFractal);
    const uint64_t mte2 = 2 * band / mte2_rate;
    const uint64_t drain = tile == kNzTile ? uint64_t(tile) * tile * sizeof(float) / 128 : 0;
    *time = best_load * (std::max(cube, mte2) + drain);
    return best;
  };
  uint64_t wide = 0, narrow = 0;
  const MatmulNzTiling w = plan(kNzTile, &wide), n = plan(kNzTile / 2, &narrow);
  return wide <= narrow ? w : n;
}

template <class CT>
void matmul_910_nz(GM_ADDR a_nz, GM_ADDR b_nz, GM_ADDR c_nz, MatmulShape shape, MatmulNzTiling tiling) {
  matmul_910_nz_cpp::KernelMatmul910Nz<CT> op(a_nz, b_nz, c_nz, shape, tiling);
  op.Process();
}

template void matmul_910_nz<float>(GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape, MatmulNzTiling);
template void matmul_910_nz<half>(GM_ADDR, GM_ADDR, GM_ADDR, MatmulShape, MatmulNzTiling);

}  // namespace npuvp::kernels
