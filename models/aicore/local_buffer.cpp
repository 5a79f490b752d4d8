#include "models/aicore/local_buffer.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "tlm/log.h"

namespace npuvp::aicore {

LocalBuffer::LocalBuffer(MemSpace space, uint64_t size, unsigned alignment)
    : space_(space), alignment_(alignment), size_(size), bytes_(size) {
  if (size > 0 && !bytes_.data()) {
    raise(mem_space_name(space), "cannot map {} bytes of host memory for the buffer: {}", size, std::strerror(errno));
  }
}

std::string LocalBuffer::check_range(uint64_t addr, uint64_t length, const char* what) const {
  if (addr > size() || length > size() - addr) {
    return fmt::format("{} range [0x{:x}, 0x{:x}) exceeds {} size 0x{:x} ({} bytes)", what, addr,
                       addr + length, name(), size(), size());
  }
  return {};
}

std::string LocalBuffer::check(uint64_t addr, uint64_t length, const char* what) const {
  if (alignment_ > 1 && addr % alignment_ != 0) {
    return fmt::format("{} address {}:0x{:x} is not {} B aligned", what, name(), addr,
                       alignment_);
  }
  return check_range(addr, length, what);
}

}  // namespace npuvp::aicore
