// Runs a TIK program (tik_program.h) on the process's npuvp::Device: GM for every GM tensor,
// the inputs copied in, one launch of `block_num` blocks whose body interprets the statement
// tree as each core's scalar program (scalars, loops and branches evaluated here, every TIK
// instruction issued as the isa.h instruction the Ascend C API issues), the outputs copied
// back. Between pipes it inserts the SetFlag/WaitFlag pairs TIK's compiler would: before an
// instruction that touches a tensor an instruction still pending on another pipe wrote (or, for
// a write, read), at tensor granularity, which is what makes thread_num=2 double-buffer.
//
// Uninitialised memory is deterministic: every byte of a core's local buffers reads
// kUninitialisedByte when a block starts, and so does every GM tensor that is not an input.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "sw/runtime/device.h"
#include "sw/tik/tik_program.h"

namespace npuvp::tik {

inline constexpr uint8_t kUninitialisedByte = 0xA5;

// One argument of the run, in BuildCCE's input order: a GM tensor's bytes, or an InputScalar.
struct Feed {
  std::vector<uint8_t> bytes;
  bool is_scalar = false;
  Value scalar;
};

struct RunResult {
  std::vector<std::vector<uint8_t>> outputs;  // in BuildCCE's output order
  RunReport report;
  uint64_t instructions = 0;  // TIK instructions the blocks issued
};

// Runs `program` on Device::instance(); errors raise npuvp errors naming the instruction's
// Python file:line.
// With a console (start_debug(interactive=True)), block 0 stops where it says (tik_console.h).
class Console;
RunResult run(const Program& program, const std::vector<Feed>& feeds, Console* console = nullptr);

// The npuvp platform for a TIK SoC name (set_current_compile_soc_info: "Ascend910",
// "Ascend310P3", "Ascend910B2", ...), or nullptr.
const char* platform_for_tik_soc(const char* soc);

}  // namespace npuvp::tik
