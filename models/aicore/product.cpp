#include "models/aicore/product.h"

#include "tlm/log.h"

namespace npuvp::aicore {

using M = MemSpace;

const char* product_name(Product p) {
  switch (p) {
    case Product::Ascend910: return "ascend910";
    case Product::Ascend310P: return "ascend310p";
    case Product::Ascend910B: return "ascend910b";
  }
  return "?";
}

Product product_from_name(const std::string& name) {
  for (Product p : {Product::Ascend910, Product::Ascend310P, Product::Ascend910B}) {
    if (name == product_name(p)) return p;
  }
  raise("config", "core.product '{}' is not a known product (ascend910, ascend310p, ascend910b)", name);
}

const char* core_kind_name(CoreKind k) {
  switch (k) {
    case CoreKind::Coupled: return "coupled";
    case CoreKind::Aic: return "aic";
    case CoreKind::Aiv: return "aiv";
  }
  return "?";
}

bool kind_has_pipe(CoreKind k, Pipe p) {
  switch (k) {
    case CoreKind::Coupled: return true;  // the product decides (FIX only on A2)
    case CoreKind::Aic:
      return p == Pipe::S || p == Pipe::MTE1 || p == Pipe::MTE2 || p == Pipe::M || p == Pipe::FIX;
    case CoreKind::Aiv: return p == Pipe::S || p == Pipe::MTE2 || p == Pipe::MTE3 || p == Pipe::V;
  }
  return false;
}

bool kind_has_buffer(CoreKind k, MemSpace space) {
  if (space == M::GM) return true;
  switch (k) {
    case CoreKind::Coupled: return true;  // the sizes decide
    case CoreKind::Aic: return space != M::UB;
    case CoreKind::Aiv: return space == M::UB;
  }
  return false;
}

bool is_a2(Product p) { return p == Product::Ascend910B; }

std::optional<Pipe> copy_pipe(Product p, MemSpace src, MemSpace dst) {
  // Every product: the vector paths.
  if (src == M::GM && dst == M::UB) return Pipe::MTE2;
  if (src == M::UB && dst == M::GM) return Pipe::MTE3;
  if (src == M::UB && dst == M::UB) return Pipe::V;
  if (src == M::GM && dst == M::L1) return Pipe::MTE2;
  switch (p) {
    case Product::Ascend910:
      if (src == M::L0C && dst == M::UB) return Pipe::V;  // CO1 -> CO2, matrix mode
      break;
    case Product::Ascend310P:
      if (src == M::L0C && dst == M::UB) return Pipe::V;
      if (src == M::UB && dst == M::L0C) return Pipe::V;  // CO2 -> CO1 (BroadCastVecToMM)
      if (src == M::UB && dst == M::L1) return Pipe::MTE3;
      break;
    case Product::Ascend910B:
      if (src == M::UB && dst == M::L1) return Pipe::MTE3;  // VECOUT -> TSCM
      if (src == M::L1 && dst == M::BT) return Pipe::MTE1;  // C1 -> C2
      if (src == M::L1 && dst == M::FB) return Pipe::MTE1;  // C1 -> C2PIPE2GM
      if (src == M::L1 && dst == M::GM) return Pipe::MTE3;  // A1/B1 -> GM
      break;
  }
  return std::nullopt;
}

std::optional<Pipe> nd2nz_pipe(Product p, MemSpace src, MemSpace dst) {
  if (p == Product::Ascend910) return std::nullopt;  // training products have no ND2NZ
  if (src == M::GM && (dst == M::L1 || dst == M::UB)) return Pipe::MTE2;
  return std::nullopt;
}

std::optional<Pipe> load2d_pipe(Product, MemSpace src, MemSpace dst) {
  const bool to_l0 = dst == M::L0A || dst == M::L0B;
  if (src == M::GM && (to_l0 || dst == M::L1)) return Pipe::MTE2;
  if (src == M::L1 && to_l0) return Pipe::MTE1;
  return std::nullopt;
}

bool load3d_legal(Product, MemSpace src, MemSpace dst) {
  return src == M::L1 && (dst == M::L0A || dst == M::L0B);
}

bool fixpipe_legal(Product p, MemSpace dst) { return is_a2(p) && (dst == M::GM || dst == M::L1); }

unsigned buffer_alignment(MemSpace space) {
  switch (space) {
    case M::L0A: case M::L0B: return 512;
    case M::L0C: case M::BT: return 64;
    case M::FB: return 128;
    default: return 32;
  }
}

}  // namespace npuvp::aicore
