# The sim route of CANN projects (their cmake/npu_lib.cmake includes
# <CANN>/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake, or the tools/tikcpp/ spelling),
# on npuvp: kernel files are compiled with the host compiler against npuvp and run on the
# virtual platform of SOC_VERSION's chip.
#   ascendc_library(<name> SHARED|STATIC <files>...)   the kernel library. Each file is first
#       translated (npuvp-ascendc-translate): `k<<<blockDim, l2ctrl, stream>>>(args)` becomes
#       a launch on the ACL stream, and aclrtlaunch_<k>.h is generated for every kernel, in
#       an include directory the library passes on to what links it
#       (ACLRT_LAUNCH_KERNEL(k)(blockDim, stream, args...)); `cmake --install` installs the
#       library into lib/ and the headers into include/<name>/.
#   ascendc_compile_definitions(<name> <scope> <defs>...)
#   ascendc_compile_options(<name> <scope> <options>...)  options of CANN's device compiler
#       (-mllvm X, --cce-*, --npu-arch=..., -x cce, ...) are dropped, with one message;
#       -g, -O, -D, -U, -I, -W and -std= are kept.
#   ascendc_include_directories(<name> <scope> <dirs>...)
#   host_intf_pub                                      what host programs link: the ACL
#       runtime (libnpuvp.so), its headers, <prefix>/lib64 and the chip (NPUVP_SOC_VERSION).
include(GNUInstallDirs)
get_filename_component(_npuvp_cann_dir "${CMAKE_CURRENT_LIST_DIR}/../../../share/npuvp/cmake" ABSOLUTE)
include("${_npuvp_cann_dir}/npuvp_cann.cmake")
unset(_npuvp_cann_dir)

if(NOT SOC_VERSION)
  message(FATAL_ERROR "npuvp: set SOC_VERSION (e.g. -DSOC_VERSION=Ascend910B1) before including ascendc.cmake")
endif()
npuvp_cann_chip("${SOC_VERSION}" NPUVP_CHIP)
set(NPUVP_ASCENDC_TRANSLATE "${NPUVP_CANN_PREFIX}/bin/npuvp-ascendc-translate")
message(STATUS "npuvp: SOC_VERSION ${NPUVP_CHIP_SOC} runs on npuvp's ${NPUVP_CHIP_PLATFORM} platform")

if(NOT TARGET host_intf_pub)
  add_library(host_intf_pub INTERFACE)
  target_link_libraries(host_intf_pub INTERFACE npuvp_cann_runtime)
  target_compile_definitions(host_intf_pub INTERFACE NPUVP_SOC_VERSION="${NPUVP_CHIP_SOC}")
endif()

function(ascendc_library target kind)
  if(NOT kind MATCHES "^(SHARED|STATIC)$")
    message(FATAL_ERROR "npuvp: ascendc_library(${target} ${kind} ...): the kind must be SHARED or STATIC")
  endif()
  set(work "${CMAKE_CURRENT_BINARY_DIR}/npuvp_ascendc/${target}")
  set(header_dir "${work}/include")
  file(MAKE_DIRECTORY "${header_dir}")
  set(sources)
  set(source_dirs)
  set(index 0)
  foreach(file IN LISTS ARGN)
    get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${file}" NAME_WE)
    get_filename_component(dir "${file}" DIRECTORY)
    list(APPEND source_dirs "${dir}")
    if(file MATCHES "\\.(h|hh|hpp|hxx|inc)$")
      list(APPEND sources "${file}")  # listed for IDEs; compiled where it is included
      continue()
    endif()
    set(translated "${work}/${index}_${name}.cpp")
    math(EXPR index "${index} + 1")
    # Once now, so a launch that cannot be translated stops the configure step with its file
    # and line, and the launch headers exist before anything includes them; then at every
    # build where the kernel file changed.
    execute_process(COMMAND "${NPUVP_ASCENDC_TRANSLATE}" "${file}" "${translated}" "${header_dir}"
                    RESULT_VARIABLE status ERROR_VARIABLE why)
    if(NOT status EQUAL 0)
      # Indented, so CMake prints the translator's "file:line: error: ..." unwrapped.
      string(REGEX REPLACE "\n$" "" why "${why}")
      string(REPLACE "\n" "\n  " why "${why}")
      message(FATAL_ERROR "npuvp: cannot translate ${file} for the sim route:\n  ${why}")
    endif()
    execute_process(COMMAND "${NPUVP_ASCENDC_TRANSLATE}" --list "${file}" OUTPUT_VARIABLE kernels)
    string(REGEX REPLACE "\n$" "" kernels "${kernels}")
    string(REPLACE "\n" ";" kernels "${kernels}")
    set(headers)
    foreach(k IN LISTS kernels)
      list(APPEND headers "${header_dir}/aclrtlaunch_${k}.h")
    endforeach()
    add_custom_command(OUTPUT "${translated}" BYPRODUCTS ${headers}
                       COMMAND "${NPUVP_ASCENDC_TRANSLATE}" "${file}" "${translated}" "${header_dir}"
                       DEPENDS "${file}" "${NPUVP_ASCENDC_TRANSLATE}"
                       COMMENT "npuvp: translating the kernel launches of ${file}" VERBATIM)
    list(APPEND sources "${translated}")
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)

  add_library(${target} ${kind} ${sources})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # The kernel files' own directories first: their quoted includes are relative to them.
  target_include_directories(${target} PRIVATE ${source_dirs} PUBLIC "$<BUILD_INTERFACE:${header_dir}>")
  target_compile_definitions(${target} PRIVATE __CCE_AICORE__=${NPUVP_CHIP_AICORE} __NPU_ARCH__=${NPUVP_CHIP_ARCH}
                             NPUVP_SOC_VERSION="${NPUVP_CHIP_SOC}")
  target_link_libraries(${target} PUBLIC npuvp_cann_runtime)
  # Installed as CANN installs it: the library beside the host program's, the launch headers
  # in include/<name>/.
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY "${header_dir}/" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${target})
endfunction()

function(ascendc_compile_definitions target)
  target_compile_definitions(${target} ${ARGN})
endfunction()

function(ascendc_include_directories target)
  target_include_directories(${target} ${ARGN})
endfunction()

function(ascendc_compile_options target)
  set(kept)
  set(dropped)
  set(drop_next FALSE)
  foreach(option IN LISTS ARGN)
    if(drop_next)
      list(APPEND dropped "${option}")
      set(drop_next FALSE)
    elseif(option MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$" OR option MATCHES "^\\$<")
      list(APPEND kept "${option}")
    elseif(option MATCHES "^(-mllvm|-Xclang|-x|--npu-arch|--cce-aicore-arch)$")
      list(APPEND dropped "${option}")
      set(drop_next TRUE)
    elseif(option MATCHES "^-(g|O|D|U|I|W|std=)")
      list(APPEND kept "${option}")
    else()
      list(APPEND dropped "${option}")
    endif()
  endforeach()
  if(dropped)
    string(REPLACE ";" " " dropped "${dropped}")
    message(STATUS "npuvp: ${target}: ignoring options of CANN's device compiler: ${dropped}")
  endif()
  if(kept)
    target_compile_options(${target} ${kept})
  endif()
endfunction()
