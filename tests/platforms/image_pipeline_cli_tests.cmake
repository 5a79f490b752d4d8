# Issue 28: `npuvp run image_pipeline` as a user runs it, on the build's sample.jpg.
set(expect ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh)
set(cli $<TARGET_FILE:npuvp>)
foreach(chip ascend310p ascend910b)
  add_test(NAME platforms.cli.image_pipeline_${chip}
           COMMAND ${expect} ok "JPEGD +DVPP.*TopK +AI CPU.*per engine: +AI CPU .*AI Core .*DVPP .*result: PASS"
                   ${cli} run image_pipeline --platform ${chip} ${CMAKE_BINARY_DIR}/sample.jpg)
endforeach()
add_test(NAME platforms.cli.image_pipeline_perf_mode
         COMMAND ${expect} ok "result: NOT CHECKED" ${cli} run image_pipeline --platform ascend310p --mode perf)
add_test(NAME platforms.cli.image_pipeline_missing_image_is_an_error
         COMMAND ${expect} fail "cannot read image 'no_such.jpg'" ${cli} run image_pipeline no_such.jpg)
