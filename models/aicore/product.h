// The product an AI Core belongs to decides which buffers, data paths and data types it has
// (SPEC.md §1.2, §1.5 and the DataCopy tables in reference/seeds/002_*).
#pragma once
#include <optional>
#include <string>
#include "models/aicore/isa.h"

namespace npuvp::aicore {

enum class Product : uint8_t {
  Ascend910,   // training, coupled (Atlas training products)
  Ascend310P,  // inference AI Core, coupled
  Ascend910B,  // A2: separated cube (AIC) and vector (AIV) cores; `core910b` keeps one core with every pipe
};

// What one AI Core has (SPEC.md §1.1): a coupled core has every unit of its product; in
// separated mode the cube core (AIC) has {S, MTE1, MTE2, M, FIX} and L1, L0A/B/C, BT, FB, and
// the vector core (AIV) has {S, MTE2, MTE3, V} and UB. 310P's Vector Cores are AIV-like.
enum class CoreKind : uint8_t { Coupled, Aic, Aiv };

const char* core_kind_name(CoreKind k);
bool kind_has_pipe(CoreKind k, Pipe p);
bool kind_has_buffer(CoreKind k, MemSpace space);

const char* product_name(Product p);
// Raises an error listing the known names if `name` is not one.
Product product_from_name(const std::string& name);
bool is_a2(Product p);

// The pipe that runs a plain DataCopy from `src` to `dst` on `p`, or nothing if illegal.
std::optional<Pipe> copy_pipe(Product p, MemSpace src, MemSpace dst);
// Pipes for the format-converting moves, or nothing if the product lacks that path.
std::optional<Pipe> nd2nz_pipe(Product p, MemSpace src, MemSpace dst);
std::optional<Pipe> load2d_pipe(Product p, MemSpace src, MemSpace dst);
bool load3d_legal(Product p, MemSpace src, MemSpace dst);
bool fixpipe_legal(Product p, MemSpace dst);

// Address alignment of each local buffer (SPEC.md §1.2).
unsigned buffer_alignment(MemSpace space);

}  // namespace npuvp::aicore
