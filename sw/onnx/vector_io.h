// GM <-> UB runs of float32 of any length and alignment, for the vector kernels of the ONNX
// lowerings on every product: DataCopyPad on A2; on a coupled chip (no DataCopyPad) whole
// 32 B blocks by DataCopy (a load reads up to 7 elements past the run, which is harmless) and
// the stored run's last partial block by scalar stores, so a block never writes past its run.
#pragma once
#include <cstdint>
#include "kernel_operator.h"

namespace npuvp::onnx {

inline void load_run(const AscendC::LocalTensor<float>& dst, const AscendC::GlobalTensor<float>& src, uint32_t count,
                     bool separated) {
  using namespace AscendC;
  if (count == 0) return;
  if (separated) {
    DataCopyPad(dst, src, DataCopyExtParams(1, count * 4, 0, 0, 0), DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
  } else {
    DataCopy(dst, src, (count + 7) / 8 * 8);
  }
}

// Call after the vector results in src are complete (V_MTE3); on a coupled chip a partial
// last block waits for everything (PipeBarrier) and is stored by the scalar unit.
inline void store_run(const AscendC::GlobalTensor<float>& dst, const AscendC::LocalTensor<float>& src, uint32_t count,
                      bool separated) {
  using namespace AscendC;
  if (count == 0) return;
  if (separated) {
    DataCopyPad(dst, src, DataCopyExtParams(1, count * 4, 0, 0, 0));
    return;
  }
  const uint32_t whole = count / 8 * 8;
  if (whole > 0) DataCopy(dst, src, whole);
  if (whole < count) {
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<float> out = dst;
    for (uint32_t j = whole; j < count; ++j) out.SetValue(j, src.GetValue(j));
  }
}

}  // namespace npuvp::onnx
