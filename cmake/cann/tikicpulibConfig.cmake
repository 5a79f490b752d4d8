# The CPU-debug route of CANN projects (their cmake/cpu_lib.cmake: find_package(tikicpulib)
# with CMAKE_PREFIX_PATH=<CANN>/tools/tikicpulib/lib/cmake), on npuvp: kernels and host are
# compiled with the host compiler and run on the virtual platform of the chip named.
#   tikicpulib::<SOC>  for every SoC name of a modelled chip (tikicpulib::Ascend910B1, ...,
#                      and the product names tikicpulib::ascend910b, ...): the compile
#                      definitions CANN's CPU library gives kernels (ASCENDC_CPU_DEBUG,
#                      __CCE_KT_TEST__, __CCE_AICORE__, __NPU_ARCH__), NPUVP_SOC_VERSION (that
#                      chip is the program's default platform; $NPUVP_PLATFORM overrides it),
#                      the include directories and libnpuvp.so.
#   ascendcl           the ACL runtime (libnpuvp.so).
get_filename_component(_npuvp_cann_dir "${CMAKE_CURRENT_LIST_DIR}/../../../../../share/npuvp/cmake" ABSOLUTE)
include("${_npuvp_cann_dir}/npuvp_cann.cmake")
unset(_npuvp_cann_dir)

# A project naming a chip npuvp does not model stops here with the names it does.
if(SOC_VERSION)
  npuvp_cann_chip("${SOC_VERSION}" _npuvp_chip)
endif()

foreach(_npuvp_soc IN LISTS NPUVP_CANN_SOCS ITEMS ascend910 ascend910b ascend310p)
  if(NOT TARGET tikicpulib::${_npuvp_soc})
    npuvp_cann_chip(${_npuvp_soc} _npuvp_chip)
    add_library(tikicpulib::${_npuvp_soc} INTERFACE IMPORTED GLOBAL)
    set_target_properties(tikicpulib::${_npuvp_soc} PROPERTIES
      INTERFACE_LINK_LIBRARIES npuvp_cann_runtime
      INTERFACE_COMPILE_DEFINITIONS
        "ASCENDC_CPU_DEBUG=1;__CCE_KT_TEST__=1;__CCE_AICORE__=${_npuvp_chip_AICORE};__NPU_ARCH__=${_npuvp_chip_ARCH};NPUVP_SOC_VERSION=\"${_npuvp_chip_SOC}\"")
  endif()
endforeach()
unset(_npuvp_soc)

if(NOT TARGET ascendcl)
  add_library(ascendcl INTERFACE IMPORTED GLOBAL)
  set_target_properties(ascendcl PROPERTIES INTERFACE_LINK_LIBRARIES npuvp_cann_runtime)
endif()
set(tikicpulib_FOUND TRUE)
