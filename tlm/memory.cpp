#include "tlm/memory.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include "tlm/extensions.h"
#include "tlm/log.h"
#include "tlm/sim_time.h"

namespace npuvp {

Memory::Memory(sc_core::sc_module_name name, const Params& params)
    : sc_core::sc_module(name),
      socket("socket"),
      params_(params),
      port_(params.bandwidth),
      // name() is valid here: the sc_module base is already constructed.
      bytes_read_(Stats::global().counter(std::string(this->name()) + ".bytes_read", "bytes",
                                          "bytes read by b_transport")),
      bytes_written_(Stats::global().counter(std::string(this->name()) + ".bytes_written",
                                             "bytes", "bytes written by b_transport")),
      transactions_(Stats::global().counter(std::string(this->name()) + ".transactions",
                                            "transactions", "b_transport calls")) {
  if (params_.size == 0) raise(this->name(), "memory size must not be zero");
  storage_ = HostMapping(params_.size, params_.huge_pages);  // committed page by page as it is touched
  if (!storage_.data()) {
    raise(this->name(), "cannot map {} bytes of backing store: {}", params_.size, std::strerror(errno));
  }

  socket.register_b_transport(this, &Memory::b_transport);
  socket.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
  socket.register_transport_dbg(this, &Memory::transport_dbg);
}

bool Memory::check(tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  const uint64_t length = tx.get_data_length();
  if (address > params_.size || length > params_.size - address) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (tx.get_byte_enable_ptr() != nullptr) {
    tx.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  const unsigned width = tx.get_streaming_width();
  if (width != 0 && width < length) {
    tx.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (length > 0 && tx.get_data_ptr() == nullptr && moves_data(tx)) {
    tx.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return false;
  }
  return true;
}

void Memory::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  if (tx.is_read() || tx.is_write()) {
    if (!check(tx)) return;
    const uint64_t length = tx.get_data_length();
    uint8_t* mem = storage_.data() + tx.get_address();
    const bool data = moves_data(tx);  // timing-only transactions account but copy nothing
    if (tx.is_read()) {
      if (data) std::memcpy(tx.get_data_ptr(), mem, length);
      bytes_read_ += length;
    } else {
      if (data) std::memcpy(mem, tx.get_data_ptr(), length);
      bytes_written_ += length;
    }
    ++transactions_;
    // The port serves one transfer at a time from the initiator's local time; the access
    // latency comes on top of the transfer.
    const sc_core::sc_time now = sim_time();
    const sc_core::sc_time end = port_.reserve(now + delay, length);
    delay = (end - now) + params_.latency;
  }
  tx.set_dmi_allowed(params_.dmi);
  tx.set_response_status(tlm::TLM_OK_RESPONSE);  // TLM_IGNORE_COMMAND succeeds as a no-op
}

bool Memory::get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  if (!params_.dmi || tx.get_address() >= params_.size) return false;
  dmi.set_dmi_ptr(storage_.data());
  dmi.set_start_address(0);
  dmi.set_end_address(params_.size - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(params_.latency);
  dmi.set_write_latency(params_.latency);
  return true;
}

unsigned Memory::transport_dbg(tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  if (address >= params_.size || tx.get_data_ptr() == nullptr) return 0;
  const uint64_t length = std::min<uint64_t>(tx.get_data_length(), params_.size - address);
  if (tx.is_read()) {
    std::memcpy(tx.get_data_ptr(), storage_.data() + address, length);
  } else if (tx.is_write()) {
    std::memcpy(storage_.data() + address, tx.get_data_ptr(), length);
  } else {
    return 0;
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return static_cast<unsigned>(length);
}

}  // namespace npuvp
