# Issue 25 (deliverable 8): the kernel tests a second time with every sanitizer check on
# (NPUVP_CHECK=all), as ctest tests named checked.kernels.<Suite>.<Test> (label sanitizer).
# A finding fails the test: the sanitizer's exit hook makes the process exit 1 when any
# error-kind finding was reported (docs/sanitizer.md), and ctest counts that exit as a
# failure even when every assertion passed.
#
# Left out:
# - by design about findings: the sanitizer's own suites (Sanitizer*), which turn the checks
#   on themselves and plant races, out-of-bounds accesses and deadlocks to be reported;
# - by design about errors: the model-error tests (suites *Errors, tests Error*), whose
#   kernels stop at the instruction the model rejects;
# - for the CI budget: the timing and scaling relations (Timing, Scaling, *Efficiency), which
#   run the same kernels as the functional tests here, at sizes where the checked run costs
#   most (the 2048^3 matmul on 32 cores: 1.0 CPU-s plain, 6.4 checked). The whole set, these
#   included, passes too: NPUVP_CHECK=all ctest -R '^kernels\.' (docs/sanitizer.md, "Tests").
gtest_discover_tests(npuvp_kernels_tests TEST_PREFIX "checked.kernels."
                     TEST_FILTER "-Sanitizer*:*/Sanitizer*:*Errors.*:*.Error*:Timing.*:Scaling.*:*Efficiency*.*"
                     TEST_LIST npuvp_kernels_checked_tests
                     DISCOVERY_TIMEOUT 60
                     PROPERTIES TIMEOUT 300 ENVIRONMENT "NPUVP_CHECK=all" LABELS sanitizer)
