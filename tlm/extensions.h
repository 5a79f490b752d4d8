// Payload extensions carried by every transaction from an AI Core.
#pragma once
#include <tlm>

namespace npuvp {

// Who issued a transaction: the initiator (core) and the pipe inside it, for per-initiator
// statistics and contention accounting. Pipe numbering belongs to the model (aicore/isa.h).
// `moves_data` false marks a timing-only transaction (perf mode, cache fills and
// write-backs): targets account time, bandwidth and statistics but copy no bytes.
struct InitiatorExtension : tlm::tlm_extension<InitiatorExtension> {
  int initiator = -1;
  int pipe = -1;
  bool moves_data = true;

  InitiatorExtension() = default;
  InitiatorExtension(int initiator_id, int pipe_id, bool data = true)
      : initiator(initiator_id), pipe(pipe_id), moves_data(data) {}
  tlm::tlm_extension_base* clone() const override { return new InitiatorExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const InitiatorExtension&>(other);
  }
};

// True unless the transaction carries an extension that says it is timing-only.
inline bool moves_data(const tlm::tlm_generic_payload& tx) {
  const InitiatorExtension* ext = nullptr;
  tx.get_extension(ext);
  return ext == nullptr || ext->moves_data;
}

}  // namespace npuvp
