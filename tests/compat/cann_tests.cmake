# The CANN build flows (cmake/cann/, docs/writing-kernels.md "Bring your CANN project").
# The launch-syntax translator's and the SoC table's unit tests: a small executable of their
# own (no simulator).
add_executable(npuvp_compat_tests ${CMAKE_CURRENT_SOURCE_DIR}/compat/launch_syntax_test.cpp
               ${CMAKE_CURRENT_SOURCE_DIR}/compat/soc_version_test.cpp ${PROJECT_SOURCE_DIR}/sw/runtime/soc_version.cpp)
target_link_libraries(npuvp_compat_tests PRIVATE npuvp_launch_syntax GTest::gtest GTest::gtest_main)
target_compile_definitions(npuvp_compat_tests PRIVATE
  NPUVP_CANN_CMAKE="${PROJECT_SOURCE_DIR}/cmake/cann/npuvp_cann.cmake.in")
target_compile_options(npuvp_compat_tests PRIVATE ${NPUVP_WARNINGS})
gtest_discover_tests(npuvp_compat_tests TEST_PREFIX "compat." DISCOVERY_TIMEOUT 60)

# CANN kernel-launch projects in the published samples' layout (tests/compat/cann/<project>/,
# one directory per project), built with an installed npuvp as their CANN package through
# both routes on three chips: the install is one fixture test, then one test per project,
# route and chip (cann_project.sh says what each does).
set(cann_script ${CMAKE_CURRENT_SOURCE_DIR}/compat/cann_project.sh)
set(cann_work ${CMAKE_BINARY_DIR}/cann)
set(cann_prefix ${cann_work}/prefix)
set(cann_socs Ascend910B3 Ascend310P3 Ascend910A)
# The projects use the compiler of this build; sanitizer builds instrument them as libnpuvp
# is; ccache, if this build uses it, through the variable CMake reads from the environment.
set(cann_env "CMAKE=${CMAKE_COMMAND}" "CXX=${CMAKE_CXX_COMPILER}")
if(NPUVP_SANITIZE)
  list(APPEND cann_env "CXXFLAGS=-fsanitize=address,undefined -fno-omit-frame-pointer"
       "LDFLAGS=-fsanitize=address,undefined")
endif()
if(CMAKE_CXX_COMPILER_LAUNCHER)
  list(APPEND cann_env "CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}")
endif()
# The per-project runs build through Ninja when this machine has it (scripts/install-deps.sh
# installs it): Make's own steps cost a small project about 1.8 of its 8 CPU s (docs/performance.md,
# "Where CI time goes"). The run.sh and configure-error tests keep CMake's default generator, as
# a user's `cmake -B build` gets it.
set(cann_run_env ${cann_env})
find_program(NPUVP_NINJA ninja)
if(NPUVP_NINJA)
  list(APPEND cann_run_env "CMAKE_GENERATOR=Ninja")
endif()

add_test(NAME compat.cann.install COMMAND ${cann_script} install ${CMAKE_BINARY_DIR} ${cann_prefix})
set_tests_properties(compat.cann.install PROPERTIES FIXTURES_SETUP cann_prefix TIMEOUT 300
  FAIL_REGULAR_EXPRESSION "cann_project.sh: FAILED" ENVIRONMENT "${cann_env}")

# DataCopyPad exists on the A2 products only (asc-devkit docs/api/context/DataCopyPad(ISASI).md).
set(cann_socs_clamp_pad Ascend910B3)
# issue 23: the high-level Matmul is modelled on the A2 cores (lib/matmul_intf.h).
set(cann_socs_matmul_leakyrelu Ascend910B3)
set(cann_socs_matmul_leakyrelu_mix Ascend910B3)  # (passes on the 310P3 too; matmul_leakyrelu_invocation covers it in CI)
# lib/ TopK: Sort32 and MrgSort on the A2, the scalar unit on the 310P; not on the 910 (CANN:
# __CCE_AICORE__ >= 200; docs/writing-kernels.md, High-level lib APIs).
set(cann_socs_topk_custom Ascend910B3 Ascend310P3)
# issue 23: ConfusionTranspose exists on the A2 and 310P cores (CANN 8.1 lib/transpose/confusion_transpose.h:
# __CCE_AICORE__ 220 or 200).
set(cann_socs_confusion_transpose_custom Ascend910B3 Ascend310P3)
# issue 23, new-user projects: LayerNorm / RmsNorm / Gelu / Silu / Mean, Pad / UnPad /
# Broadcast / Sum / Mean and SoftmaxFlashV2 / DropOut exist on the A2 and 310P cores (asc-devkit
# docs/api: Atlas A2 and Atlas inference products), not on the 910.
set(cann_socs_norm_act_custom Ascend910B3 Ascend310P3)
set(cann_socs_pad_bcast_sum_custom Ascend910B3 Ascend310P3)
set(cann_socs_flash_dropout_custom Ascend910B3 Ascend310P3)
# issue 23, Sort on the 310P: Concat -> Sort -> Extract in the chip's layout (A2 records, 310P
# region proposals); CANN documents none of them on the 910. The MatmulLeakyRelu sample's form
# (mixed mode on the 910B, two AI Cores on the 310P; the Matmul exists on both).
set(cann_socs_sort_custom Ascend910B3 Ascend310P3)
set(cann_socs_matmul_leakyrelu_invocation Ascend910B3 Ascend310P3)
file(GLOB cann_projects LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/compat/cann/*)
foreach(project IN LISTS cann_projects)
  if(NOT EXISTS ${project}/CMakeLists.txt)
    continue()
  endif()
  get_filename_component(name ${project} NAME)
  # A project that uses an API only some chips have runs on those (cann_socs_<project>).
  set(project_socs ${cann_socs})
  if(DEFINED cann_socs_${name})
    set(project_socs ${cann_socs_${name}})
  endif()
  foreach(route cpu sim)
    foreach(soc IN LISTS project_socs)
      set(test compat.cann.${name}.${route}.${soc})
      add_test(NAME ${test} COMMAND ${cann_script} run ${project} ${cann_prefix} ${route} ${soc}
                                    ${cann_work}/${name}-${route}-${soc})
      set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED cann_prefix TIMEOUT 600
        PASS_REGULAR_EXPRESSION "cann_project.sh: ${name}: ${route} on ${soc}: PASS"
        FAIL_REGULAR_EXPRESSION "cann_project.sh: FAILED" ENVIRONMENT "${cann_run_env}")
    endforeach()
  endforeach()
endforeach()
# $NPUVP_PLATFORM overrides the chip SOC_VERSION chose (the program one run test built).
set_tests_properties(compat.cann.vadd_launch.cpu.Ascend910B3 PROPERTIES FIXTURES_SETUP cann_vadd_cpu_910b3)
add_test(NAME compat.cann.platform_override
         COMMAND ${cann_script} override ${cann_work}/vadd_launch-cpu-Ascend910B3 ascend310p Ascend310P3)
set_tests_properties(compat.cann.platform_override PROPERTIES FIXTURES_REQUIRED cann_vadd_cpu_910b3 TIMEOUT 120
  PASS_REGULAR_EXPRESSION "cann_project.sh: override: PASS" FAIL_REGULAR_EXPRESSION "cann_project.sh: FAILED")

# One project through its own run.sh, as a user runs it (setenv.bash, LD_LIBRARY_PATH, the
# installed program without RPATH).
add_test(NAME compat.cann.run_sh.vadd_launch.sim.Ascend910B2
         COMMAND ${cann_script} run.sh ${CMAKE_CURRENT_SOURCE_DIR}/compat/cann/vadd_launch ${cann_prefix} sim
                 Ascend910B2 ${cann_work}/run_sh-vadd_launch)
set_tests_properties(compat.cann.run_sh.vadd_launch.sim.Ascend910B2 PROPERTIES FIXTURES_REQUIRED cann_prefix
  TIMEOUT 600 PASS_REGULAR_EXPRESSION "vadd_launch: run.sh, sim on Ascend910B2: PASS"
  FAIL_REGULAR_EXPRESSION "cann_project.sh: FAILED" ENVIRONMENT "${cann_env}")

# The configure step's errors: an unknown SoC, a launch that cannot be translated.
add_test(NAME compat.cann.configure_errors
         COMMAND ${cann_script} errors ${CMAKE_CURRENT_SOURCE_DIR}/compat/cann/vadd_launch ${cann_prefix}
                 ${cann_work}/errors)
set_tests_properties(compat.cann.configure_errors PROPERTIES FIXTURES_REQUIRED cann_prefix TIMEOUT 300
  PASS_REGULAR_EXPRESSION "cann_project.sh: errors: PASS" FAIL_REGULAR_EXPRESSION "cann_project.sh: FAILED"
  ENVIRONMENT "${cann_env}")

# The installed public headers under the samples' host and kernel flags (-Werror, the old
# string ABI; the ACL headers also as C with the system's cc), and two kernels linked with
# libnpuvp.so under the old string ABI.
add_test(NAME compat.cann.headers
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/compat/cann_headers.sh ${cann_prefix} ${CMAKE_CXX_COMPILER} cc
                 ${CMAKE_CURRENT_SOURCE_DIR}/compat/cann/vadd_launch/vadd_custom.cpp
                 ${PROJECT_SOURCE_DIR}/examples/add_custom/add_custom.cpp)
set_tests_properties(compat.cann.headers PROPERTIES FIXTURES_REQUIRED cann_prefix TIMEOUT 600
  PASS_REGULAR_EXPRESSION "cann_headers.sh: OK" FAIL_REGULAR_EXPRESSION "FAILED")
