# The sanitizer over CANN projects (issue 25, docs/sanitizer.md): a few compat projects built
# as their run.sh builds them and run on the simulator route with NPUVP_CHECK=all in the
# environment. Any error-kind finding makes the program exit 1 (cann_project.sh then FAILs);
# the summary must count no error of any kind. Each runs after the plain run of the same
# project and chip and runs the program that run built (cann_project.sh rerun; a full build if
# that run left none).
set(sanitizer_compat_clean "summary: race: 0 errors.*summary: out-of-bounds: 0 errors.*summary: uninitialized: 0 errors.*summary: use-after-free: 0 errors.*summary: leak: 0 errors.*summary: sync: 0 errors")
foreach(entry vadd_launch:Ascend910B3 softmax_custom:Ascend910B3 matmul_leakyrelu:Ascend910B3
              syncall_scale:Ascend910B3 atomic_colsum:Ascend910B3 scale_add_do:Ascend310P3)
  string(REPLACE ":" ";" parts ${entry})
  list(GET parts 0 name)
  list(GET parts 1 soc)
  set(project ${CMAKE_CURRENT_SOURCE_DIR}/compat/cann/${name})
  if(NOT EXISTS ${project}/CMakeLists.txt)
    continue()
  endif()
  set(test compat.cann.${name}.sanitizer.${soc})
  add_test(NAME ${test} COMMAND ${cann_script} rerun ${project} ${cann_prefix} sim ${soc} ${cann_work}/${name}-sim-${soc})
  set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED cann_prefix TIMEOUT 600
    DEPENDS compat.cann.${name}.sim.${soc} RESOURCE_LOCK cann_${name}_sim_${soc}
    PASS_REGULAR_EXPRESSION "${sanitizer_compat_clean}.*cann_project.sh: ${name}: sim on ${soc}: PASS"
    FAIL_REGULAR_EXPRESSION "cann_project.sh: FAILED;sanitizer: summary: [a-z-]+: [1-9]"
    ENVIRONMENT "${cann_run_env};NPUVP_CHECK=all")
  if(TEST compat.cann.${name}.sim.${soc})
    set_tests_properties(compat.cann.${name}.sim.${soc} PROPERTIES RESOURCE_LOCK cann_${name}_sim_${soc})
  endif()
endforeach()
# The planted-bug rehearsal (issue 25's "Done when"): tests/compat/sanitizer_planted, ten
# kernels written as a user would in CANN's sample layout, on the simulator route with
# NPUVP_CHECK=all: each planted bug (a tile read while MTE2 fills it, a tile refilled while V
# reads it, a read past the host's allocation, an operand never written, two blocks writing
# the same GM bytes) exits non-zero with an error of its kind only; the correct double-buffered
# kernels (queues; hand-written flags) exit 0, bit-exact and silent. About 9 CPU-s (the
# project's build, then 10 short runs). The CPU-debug route passes the same way
# (`tests/compat/sanitizer_planted.sh <project> <prefix> cpu Ascend910B1 <work dir>`).
add_test(NAME compat.sanitizer_planted.sim.Ascend910B1
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/compat/sanitizer_planted.sh ${CMAKE_CURRENT_SOURCE_DIR}/compat/sanitizer_planted
                 ${cann_prefix} sim Ascend910B1 ${cann_work}/sanitizer_planted-sim-Ascend910B1)
set_tests_properties(compat.sanitizer_planted.sim.Ascend910B1 PROPERTIES FIXTURES_REQUIRED cann_prefix TIMEOUT 600
  PASS_REGULAR_EXPRESSION "sanitizer_planted.sh: sim on Ascend910B1: PASS"
  FAIL_REGULAR_EXPRESSION "sanitizer_planted.sh: FAILED" ENVIRONMENT "${cann_env}")
