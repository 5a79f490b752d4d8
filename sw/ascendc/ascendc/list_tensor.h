// ListTensorDesc and TensorDesc (辅助数据结构 pages of the Ascend C reference): a list of
// tensors the host lays out in GM, read by the kernel. The layout, in u64 words from the
// list's start:
//   [0]                 byte offset from the start to the data-pointer array
//   then per tensor i   (dim | i << 32), shape[0], ..., shape[dim - 1]
//                       (a list without shapes: one descriptor (0, 0xffffffff), pointers at 24)
//   data-pointer array  one GM address per tensor
// The first descriptor's high word, when not 0, is the count; else the count is the last
// descriptor's index + 1. Every word is read by the scalar unit (GlobalTensor::GetValue).
#pragma once
#include <cstdint>
#include "sw/ascendc/ascendc/tensor.h"

namespace npuvp::ascendc {
// Fails the running kernel with `why`, naming `api`.
[[noreturn]] void list_tensor_fail(const char* api, const char* why, uint64_t a, uint64_t b);
}  // namespace npuvp::ascendc

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
 public:
  TensorDesc() = default;
  ~TensorDesc() = default;
  void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim() { return dim_; }
  uint64_t GetIndex() { return index_; }
  uint64_t GetShape(uint32_t offset) {
    if (offset >= dim_) npuvp::ascendc::list_tensor_fail("TensorDesc::GetShape", "dimension {} of {}", offset, dim_);
    return shape_[offset];
  }
  __gm__ T* GetDataPtr() { return data_; }
  // The tensor as a GlobalTensor; its size is the shape's element count times sizeof(T), as
  // in CANN.
  GlobalTensor<T> GetDataObj() {
    uint64_t size = sizeof(T);
    for (uint32_t i = 0; i < dim_; ++i) size *= shape_[i];
    GlobalTensor<T> t;
    t.SetGlobalBuffer(data_, size);
    return t;
  }

 private:
  friend class ListTensorDesc;
  uint32_t dim_ = 0;
  uint32_t index_ = 0;
  uint64_t* shape_ = nullptr;
  __gm__ T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  ~ListTensorDesc() = default;
  // length (bytes) and shapeSize (tensor count) are only checked when both are given.
  ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }
  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    namespace a = npuvp::ascendc;
    if (!data) a::list_tensor_fail("ListTensorDesc::Init", "the list address is null", 0, 0);
    words_.SetGlobalBuffer(static_cast<__gm__ uint64_t*>(data));
    const uint64_t pointers_offset = words_.GetValue(0);
    const uint64_t first = words_.GetValue(1);
    dim_ = static_cast<uint32_t>(first & 0xffffffffu);
    desc_words_ = dim_ == 0 ? 2 : 1 + dim_;
    pointers_ = pointers_offset / sizeof(uint64_t);
    if (pointers_offset % sizeof(uint64_t) != 0 || pointers_ < 1 + desc_words_) {
      a::list_tensor_fail("ListTensorDesc::Init", "data-pointer offset {} B is not a multiple of 8 past the first "
                          "descriptor ({} words)", pointers_offset, desc_words_);
    }
    const uint32_t count_word = static_cast<uint32_t>(first >> 32);
    count_ = count_word != 0 ? count_word
                             : static_cast<uint32_t>(words_.GetValue(pointers_ - desc_words_) >> 32) + 1;
    if (dim_ != 0 && count_ != (pointers_ - 1) / desc_words_) {
      a::list_tensor_fail("ListTensorDesc::Init", "{} descriptors do not fill the {} words before the data "
                          "pointers", count_, pointers_ - 1);
    }
    if (dim_ == 0 && (words_.GetValue(2) != 0xffffffffu || pointers_offset != 24)) {
      a::list_tensor_fail("ListTensorDesc::Init", "a list without shapes has one descriptor (0, 0xffffffff) "
                          "and its pointers at byte 24 (offset {}, word 2 is {:#x})", pointers_offset,
                          words_.GetValue(2));
    }
    if (length != 0xffffffff && shapeSize != 0xffffffff) {
      if (count_ != shapeSize) a::list_tensor_fail("ListTensorDesc::Init", "{} tensors, shapeSize says {}", count_, shapeSize);
      if (length != pointers_offset + uint64_t(count_) * sizeof(uint64_t)) {
        a::list_tensor_fail("ListTensorDesc::Init", "the list is {} B, length says {}",
                            pointers_offset + uint64_t(count_) * sizeof(uint64_t), length);
      }
    }
  }
  // Fills desc with tensor `index`'s dim, index, data pointer and shape (written to the
  // address desc.SetShapeAddr gave).
  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    namespace a = npuvp::ascendc;
    check_index("ListTensorDesc::GetDesc", index);
    if (dim_ == 0) a::list_tensor_fail("ListTensorDesc::GetDesc", "the list has no shapes", 0, 0);
    if (!desc.shape_) a::list_tensor_fail("ListTensorDesc::GetDesc", "call SetShapeAddr first", 0, 0);
    desc.dim_ = dim_;
    desc.index_ = index;
    desc.data_ = GetDataPtr<T>(index);
    const uint64_t at = 1 + uint64_t(index) * desc_words_;
    for (uint32_t i = 0; i < dim_; ++i) desc.shape_[i] = words_.GetValue(at + 1 + i);
  }
  template <class T>
  __gm__ T* GetDataPtr(uint32_t index) {
    check_index("ListTensorDesc::GetDataPtr", index);
    return reinterpret_cast<__gm__ T*>(static_cast<uintptr_t>(words_.GetValue(pointers_ + index)));
  }
  uint32_t GetSize() { return count_; }

 private:
  void check_index(const char* api, uint32_t index) const {
    if (index >= count_) npuvp::ascendc::list_tensor_fail(api, "index {} out of the list's {} tensors", index, count_);
  }
  GlobalTensor<uint64_t> words_;
  uint32_t dim_ = 0;
  uint32_t desc_words_ = 0;
  uint32_t count_ = 0;
  uint64_t pointers_ = 0;  // word index of the data-pointer array
};

}  // namespace AscendC
