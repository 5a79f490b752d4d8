# The `npuvp` command line, as a user runs it.
set(expect ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh)
set(cli $<TARGET_FILE:npuvp>)

foreach(kernel add mul relu prefix_sum matmul matmul_int8 conv2d)
  add_test(NAME platforms.cli.run_${kernel} COMMAND ${expect} ok "result: PASS" ${cli} run ${kernel})
endforeach()
# The cube samples on a coupled 910 core run the 910 variants.
foreach(kernel matmul matmul_int8 conv2d)
  add_test(NAME platforms.cli.run_${kernel}_on_core910
           COMMAND ${expect} ok "platform core910 .*result: PASS" ${cli} run ${kernel} --platform core910)
endforeach()
add_test(NAME platforms.cli.run_prints_pipe_busy_and_traffic
         COMMAND ${expect} ok "core7 .*%.*DRAM: .* GB/s achieved of 1200.0 GB/s peak.*L2: .*% hit rate.*ring: busiest link" ${cli} run add)
add_test(NAME platforms.cli.run_prints_cube_throughput
         COMMAND ${expect} ok "PASS.*cube: [0-9.]+ TFLOPS achieved of 14.75 peak" ${cli} run matmul)
add_test(NAME platforms.cli.perf_mode_checks_no_data
         COMMAND ${expect} ok "NOT CHECKED.*perf mode" ${cli} run matmul --mode perf)
add_test(NAME platforms.cli.unknown_mode_is_an_error
         COMMAND ${expect} fail "mode: .*not in" ${cli} run add --mode fast)
add_test(NAME platforms.cli.list COMMAND ${expect} ok "minimal.*prefix_sum" ${cli} list)
add_test(NAME platforms.cli.info_shows_value_and_source
         COMMAND ${expect} ok "core.ub.size +262144 +.*minimal.json" ${cli} info minimal)
add_test(NAME platforms.cli.set_overrides_a_value
         COMMAND ${expect} ok "platform.cores +3 +command line" ${cli} info minimal --set platform.cores=3)
add_test(NAME platforms.cli.unknown_key_is_an_error
         COMMAND ${expect} fail "unknown config key 'core.ub.szie'.*did you mean 'core.ub.size'"
                 ${cli} run add --set core.ub.szie=1)
add_test(NAME platforms.cli.unknown_platform_is_an_error
         COMMAND ${expect} fail "unknown platform 'nosuch'; available: .*minimal" ${cli} run add --platform nosuch)
add_test(NAME platforms.cli.unknown_kernel_is_an_error
         COMMAND ${expect} fail "unknown kernel 'nosuch'" ${cli} run nosuch)
add_test(NAME platforms.cli.too_small_ub_fails_cleanly
         COMMAND ${expect} fail "soc.core[0-9]+ @ .*UB overflow" ${cli} run add --set core.ub.size=1KiB)
add_test(NAME platforms.cli.trace_and_stats_files
         COMMAND sh -c "${expect} ok 'trace: ' $<TARGET_FILE:npuvp> run add --trace cli.trace.json --stats cli.stats.json && grep -q '\"ph\": *\"X\"' cli.trace.json && grep -q 'busy_cycles' cli.stats.json")

# A CPU-debug host program: errors print and exit 1, whether they come before the launch
# (configuration) or during it (the kernel), and what the host printed before is not lost.
add_executable(npuvp_cpu_debug_host ${CMAKE_CURRENT_SOURCE_DIR}/platforms/cpu_debug_host.cpp)
target_link_libraries(npuvp_cpu_debug_host PRIVATE npuvp_ascendc)
set(host $<TARGET_FILE:npuvp_cpu_debug_host>)
add_test(NAME platforms.host.runs COMMAND ${expect} ok "host: starting.*kernel add_custom: 8 blocks.*host: done" ${host})
add_test(NAME platforms.host.config_error_exits_1
         COMMAND ${expect} fail "host: starting.*error: .*unknown config key 'core.ub.szie'" ${host})
set_tests_properties(platforms.host.config_error_exits_1 PROPERTIES ENVIRONMENT "NPUVP_SET=core.ub.szie=1")
add_test(NAME platforms.host.kernel_error_exits_1
         COMMAND ${expect} fail "host: starting.*error: soc.core[0-9]+ @ .*UB overflow" ${host})
set_tests_properties(platforms.host.kernel_error_exits_1 PROPERTIES ENVIRONMENT "NPUVP_SET=core.ub.size=1KiB")
add_test(NAME platforms.host.unknown_platform_exits_1
         COMMAND ${expect} fail "error: .*unknown platform 'nosuch'" ${host})
set_tests_properties(platforms.host.unknown_platform_exits_1 PROPERTIES ENVIRONMENT "NPUVP_PLATFORM=nosuch")
