#include "tlm/extensions.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace extensions_test {

// A payload deletes the extensions it still holds when it is destroyed; one a caller lent it
// (a local) must be gone from it however the caller's scope ends, an exception included.
TEST(BorrowedExtensionTest, IsClearedWhenAnErrorLeavesTheScope) {
  tlm::tlm_generic_payload tx;
  npuvp::InitiatorExtension initiator(3, 1, false);
  npuvp::SpanListExtension spans;
  try {
    npuvp::BorrowedExtension<npuvp::InitiatorExtension> with_initiator(tx, &initiator);
    npuvp::BorrowedExtension<npuvp::SpanListExtension> with_spans(tx, &spans);
    npuvp::InitiatorExtension* seen = nullptr;
    tx.get_extension(seen);
    ASSERT_EQ(seen, &initiator);
    throw std::runtime_error("downstream failed");
  } catch (const std::runtime_error&) {
  }
  npuvp::InitiatorExtension* left_initiator = nullptr;
  npuvp::SpanListExtension* left_spans = nullptr;
  tx.get_extension(left_initiator);
  tx.get_extension(left_spans);
  EXPECT_EQ(left_initiator, nullptr);
  EXPECT_EQ(left_spans, nullptr);
}

// A null extension sets nothing (a transaction with no span list to lend leaves the slot as
// it is), and the slot is clear when the scope ends, as after any lending.
TEST(BorrowedExtensionTest, NullLendsNothingAndLeavesTheSlotClear) {
  tlm::tlm_generic_payload tx;
  npuvp::SpanListExtension earlier;
  tx.set_extension(&earlier);
  {
    npuvp::BorrowedExtension<npuvp::SpanListExtension> with_spans(tx, nullptr);
    npuvp::SpanListExtension* seen = nullptr;
    tx.get_extension(seen);
    EXPECT_EQ(seen, &earlier);
  }
  npuvp::SpanListExtension* left = nullptr;
  tx.get_extension(left);
  EXPECT_EQ(left, nullptr);
}

}  // namespace extensions_test
