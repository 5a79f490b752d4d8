// ge::Shape of CANN's graph/tensor.h, the part the host tiling functions take: the dims of a
// tensor (metadef's Shape: GetDimNum, GetDim, GetDims, GetShapeSize). Header-only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ge {

class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t index) const { return index < dims_.size() ? dims_[index] : 0; }
  std::vector<int64_t> GetDims() const { return dims_; }
  void SetDim(size_t index, int64_t value) {
    if (index < dims_.size()) dims_[index] = value;
  }
  // The product of the dims (0 for a shape without dims, as metadef returns).
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t size = 1;
    for (int64_t d : dims_) size *= d;
    return size;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge
