// A TIK program as the Python front end records it (python/tbe/tik): tensors, scalars and a
// statement tree whose instructions carry the Python file:line that wrote them. The front end
// serialises it as JSON (format "npuvp-tik/1", docs/tik.md); parse() checks it and turns it
// into the structures below, which the interpreter (tik_interp.h) runs as each core's scalar
// program.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>
#include "models/aicore/isa.h"

namespace npuvp::tik {

// TIK's data types (Tensor and Scalar dtype strings).
enum class Type : uint8_t { S8, U8, S16, U16, S32, U32, S64, U64, F16, F32, BF16 };
Type type_from_name(const std::string& name);  // "float16", "int32", ...
const char* type_name(Type t);
unsigned type_size(Type t);
bool type_is_float(Type t);
aicore::DType isa_type(Type t);  // the vector unit's type (64-bit types have none: an error)

// TIK's buffer scopes.
enum class Scope : uint8_t { GM, UB, L1, L1OUT, L0A, L0B, L0C };
Scope scope_from_name(const std::string& name);  // "scope_gm", "scope_ubuf", "scope_cbuf", ...
aicore::MemSpace mem_space(Scope s);             // L1OUT and L0C are both L0C

// A value of the scalar unit: integers exactly, floats as double (rounded to their dtype
// when stored).
struct Value {
  bool is_float = false;
  union {
    int64_t i = 0;  // when !is_float
    double f;       // when is_float
  };
  double as_double() const { return is_float ? f : static_cast<double>(i); }
  int64_t as_int() const { return is_float ? static_cast<int64_t>(f) : i; }
};

// The name of expression operator `op` (Expr::op): "neg", "+", "<", ...
const char* expr_op_name(unsigned op);

// An expression over constants, scalars and tensor elements. 16 bytes: an instruction holds
// ~15 of them and a program 10^5 instructions, so their size is most of the statement tree's
// (docs/performance.md, "TIK front end"). A constant holds its value; the other kinds hold a
// scalar or tensor id and their operands on the heap.
struct Expr {
  enum class Kind : uint8_t { Const, Scalar, Load, Unary, Binary };
  Kind kind = Kind::Const;
  uint8_t op = 0;          // Unary/Binary: the operator (tik_program.cpp's table)
  Type type = Type::S32;   // Load: element type
  bool is_float = false;   // Const: the value is a double
  int32_t id = -1;         // Scalar: scalar id; Load: tensor id

  Expr() : i_(0) {}
  explicit Expr(const Value& v) : is_float(v.is_float) {
    if (v.is_float) f_ = v.f; else i_ = v.i;
  }
  Expr(const Expr& o) : kind(o.kind), op(o.op), type(o.type), is_float(o.is_float), id(o.id), i_(o.i_) {
    if (const size_t n = o.arity()) {
      args_ = new Expr[n];
      for (size_t k = 0; k < n; ++k) args_[k] = o.args_[k];
    }
  }
  Expr(Expr&& o) noexcept : kind(o.kind), op(o.op), type(o.type), is_float(o.is_float), id(o.id), i_(o.i_) {
    o.kind = Kind::Const;  // the operands are ours now
    o.i_ = 0;
  }
  Expr& operator=(Expr o) noexcept {
    std::swap(kind, o.kind);
    std::swap(op, o.op);
    std::swap(type, o.type);
    std::swap(is_float, o.is_float);
    std::swap(id, o.id);
    std::swap(i_, o.i_);
    return *this;
  }
  ~Expr() {
    if (arity()) delete[] args_;
  }

  bool is_const() const { return kind == Kind::Const; }
  Value value() const {  // Const
    Value v;
    v.is_float = is_float;
    if (is_float) v.f = f_; else v.i = i_;
    return v;
  }
  // Operands: 1 for Load (the byte offset) and Unary, 2 for Binary.
  size_t arity() const {
    return kind == Kind::Binary ? 2 : (kind == Kind::Load || kind == Kind::Unary) ? 1 : 0;
  }
  const Expr& arg(size_t k) const { return args_[k]; }
  // Makes this a `k` expression and allocates its operands for the caller to fill.
  Expr* make(Kind k) {
    if (arity()) delete[] args_;
    kind = k;
    i_ = 0;
    if (const size_t n = arity()) args_ = new Expr[n];
    return arity() ? args_ : nullptr;
  }

 private:
  union {
    int64_t i_;     // Const, integer
    double f_;      // Const, float
    Expr* args_;    // Load, Unary, Binary
  };
};

// A tensor operand: the tensor and a byte offset from its start (views, slices, reinterpreted
// types all reduce to this).
struct View {
  int tensor = -1;
  Expr offset;
  bool present() const { return tensor >= 0; }
};

struct TensorDecl {
  std::string name;
  Type type = Type::F16;
  Scope scope = Scope::GM;
  uint64_t bytes = 0;
  uint64_t addr[2] = {0, 0};  // local scopes: the front end's allocation; [1]: double buffer
  int db_loop = -1;           // the thread_num=2 loop whose iteration parity picks addr[0/1]
  std::vector<uint8_t> init;  // GM: init_value's bytes, copied in before the launch (empty: none)
};

struct ScalarDecl {
  std::string name;
  Type type = Type::S32;
  bool has_init = false;
  Value init;
};

// An instruction's numeric parameters: at most 8, held in the instruction itself (one
// allocation fewer per instruction than a std::vector).
class Params {
 public:
  static constexpr size_t kMax = 8;
  void reserve(size_t) {}
  void push_back(Expr e) {
    if (n_ == kMax) throw std::length_error("a TIK instruction has at most 8 parameters");
    p_[n_++] = std::move(e);
  }
  size_t size() const { return n_; }
  const Expr& operator[](size_t i) const { return p_[i]; }
  const Expr& at(size_t i) const {
    if (i >= n_) throw std::out_of_range("TIK instruction parameter");
    return p_[i];
  }

 private:
  Expr p_[kMax];
  size_t n_ = 0;
};

// One TIK instruction after the front end normalised both naming generations.
struct Instr {
  enum class Kind : uint8_t { Vector, Move, Load2D, Load3D, Mmad, Fixpipe, Atomic, Barrier };
  Kind kind = Kind::Vector;
  std::string api;   // the TIK name the user wrote ("vec_add", "vadd", "data_move", ...)
  std::string loc;   // "file.py:123"
  aicore::VectorOp vec;  // Vector: the fixed fields (op, types, modes)
  View dst, src0, src1, src2;
  View src3;  // Vector: MrgSort4's fourth queue (vmrgsort4)
  // Vector: the mask as a count (mask_bits false) or as (hi, lo) words.
  bool mask_bits = false;
  Expr mask_count, mask_hi, mask_lo;
  // Named numeric parameters, by kind:
  //  Vector: repeat, dst_blk, src0_blk, src1_blk, dst_rep, src0_rep, src1_rep, scalar
  //  Move:   nburst, burst, src_gap, dst_gap
  //  Load2D: start, repeat, src_stride, dst_gap
  //  Mmad:   m, k, n (params[3] == 0: init the accumulator)
  //  Fixpipe: n_bursts(=n/16), burst_len, dst_stride, src_stride, m, n
  //  Atomic: mode
  Params params;
  uint32_t unit = 32;  // Move: bytes per burst unit
  bool transpose = false;  // Load2D: transpose; Fixpipe: NZ -> ND
  bool relu = false;       // Fixpipe
  bool broadcast = false;  // Move: broadcast_ub_to_l0c
  // Move: data_move_pad (DataCopyPad: burst and the GM-side gap in bytes), its padding in bytes
  // and the padding element's bits.
  bool pad = false;
  uint32_t pad_left = 0, pad_right = 0;
  uint64_t pad_value = 0;
  std::shared_ptr<aicore::LoadData3D> load3d;  // Load3D: the static fields
  int result_scalar = -1;  // Vector: the Scalar that receives GatherMask's kept count (vreduce rsvd_scalar)
  Type type_a = Type::F16, type_b = Type::F16, type_c = Type::F32;  // Mmad/Fixpipe types
};

struct Stmt {
  enum class Kind : uint8_t { SetScalar, Store, For, If, Break, Instr };
  Kind kind = Kind::Instr;
  int id = -1;          // SetScalar: scalar; Store: tensor; For: loop variable scalar
  int loop = -1;        // For: loop index (double buffering)
  Type type = Type::S32;  // Store: element type
  Expr a, b, c;         // SetScalar: a=value; Store: a=byte offset, b=value; For: a=begin, b=end, c=step; If: a=cond
  uint32_t block_num = 1, thread_num = 1;  // For
  std::vector<Stmt> body, orelse;
  std::shared_ptr<Instr> instr;
  std::string loc;
};

struct Program {
  std::string kernel_name;
  std::string platform;  // npuvp platform the front end chose ("" = the process default)
  std::vector<TensorDecl> tensors;
  std::vector<ScalarDecl> scalars;
  // Arguments in BuildCCE order: a tensor (GM) or an InputScalar.
  struct Arg {
    bool is_scalar = false;
    int id = -1;
  };
  std::vector<Arg> inputs;
  std::vector<int> outputs;
  uint32_t block_num = 1;  // blocks of the launch (the outer for_range's block_num)
  int loops = 0;
  bool uses_cube = false;
  std::vector<Stmt> body;
  uint64_t instructions = 0;  // instruction statements in the tree
};

// Parses and checks the front end's JSON; errors name the instruction's file:line.
Program parse(const nlohmann::json& j);
Program parse_text(const std::string& text);

// The same, a statement at a time, so that a caller holding the program in another form (the
// Python recorder's lists) never builds the whole JSON tree: parse_header reads everything but
// "body"; StreamParser::stmt parses one statement, whose "body"/"then"/"else" the caller may
// leave out and fill in (Stmt::body, Stmt::orelse) itself.
Program parse_header(const nlohmann::json& j);

// A compact vector instruction (docs/tik.md) with its strings and immediates already decoded:
// npuvp._core reads the recorder's tuples into this without building JSON, and the JSON form
// is read into it too, so both take the same checks. A field is an immediate unless `json`
// points at an expression.
struct VectorRecord {
  struct Field {
    const nlohmann::json* json = nullptr;
    Value value;
  };
  struct Operand {
    bool present = false;
    int tensor = -1;
    Field offset;
  };
  std::string_view api, loc, op, dtype;
  char mask_form = 'n';  // 'n': a count, 'b': [hi, lo] bits, 'c': counter mode
  Field mask[2];
  Operand dst, src[3];
  Field params[8];
  const nlohmann::json* extra = nullptr;  // an object (dst dtype, round, cmp, sel, order, pattern) or null
};

class StreamParser {
 public:
  explicit StreamParser(Program& p);
  ~StreamParser();
  Stmt stmt(const nlohmann::json& j);
  Stmt vector(const VectorRecord& r);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace npuvp::tik
