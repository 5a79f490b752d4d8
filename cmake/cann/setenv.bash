# The environment of an npuvp install laid out as a CANN package: CANN projects' run.sh
# sources <prefix>/bin/setenv.bash (older ones <prefix>/set_env.sh), as it sources CANN's.
# The prefix is found from where this file is.
_npuvp_prefix=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)
[ -e "$_npuvp_prefix/lib64/libnpuvp.so" ] || _npuvp_prefix=$(dirname "$_npuvp_prefix")
export ASCEND_HOME_PATH=$_npuvp_prefix
export ASCEND_TOOLKIT_HOME=$_npuvp_prefix
export ASCEND_AICPU_PATH=$_npuvp_prefix
export ASCEND_OPP_PATH=$_npuvp_prefix/opp
export NPUVP_HOME=$_npuvp_prefix
export PATH=$_npuvp_prefix/bin${PATH:+:$PATH}
export LD_LIBRARY_PATH=$_npuvp_prefix/lib64:$_npuvp_prefix/runtime/lib64:$_npuvp_prefix/tools/tikicpulib/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# A project's cpu_lib.cmake points CMAKE_PREFIX_PATH at tikicpulib only when the environment
# sets none; when it does, tikicpulib must be on it.
if [ -n "${CMAKE_PREFIX_PATH:-}" ]; then
  export CMAKE_PREFIX_PATH=$_npuvp_prefix/tools/tikicpulib/lib/cmake:$CMAKE_PREFIX_PATH
fi
unset _npuvp_prefix
