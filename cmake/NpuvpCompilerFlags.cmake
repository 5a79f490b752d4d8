# Warnings, the F16C/AVX2 and BMI code paths, and sanitizers.
set(NPUVP_WARNINGS -Wall -Wextra -Wno-unused-parameter)

# Strict IEEE arithmetic: contracting a*b+c into an FMA would change the bits the
# numeric contract promises, so it is off everywhere; FMA is only used where asked for.
add_compile_options(-ffp-contract=off)

# fp16 <-> fp32 conversion through F16C (vcvtph2ps/vcvtps2ph) when the build machine has it.
include(CheckCXXSourceRuns)
set(CMAKE_REQUIRED_FLAGS "-mf16c -mavx2 -mfma")
check_cxx_source_runs([=[
#include <immintrin.h>
int main() {
  __m128i h = _mm_set1_epi16(0x3c00);
  __m256 f = _mm256_cvtph_ps(h);
  return _mm256_cvtss_f32(f) == 1.0f ? 0 : 1;
}]=] NPUVP_HAVE_F16C)
unset(CMAKE_REQUIRED_FLAGS)
if(NPUVP_HAVE_F16C)
  add_compile_options(-mf16c -mavx2 -mfma)
endif()
message(STATUS "npuvp: F16C/AVX2 code path: ${NPUVP_HAVE_F16C}")

# BMI1/BMI2 and LZCNT (every x86 with AVX2 in practice) when the build machine has them:
# shifts by a variable count without the CL register, and bit counts in one instruction.
# The timing model's slot, set and hash arithmetic is made of these (3 % fewer host
# instructions per launch); integer only, so results are the same bit for bit.
set(CMAKE_REQUIRED_FLAGS "-mbmi -mbmi2 -mlzcnt")
check_cxx_source_runs([=[
#include <immintrin.h>
int main(int argc, char**) {
  unsigned long long x = 0xf0ull << (argc - 1);
  return _bzhi_u64(x, 4) == 0 && _tzcnt_u64(x) == 4 && _lzcnt_u64(x) == 56 ? 0 : 1;
}]=] NPUVP_HAVE_BMI2)
unset(CMAKE_REQUIRED_FLAGS)
if(NPUVP_HAVE_BMI2)
  add_compile_options(-mbmi -mbmi2 -mlzcnt)
endif()
message(STATUS "npuvp: BMI1/BMI2/LZCNT code path: ${NPUVP_HAVE_BMI2}")

if(NPUVP_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
