# The CANN build flows (cmake/cann/, docs/writing-kernels.md "Bring your CANN project").
# The launch-syntax translator's unit tests: a small executable of their own (no simulator).
add_executable(npuvp_compat_tests ${CMAKE_CURRENT_SOURCE_DIR}/compat/launch_syntax_test.cpp)
target_link_libraries(npuvp_compat_tests PRIVATE npuvp_launch_syntax GTest::gtest GTest::gtest_main)
target_compile_options(npuvp_compat_tests PRIVATE ${NPUVP_WARNINGS})
gtest_discover_tests(npuvp_compat_tests TEST_PREFIX "compat." DISCOVERY_TIMEOUT 60)
