# Warnings, the F16C/AVX2 code path, and sanitizers.
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

if(NPUVP_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
