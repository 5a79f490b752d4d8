# The `npuvp` command line on the MN-Core 2 platform, as a user runs it.
set(expect ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh)
set(cli $<TARGET_FILE:npuvp>)

add_test(NAME platforms.mncore2.run_elementwise
         COMMAND ${expect} ok "4096 PEs at 750 MHz.*result: PASS.*compute +96 +" ${cli} run --platform mncore2 elementwise)
# No --platform: the kernel belongs to MN-Core 2, so it runs there.
add_test(NAME platforms.mncore2.run_tree_sum
         COMMAND ${expect} ok "platform mncore2 .*result: PASS.*L1BM <-> PE memories" ${cli} run tree_sum)
add_test(NAME platforms.mncore2.run_gemm_reports_throughput_against_the_peak
         COMMAND ${expect} ok "result: PASS.*compute +2816 .*TFLOPS in 'compute' \\([0-9.]+% of the 393.2 TFLOPS half peak\\).*DRAM <-> L2BM \\(Data Engines\\) +[0-9]+ +[0-9]+"
                 ${cli} run --platform mncore2 gemm)
add_test(NAME platforms.mncore2.list
         COMMAND ${expect} ok "platforms:.*mncore2.*MN-Core 2 kernels.*elementwise.*tree_sum.*gemm" ${cli} list)
add_test(NAME platforms.mncore2.info_shows_value_and_source
         COMMAND ${expect} ok "mncore2.l1bm.size_lw +8192 +.*mncore2.json.*mncore2.pe_per_mab +4 " ${cli} info mncore2)
add_test(NAME platforms.mncore2.set_overrides_a_value
         COMMAND ${expect} ok "2 groups x 2 L2B.*result: PASS" ${cli} run tree_sum --set mncore2.groups=2)
add_test(NAME platforms.mncore2.unknown_key_is_an_error
         COMMAND ${expect} fail "unknown config key 'mncore2.l1bm.size_wl'.*did you mean 'mncore2.l1bm.size_lw'"
                 ${cli} run gemm --set mncore2.l1bm.size_wl=1)
add_test(NAME platforms.mncore2.ascend_kernel_on_mncore2_is_an_error
         COMMAND ${expect} fail "unknown kernel 'add' for the MN-Core 2 platform; its kernels: elementwise tree_sum gemm"
                 ${cli} run add --platform mncore2)
add_test(NAME platforms.mncore2.too_small_memory_fails_cleanly
         COMMAND ${expect} fail "error: gemm @ 0 s: A \\(rows per PE x K halves\\) needs .* LW of LM0"
                 ${cli} run gemm --set mncore2.lm0.size_lw=64)
add_test(NAME platforms.mncore2.bad_value_names_the_key
         COMMAND ${expect} fail "error: config @ 0 s: config key 'mncore2.lm0.address_unit': expected \"LW\" or \"SW\""
                 ${cli} run elementwise --set mncore2.lm0.address_unit=HW)
add_test(NAME platforms.mncore2.trace_and_stats_files
         COMMAND sh -c "${expect} ok 'trace: ' $<TARGET_FILE:npuvp> run tree_sum --trace mn.trace.json --stats mn.stats.json && grep -q 'engine l1b' mn.trace.json && grep -q 'bytes_down' mn.stats.json")

# A user's own assembly file: it runs, and its errors name the line and column (assembly) or
# the line, the instruction and the simulated time (execution).
add_test(NAME platforms.mncore2.run_an_assembly_file
         COMMAND ${expect} ok "program .*divergence.s.*result: PASS \\(ran 8 instructions.*L1BM <-> PE memories +0 +65536"
                 ${cli} run ${PROJECT_SOURCE_DIR}/examples/mncore2/divergence.s)
add_test(NAME platforms.mncore2.assembly_error_names_line_and_column
         COMMAND sh -c "printf 'nop\\nfadd.h $lm0 $lq1 $lm0\\n' > mn_bad.s && ${expect} fail 'error: assembler @ 0 s: mn_bad.s line 2, column 13: unknown operand .[$]lq1.' $<TARGET_FILE:npuvp> run mn_bad.s")
add_test(NAME platforms.mncore2.execution_error_names_instruction_and_time
         COMMAND sh -c "printf 'nop\\nmov $lm4096 $lm0\\n' > mn_range.s && ${expect} fail 'error: mncore2.sequencer @ 5.332 ns: mn_range.s line 2 .mov [$]lm4096 [$]lm0.: .* beyond its 4096 SW' $<TARGET_FILE:npuvp> run mn_range.s")
