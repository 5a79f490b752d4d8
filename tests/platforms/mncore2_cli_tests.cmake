# The `npuvp` command line on the MN-Core 2 platform, as a user runs it: the samples are VSM
# programs on the step machine, configured by mncore2.json and --set.
set(expect ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh)
set(cli $<TARGET_FILE:npuvp>)

add_test(NAME platforms.mncore2.run_elementwise
         COMMAND ${expect} ok "4096 PEs at 750 MHz.*result: PASS.*68 cycles .*17 instruction steps" ${cli} run --platform mncore2 elementwise)
# No --platform: the kernel belongs to MN-Core 2, so it runs there.
add_test(NAME platforms.mncore2.run_tree_sum
         COMMAND ${expect} ok "platform mncore2 .*result: PASS.*14 instruction steps .*, [1-9][0-9]* cycles stalled in wait.*2 MV" ${cli} run tree_sum)
# The GEMM's throughput against the board's half peak (one Group here, to keep the test short:
# its peak is a quarter of the 393.2 TFLOPS of four).
add_test(NAME platforms.mncore2.run_gemm_reports_throughput_against_the_peak
         COMMAND ${expect} ok "result: PASS.*258 instruction steps.*throughput: [0-9.]+ TFLOPS \\(99.2% of the 98.3 TFLOPS half peak\\)"
                 ${cli} run --platform mncore2 gemm --set mncore2.groups=1)
add_test(NAME platforms.mncore2.list
         COMMAND ${expect} ok "platforms:.*mncore2.*MN-Core 2 kernels.*elementwise.*tree_sum.*gemm" ${cli} list)
add_test(NAME platforms.mncore2.info_shows_value_and_source
         COMMAND ${expect} ok "mncore2.l1bm.size_lw +8192 +.*mncore2.json.*mncore2.pe_per_mab +4 " ${cli} info mncore2)
add_test(NAME platforms.mncore2.set_overrides_a_value
         COMMAND ${expect} ok "2 groups x 2 L2B.*result: PASS" ${cli} run tree_sum --set mncore2.groups=2)
# A slower data engine: the same program waits longer for its MV transfers.
add_test(NAME platforms.mncore2.set_data_engine_changes_the_wait
         COMMAND ${expect} ok "result: PASS.*14 instruction steps .*, [0-9]{4} cycles stalled in wait"
                 ${cli} run tree_sum --set mncore2.data_engine.lw_per_cycle=1 --set mncore2.data_engine.latency_cycles=1000)
add_test(NAME platforms.mncore2.set_key_the_step_model_does_not_use_is_refused
         COMMAND ${expect} fail "config key 'mncore2.l2b.latency_cycles' does not apply to VSM programs"
                 ${cli} run tree_sum --set mncore2.l2b.latency_cycles=2)
# A slower L2B port: the same 14 steps, stretched by their L2BM transfers (vsm30b).
add_test(NAME platforms.mncore2.set_l2b_rate_stretches_l2bm_steps
         COMMAND ${expect} ok "result: PASS.*14 instruction steps .*, [1-9][0-9]* in block transfers"
                 ${cli} run tree_sum --set mncore2.l2b.lw_per_cycle=4)
add_test(NAME platforms.mncore2.unknown_key_is_an_error
         COMMAND ${expect} fail "unknown config key 'mncore2.l1bm.size_wl'.*did you mean 'mncore2.l1bm.size_lw'"
                 ${cli} run gemm --set mncore2.l1bm.size_wl=1)
add_test(NAME platforms.mncore2.ascend_kernel_on_mncore2_is_an_error
         COMMAND ${expect} fail "unknown kernel 'add' for the MN-Core 2 platform; its kernels: elementwise tree_sum gemm"
                 ${cli} run add --platform mncore2)
add_test(NAME platforms.mncore2.too_small_memory_fails_cleanly
         COMMAND ${expect} fail "error: elementwise @ 0 s: 64 singles per PE do not fit"
                 ${cli} run elementwise --set mncore2.lm0.size_lw=16 --set mncore2.lm1.size_lw=16)
add_test(NAME platforms.mncore2.bad_value_names_the_key
         COMMAND ${expect} fail "error: config @ 0 s: config key 'mncore2.lm0.address_unit': expected \"LW\" or \"SW\""
                 ${cli} run elementwise --set mncore2.lm0.address_unit=HW)
add_test(NAME platforms.mncore2.stats_file
         COMMAND sh -c "${expect} ok 'stats: ' $<TARGET_FILE:npuvp> run tree_sum --stats mn.stats.json && grep -q 'mncore2.vsm.stall_cycles' mn.stats.json")
# The old assembly dialect is gone: a .s file is refused with a pointer to VSM.
add_test(NAME platforms.mncore2.old_dialect_is_refused
         COMMAND sh -c "printf 'nop\\n' > mn_old.s && ${expect} fail 'mn_old.s.: MN-Core 2 programs are written in VSM' $<TARGET_FILE:npuvp> run mn_old.s")
