# MN-Core 2 assembly language (VSM) from the command line: `npuvp run PROG.vsm [-d DUMP]` and
# `npuvp judge TESTCASE ANSWER` on our challenge-style test cases (examples/mncore2/challenge).
set(expect ${CMAKE_CURRENT_SOURCE_DIR}/platforms/expect.sh)
set(vsm_cases ${PROJECT_SOURCE_DIR}/examples/mncore2/challenge)

foreach(problem a_plus_b scaling absolute transpose gather square_sum matrix_square tree_sum)
  add_test(NAME platforms.mncore2.vsm.judge_${problem}
           COMMAND ${expect} ok "ACCEPTED score=[0-9]+ .*npuvp: [0-9]+ cycles"
                   $<TARGET_FILE:npuvp> judge ${vsm_cases}/${problem}/testcase.vsm ${vsm_cases}/${problem}/answer.vsm)
endforeach()
# A second answer to |x| through zero-flush masks on the opcode (the form public Inversion
# answers use): a flipped mask polarity would fail it.
add_test(NAME platforms.mncore2.vsm.judge_absolute_with_zero_flush_masks
         COMMAND ${expect} ok "ACCEPTED score=5 "
                 $<TARGET_FILE:npuvp> judge ${vsm_cases}/absolute/testcase.vsm ${vsm_cases}/absolute/answer_zero_flush.vsm)
# A wrong answer names the test case line and exits non-zero.
add_test(NAME platforms.mncore2.vsm.judge_names_the_first_wrong_value
         COMMAND sh -c "printf 'ipassa $lm0v $ln0v\\n' > vsm_wrong.vsm && ${expect} fail 'WRONG ANSWER: .*absolute/testcase.vsm line [0-9]+ .*expected' $<TARGET_FILE:npuvp> judge ${vsm_cases}/absolute/testcase.vsm vsm_wrong.vsm")
# run: the dump lines on stdout, or in the -d file; steps and cycles on stderr.
add_test(NAME platforms.mncore2.vsm.run_prints_the_dump
         COMMAND ${expect} ok "DEBUG-LM1\\(n0c0b0m0p0,0\\):\\(f:0, i:\\{\\{0x0,0x0\\},\\{0x0,0x43\\}\\}, v:0x43\\) #d get .*3 steps .*12 cycles"
                 $<TARGET_FILE:npuvp> run ${PROJECT_SOURCE_DIR}/examples/mncore2/hello.vsm --platform mncore2)
add_test(NAME platforms.mncore2.vsm.run_writes_the_dump_file
         COMMAND sh -c "rm -f vsm_dump.txt && $<TARGET_FILE:npuvp> run ${PROJECT_SOURCE_DIR}/examples/mncore2/hello.vsm -d vsm_dump.txt && grep -q 'DEBUG-LM1(n0c0b0m0p0,0):' vsm_dump.txt")
# The `;` regression: a packed step runs every instruction (the second one's result is dumped).
add_test(NAME platforms.mncore2.vsm.packed_step_runs_both
         COMMAND sh -c "printf 'd set $lr4n0c0b0m0p0 1 3FF0000000000000\\nlinc $lr0 $lr2 ; dvpassa $lr4 $ls0\\nd get $ls0n0c0b0m0p0 1\\n' > vsm_packed.vsm && ${expect} ok 'GREG1.*v:0x3FF0000000000000\\) ' $<TARGET_FILE:npuvp> run vsm_packed.vsm")
add_test(NAME platforms.mncore2.vsm.unknown_token_names_line_and_column
         COMMAND sh -c "printf 'nop\\nlinc $lr0 $lq2\\n' > vsm_bad.vsm && ${expect} fail 'vsm_bad.vsm line 2, column 11: unknown operand .[$]lq2.' $<TARGET_FILE:npuvp> run vsm_bad.vsm")
add_test(NAME platforms.mncore2.vsm.lm_read_too_soon_is_an_error
         COMMAND sh -c "printf 'linc $lm0 $ln0\\nlinc $ln0 $lm2\\n' > vsm_lm.vsm && ${expect} fail 'vsm_lm.vsm line 2 .linc [$]ln0 [$]lm2. .*readable from the third step after a write' $<TARGET_FILE:npuvp> run vsm_lm.vsm")
# The GEMM in VSM reports its throughput against the board's 393.2 TFLOPS half peak.
add_test(NAME platforms.mncore2.vsm.gemm_reports_throughput_against_the_peak
         COMMAND ${expect} ok "DEBUG-LM1\\(n0c0b0m0p0,0\\):\\(8.5, 2\\).*260 steps .*MAU: 268435456 multiply-accumulates; [0-9.]+ TFLOPS over the run \\(9[0-9.]+% of the 393.2 TFLOPS half peak\\)"
                 $<TARGET_FILE:npuvp> run ${PROJECT_SOURCE_DIR}/examples/mncore2/gemm.vsm)
# --set on mncore2.* keys configures the step machine, or is refused when the step model has
# no use for the key.
add_test(NAME platforms.mncore2.vsm.set_configures_the_machine
         COMMAND sh -c "printf 'linc $lm0 $ln0\\nnop/2\\nd get $ln0n1c0b0m0p0 1\\n' > vsm_set.vsm && ${expect} fail 'location index n1 is out of range .0 to 0.' $<TARGET_FILE:npuvp> run vsm_set.vsm --set mncore2.groups=1")
add_test(NAME platforms.mncore2.vsm.set_key_the_step_model_does_not_use_is_refused
         COMMAND ${expect} fail "config key 'mncore2.pcie.latency_ns' does not apply to VSM programs"
                 $<TARGET_FILE:npuvp> run ${PROJECT_SOURCE_DIR}/examples/mncore2/hello.vsm --set mncore2.pcie.latency_ns=5)
add_test(NAME platforms.mncore2.vsm.options_that_do_not_apply_are_refused
         COMMAND ${expect} fail "--stats and --blocks do not apply to VSM programs"
                 $<TARGET_FILE:npuvp> run ${PROJECT_SOURCE_DIR}/examples/mncore2/hello.vsm --stats vsm_stats.json)
# --trace: a Perfetto slice per instruction on its unit's track (hello.vsm: linc on the ALU).
add_test(NAME platforms.mncore2.vsm.trace_has_a_slice_per_instruction
         COMMAND sh -c "rm -f vsm_trace.json && $<TARGET_FILE:npuvp> run ${PROJECT_SOURCE_DIR}/examples/mncore2/hello.vsm --trace vsm_trace.json >/dev/null && grep -q '\"ALU\"' vsm_trace.json && grep -q 'linc [$]lm0 [$]ln0' vsm_trace.json")
# Board-wide MV modes and single-word debug statements from the command line: Group 1's DRAM
# word 0 lands at word 16 of every Group's L2B 0 (mvb4, M 3.5.8.16); d set/getf on $s269.
add_test(NAME platforms.mncore2.vsm.mvb4_and_single_word_dump
         COMMAND sh -c "printf 'd set $d0n1 1 00000000000000AB\\nmvb4/n64i1 $d0 $lc0\\nnop ; wait i1\\nd get $lc16n3c0 1\\nd set $s269n0c0b0m0p0 1 40400000\\nd getf $s269n0c0b0m0p0 1\\n' > vsm_mvb4.vsm && ${expect} ok 'DEBUG-L2BM.n3c0,16.:.*v:0xAB. .*DEBUG-GREG1.n0c0b0m0p0,269.:.3. .0x40400000.' $<TARGET_FILE:npuvp> run vsm_mvb4.vsm")
