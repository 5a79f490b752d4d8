// Thrown by a front end to end a kernel body as a return from it would, from a function the
// body called (REGIST_MATMUL_OBJ on a mixed kernel's AIC inside a function that returns a
// value). Not an error: AiCore::run_kernel_body catches it and the block ends normally.
#pragma once

namespace npuvp::aicore {
struct KernelBodyReturn {};
}  // namespace npuvp::aicore
