// An on-core buffer (UB, L1, L0A, ...): bytes with a size and an address alignment.
// Pipes reach it by pointer; every access is checked first. The bytes are mapped on demand
// (zero-filled, committed page by page as they are touched), so host memory follows what the
// kernels use, not the chip's core count times its buffer sizes (issue 29: 1024 AI Cores'
// buffers were ~1.8 GB committed up front).
#pragma once
#include <cstdint>
#include <string>
#include "models/aicore/isa.h"
#include "tlm/host_mapping.h"

namespace npuvp::aicore {

class LocalBuffer {
 public:
  LocalBuffer(MemSpace space, uint64_t size, unsigned alignment);

  MemSpace space() const { return space_; }
  const char* name() const { return mem_space_name(space_); }
  uint64_t size() const { return size_; }
  unsigned alignment() const { return alignment_; }
  uint8_t* data() { return bytes_.data(); }
  const uint8_t* data() const { return bytes_.data(); }

  // Empty if [addr, addr + length) lies inside the buffer and addr is aligned; else why not.
  // `what` names the operand in the message ("dst", "src").
  std::string check(uint64_t addr, uint64_t length, const char* what) const;
  // As check(), without the alignment rule (scalar element access).
  std::string check_range(uint64_t addr, uint64_t length, const char* what) const;

 private:
  MemSpace space_;
  unsigned alignment_;
  uint64_t size_;
  HostMapping bytes_;
};

}  // namespace npuvp::aicore
