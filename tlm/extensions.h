// Payload extensions carried by every transaction from an AI Core.
#pragma once
#include <cstdint>
#include <vector>
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

// A transaction over several address ranges at once: the rows of a strided DMA, the fills of
// one cache lookup. It is timing-only (the initiator moves the bytes itself); the payload's
// address is the first span's and its length the sum of the spans'. Every target on the timed
// GM path (interconnect, L2 slice, memory controller) serves each span, so simulating one
// instruction costs one transaction per target it reaches instead of one per row.
struct AddressSpan {
  uint64_t address = 0;
  uint64_t length = 0;
};
struct SpanListExtension : tlm::tlm_extension<SpanListExtension> {
  std::vector<AddressSpan> spans;
  // When `bounded`, every span lies in [low, high): an initiator that knows the range sets
  // it, and a target may check that range once instead of every span (falling back to the
  // spans when the range is not all valid, to name the bad one).
  bool bounded = false;
  uint64_t low = 0, high = 0;

  tlm::tlm_extension_base* clone() const override { return new SpanListExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const SpanListExtension&>(other);
  }
  uint64_t bytes() const {
    uint64_t total = 0;
    for (const AddressSpan& s : spans) total += s.length;
    return total;
  }
  // Appends [address, address + length), merging with the last span when they touch.
  void add(uint64_t address, uint64_t length) {
    if (!spans.empty() && spans.back().address + spans.back().length == address) {
      spans.back().length += length;
    } else {
      // Field by field: building the pair on the stack and copying it as one 16-byte load
      // stalls on store forwarding, and this runs for every row of every data move.
      AddressSpan& s = spans.emplace_back();
      s.address = address;
      s.length = length;
    }
  }
};

// Sets on `tx`, for this object's lifetime, an extension the caller owns (a local, a
// member). A payload deletes the extensions it still holds when it is destroyed or cleaned
// up, and one the caller owns must not be deleted: so it is cleared however the scope is
// left, an error raised downstream included. A null `ext` sets nothing (and clears the slot).
template <class Ext>
class BorrowedExtension {
 public:
  BorrowedExtension(tlm::tlm_generic_payload& tx, Ext* ext) : tx_(tx) {
    if (ext) tx_.set_extension(ext);
  }
  ~BorrowedExtension() { tx_.clear_extension(static_cast<Ext*>(nullptr)); }
  BorrowedExtension(const BorrowedExtension&) = delete;
  BorrowedExtension& operator=(const BorrowedExtension&) = delete;

 private:
  tlm::tlm_generic_payload& tx_;
};

// The spans a transaction covers: its span list, or its one [address, length).
template <typename Visit>
void for_each_span(const tlm::tlm_generic_payload& tx, Visit&& visit) {
  const SpanListExtension* list = nullptr;
  tx.get_extension(list);
  if (!list) {
    visit(tx.get_address(), uint64_t(tx.get_data_length()));
    return;
  }
  for (const AddressSpan& s : list->spans) visit(s.address, s.length);
}

// Readies `tx` for a new transaction: `length` bytes at `address`, from or to `data`
// (nullptr for a timing-only transaction), no byte enables, response incomplete.
inline void prepare(tlm::tlm_generic_payload& tx, tlm::tlm_command command, uint64_t address, unsigned char* data,
                    uint64_t length) {
  tx.set_command(command);
  tx.set_address(address);
  tx.set_data_ptr(data);
  tx.set_data_length(static_cast<unsigned>(length));
  tx.set_streaming_width(static_cast<unsigned>(length));
  tx.set_byte_enable_ptr(nullptr);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

// True unless the transaction carries an extension that says it is timing-only; the first
// form for a target that has already read the transaction's extension (or found none).
inline bool moves_data(const InitiatorExtension* ext) { return ext == nullptr || ext->moves_data; }
inline bool moves_data(const tlm::tlm_generic_payload& tx) {
  const InitiatorExtension* ext = nullptr;
  tx.get_extension(ext);
  return moves_data(ext);
}

// A GM write that its home node (the L2 slice that owns the address) applies as a
// read-modify-write of the bytes already there: element by element, old = old op new. Ascend
// C's SetAtomicAdd/Max/Min; the write carries its bytes (the initiator cannot merge them
// itself, other cores may hit the same address at the same simulated time).
struct AtomicExtension : tlm::tlm_extension<AtomicExtension> {
  enum class Op : uint8_t { None, Add, Max, Min };
  enum class Type : uint8_t { F32, F16, BF16, S32, S16, S8 };
  Op op = Op::None;
  Type type = Type::F32;

  AtomicExtension() = default;
  AtomicExtension(Op o, Type t) : op(o), type(t) {}
  tlm::tlm_extension_base* clone() const override { return new AtomicExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const AtomicExtension&>(other);
  }
};
inline unsigned atomic_type_size(AtomicExtension::Type t) {
  switch (t) {
    case AtomicExtension::Type::F32: case AtomicExtension::Type::S32: return 4;
    case AtomicExtension::Type::F16: case AtomicExtension::Type::BF16: case AtomicExtension::Type::S16: return 2;
    case AtomicExtension::Type::S8: return 1;
  }
  return 1;
}

}  // namespace npuvp
