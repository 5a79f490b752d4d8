// The acl helpers that need no device: fp16 conversion and data type sizes.
#include <cstring>
#include "acl/acl_base.h"

extern "C" {

// The compiler's _Float16 converts exactly (widening) and with round-to-nearest-even
// (narrowing), through F16C when the build has it (models/numerics/fp16.h).
float aclFloat16ToFloat(aclFloat16 value) {
  _Float16 h;
  std::memcpy(&h, &value, sizeof h);
  return static_cast<float>(h);
}

aclFloat16 aclFloatToFloat16(float value) {
  const _Float16 h = static_cast<_Float16>(value);
  aclFloat16 bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0: return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16: return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32: return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;  // ACL_STRING, ACL_DT_UNDEFINED, sub-byte types (INT4, UINT1, FLOAT6/4)
  }
}

}  // extern "C"
