// Zero-filled host memory, mapped on demand: pages are committed on first touch, so a large,
// sparsely used region (a 64 GiB GM, a PE array's memories) costs only what is touched.
//
// `huge_pages` asks the kernel for transparent huge pages (madvise MADV_HUGEPAGE; a hint,
// ignored where THP is off): a region that is filled in megabytes at a time (GM taking a
// model's weights, a data mover's staging) then takes one fault per 2 MiB instead of one per
// 4 KiB, and host TLB misses on it are rarer. Both cost most on a virtualised host (measured
// in docs/performance.md). Touching one byte commits 2 MiB, so a sparsely used region should
// not ask.
#pragma once
#include <sys/mman.h>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace npuvp {

class HostMapping {
 public:
  HostMapping() = default;
  // data() is nullptr if the mapping fails (errno says why).
  explicit HostMapping(size_t bytes, bool huge_pages = false) : size_(bytes) {
    if (bytes == 0) return;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      size_ = 0;
      return;
    }
    data_ = static_cast<uint8_t*>(p);
#ifdef MADV_HUGEPAGE
    if (huge_pages) madvise(p, bytes, MADV_HUGEPAGE);  // a hint: failure leaves small pages
#else
    (void)huge_pages;
#endif
  }
  HostMapping(HostMapping&& other) noexcept { *this = std::move(other); }
  HostMapping& operator=(HostMapping&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  HostMapping(const HostMapping&) = delete;
  HostMapping& operator=(const HostMapping&) = delete;
  ~HostMapping() {
    if (data_) munmap(data_, size_);
  }

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace npuvp
