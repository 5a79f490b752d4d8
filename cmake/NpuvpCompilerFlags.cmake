# Warnings, the F16C/AVX2 and BMI code paths, and sanitizers.
set(NPUVP_WARNINGS -Wall -Wextra -Wno-unused-parameter)

# Strict IEEE arithmetic: contracting a*b+c into an FMA would change the bits the
# numeric contract promises, so it is off everywhere; FMA is only used where asked for.
add_compile_options(-ffp-contract=off)

# Instruction-set extensions, each used when the build machine runs a probe built with its
# flags: `var` caches the answer, `label` names the code path in the configure log.
include(CheckCXXSourceRuns)
function(npuvp_use_cpu_flags var label flags source)
  set(CMAKE_REQUIRED_FLAGS "${flags}")
  check_cxx_source_runs("${source}" ${var})
  if(${var})
    separate_arguments(flag_list UNIX_COMMAND "${flags}")
    add_compile_options(${flag_list})
  endif()
  message(STATUS "npuvp: ${label} code path: ${${var}}")
endfunction()

# fp16 <-> fp32 conversion through F16C (vcvtph2ps/vcvtps2ph).
npuvp_use_cpu_flags(NPUVP_HAVE_F16C "F16C/AVX2" "-mf16c -mavx2 -mfma" [=[
#include <immintrin.h>
int main() {
  __m128i h = _mm_set1_epi16(0x3c00);
  __m256 f = _mm256_cvtph_ps(h);
  return _mm256_cvtss_f32(f) == 1.0f ? 0 : 1;
}]=])

# BMI1/BMI2 and LZCNT (every x86 with AVX2 in practice): shifts by a variable count without
# the CL register, and bit counts in one instruction. The timing model's slot, set and hash
# arithmetic is made of these (3 % fewer host instructions per launch); integer only, so
# results are the same bit for bit.
npuvp_use_cpu_flags(NPUVP_HAVE_BMI2 "BMI1/BMI2/LZCNT" "-mbmi -mbmi2 -mlzcnt" [=[
#include <immintrin.h>
int main(int argc, char**) {
  unsigned long long x = 0xf0ull << (argc - 1);
  return _bzhi_u64(x, 4) == 0 && _tzcnt_u64(x) == 4 && _lzcnt_u64(x) == 56 ? 0 : 1;
}]=])

if(NPUVP_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
