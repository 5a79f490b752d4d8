/* AscendCL on the npuvp virtual device: what host programs include (docs/acl-runtime.md).
 * Names, signatures and values are CANN's; the declarations are npuvp's own. */
#ifndef NPUVP_ACL_ACL_H_
#define NPUVP_ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the CANN acl API these headers follow. */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 0
#define ACL_PATCH_VERSION 0

/* Initialises acl; `configPath` (a JSON file, may be nullptr or "") is accepted and not
 * read. Must precede every other acl call except the pure helpers (aclFloat16 conversion,
 * aclDataTypeSize, aclGetRecentErrMsg). */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

#ifdef __cplusplus
}
#endif

#endif /* NPUVP_ACL_ACL_H_ */
