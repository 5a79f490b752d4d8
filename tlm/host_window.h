// A device address range that is also plain host memory (GM backed by a host array): the
// translation both ways, for blocks that move bytes directly while the memory system
// accounts the time (AI Core data moves, the host bridge's DMA).
#pragma once
#include <cstdint>
#include <cstddef>

namespace npuvp {

struct HostWindow {
  uint8_t* host = nullptr;  // the host byte of device address `base`
  uint64_t base = 0;
  uint64_t size = 0;

  bool contains(uint64_t address, uint64_t length) const {
    return host != nullptr && address >= base && address - base <= size && length <= size - (address - base);
  }
  // The host bytes of [address, address + length), or nullptr if they are not all inside.
  uint8_t* pointer(uint64_t address, uint64_t length) const {
    return contains(address, length) ? host + (address - base) : nullptr;
  }
  // The device address of host byte `p`, or `outside` if the window does not hold it.
  uint64_t device_address(const void* p, uint64_t outside) const {
    const auto at = reinterpret_cast<uintptr_t>(p), start = reinterpret_cast<uintptr_t>(host);
    return host != nullptr && at >= start && at - start < size ? base + (at - start) : outside;
  }
};

}  // namespace npuvp
