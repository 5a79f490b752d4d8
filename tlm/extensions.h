// Payload extensions carried by every transaction from an AI Core.
#pragma once
#include <tlm>

namespace npuvp {

// Who issued a transaction: the initiator (core) and the pipe inside it, for per-initiator
// statistics and contention accounting. Pipe numbering belongs to the model (aicore/isa.h).
struct InitiatorExtension : tlm::tlm_extension<InitiatorExtension> {
  int initiator = -1;
  int pipe = -1;

  InitiatorExtension() = default;
  InitiatorExtension(int initiator_id, int pipe_id) : initiator(initiator_id), pipe(pipe_id) {}
  tlm::tlm_extension_base* clone() const override { return new InitiatorExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const InitiatorExtension&>(other);
  }
};

}  // namespace npuvp
