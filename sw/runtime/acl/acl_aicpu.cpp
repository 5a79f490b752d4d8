// npuvpAicpuLaunch (acl/npuvp_aicpu.h): AI CPU kernels on an ACL stream (issue 28).
#include "acl/npuvp_aicpu.h"

#include <cstdio>
#include <fmt/format.h>

#include "models/soc/aicpu.h"
#include "platforms/ascend_soc.h"
#include "sw/runtime/acl/stream_work.h"
#include "sw/runtime/device.h"

extern "C" aclError npuvpAicpuLaunch(const char* kernelName, uint32_t blockDim, void* const* tensors,
                                     uint32_t numTensors, const int64_t* ints, uint32_t numInts, const double* floats,
                                     uint32_t numFloats, aclrtStream stream) {
  const char* api = "npuvpAicpuLaunch";
  auto invalid = [&](const std::string& text) { return npuvp::acl::record_error(ACL_ERROR_INVALID_PARAM, api, text.c_str()); };
  if (aclError e = npuvp::acl::need_runtime(api)) return e;
  if (!kernelName) return invalid("kernelName is a null pointer");
  if (!npuvp::soc::AicpuRegistry::global().find(kernelName)) {
    return invalid(fmt::format("no AI CPU kernel named '{}'", kernelName));
  }
  if ((numTensors && !tensors) || (numInts && !ints) || (numFloats && !floats)) {
    return invalid("an argument array is a null pointer with a non-zero count");
  }
  if (blockDim > 65535) return invalid(fmt::format("blockDim {} is above 65535", blockDim));
  npuvp::soc::AicpuArgs args;
  auto& device = npuvp::Device::instance();
  for (uint32_t i = 0; i < numTensors; ++i) args.tensors.push_back(device.device_address(tensors[i]));
  args.ints.assign(ints, ints + numInts);
  args.floats.assign(floats, floats + numFloats);
  return npuvp::acl::run_on_stream(stream, api, ACL_ERROR_RT_AICPU_EXCEPTION, [&] {
    const npuvp::RunReport& r = device.launch_aicpu(kernelName, args, blockDim);
    std::fflush(stdout);
    std::fprintf(stderr, "[npuvp] AI CPU %s\n", r.to_text().c_str());
  });
}
