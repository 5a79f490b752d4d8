# The sanitizer from the command line (docs/sanitizer.md): every built-in Ascend sample on
# every platform it runs on, functional mode (no time: fast), `--check all`; the run passes,
# exits 0 (any error-kind finding makes it 1) and every kind's summary counts no error.
set(sanitizer_clean "summary: race: 0 errors.*summary: out-of-bounds: 0 errors.*summary: uninitialized: 0 errors.*summary: use-after-free: 0 errors.*summary: leak: 0 errors.*summary: sync: 0 errors")
function(npuvp_sanitizer_cli_test kernel platform)
  add_test(NAME platforms.cli.sanitizer.${kernel}_on_${platform}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh ok
                   "(result: PASS.*${sanitizer_clean}|${sanitizer_clean}.*result: PASS)"
                   $<TARGET_FILE:npuvp> run ${kernel} --platform ${platform} --mode functional --check all)
endfunction()
foreach(platform minimal core910 core910b ascend910 ascend910b ascend310p)
  foreach(kernel add mul relu prefix_sum matmul_int8 conv2d)
    npuvp_sanitizer_cli_test(${kernel} ${platform})
  endforeach()
endforeach()
# matmul everywhere it runs, the multi-core coupled chips included (minimal, ascend910,
# ascend310p: matmul_910_nz over 8+ blocks; matmul_910's shared-padding race is fixed and
# tested in tests/kernels/sanitizer_matmul910_test.cpp).
foreach(platform minimal core910 core910b ascend910 ascend910b ascend310p)
  npuvp_sanitizer_cli_test(matmul ${platform})
endforeach()
npuvp_sanitizer_cli_test(matmul_softmax ascend910b)
# The rest of `npuvp list`'s Ascend samples.
npuvp_sanitizer_cli_test(matmul_square core910b)
npuvp_sanitizer_cli_test(matmul_square ascend910)
# The image pipeline (issue 28): its AI Core kernels (normalise, the small CNN's conv2d) with
# every check on, on the chips it runs on (DVPP and AI CPU work is not instructions of isa.h).
foreach(platform ascend310p ascend910b)
  npuvp_sanitizer_cli_test(image_pipeline ${platform})
endforeach()
