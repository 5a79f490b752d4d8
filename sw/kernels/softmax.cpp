// Row softmax as an Ascend C kernel: the row comes in through a VECIN queue, the vector unit
// finds the max and the sum (ReduceMax/ReduceSum), the scalar unit reads them after a V->S
// flag and feeds them back as scalars (Adds, Muls), and the result leaves through VECOUT.
#include "sw/kernels/softmax.h"
#include "sw/kernels/reduction.h"

#include "models/aicore/ai_core.h"

namespace npuvp::kernels {

using namespace AscendC;

namespace {
namespace softmax_cpp {  // named after the file: unity batches share anonymous namespaces
constexpr int32_t kBuffers = 2;
constexpr uint32_t kMaxCols = 8192;

class KernelSoftmax {
 public:
  KernelSoftmax(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols) : rows_(rows), cols_(cols) {
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), uint64_t(rows) * cols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t(rows) * cols);
    pipe.InitBuffer(inQueue, kBuffers, cols * sizeof(float));
    pipe.InitBuffer(outQueue, kBuffers, cols * sizeof(float));
    pipe.InitBuffer(work, cols * sizeof(float));
    pipe.InitBuffer(result, 64);  // the reductions' scalars
  }

  void Process() {
    for (uint32_t row = GetBlockIdx(); row < rows_; row += GetBlockNum()) {
      LocalTensor<float> x = inQueue.AllocTensor<float>();
      DataCopy(x, xGm[uint64_t(row) * cols_], cols_);
      inQueue.EnQue(x);
      Compute();
      LocalTensor<float> y = outQueue.DeQue<float>();
      DataCopy(yGm[uint64_t(row) * cols_], y, cols_);
      outQueue.FreeTensor(y);
    }
  }

 private:
  void Compute() {
    LocalTensor<float> x = inQueue.DeQue<float>();
    LocalTensor<float> y = outQueue.AllocTensor<float>();
    LocalTensor<float> tmp = work.Get<float>();
    LocalTensor<float> r = result.Get<float>();
    const int32_t n = static_cast<int32_t>(cols_);
    ReduceMax(r, x, tmp, n);
    const float max = read_reduction(r);
    Adds(y, x, -max, n);
    Exp(y, y, n);
    ReduceSum(r, y, tmp, n);
    const float sum = read_reduction(r);
    Muls(y, y, 1.0f / sum, n);
    outQueue.EnQue(y);
    inQueue.FreeTensor(x);
  }

  uint32_t rows_, cols_;
  TPipe pipe;
  TQue<TPosition::VECIN, kBuffers> inQueue;
  TQue<TPosition::VECOUT, kBuffers> outQueue;
  TBuf<TPosition::VECCALC> work, result;
  GlobalTensor<float> xGm, yGm;
};
}  // namespace softmax_cpp
}  // namespace

void softmax_rows(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols) {
  if (cols == 0 || cols % 8 != 0 || cols > softmax_cpp::kMaxCols) {
    npuvp::ascendc::core().fail("softmax_rows", "cols must be a positive multiple of 8, at most 8192");
  }
  softmax_cpp::KernelSoftmax op(x, y, rows, cols);
  op.Process();
}

}  // namespace npuvp::kernels
