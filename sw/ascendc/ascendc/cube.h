// The cube-side API: ND->NZ DataCopy, LoadData 2D/3D, Mmad, Fixpipe, L0C->UB matrix mode and
// L1->BiasTable copies. Parameter structs follow Ascend C's names.
#pragma once
#include "sw/ascendc/ascendc/data_copy.h"
#include "sw/ascendc/ascendc/tensor.h"

namespace AscendC {

struct Nd2NzParams {
  uint16_t ndNum = 1, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0;
  uint16_t dstNzC0Stride = 0, dstNzNStride = 0, dstNzMatrixStride = 0;
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t nd_num, uint16_t n, uint16_t d, uint16_t src_matrix_stride, uint16_t src_d,
              uint16_t dst_c0_stride, uint16_t dst_n_stride, uint16_t dst_matrix_stride)
      : ndNum(nd_num), nValue(n), dValue(d), srcNdMatrixStride(src_matrix_stride), srcDValue(src_d),
        dstNzC0Stride(dst_c0_stride), dstNzNStride(dst_n_stride), dstNzMatrixStride(dst_matrix_stride) {}
};

struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 1;
  uint16_t srcStride = 0;
  uint8_t sid = 0;
  uint16_t dstGap = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
  LoadData2DParams() = default;
  LoadData2DParams(uint16_t start, uint8_t repeat, uint16_t src_stride, uint8_t sid_, uint16_t dst_gap,
                   bool transpose, uint8_t addr_mode)
      : startIndex(start), repeatTimes(repeat), srcStride(src_stride), sid(sid_), dstGap(dst_gap),
        ifTranspose(transpose), addrMode(addr_mode) {}
};

struct LoadData3DParamsV2Pro;  // not modelled

// img2col parameters (the fields of Ascend C's LoadData3DParamsV2 the model uses).
template <class T>
struct LoadData3DParamsV2 {
  uint8_t padList[4] = {0, 0, 0, 0};  // left, right, top, bottom
  uint16_t l1H = 1, l1W = 1;
  uint16_t channelSize = 1;
  uint16_t kExtension = 16, mExtension = 16;
  uint16_t kStartPt = 0, mStartPt = 0;
  uint8_t strideW = 1, strideH = 1;
  uint8_t filterW = 1, filterH = 1;
  uint8_t dilationFilterW = 1, dilationFilterH = 1;
  bool enTranspose = false, enSmallK = false;
  T padValue = T(0);
};

struct MmadParams {
  uint16_t m = 0, n = 0, k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false, enWinogradA = false, enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;  // initial C from the BiasTable
  bool cmatrixInitVal = true;  // initial C = 0
  MmadParams() = default;
  MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool bias, int32_t fm_offset, bool sparse, bool wa, bool wb)
      : m(m_), n(n_), k(k_), isBias(bias), fmOffset(fm_offset), enSsparse(sparse), enWinogradA(wa), enWinogradB(wb) {}
};

enum QuantMode_t : uint8_t { NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

struct FixpipeParamsV220 {
  uint16_t nSize = 0, mSize = 0;
  uint16_t srcStride = 0;   // rows (of 16 elements) between fractal columns in CO1
  uint32_t dstStride = 0;   // ND: elements between rows; NZ: 32 B units between columns
  QuantMode_t quantPre = NoQuant;
  uint64_t deqScalar = 0;   // the float scale's bits in the low 32 bits
  uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

enum class BlockMode : uint8_t { BLOCK_MODE_NORMAL = 0, BLOCK_MODE_MATRIX, BLOCK_MODE_VECTOR, BLOCK_MODE_SMALL_CHANNEL, BLOCK_MODE_DEPTHWISE };
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
struct DataCopyEnhancedParams {
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
  DeqScale deqScale = DeqScale::DEQ_NONE;
  uint64_t deqValue = 0;
  uint8_t sidStoreMode = 0;
  bool isRelu = false;
};

}  // namespace AscendC

namespace npuvp::ascendc {
void nd2nz_copy(CopyEnd dst, CopyEnd src, aicore::DType type, const AscendC::Nd2NzParams& p);
void load_2d(CopyEnd dst, CopyEnd src, aicore::DType type, const AscendC::LoadData2DParams& p);
void load_3d(CopyEnd dst, CopyEnd src, aicore::DType type, const aicore::LoadData3D& shape);
// Operands are checked to be in L0C (c), L0A (a), L0B (b) and BT (bias).
void mmad(CopyEnd c, CopyEnd a, CopyEnd b, aicore::DType ct, aicore::DType at, aicore::DType bt,
          const AscendC::MmadParams& p, bool with_bias, CopyEnd bias);
// src is checked to be in L0C.
void fixpipe(CopyEnd dst, CopyEnd src, aicore::DType dt, aicore::DType st, const AscendC::FixpipeParamsV220& p,
             bool nz2nd);
// Local -> local copies that convert (L1 -> BT f16 -> f32, L0C -> UB matrix mode f32 -> f16)
// or move whole fractals (matrix mode).
void local_copy(CopyEnd dst, CopyEnd src, aicore::DType dt, aicore::DType st, const AscendC::DataCopyParams& p,
                bool matrix_mode);
template <class T>
aicore::Operand operand_of(const AscendC::LocalTensor<T>& t, const char* api);
}  // namespace npuvp::ascendc

namespace AscendC {

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  npuvp::ascendc::nd2nz_copy(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src),
                             npuvp::ascendc::DTypeOf<T>::value, p);
}

// L0C -> UB in matrix mode (910/310P), optionally converting f32 to f16.
template <class T, class U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p,
              const DataCopyEnhancedParams& e) {
  npuvp::ascendc::local_copy(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src),
                             npuvp::ascendc::DTypeOf<T>::value, npuvp::ascendc::DTypeOf<U>::value, p,
                             e.blockMode == BlockMode::BLOCK_MODE_MATRIX);
}

// L1 -> BiasTable with f16 -> f32 conversion (A2, C1 -> C2).
template <class T, class U, typename = std::enable_if_t<!std::is_same<T, U>::value>>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p) {
  npuvp::ascendc::local_copy(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src),
                             npuvp::ascendc::DTypeOf<T>::value, npuvp::ascendc::DTypeOf<U>::value, p, false);
}

template <class T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
  npuvp::ascendc::load_2d(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), npuvp::ascendc::DTypeOf<T>::value, p);
}
template <class T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p) {
  npuvp::ascendc::load_2d(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), npuvp::ascendc::DTypeOf<T>::value, p);
}

template <class T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<T>& p) {
  npuvp::aicore::LoadData3D s;
  s.fm_h = p.l1H;
  s.fm_w = p.l1W;
  s.channels = p.channelSize;
  s.pad_left = p.padList[0];
  s.pad_right = p.padList[1];
  s.pad_top = p.padList[2];
  s.pad_bottom = p.padList[3];
  s.stride_h = p.strideH;
  s.stride_w = p.strideW;
  s.kernel_h = p.filterH;
  s.kernel_w = p.filterW;
  s.dilation_h = p.dilationFilterH;
  s.dilation_w = p.dilationFilterW;
  s.m_start = p.mStartPt;
  s.m_extent = p.mExtension;
  s.k_start = p.kStartPt;
  s.k_extent = p.kExtension;
  s.pad_value = static_cast<double>(p.padValue);
  npuvp::ascendc::load_3d(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), npuvp::ascendc::DTypeOf<T>::value, s);
}

template <class DstT, class SrcT>
void Mmad(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& a, const LocalTensor<SrcT>& b, const MmadParams& p) {
  npuvp::ascendc::mmad(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(a), npuvp::ascendc::end_of(b),
                       npuvp::ascendc::DTypeOf<DstT>::value, npuvp::ascendc::DTypeOf<SrcT>::value,
                       npuvp::ascendc::DTypeOf<SrcT>::value, p, false, {});
}
// Separate A and B types (u8 x s8).
template <class DstT, class AT, class BT, typename = std::enable_if_t<!std::is_same<AT, BT>::value>>
void Mmad(const LocalTensor<DstT>& dst, const LocalTensor<AT>& a, const LocalTensor<BT>& b, const MmadParams& p) {
  npuvp::ascendc::mmad(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(a), npuvp::ascendc::end_of(b),
                       npuvp::ascendc::DTypeOf<DstT>::value, npuvp::ascendc::DTypeOf<AT>::value,
                       npuvp::ascendc::DTypeOf<BT>::value, p, false, {});
}
// With the bias in the BiasTable (C2).
template <class DstT, class SrcT, class BiasT>
void Mmad(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& a, const LocalTensor<SrcT>& b,
          const LocalTensor<BiasT>& bias, const MmadParams& p) {
  npuvp::ascendc::mmad(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(a), npuvp::ascendc::end_of(b),
                       npuvp::ascendc::DTypeOf<DstT>::value, npuvp::ascendc::DTypeOf<SrcT>::value,
                       npuvp::ascendc::DTypeOf<SrcT>::value, p, true, npuvp::ascendc::end_of(bias));
}

template <class DstT, class SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const FixpipeParamsV220& p) {
  npuvp::ascendc::fixpipe(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), npuvp::ascendc::DTypeOf<DstT>::value,
                          npuvp::ascendc::DTypeOf<SrcT>::value, p, config.format == CO2Layout::ROW_MAJOR);
}
template <class DstT, class SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const FixpipeParamsV220& p) {
  npuvp::ascendc::fixpipe(npuvp::ascendc::end_of(dst), npuvp::ascendc::end_of(src), npuvp::ascendc::DTypeOf<DstT>::value,
                          npuvp::ascendc::DTypeOf<SrcT>::value, p, config.format == CO2Layout::ROW_MAJOR);
}

}  // namespace AscendC
