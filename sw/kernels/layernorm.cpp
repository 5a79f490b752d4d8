// Layernorm as an Ascend C kernel: gamma and beta are loaded once per block; each row comes in
// through VECIN, the vector unit forms the sums (ReduceSum), the scalar unit turns them into
// mean and 1/sqrt(var + eps) after a V->S flag, and the vector unit applies them.
#include "sw/kernels/layernorm.h"
#include "sw/kernels/reduction.h"

#include <cmath>

#include "models/aicore/ai_core.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
namespace layernorm_cpp {  // named after the file: unity batches share anonymous namespaces
constexpr int32_t kBuffers = 2;
constexpr uint32_t kMaxCols = 4096;

class KernelLayernorm {
 public:
  KernelLayernorm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t rows, uint32_t cols, float eps)
      : rows_(rows), cols_(cols), eps_(eps) {
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), uint64_t(rows) * cols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(rows) * cols);
    gammaGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gamma), cols);
    betaGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(beta), cols);
    pipe.InitBuffer(inQueue, kBuffers, cols * sizeof(float));
    pipe.InitBuffer(outQueue, kBuffers, cols * sizeof(float));
    pipe.InitBuffer(params, 2 * cols * sizeof(float));
    pipe.InitBuffer(work, cols * sizeof(float));
    pipe.InitBuffer(result, 64);
  }

  void Process() {
    LocalTensor<float> gb = params.Get<float>();
    DataCopy(gb, gammaGm, cols_);
    DataCopy(gb[cols_], betaGm, cols_);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    for (uint32_t row = GetBlockIdx(); row < rows_; row += GetBlockNum()) {
      LocalTensor<float> x = inQueue.AllocTensor<float>();
      DataCopy(x, xGm[uint64_t(row) * cols_], cols_);
      inQueue.EnQue(x);
      Compute(gb);
      LocalTensor<float> y = outQueue.DeQue<float>();
      DataCopy(yGm[uint64_t(row) * cols_], y, cols_);
      outQueue.FreeTensor(y);
    }
  }

 private:
  void Compute(const LocalTensor<float>& gb) {
    LocalTensor<float> x = inQueue.DeQue<float>();
    LocalTensor<float> y = outQueue.AllocTensor<float>();
    LocalTensor<float> tmp = work.Get<float>();
    LocalTensor<float> r = result.Get<float>();
    const int32_t n = static_cast<int32_t>(cols_);
    const float inv_n = 1.0f / float(cols_);
    ReduceSum(r, x, tmp, n);
    const float mean = read_reduction(r) * inv_n;
    Adds(y, x, -mean, n);   // centred
    Mul(tmp, y, y, n);      // squares
    ReduceSum(r, tmp, tmp, n);
    const float var = read_reduction(r) * inv_n;
    const float rstd = 1.0f / std::sqrt(var + eps_);
    Muls(y, y, rstd, n);
    Mul(y, y, gb, n);         // gamma
    Add(y, y, gb[cols_], n);  // beta
    outQueue.EnQue(y);
    inQueue.FreeTensor(x);
  }

  uint32_t rows_, cols_;
  float eps_;
  TPipe pipe;
  TQue<TPosition::VECIN, kBuffers> inQueue;
  TQue<TPosition::VECOUT, kBuffers> outQueue;
  TBuf<TPosition::VECCALC> params, work, result;
  GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
};
}  // namespace layernorm_cpp
}  // namespace

void layernorm_rows(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t rows, uint32_t cols, float eps) {
  if (cols == 0 || cols % 8 != 0 || cols > layernorm_cpp::kMaxCols) {
    npuvp::ascendc::core().fail("layernorm_rows", "cols must be a positive multiple of 8, at most 4096");
  }
  layernorm_cpp::KernelLayernorm op(x, gamma, beta, y, rows, cols, eps);
  op.Process();
}

}  // namespace npuvp::kernels
