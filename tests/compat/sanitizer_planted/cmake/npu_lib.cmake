# Device (npu) and simulator (sim) routes: the kernels built by CANN's ascendc_library().
if(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake)
  set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake)
elseif(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/ascendc_kernel_cmake)
  set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/ascendc_kernel_cmake)
else()
  message(FATAL_ERROR "no ascendc_kernel_cmake under ${ASCEND_CANN_PACKAGE_PATH}: is CANN installed there?")
endif()
include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)

ascendc_library(ascendc_kernels_${RUN_MODE} SHARED ${KERNEL_FILES})
ascendc_compile_definitions(ascendc_kernels_${RUN_MODE} PRIVATE -DASCENDC_DUMP)
ascendc_compile_options(ascendc_kernels_${RUN_MODE} PRIVATE -g -O2 -mllvm -cce-aicore-stack-size=0x8000
                        --cce-auto-sync)
