# The CANN drop-ins (docs/writing-kernels.md, "Bring your CANN project"): an npuvp install
# doubles as a CANN package, ASCEND_CANN_PACKAGE_PATH=<prefix>, laid out as CANN is:
#   bin/setenv.bash (and set_env.sh), bin/npuvp-ascendc-translate (the sim route's build step)
#   compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake, tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake
#   tools/tikicpulib/lib/cmake/tikicpulib/tikicpulibConfig.cmake (+ version file)
#   share/npuvp/cmake/npuvp_cann.cmake (what those share)
#   lib64/libnpuvp.so and, as links to it, the library names CANN projects link; the same
#     links in runtime/lib64 and runtime/lib64/stub
#   include/, runtime/include/: kernel_operator.h, tikicpulib.h, the ACL headers and the host
#     tiling headers (tiling/tiling_api.h, tiling/platform/, kernel_tiling/, register/)
#   tools/tikicpulib/lib/<SoC>, tools/simulator/<SoC>/lib: the directories run.sh puts on
#     LD_LIBRARY_PATH (empty: everything is in libnpuvp.so)
set(NPUVP_CANN_LIBDIR ${NPUVP_SHARED_LIBDIR})
set(NPUVP_CANN_LIBRARY_NAMES ascendcl c_sec tiling_api register platform ascendalog runtime runtime_camodel
    graph graph_base nnopbase opapi opapi_transformer opapi_oam unified_dlog mmpa ascend_dump error_manager
    exe_graph acl_op_compiler ascend_hal pem_davinci npu_drv profapi ge_common ge_common_base)

# The sim route's launch-syntax translator, a library for its unit tests and a tool.
add_library(npuvp_launch_syntax STATIC sw/cann/launch_syntax.cpp)
target_include_directories(npuvp_launch_syntax PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}>)
target_compile_options(npuvp_launch_syntax PRIVATE ${NPUVP_WARNINGS})
add_executable(npuvp-ascendc-translate sw/cann/translate_main.cpp)
target_link_libraries(npuvp-ascendc-translate PRIVATE npuvp_launch_syntax)
target_compile_options(npuvp-ascendc-translate PRIVATE ${NPUVP_WARNINGS})
install(TARGETS npuvp-ascendc-translate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The library names, as links made in the build tree and installed as links.
set(cann_links_dir ${CMAKE_CURRENT_BINARY_DIR}/cann_links)
file(MAKE_DIRECTORY ${cann_links_dir})
set(cann_links)
foreach(name IN LISTS NPUVP_CANN_LIBRARY_NAMES)
  file(CREATE_LINK libnpuvp.so ${cann_links_dir}/lib${name}.so SYMBOLIC)
  list(APPEND cann_links ${cann_links_dir}/lib${name}.so)
endforeach()
install(FILES ${cann_links} DESTINATION ${NPUVP_CANN_LIBDIR})
foreach(dir runtime/lib64 runtime/lib64/stub)
  file(MAKE_DIRECTORY ${cann_links_dir}/${dir})
  file(RELATIVE_PATH up ${CMAKE_INSTALL_PREFIX}/${dir} ${CMAKE_INSTALL_PREFIX}/${NPUVP_CANN_LIBDIR})
  set(links)
  foreach(name IN LISTS NPUVP_CANN_LIBRARY_NAMES ITEMS npuvp)
    file(CREATE_LINK ${up}/libnpuvp.so ${cann_links_dir}/${dir}/lib${name}.so SYMBOLIC)
    list(APPEND links ${cann_links_dir}/${dir}/lib${name}.so)
  endforeach()
  install(FILES ${links} DESTINATION ${dir})
endforeach()

# CMake files at CANN's paths.
file(RELATIVE_PATH NPUVP_CANN_UP_FROM_CMAKEDIR ${CMAKE_INSTALL_PREFIX}/share/npuvp/cmake ${CMAKE_INSTALL_PREFIX})
configure_file(cmake/cann/npuvp_cann.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/cann/npuvp_cann.cmake @ONLY)
configure_file(cmake/cann/tikicpulibConfigVersion.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/cann/tikicpulibConfigVersion.cmake @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cann/npuvp_cann.cmake DESTINATION share/npuvp/cmake)
install(FILES cmake/cann/tikicpulibConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/cann/tikicpulibConfigVersion.cmake
        DESTINATION tools/tikicpulib/lib/cmake/tikicpulib)
install(FILES cmake/cann/ascendc.cmake DESTINATION compiler/tikcpp/ascendc_kernel_cmake)
install(FILES cmake/cann/ascendc.cmake DESTINATION tools/tikcpp/ascendc_kernel_cmake)
install(PROGRAMS cmake/cann/setenv.bash DESTINATION bin)
install(PROGRAMS cmake/cann/setenv.bash DESTINATION . RENAME set_env.sh)

# Headers where CANN has them (forwarding to npuvp's, whose root the targets also carry).
foreach(dir include runtime/include)
  install(FILES cmake/cann/include/kernel_operator.h cmake/cann/include/tikicpulib.h DESTINATION ${dir})
  # CANN's host tiling headers (tiling/, kernel_tiling/, register/) where CANN has them.
  install(DIRECTORY sw/tiling/include/ DESTINATION ${dir} FILES_MATCHING PATTERN "*.h")
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/sw/runtime/acl/include)
    install(DIRECTORY sw/runtime/acl/include/ DESTINATION ${dir} FILES_MATCHING PATTERN "*.h")
  endif()
endforeach()

# The directories CANN projects' run.sh puts on LD_LIBRARY_PATH.
set(cann_socs Ascend910A Ascend910B Ascend910ProA Ascend910ProB Ascend910PremiumA Ascend910B1 Ascend910B2
    Ascend910B2C Ascend910B3 Ascend910B4 Ascend910B4-1 Ascend310P1 Ascend310P2 Ascend310P3 Ascend310P4
    Ascend310P5 Ascend310P7)
foreach(soc Ascend910A Ascend910B1 Ascend310P1)
  install(DIRECTORY DESTINATION tools/tikicpulib/lib/${soc})
endforeach()
foreach(soc IN LISTS cann_socs)
  install(DIRECTORY DESTINATION tools/simulator/${soc}/lib)
endforeach()
