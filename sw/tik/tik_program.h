// A TIK program as the Python front end records it (python/tbe/tik): tensors, scalars and a
// statement tree whose instructions carry the Python file:line that wrote them. The front end
// serialises it as JSON (format "npuvp-tik/1", docs/tik.md); parse() checks it and turns it
// into the structures below, which the interpreter (tik_interp.h) runs as each core's scalar
// program.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
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

// An expression over constants, scalars and tensor elements.
// (Members ordered largest first: an instruction holds ~18 of these, 48 bytes each.)
struct Expr {
  enum class Kind : uint8_t { Const, Scalar, Load, Unary, Binary };
  Value value;             // Const
  std::vector<Expr> args;  // Load: byte offset; Unary/Binary: operands
  int id = -1;             // Scalar: scalar id; Load: tensor id
  Kind kind = Kind::Const;
  uint8_t op = 0;          // Unary/Binary: the operator (tik_program.cpp's table)
  Type type = Type::S32;   // Load: element type
  bool is_const() const { return kind == Kind::Const; }
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
};

struct ScalarDecl {
  std::string name;
  Type type = Type::S32;
  bool has_init = false;
  Value init;
};

// One TIK instruction after the front end normalised both naming generations.
struct Instr {
  enum class Kind : uint8_t { Vector, Move, Load2D, Load3D, Mmad, Fixpipe, Atomic, Barrier };
  Kind kind = Kind::Vector;
  std::string api;   // the TIK name the user wrote ("vec_add", "vadd", "data_move", ...)
  std::string loc;   // "file.py:123"
  aicore::VectorOp vec;  // Vector: the fixed fields (op, types, modes)
  View dst, src0, src1, src2;
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
  std::vector<Expr> params;
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
class StreamParser {
 public:
  explicit StreamParser(Program& p);
  ~StreamParser();
  Stmt stmt(const nlohmann::json& j);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace npuvp::tik
