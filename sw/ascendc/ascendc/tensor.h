// GlobalTensor (GM) and LocalTensor (on-core buffers).
#pragma once
#include <cstdint>
#include <cstring>
#include <utility>
#include "sw/ascendc/ascendc/types.h"

namespace npuvp::ascendc {
// Scalar access to local and global memory from the kernel's scalar thread.
void scalar_read_local(aicore::MemSpace space, uint64_t addr, void* out, unsigned size);
void scalar_write_local(aicore::MemSpace space, uint64_t addr, const void* in, unsigned size);
void scalar_read_gm(const void* host_pointer, void* out, unsigned size);
void scalar_write_gm(void* host_pointer, const void* in, unsigned size);
}  // namespace npuvp::ascendc

namespace AscendC {

template <class T>
class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;

  void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0) {
    buffer_ = buffer;
    size_ = size;
  }
  __gm__ T* GetPhyAddr() const { return buffer_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return buffer_ + offset; }
  uint64_t GetSize() const { return size_; }

  T GetValue(uint64_t offset) const {
    T v;
    npuvp::ascendc::scalar_read_gm(buffer_ + offset, &v, sizeof(T));
    return v;
  }
  void SetValue(uint64_t offset, T value) {
    npuvp::ascendc::scalar_write_gm(buffer_ + offset, &value, sizeof(T));
  }
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t;
    t.buffer_ = buffer_ + offset;
    t.size_ = size_ > offset ? size_ - offset : 0;
    return t;
  }

 private:
  __gm__ T* buffer_ = nullptr;
  uint64_t size_ = 0;
};

template <class T>
class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  LocalTensor(TPosition pos, uint64_t byte_addr, uint32_t elements, int32_t buffer_id = -1)
      : pos_(pos), addr_(byte_addr), size_(elements), buffer_id_(buffer_id) {}

  T GetValue(uint32_t index) const {
    T v;
    npuvp::ascendc::scalar_read_local(space(), addr_ + uint64_t(index) * sizeof(T), &v, sizeof(T));
    return v;
  }
  void SetValue(uint32_t index, T value) const {
    npuvp::ascendc::scalar_write_local(space(), addr_ + uint64_t(index) * sizeof(T), &value,
                                       sizeof(T));
  }
  LocalTensor operator[](uint32_t offset) const {
    return LocalTensor(pos_, addr_ + uint64_t(offset) * sizeof(T),
                       size_ > offset ? size_ - offset : 0, buffer_id_);
  }
  // dst = a + b, dst = a < b, ...: the expression (sw/ascendc/ascendc/vector_basic.h) runs its
  // operation with this tensor as the destination.
  template <class Expr, class = decltype(std::declval<const Expr&>().assign_to(std::declval<const LocalTensor&>()))>
  void operator=(const Expr& expr) {
    expr.assign_to(*this);
  }
  template <class U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(pos_, addr_, uint32_t(uint64_t(size_) * sizeof(T) / sizeof(U)), buffer_id_);
  }

  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * sizeof(T); }
  void SetSize(uint32_t elements) { size_ = elements; }
  TPosition GetPosition() const { return pos_; }
  // Byte address inside its buffer (the model's physical address).
  uint64_t GetPhyAddr() const { return addr_; }
  uint64_t GetPhyAddr(uint32_t offset) const { return addr_ + uint64_t(offset) * sizeof(T); }

  npuvp::aicore::MemSpace space() const { return npuvp::ascendc::position_space(pos_); }
  int32_t buffer_id() const { return buffer_id_; }

 private:
  TPosition pos_ = TPosition::VECCALC;
  uint64_t addr_ = 0;
  uint32_t size_ = 0;
  int32_t buffer_id_ = -1;  // which queue buffer it came from (for EnQue/FreeTensor)
};

}  // namespace AscendC
