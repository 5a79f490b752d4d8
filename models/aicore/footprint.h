// The bytes an instruction may touch, for automatic synchronisation (AiCore, core.auto_sync):
// the scalar unit's GetValue/SetValue wait for a pipe only while an instruction still queued
// on it touches the bytes they access. One range per operand, from its first to its last
// byte (the gaps of strided and blocked operands count as touched), so a test may find an
// overlap where the exact bytes have none, never the other way round.
#pragma once
#include <cstdint>
#include "models/aicore/isa.h"

namespace npuvp::aicore {

// Whether `instr` may write bytes [begin, end) of `space` (or, with `reads_too`, read or
// write them). GM addresses are device addresses. Instructions that move no data touch
// nothing; an instruction kind this does not know touches everything.
bool touches(const Instruction& instr, MemSpace space, uint64_t begin, uint64_t end, bool reads_too);

}  // namespace npuvp::aicore
