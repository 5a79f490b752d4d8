// Steps shared by the cube kernels of a coupled Ascend 910 core, which has neither ND2NZ nor
// FixPipe (SPEC.md §1.5): matrices reach L1 as NZ by strided DataCopy from GM rows whose pitch
// is a whole number of 32 B blocks, and L0C leaves through UB by DataCopy in matrix mode.
//
//   RowCopier::Pad       GM row -> UB -> GM row padded to whole 32 B blocks, pad bytes zeroed;
//   copy_nz_tile         padded GM rows -> L1 NZ (one DataCopy per column of fractals);
//   drain_l0c_tile       L0C tile -> UB (matrix mode) -> padded GM rows, with a hook for vector
//                        work on the tile in UB (bias, ReLU);
//   RowCopier::Unpad     padded GM row -> UB -> exact GM row (scalar stores for a tail shorter
//                        than a 32 B block).
//
// Zeroing the pad: the last 32 B block of a padded row is ANDed with a byte mask (kept bytes
// 0xff, the rest 0x00), seen as 16 u16 lanes. Bitwise ops exist for 16-bit integers only, and
// one And handles every element size, including int8 rows with an odd number of bytes in
// their last block (which a masked Duplicate of 16-bit lanes could not zero).
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::kernels::cube_910 {

using namespace AscendC;

inline constexpr uint32_t kBlockBytes = 32;
inline constexpr uint32_t kFractalRows = 16;

inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t round_up(uint32_t a, uint32_t b) { return ceil_div(a, b) * b; }
// Elements of T in one 32 B block, and a row of `len` elements padded to whole blocks.
template <class T>
constexpr uint32_t block_elems() { return kBlockBytes / sizeof(T); }
template <class T>
uint32_t padded_len(uint32_t len) { return round_up(len, block_elems<T>()); }

// Row-by-row copies between GM rows through one UB buffer, ordered by explicit flags
// (EVENT_ID0 of MTE2_V, V_MTE3, MTE2_MTE3, MTE2_S and MTE3_MTE2). Use it in its own TPipe
// phase, between PipeBarrier<PIPE_ALL>s.
template <class T>
class RowCopier {
 public:
  RowCopier(TPipe& pipe, uint32_t max_elems) {
    pipe.InitBuffer(row_, padded_len<T>(max_elems) * sizeof(T));
    pipe.InitBuffer(keep_, kBlockBytes);
  }

  // dst row (dst_len = padded_len(src_len) elements) = src row, the pad zeroed. Reads up to
  // one 32 B block past the end of the source row.
  void Pad(const GlobalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t src_len, uint32_t dst_len) {
    LocalTensor<T> row = row_.Get<T>();
    Reuse();
    DataCopy(row, src, dst_len);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    const uint32_t tail_bytes = src_len * sizeof(T) % kBlockBytes;
    if (tail_bytes != 0) {
      LocalTensor<uint16_t> keep = KeepMask(tail_bytes);
      LocalTensor<uint16_t> last = row.template ReinterpretCast<uint16_t>()[(dst_len * sizeof(T) - kBlockBytes) / 2];
      const uint64_t one_block[2] = {0xffff, 0};
      And(last, last, keep, one_block, 1, BinaryRepeatParams());
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(dst, row, dst_len);
  }

  // dst row (len elements) = the first len elements of the src row (src_len, whole blocks).
  void Unpad(const GlobalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t len, uint32_t src_len) {
    LocalTensor<T> row = row_.Get<T>();
    Reuse();
    DataCopy(row, src, src_len);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    const uint32_t whole = len / block_elems<T>() * block_elems<T>();
    if (whole > 0) DataCopy(dst, row, whole);
    if (whole < len) {
      SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
      GlobalTensor<T> out = dst;
      for (uint32_t j = whole; j < len; ++j) out.SetValue(j, row.GetValue(j));
    }
  }

 private:
  // The previous row's copy-out must finish before UB is overwritten.
  void Reuse() {
    if (used_) {
      SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
      WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    used_ = true;
  }

  // 32 B: bytes below tail_bytes 0xff, the rest 0x00 (little-endian u16 lanes). Built by the
  // vector unit, which is also its only reader, so it needs no flags.
  LocalTensor<uint16_t> KeepMask(uint32_t tail_bytes) {
    LocalTensor<uint16_t> keep = keep_.Get<uint16_t>();
    if (tail_bytes == keep_tail_bytes_) return keep;
    keep_tail_bytes_ = tail_bytes;
    Duplicate(keep, uint16_t(0), kBlockBytes / 2);
    const uint32_t whole_lanes = tail_bytes / 2;
    if (whole_lanes > 0) {
      const uint64_t lanes[2] = {(1ull << whole_lanes) - 1, 0};
      Duplicate(keep, uint16_t(0xffff), lanes, 1, 1, 8);
    }
    if (tail_bytes % 2 != 0) {  // the lane holding the last kept byte keeps its low byte only
      const uint64_t lane[2] = {1ull << whole_lanes, 0};
      Duplicate(keep, uint16_t(0x00ff), lane, 1, 1, 8);
    }
    return keep;
  }

  TBuf<TPosition::VECCALC> row_, keep_;
  bool used_ = false;
  uint32_t keep_tail_bytes_ = 0;
};

// Padded GM rows -> L1 NZ: `rows` x `cols` elements starting at src (row pitch `pitch`
// elements, a whole number of 32 B blocks), into fractals of 16 rows x one 32 B block, column
// of fractals j at dst + j * round_up(rows, 16) blocks. One DataCopy per column of fractals.
// Rows past `rows` in the last fractal row are left as they are.
template <class T>
void copy_nz_tile(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t rows, uint32_t cols,
                  uint32_t pitch) {
  constexpr uint32_t per_block = block_elems<T>();
  const uint32_t fractal_rows = round_up(rows, kFractalRows);
  for (uint32_t j = 0; j < ceil_div(cols, per_block); ++j) {
    DataCopy(dst[j * fractal_rows * per_block], src[j * per_block],
             DataCopyParams(static_cast<uint16_t>(rows), 1, static_cast<uint16_t>(pitch / per_block - 1), 0));
  }
}

// Takes the next L0C tile (m x n, NZ, LT = f32 or s32) from qCO1 and writes it to the padded GM
// rows at dst (pitch `pitch` elements of CT): L0C -> UB by DataCopy in matrix mode (converting
// LT to CT), in_ub(ub_tile, m1, n1) on the V pipe, then one DataCopy per fractal column of m
// row blocks of 16 elements.
template <class LT, class CT, class QueCO1, class QueCO2, class InUb>
void drain_l0c_tile(QueCO1& qCO1, QueCO2& qCO2, const GlobalTensor<CT>& dst, uint32_t pitch, uint32_t m, uint32_t n,
                    InUb in_ub) {
  const uint32_t m1 = ceil_div(m, kFractalRows), n1 = ceil_div(n, kFractalRows);
  LocalTensor<LT> c = qCO1.template DeQue<LT>();
  LocalTensor<CT> u = qCO2.template AllocTensor<CT>();
  DataCopyEnhancedParams matrix;
  matrix.blockMode = BlockMode::BLOCK_MODE_MATRIX;
  DataCopy(u, c, DataCopyParams(1, static_cast<uint16_t>(m1 * n1), 0, 0), matrix);
  in_ub(u, m1, n1);
  qCO2.EnQue(u);
  qCO1.FreeTensor(c);
  u = qCO2.template DeQue<CT>();
  constexpr uint32_t row_units = kFractalRows * sizeof(CT) / kBlockBytes;  // 32 B units per 16-element row
  for (uint32_t j = 0; j < n1; ++j) {
    DataCopy(dst[j * kFractalRows], u[j * m1 * 256],
             DataCopyParams(static_cast<uint16_t>(m), row_units, 0,
                            static_cast<uint16_t>(pitch * sizeof(CT) / kBlockBytes - row_units)));
  }
  qCO2.FreeTensor(u);
}

template <class LT, class CT, class QueCO1, class QueCO2>
void drain_l0c_tile(QueCO1& qCO1, QueCO2& qCO2, const GlobalTensor<CT>& dst, uint32_t pitch, uint32_t m, uint32_t n) {
  drain_l0c_tile<LT, CT>(qCO1, qCO2, dst, pitch, m, n, [](LocalTensor<CT>&, uint32_t, uint32_t) {});
}

}  // namespace npuvp::kernels::cube_910
