/* npuvp's ACL-side launch of AI CPU kernels (issue 28; not a CANN API: CANN launches AI CPU
 * operators through its operator and graph layers). Runs kernel `kernelName` from the AI CPU
 * kernel registry (TopK, ArgMax, NonMaxSuppression, ...; argument layouts in
 * models/soc/aicpu_kernels.h) in order on `stream`: `tensors` are device pointers
 * (aclrtMalloc/acldvppMalloc memory), `ints` and `floats` the attributes; blockDim 0 runs the
 * kernel's default number of AI CPU blocks. Returns ACL_SUCCESS, ACL_ERROR_INVALID_PARAM for a
 * bad argument or an unknown kernel, or the kernel's failure (aclGetRecentErrMsg says why). */
#ifndef NPUVP_ACL_NPUVP_AICPU_H_
#define NPUVP_ACL_NPUVP_AICPU_H_

#include <stdint.h>
#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclError npuvpAicpuLaunch(const char *kernelName, uint32_t blockDim, void *const *tensors,
                                              uint32_t numTensors, const int64_t *ints, uint32_t numInts,
                                              const double *floats, uint32_t numFloats, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUVP_ACL_NPUVP_AICPU_H_ */
