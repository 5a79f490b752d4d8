// Runs a lib/ API on one core with its operands in UB: each operand is a UB buffer of its own,
// filled from a host array (inputs) and read back after the call (all of them), with
// PipeBarrier<PIPE_ALL> around the call so the test sees the finished bytes.
#pragma once
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include "kernel_operator.h"
#include "sw/runtime/device.h"

namespace npuvp::testing {

struct UbOperand {
  std::vector<uint8_t> bytes;  // contents in (size: the buffer's size, a multiple of 32 B)

  template <class T>
  static UbOperand of(const std::vector<T>& v) {
    UbOperand o;
    o.bytes.resize((v.size() * sizeof(T) + 31) / 32 * 32);
    std::memcpy(o.bytes.data(), v.data(), v.size() * sizeof(T));
    return o;
  }
  static UbOperand zeros(size_t bytes) {
    UbOperand o;
    o.bytes.assign((bytes + 31) / 32 * 32, 0);
    return o;
  }
  template <class T>
  std::vector<T> as(size_t n) const {
    std::vector<T> v(n);
    std::memcpy(v.data(), bytes.data(), n * sizeof(T));
    return v;
  }
};

// `body` gets the operands as byte tensors (ReinterpretCast them); afterwards `ops` hold the
// UB contents.
inline void run_in_ub(Device& dev, std::vector<UbOperand>& ops,
                      const std::function<void(const std::vector<AscendC::LocalTensor<uint8_t>>&)>& body) {
  std::vector<uint8_t*> gm;
  for (auto& o : ops) {
    auto* p = static_cast<uint8_t*>(AscendC::GmAlloc(o.bytes.size()));
    std::memcpy(p, o.bytes.data(), o.bytes.size());
    gm.push_back(p);
  }
  dev.launch("lib_api", 1, [&] {
    using namespace AscendC;
    TPipe pipe;
    std::vector<std::unique_ptr<TBuf<TPosition::VECCALC>>> bufs;
    std::vector<LocalTensor<uint8_t>> ub;
    std::vector<GlobalTensor<uint8_t>> g(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      bufs.push_back(std::make_unique<TBuf<TPosition::VECCALC>>());
      pipe.InitBuffer(*bufs.back(), static_cast<uint32_t>(ops[i].bytes.size()));
      ub.push_back(bufs.back()->Get<uint8_t>());
      g[i].SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(gm[i]), ops[i].bytes.size());
      DataCopy(ub[i], g[i], static_cast<uint32_t>(ops[i].bytes.size()));
    }
    PipeBarrier<PIPE_ALL>();
    body(ub);
    PipeBarrier<PIPE_ALL>();
    for (size_t i = 0; i < ops.size(); ++i) DataCopy(g[i], ub[i], static_cast<uint32_t>(ops[i].bytes.size()));
    PipeBarrier<PIPE_ALL>();
  });
  for (size_t i = 0; i < ops.size(); ++i) {
    std::memcpy(ops[i].bytes.data(), gm[i], ops[i].bytes.size());
    AscendC::GmFree(gm[i]);
  }
}

}  // namespace npuvp::testing
