// GM atomics: which op and element type each product supports (the Ascend C reference,
// docs/zh/api/SIMD-API/基础API/原子操作/*.md), then the core's atomic mode.
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/product.h"
#include "sw/ascendc/kernel_operator.h"

namespace npuvp::ascendc {

using aicore::DType;
using aicore::Product;

namespace {
std::optional<AtomicExtension::Type> atomic_type_of(DType t) {
  switch (t) {
    case DType::F32: return AtomicExtension::Type::F32;
    case DType::F16: return AtomicExtension::Type::F16;
    case DType::BF16: return AtomicExtension::Type::BF16;
    case DType::S32: return AtomicExtension::Type::S32;
    case DType::S16: return AtomicExtension::Type::S16;
    case DType::S8: return AtomicExtension::Type::S8;
    default: return std::nullopt;
  }
}

// "" if `op` on `type` is supported by the current core, else why not.
std::string atomic_support(const aicore::AiCore& c, int op, DType type) {
  const Product p = c.product();
  if (p == Product::Ascend310P && c.core_kind() == aicore::CoreKind::Aiv) {
    return "the Vector Cores of ascend310p have no GM atomics";
  }
  if (op >= 2 && !aicore::is_a2(p)) {
    return fmt::format("atomic max/min exist only on Atlas A2 (ascend910b), not on {}", aicore::product_name(p));
  }
  const char* types = nullptr;  // the documented list when `type` is not in it
  switch (p) {
    case Product::Ascend910:
      if (type != DType::F32) types = "float";
      break;
    case Product::Ascend310P:
      if (type != DType::F32 && type != DType::F16 && type != DType::S16) types = "int16_t, half and float";
      break;
    case Product::Ascend910B:
      if (!atomic_type_of(type)) types = "int8_t, int16_t, half, bfloat16_t, int32_t and float";
      break;
  }
  if (types) return fmt::format("{} supports atomics on {} only, not {}", aicore::product_name(p), types, aicore::dtype_name(type));
  return {};
}
}  // namespace

void set_atomic(int op, DType type, const char* api) {
  aicore::AiCore& c = core();
  c.charge_scalar(1);  // a control-register write
  if (op == 0) {
    c.set_atomic({});
    return;
  }
  const std::string why = atomic_support(c, op, type);
  if (!why.empty()) c.fail(fmt::format("{}<{}>", api, aicore::dtype_name(type)), why);
  c.set_atomic({static_cast<AtomicExtension::Op>(op), *atomic_type_of(type)});
}

void set_atomic_type(DType type, const char* api) {
  aicore::AiCore& c = core();
  c.charge_scalar(1);
  if (c.product() == Product::Ascend910) {
    c.fail(fmt::format("{}<{}>", api, aicore::dtype_name(type)),
           "ascend910 (Atlas training) has no SetAtomicType: its atomics are float only");
  }
  const std::string why = atomic_support(c, 1, type);
  if (!why.empty()) c.fail(fmt::format("{}<{}>", api, aicore::dtype_name(type)), why);
  AtomicExtension mode = c.atomic_mode();
  mode.type = *atomic_type_of(type);
  c.set_atomic(mode);
}

}  // namespace npuvp::ascendc
