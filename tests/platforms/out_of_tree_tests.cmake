# examples/add_custom built as a user's own CMake project against this build: once through
# the build tree's package files, once through an installed copy. Both need the main build
# to be complete (ctest runs after the build). See docs/writing-kernels.md.
set(oot_script ${CMAKE_CURRENT_SOURCE_DIR}/platforms/out_of_tree.sh)
set(oot_prefix ${CMAKE_BINARY_DIR}/oot-install/prefix)

# The example is configured with the same compiler, flags and (single-config) generator as
# this build, and for sanitizer builds with the same instrumentation as libnpuvp.a (the
# exported targets do not carry -fsanitize).
set(oot_cxxflags "${CMAKE_CXX_FLAGS}")
set(oot_ldflags "${CMAKE_EXE_LINKER_FLAGS}")
if(NPUVP_SANITIZE)
  string(APPEND oot_cxxflags " -fsanitize=address,undefined -fno-omit-frame-pointer")
  string(APPEND oot_ldflags " -fsanitize=address,undefined")
endif()
set(oot_env "CMAKE=${CMAKE_COMMAND}" "CXX=${CMAKE_CXX_COMPILER}" "CXXFLAGS=${oot_cxxflags}"
            "LDFLAGS=${oot_ldflags}")
if(NOT CMAKE_CONFIGURATION_TYPES)
  list(APPEND oot_env "CMAKE_GENERATOR=${CMAKE_GENERATOR}")
endif()

add_test(NAME platforms.out_of_tree.build_tree
         COMMAND ${oot_script} ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR} build-tree)
# The installed library looks for platform configs in the data dir of the prefix the build
# was configured with (CMAKE_INSTALL_PREFIX, /usr/local by default), not in this temporary
# prefix; NPUVP_CONFIG_PATH points it at the installed copy.
add_test(NAME platforms.out_of_tree.install
         COMMAND ${oot_script} ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR} install)
set_tests_properties(platforms.out_of_tree.install PROPERTIES
  ENVIRONMENT "NPUVP_CONFIG_PATH=${oot_prefix}/${CMAKE_INSTALL_DATADIR}/npuvp/configs")

set_tests_properties(platforms.out_of_tree.build_tree platforms.out_of_tree.install PROPERTIES
  TIMEOUT 600
  RESOURCE_LOCK oot
  PASS_REGULAR_EXPRESSION "add_custom: PASS \\(16384 elements\\)"
  FAIL_REGULAR_EXPRESSION "out_of_tree.sh: FAILED")
foreach(t platforms.out_of_tree.build_tree platforms.out_of_tree.install)
  set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT ${oot_env})
endforeach()
