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
add_test(NAME platforms.cli.gm_beyond_the_l2_tags_is_an_error
         COMMAND ${expect} fail "GM up to 0x1100000000 .* has more 32 B lines than the L2 tags can name"
                 ${cli} run add --set l2.line_bytes=32)
# Parameters out of their range are errors that name the key, not crashes or hangs.
add_test(NAME platforms.cli.out_of_range_rate_is_an_error
         COMMAND ${expect} fail "config key 'dram.channel_gbps': 1e-20 is out of range \\[0.001, 1000000.0\\] \\(from command line\\)"
                 ${cli} run add --set dram.channel_gbps=1e-20)
add_test(NAME platforms.cli.clock_beyond_the_time_resolution_is_an_error
         COMMAND ${expect} fail "config key 'core.clock_mhz': 1e\\+30 is out of range" ${cli} run matmul --set core.clock_mhz=1e30)
add_test(NAME platforms.cli.huge_counts_and_buffers_are_errors
         COMMAND sh -c "${expect} fail \"config key 'dram.channels': 4294967295 is out of range \\\\[1, 1024\\\\]\" \
                          ${cli} run add --set dram.channels=4294967295 && \
                        ${expect} fail \"config key 'core.l1.size': 4294967295 is out of range\" \
                          ${cli} run add --set core.l1.size=4294967295")
add_test(NAME platforms.cli.zero_l2_line_is_an_error
         COMMAND ${expect} fail "l2.line_bytes must be a power of two of at least 32, got 0" ${cli} run add --set l2.line_bytes=0)
# A legal what-if that is rarely meant: the run goes on and says what it costs.
add_test(NAME platforms.cli.dram_interleave_below_the_line_warns
         COMMAND ${expect} ok "npuvp: warning: config @ 0 s: dram.interleave_bytes \\(256\\) is smaller than l2.line_bytes \\(512\\): every line fill is cut over 2 memory channels.*result: PASS"
                 ${cli} run add --set l2.line_bytes=512)
add_test(NAME platforms.cli.gm_base_inside_an_l2_run_is_an_error
         COMMAND ${expect} fail "gm.base 0x40 must be a multiple of l2.interleave_bytes" ${cli} run add --set gm.base=64)
# At a slow clock the next event can lie beyond the run loop's 100 us slice (it used to spin).
add_test(NAME platforms.cli.slow_clocks_run_to_the_end
         COMMAND ${expect} ok "result: PASS.*at 3 MHz" ${cli} run matmul --set core.clock_mhz=3 --set interconnect.clock_mhz=0.5)
set_tests_properties(platforms.cli.slow_clocks_run_to_the_end PROPERTIES TIMEOUT 60)
# Every numeric parameter of every platform with values from 0 and -1 to 1e30 and 2^32-1 and
# a wrong type, mutated config files and MN-Core assembly: each run ends in a normal result or
# a clear error, none crashes or hangs (runs in parallel on every core; see docs/errors.md).
add_test(NAME platforms.cli.no_parameter_value_crashes_or_hangs
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/param-fuzz.sh $<TARGET_FILE_DIR:npuvp>)
# Under ASan + UBSan each of its ~500 runs is several times slower (make test-sanitize only).
if(NPUVP_SANITIZE)
  set_tests_properties(platforms.cli.no_parameter_value_crashes_or_hangs PROPERTIES TIMEOUT 3600)
else()
  set_tests_properties(platforms.cli.no_parameter_value_crashes_or_hangs PROPERTIES TIMEOUT 900)
endif()
add_test(NAME platforms.cli.unwritable_stats_path_fails_before_the_run
         COMMAND ${expect} fail "^npuvp: error: stats @ 0 s: cannot write statistics to '/nonexistent/s.json'"
                 ${cli} run add --stats /nonexistent/s.json)
# A sample whose data would not fit the host stops with an error before it allocates (the
# OOM killer would end it otherwise): here with a small limit, so the test is the same on
# any machine.
add_test(NAME platforms.cli.sample_too_big_for_the_host_is_an_error
         COMMAND ${expect} fail "matmul at this size needs about 54 MiB of host memory for its data, more than the 50 MiB it may take"
                 ${cli} run matmul -p ascend910b --scale 2 --set sim.host_memory_limit=50MiB)
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

# The Ascend platforms by name: the separated 910B (vector samples on the AIVs, cube samples
# on the AICs), the 310P with its Vector Cores, the coupled 910.
add_test(NAME platforms.cli.run_add_on_ascend910b
         COMMAND ${expect} ok "platform ascend910b \\(24 AI Cores \\(24 AIC \\+ 48 AIV\\) at 1800 MHz\\).*result: PASS.*aiv0 .*DRAM: .* of 1600.0 GB/s peak"
                 ${cli} run add --platform ascend910b)
add_test(NAME platforms.cli.run_add_on_ascend310p
         COMMAND ${expect} ok "platform ascend310p \\(8 AI Cores \\+ 7 Vector Cores at 1070 MHz\\).*result: PASS.*of 204.0 GB/s peak"
                 ${cli} run add --platform ascend310p)
add_test(NAME platforms.cli.run_add_on_ascend910
         COMMAND ${expect} ok "platform ascend910 \\(32 cores at 1000 MHz\\).*result: PASS" ${cli} run add --platform ascend910)
add_test(NAME platforms.cli.run_matmul_on_the_aics_of_ascend910b
         COMMAND ${expect} ok "platform ascend910b .*result: PASS.*aic0 .*cube: [0-9.]+ TFLOPS achieved of 29.49 peak"
                 ${cli} run matmul --platform ascend910b --set platform.cores=2)
add_test(NAME platforms.cli.list_shows_the_ascend_platforms
         COMMAND ${expect} ok "ascend310p.*ascend910.*ascend910b" ${cli} list)
add_test(NAME platforms.cli.separated_parameters_are_overridable
         COMMAND ${expect} ok "cross_core.flag_ids +16 +command line.*platform.aiv_per_core +1 +command line"
                 ${cli} info ascend910b --set platform.aiv_per_core=1 --set cross_core.flag_ids=16)
# conv2d on a separated chip: an AIV formats the feature map into GM, the AIC convolves.
add_test(NAME platforms.cli.run_conv2d_as_a_mixed_kernel_on_ascend910b
         COMMAND ${expect} ok "platform ascend910b .*result: PASS.*aic0 .*aiv0 " ${cli} run conv2d --platform ascend910b --set platform.cores=1)
add_test(NAME platforms.cli.separated_needs_an_a2_product
         COMMAND ${expect} fail "platform.architecture=separated needs a separated product .*got ascend910"
                 ${cli} info minimal --set platform.architecture=separated)
add_test(NAME platforms.cli.unknown_architecture_is_an_error
         COMMAND ${expect} fail "platform.architecture must be coupled or separated, got 'split'"
                 ${cli} info ascend910b --set platform.architecture=split)

# Every sample that makes sense on a platform runs there and passes (issue 5): the vector
# samples over every vector core (the AIVs of a 910B, the AI Cores and Vector Cores of a
# 310P), the cube samples on the cube cores, the fused sample on the 910B's AI Cores. Core
# counts are cut only for the fused sample (its full-chip run checks 1.5 M elements).
foreach(kernel mul relu prefix_sum matmul_int8 conv2d)
  set(on_910b "platform ascend910b .*result: PASS")
  if(kernel MATCHES "^(mul|relu|prefix_sum)$")
    string(APPEND on_910b ".*aiv0 ")  # a vector sample: it ran on the AIVs
  endif()
  add_test(NAME platforms.cli.run_${kernel}_on_ascend910b
           COMMAND ${expect} ok "${on_910b}" ${cli} run ${kernel} --platform ascend910b)
  add_test(NAME platforms.cli.run_${kernel}_on_ascend310p
           COMMAND ${expect} ok "platform ascend310p .*result: PASS" ${cli} run ${kernel} --platform ascend310p)
  add_test(NAME platforms.cli.run_${kernel}_on_ascend910
           COMMAND ${expect} ok "platform ascend910 .*result: PASS" ${cli} run ${kernel} --platform ascend910)
endforeach()
add_test(NAME platforms.cli.run_matmul_on_every_aic_of_ascend910b
         COMMAND ${expect} ok "platform ascend910b \\(24 AI Cores .*result: PASS.*aic7 .*cube: [0-9.]+ TFLOPS achieved of 353.89 peak"
                 ${cli} run matmul --platform ascend910b)
add_test(NAME platforms.cli.run_matmul_on_ascend310p
         COMMAND ${expect} ok "platform ascend310p .*result: PASS.*cube: [0-9.]+ TFLOPS achieved of [0-9.]+ peak"
                 ${cli} run matmul --platform ascend310p)
add_test(NAME platforms.cli.run_matmul_on_ascend910
         COMMAND ${expect} ok "platform ascend910 .*result: PASS.*cube: [0-9.]+ TFLOPS achieved of [0-9.]+ peak"
                 ${cli} run matmul --platform ascend910)
# The fused matmul + softmax: the AICs and both AIVs of every AI Core work (pipe rows for
# aic1 and aiv3), and the sample is the 910B's own.
add_test(NAME platforms.cli.run_matmul_softmax_on_ascend910b
         COMMAND ${expect} ok "platform ascend910b \\(2 AI Cores .*kernel matmul_softmax.*result: PASS.*aic1 .*aiv3 .*cube: [0-9.]+ TFLOPS"
                 ${cli} run matmul_softmax --set platform.cores=2)
add_test(NAME platforms.cli.matmul_softmax_needs_a_separated_chip
         COMMAND ${expect} fail "matmul_softmax needs a separated chip" ${cli} run matmul_softmax --platform ascend910 --set platform.cores=1)
# --scale grows a sample's problem: the matmul's M, N, K (here 2 x 2 tiles per AIC).
add_test(NAME platforms.cli.scale_grows_the_matmul
         COMMAND ${expect} ok "result: PASS \\(126243 elements" ${cli} run matmul --platform ascend910b --set platform.cores=2 --scale 2)
add_test(NAME platforms.cli.scale_out_of_range_is_an_error
         COMMAND ${expect} fail "--scale: Value 0 not in range" ${cli} run matmul --scale 0)
# Host copies and a sample's check against its host reference show progress as a launch
# does (at a large --scale each runs for many seconds; the check longer than the launch);
# with sim.progress_seconds=0 every line is due.
add_test(NAME platforms.cli.copies_and_reference_check_show_progress
         COMMAND ${expect} ok "host_bridge: memcpy HostToDevice of 163840 bytes, GM 0x[0-9a-f]+, 100% done, wall [0-9.]+ s.*matmul_custom: checking the result on the host, [0-9]+% done, wall [0-9.]+ s.*result: PASS"
                 ${cli} run matmul --set sim.progress_seconds=0)
add_test(NAME platforms.cli.fused_reference_check_shows_progress
         COMMAND ${expect} ok "matmul_softmax_custom: checking the result on the host, [0-9]+% done.*result: PASS"
                 ${cli} run matmul_softmax --platform ascend910b --set sim.progress_seconds=0)
# perf mode computes no data, so the sample does not run its host reference at all (at a
# large --scale that would take longer than the launch): the copies print their progress
# lines, the check none.
add_test(NAME platforms.cli.perf_mode_runs_no_reference
         COMMAND sh -c "err=$($<TARGET_FILE:npuvp> run matmul --mode perf --set sim.progress_seconds=0 2>&1 >/dev/null); \
                        printf '%s\\n' \"$err\"; \
                        printf '%s' \"$err\" | grep -q 'memcpy DeviceToHost of .* 100% done' && \
                        ! printf '%s' \"$err\" | grep -q 'checking the result'")
