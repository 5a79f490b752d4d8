#include "sw/tik/tik_run.h"

#include "sw/tik/tik_console.h"

#include <cmath>
#include <cstring>
#include <strings.h>
#include <fmt/format.h>

#include "models/aicore/ai_core.h"
#include "models/aicore/local_buffer.h"
#include "models/aicore/product.h"
#include "models/aicore/vector_unit.h"
#include "platforms/ascend_soc.h"
#include "tlm/extensions.h"
#include "tlm/log.h"

namespace npuvp::tik {

using aicore::AiCore;
using aicore::DType;
using aicore::MemSpace;
using aicore::Pipe;


namespace {

// Where an error in an instruction is reported: "tik: op.py:12: vec_add: <why>".
struct InstrError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A byte range one instruction reads or writes, at tensor granularity (what TIK's compiler
// tracks to insert its synchronisation).
struct Region {
  MemSpace space;
  uint64_t begin, end;
  bool write;
};

bool overlaps(const Region& a, const Region& b) {
  return a.space == b.space && a.begin < b.end && b.begin < a.end && (a.write || b.write);
}

// The pipes' pending accesses: pending[q][p] holds what pipe q did since the last q -> p flag.
class SyncTracker {
 public:
  explicit SyncTracker(AiCore& core) : core_(core) {}

  void before(Pipe p, const Region* regions, size_t n) {
    for (int q = 0; q < aicore::kNumPipes; ++q) {
      if (q == static_cast<int>(p) || q == static_cast<int>(Pipe::S)) continue;
      auto& list = pending_[q][static_cast<int>(p)];
      if (list.empty() || !conflicts(list, regions, n)) continue;
      core_.issue(aicore::SetFlag{static_cast<Pipe>(q), p, kFlagId});
      core_.issue(aicore::WaitFlag{static_cast<Pipe>(q), p, kFlagId});
      list.clear();
      ++syncs_;
    }
  }

  void after(Pipe p, const Region* regions, size_t n) {
    for (int x = 0; x < aicore::kNumPipes; ++x) {
      if (x == static_cast<int>(p) || x == static_cast<int>(Pipe::S)) continue;
      auto& list = pending_[static_cast<int>(p)][x];
      for (size_t i = 0; i < n; ++i) add(list, regions[i]);
    }
  }

  uint64_t syncs() const { return syncs_; }

 private:
  static constexpr uint32_t kFlagId = 0;
  static bool conflicts(const std::vector<Region>& list, const Region* regions, size_t n) {
    for (const Region& a : list) {
      for (size_t i = 0; i < n; ++i) {
        if (overlaps(a, regions[i])) return true;
      }
    }
    return false;
  }
  static void add(std::vector<Region>& list, const Region& r) {
    for (Region& a : list) {
      if (a.space == r.space && a.begin == r.begin && a.end == r.end) {
        a.write = a.write || r.write;
        return;
      }
    }
    if (list.size() < 32) {
      list.push_back(r);
      return;
    }
    // Many tensors in flight: keep one covering range per space (conservative).
    Region& a = list.front();
    for (Region& b : list) {
      if (b.space == r.space) {
        b.begin = std::min(b.begin, r.begin);
        b.end = std::max(b.end, r.end);
        b.write = b.write || r.write;
        return;
      }
    }
    a = r;
  }

  AiCore& core_;
  std::vector<Region> pending_[aicore::kNumPipes][aicore::kNumPipes];
  uint64_t syncs_ = 0;
};

struct BreakLoop {};

// One block's run of the statement tree, on the core whose scalar thread calls it.
class Interpreter {
 public:
  Interpreter(const Program& p, const std::vector<uint64_t>& gm, const std::vector<Feed>& feeds, Console* console)
      : p_(p), c_(*AiCore::current()), gm_(gm), scalars_(p.scalars.size()), scalar_set_(p.scalars.size(), 0), iter_(p.loops + 1, 0), sync_(c_) {
    console_ = console;
    for (size_t i = 0; i < p.scalars.size(); ++i) {
      if (p.scalars[i].has_init) store_scalar(static_cast<int>(i), p.scalars[i].init);
    }
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      if (p.inputs[i].is_scalar) store_scalar(p.inputs[i].id, feeds[i].scalar);
    }
  }

  void run() {
    for (MemSpace s : {MemSpace::UB, MemSpace::L1, MemSpace::L0A, MemSpace::L0B, MemSpace::L0C}) {
      if (auto* b = c_.buffer(s)) std::memset(b->data(), kUninitialisedByte, b->size());
    }
    try {
      exec(p_.body);
    } catch (const BreakLoop&) {
    }
    c_.barrier_all();
  }

 private:
  // ---- values ----
  Value eval(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::Const: return e.value();
      case Expr::Kind::Scalar:
        // The TIK reference gives an uninitialised Scalar no value (Scalar, init_value=None):
        // reading one before any set_as is an error, not a made-up number.
        if (!scalar_set_[e.id]) {
          fail_here(fmt::format("Scalar {} is read before it is set (give it an init_value or set_as a value first)",
                                p_.scalars[e.id].name));
        }
        return scalars_[e.id];
      case Expr::Kind::Load: return load(e.id, eval(e.arg(0)).as_int(), e.type);
      case Expr::Kind::Unary: {
        Value a = eval(e.arg(0));
        switch (e.op) {
          case 0: if (a.is_float) a.f = -a.f; else a.i = -a.i; return a;
          case 1: return int_value(!(a.is_float ? a.f != 0 : a.i != 0));
          case 2: return int_value(~a.as_int());
          // sqrt in double: rounded once more to the Scalar's float type when stored, which
          // is the correctly rounded float result (double has more than 2p + 2 bits).
          case 24: return float_value(std::sqrt(a.as_double()));
          case 25: case 26: case 27: {  // the 64 bits of the value (TIK: a uint64 source)
            const uint64_t bits = static_cast<uint64_t>(a.as_int());
            const int ones = __builtin_popcountll(bits);
            if (e.op == 25) return int_value(64 - ones);
            if (e.op == 26) return int_value(ones);
            return int_value(bits == 0 ? 64 : __builtin_clzll(bits));
          }
          case 28: case 29: case 30: case 31: case 32: {  // floor, ceil, rint (ties even), round (ties away), trunc
            if (!a.is_float) return a;
            const double x = a.f;
            return float_value(e.op == 28 ? std::floor(x) : e.op == 29 ? std::ceil(x) : e.op == 30 ? std::nearbyint(x)
                               : e.op == 31 ? std::round(x) : std::trunc(x));
          }
          default: fail_here(fmt::format("unknown unary operator {}", expr_op_name(e.op)));
        }
      }
      case Expr::Kind::Binary: return binary(e.op, eval(e.arg(0)), eval(e.arg(1)));
    }
    return {};
  }
  static Value int_value(int64_t v) {
    Value r;
    r.i = v;
    return r;
  }
  static Value float_value(double v) {
    Value r;
    r.is_float = true;
    r.f = v;
    return r;
  }
  Value binary(uint8_t op, const Value& a, const Value& b) {
    const bool fl = a.is_float || b.is_float;
    const char* name = expr_op_name(op);
    if (fl) {
      const double x = a.as_double(), y = b.as_double();
      switch (op) {
        case 3: return float_value(x + y);
        case 4: return float_value(x - y);
        case 5: return float_value(x * y);
        case 6: return float_value(x / y);
        case 7: return float_value(std::floor(x / y));
        case 8: return float_value(std::fmod(x, y));
        case 9: return int_value(x < y);
        case 10: return int_value(x <= y);
        case 11: return int_value(x > y);
        case 12: return int_value(x >= y);
        case 13: return int_value(x == y);
        case 14: return int_value(x != y);
        case 15: return int_value(x != 0 && y != 0);
        case 16: return int_value(x != 0 || y != 0);
        case 22: return float_value(std::min(x, y));
        case 23: return float_value(std::max(x, y));
        default: fail_here(fmt::format("operator {} needs integer operands", name));
      }
    }
    const int64_t x = a.i, y = b.i;
    switch (op) {
      case 3: return int_value(x + y);
      case 4: return int_value(x - y);
      case 5: return int_value(x * y);
      case 6: case 7: case 8: {
        if (y == 0) fail_here(fmt::format("integer division by zero ({} {} 0)", x, name));
        if (op == 6) return int_value(x / y);  // TIK compiles '/' of integers to C division
        const int64_t q = x / y, r = x % y;
        const bool adjust = r != 0 && ((r < 0) != (y < 0));
        return int_value(op == 7 ? q - adjust : r + (adjust ? y : 0));
      }
      case 9: return int_value(x < y);
      case 10: return int_value(x <= y);
      case 11: return int_value(x > y);
      case 12: return int_value(x >= y);
      case 13: return int_value(x == y);
      case 14: return int_value(x != y);
      case 15: return int_value(x != 0 && y != 0);
      case 16: return int_value(x != 0 || y != 0);
      case 17: return int_value(x & y);
      case 18: return int_value(x | y);
      case 19: return int_value(x ^ y);
      case 20: return int_value(static_cast<int64_t>(static_cast<uint64_t>(x) << (y & 63)));
      case 21: return int_value(x >> (y & 63));
      case 22: return int_value(std::min(x, y));
      case 23: return int_value(std::max(x, y));
    }
    return {};
  }

  // Rounds or wraps a value to a scalar type, as a store to a Scalar of that dtype does.
  static Value convert(const Value& v, Type t) {
    switch (t) {
      case Type::F16: return float_value(static_cast<double>(static_cast<_Float16>(v.as_double())));
      case Type::F32: case Type::BF16: return float_value(static_cast<double>(static_cast<float>(v.as_double())));
      case Type::S8: return int_value(static_cast<int8_t>(v.as_int()));
      case Type::U8: return int_value(static_cast<uint8_t>(v.as_int()));
      case Type::S16: return int_value(static_cast<int16_t>(v.as_int()));
      case Type::U16: return int_value(static_cast<uint16_t>(v.as_int()));
      case Type::S32: return int_value(static_cast<int32_t>(v.as_int()));
      case Type::U32: return int_value(static_cast<uint32_t>(v.as_int()));
      case Type::S64: case Type::U64: return int_value(v.as_int());
    }
    return v;
  }
  void store_scalar(int id, const Value& v) {
    scalars_[id] = convert(v, p_.scalars[id].type);
    scalar_set_[id] = 1;
  }

  // ---- tensors ----
  uint64_t tensor_base(int id) const {
    const TensorDecl& t = p_.tensors[id];
    if (t.scope == Scope::GM) return gm_[id];
    return t.addr[t.db_loop >= 0 ? (iter_[t.db_loop] & 1) : 0];
  }
  Region region(int id, bool write) const {
    const TensorDecl& t = p_.tensors[id];
    const uint64_t base = tensor_base(id);
    return Region{mem_space(t.scope), base, base + t.bytes, write};
  }
  // The address of byte `off` of tensor `id`, which must hold `size` bytes from there (an
  // operand's start address has size 0: it may be the tensor's end).
  uint64_t address_in(int id, int64_t off, unsigned size, const char* what) {
    const TensorDecl& t = p_.tensors[id];
    if (off < 0 || static_cast<uint64_t>(off) + size > t.bytes) {
      fail_here(fmt::format("{} at byte {} of tensor {} is outside its {} bytes", what, off, t.name, t.bytes));
    }
    return tensor_base(id) + static_cast<uint64_t>(off);
  }
  aicore::Operand operand(const View& v) {
    const uint64_t addr = address_in(v.tensor, eval(v.offset).as_int(), 0, "operand");
    return aicore::Operand{mem_space(p_.tensors[v.tensor].scope), addr};
  }
  uint8_t* element(int id, int64_t off, unsigned size, bool write) {
    const TensorDecl& t = p_.tensors[id];
    const uint64_t addr = address_in(id, off, size, "element");
    if (addr % size != 0) fail_here(fmt::format("element of tensor {} at 0x{:x} is not aligned to {} B", t.name, addr, size));
    const MemSpace space = mem_space(t.scope);
    c_.scalar_access(space, addr, size, write);
    if (space == MemSpace::GM) return c_.gm_host_pointer(addr, size);
    aicore::LocalBuffer* b = c_.buffer(space);
    if (!b) fail_here(fmt::format("this {} has no {}", c_.kind_text(), aicore::mem_space_name(space)));
    const std::string why = b->check_range(addr, size, "element");
    if (!why.empty()) fail_here(why);
    return b->data() + addr;
  }
  Value load(int id, int64_t off, Type t) {
    const uint8_t* p = element(id, off, type_size(t), false);
    switch (t) {
      case Type::F16: { _Float16 h; std::memcpy(&h, p, 2); return float_value(static_cast<double>(h)); }
      case Type::F32: { float f; std::memcpy(&f, p, 4); return float_value(f); }
      case Type::BF16: { uint16_t h; std::memcpy(&h, p, 2); uint32_t u = uint32_t(h) << 16; float f; std::memcpy(&f, &u, 4); return float_value(f); }
      case Type::S8: return int_value(*reinterpret_cast<const int8_t*>(p));
      case Type::U8: return int_value(*p);
      case Type::S16: { int16_t v; std::memcpy(&v, p, 2); return int_value(v); }
      case Type::U16: { uint16_t v; std::memcpy(&v, p, 2); return int_value(v); }
      case Type::S32: { int32_t v; std::memcpy(&v, p, 4); return int_value(v); }
      case Type::U32: { uint32_t v; std::memcpy(&v, p, 4); return int_value(v); }
      case Type::S64: case Type::U64: { int64_t v; std::memcpy(&v, p, 8); return int_value(v); }
    }
    return {};
  }
  void store(int id, int64_t off, Type t, const Value& value) {
    const Value v = convert(value, t);
    uint8_t* p = element(id, off, type_size(t), true);
    switch (t) {
      case Type::F16: { _Float16 h = static_cast<_Float16>(v.f); std::memcpy(p, &h, 2); break; }
      case Type::F32: { float f = static_cast<float>(v.f); std::memcpy(p, &f, 4); break; }
      case Type::BF16: { float f = static_cast<float>(v.f); uint32_t u; std::memcpy(&u, &f, 4);
                         uint16_t h = static_cast<uint16_t>((u + 0x7fff + ((u >> 16) & 1)) >> 16); std::memcpy(p, &h, 2); break; }
      default: { int64_t x = v.i; std::memcpy(p, &x, type_size(t)); break; }  // little-endian
    }
  }

  // ---- statements ----
  void exec(const std::vector<Stmt>& body) {
    ++depth_;
    for (const Stmt& s : body) {
      try {
        if (console_) ask_console(s);
        exec_one(s);
      } catch (const InstrError& e) {  // a scalar statement's error, at its line
        raise("tik", "{}: {}: {}", s.loc, statement_name(s), e.what());
      }
    }
    --depth_;
  }

  // ---- the stepping console (interactive start_debug), block 0 only ----
  void ask_console(const Stmt& s) {
    const std::string& loc = s.kind == Stmt::Kind::Instr && s.loc.empty() ? s.instr->loc : s.loc;
    const char* what = s.kind == Stmt::Kind::Instr ? s.instr->api.c_str() : statement_name(s);
    if (!console_->before(loc, depth_, what, [this](const std::string& name) { return describe(name); })) {
      fail_here("tikdb: quit");
    }
  }
  std::string describe(const std::string& name) {
    for (size_t i = 0; i < p_.scalars.size(); ++i) {
      if (p_.scalars[i].name != name) continue;
      if (!scalar_set_[i]) return fmt::format("Scalar {} ({}): not set", name, type_name(p_.scalars[i].type));
      const Value& v = scalars_[i];
      return v.is_float ? fmt::format("Scalar {} ({}) = {}", name, type_name(p_.scalars[i].type), v.f)
                        : fmt::format("Scalar {} ({}) = {}", name, type_name(p_.scalars[i].type), v.i);
    }
    for (size_t i = 0; i < p_.tensors.size(); ++i) {
      const TensorDecl& t = p_.tensors[i];
      if (t.name != name) continue;
      c_.barrier_all();  // the instructions still in the pipes finish first
      const unsigned size = type_size(t.type);
      const uint64_t n = t.bytes / size;
      std::string text = fmt::format("Tensor {} ({}, {} elements) =", name, type_name(t.type), n);
      for (uint64_t e = 0; e < n && e < 256; ++e) {
        const Value v = load(static_cast<int>(i), static_cast<int64_t>(e * size), t.type);
        text += v.is_float ? fmt::format(" {}", v.f) : fmt::format(" {}", v.i);
      }
      if (n > 256) text += " ...";
      return text;
    }
    // Not found: list the names the operator declared (a for_range variable is named by its
    // `name=` argument, "i" by default, not by the Python variable it is bound to).
    std::string names;
    for (const auto& sc : p_.scalars) names += (names.empty() ? "" : ", ") + sc.name;
    for (const auto& t : p_.tensors) names += (names.empty() ? "" : ", ") + t.name;
    return fmt::format("no tensor or Scalar named {} (names: {})", name, names);
  }
  static const char* statement_name(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::SetScalar: case Stmt::Kind::Store: return "set_as";
      case Stmt::Kind::For: return "for_range";
      case Stmt::Kind::If: return "if_scope";
      default: return "statement";
    }
  }
  void exec_one(const Stmt& s) {
    {
      switch (s.kind) {
        case Stmt::Kind::SetScalar:
          c_.charge_scalar(1);
          store_scalar(s.id, eval(s.a));
          break;
        case Stmt::Kind::Store: store(s.id, eval(s.a).as_int(), s.type, eval(s.b)); break;
        case Stmt::Kind::For: run_for(s); break;
        case Stmt::Kind::If:
          c_.charge_scalar(1);
          if (eval(s.a).as_double() != 0) exec(s.body); else exec(s.orelse);
          break;
        case Stmt::Kind::Break: throw BreakLoop{};
        case Stmt::Kind::Instr: issue(*s.instr); break;
      }
    }
  }

  void run_for(const Stmt& s) {
    int64_t begin = eval(s.a).as_int();
    const int64_t end = eval(s.b).as_int();
    int64_t step = eval(s.c).as_int();
    if (step <= 0) fail_here(fmt::format("for_range step {} is not positive", step));
    if (s.block_num > 1) {  // this block's share of the iterations
      begin += static_cast<int64_t>(c_.block_idx()) * step;
      step *= s.block_num;
    }
    int64_t& n = iter_[s.loop];
    n = 0;
    for (int64_t i = begin; i < end; i += step, ++n) {
      c_.charge_scalar(1);
      scalars_[s.id] = int_value(i);
      scalar_set_[s.id] = 1;
      try {
        exec(s.body);
      } catch (const BreakLoop&) {
        break;
      }
    }
  }

  // ---- instructions ----
  [[noreturn]] void fail_here(const std::string& why) {
    throw InstrError(why);
  }
  uint32_t param(const Instr& in, size_t i, int64_t lo, int64_t hi, const char* what) {
    const int64_t v = eval(in.params[i]).as_int();
    if (v < lo || v > hi) fail_here(fmt::format("{} {} out of range [{}, {}]", what, v, lo, hi));
    return static_cast<uint32_t>(v);
  }

  void issue(const Instr& in) {
    try {
      switch (in.kind) {
        case Instr::Kind::Vector: vector(in); break;
        case Instr::Kind::Move: move(in); break;
        case Instr::Kind::Load2D: load2d(in); break;
        case Instr::Kind::Load3D: load3d(in); break;
        case Instr::Kind::Mmad: mmad(in); break;
        case Instr::Kind::Fixpipe: fixpipe(in); break;
        case Instr::Kind::Atomic: {
          // set_atomic_add: 0 off, 1 float32 add, 2 float16 add.
          AtomicExtension mode;
          const int64_t m = eval(in.params.at(0)).as_int();
          if (m < 0 || m > 2) fail_here(fmt::format("atomic mode {} is not 0, 1 (float32) or 2 (float16)", m));
          if (m != 0) {
            mode.op = AtomicExtension::Op::Add;
            mode.type = m == 1 ? AtomicExtension::Type::F32 : AtomicExtension::Type::F16;
          }
          c_.barrier_all();
          c_.set_atomic(mode);
          break;
        }
        case Instr::Kind::Barrier: c_.barrier_all(); break;
      }
    } catch (const InstrError& e) {
      raise("tik", "{}: {}: {}", in.loc, in.api, e.what());
    } catch (const sc_core::sc_report& e) {
      raise("tik", "{}: {}: {}", in.loc, in.api, e.what());
    }
    ++issued_;
  }

  void send(Pipe pipe, aicore::Instruction instr, Region* regions, size_t n) {
    sync_.before(pipe, regions, n);
    c_.issue(std::move(instr));
    sync_.after(pipe, regions, n);
  }

  void vector(const Instr& in) {
    aicore::VectorOp v = in.vec;
    Region regions[5];
    size_t n = 0;
    auto ub = [&](const View& view, bool write) -> uint64_t {
      if (!view.present()) return 0;
      const aicore::Operand o = operand(view);
      if (o.space != MemSpace::UB) {
        fail_here(fmt::format("{} operand {} is not in scope_ubuf", write ? "destination" : "source",
                              p_.tensors[view.tensor].name));
      }
      regions[n++] = region(view.tensor, write);
      return o.addr;
    };
    v.dst = ub(in.dst, true);
    v.src0 = ub(in.src0, false);
    v.src1 = ub(in.src1, false);
    v.src2 = ub(in.src2, false);
    v.src3 = ub(in.src3, false);
    if (v.op == aicore::VecOp::SetCmpMask || v.op == aicore::VecOp::GetCmpMask) {
      // no dst / the register
    }
    const unsigned epr = aicore::VectorUnit::repeat_elems(v);
    const bool reduce_all = v.op == aicore::VecOp::ReduceSum || v.op == aicore::VecOp::ReduceMax ||
                            v.op == aicore::VecOp::ReduceMin;
    v.repeat = param(in, 0, 0, reduce_all ? 4095 : 255, "repeat_times");
    if (in.mask_bits) {
      v.mask_hi = static_cast<uint64_t>(eval(in.mask_hi).as_int());
      v.mask_lo = static_cast<uint64_t>(eval(in.mask_lo).as_int());
      if (epr <= 64 && v.mask_hi != 0) fail_here(fmt::format("mask[0] (high 64 bits) must be 0 for {}-element repeats", epr));
      if (v.mask_hi == 0 && v.mask_lo == 0) fail_here("mask is 0: no element is enabled");
    } else if (v.counter_mode) {
      v.mask_lo = static_cast<uint64_t>(eval(in.mask_count).as_int());
      v.mask_hi = 0;
    } else {
      const int64_t m = eval(in.mask_count).as_int();
      const int64_t max = std::min<int64_t>(epr, 128);
      if (m < 1 || m > max) fail_here(fmt::format("mask {} out of range [1, {}] for {}", m, max, aicore::dtype_name(v.dtype)));
      v.mask_lo = m >= 64 ? ~0ull : ((1ull << m) - 1);
      v.mask_hi = m <= 64 ? 0 : m >= 128 ? ~0ull : ((1ull << (m - 64)) - 1);
    }
    if (v.op == aicore::VecOp::MrgSort4) {  // its lengths and valid bits travel in the mask words
      v.mask_lo = in.vec.mask_lo;
      v.mask_hi = in.vec.mask_hi;
    }
    v.dst_blk_stride = param(in, 1, 0, 65535, "dst_blk_stride");
    v.src0_blk_stride = param(in, 2, 0, 65535, "src0_blk_stride");
    v.src1_blk_stride = param(in, 3, 0, 65535, "src1_blk_stride");
    v.dst_rep_stride = param(in, 4, 0, 65535, "dst_rep_stride");
    v.src0_rep_stride = param(in, 5, 0, 65535, "src0_rep_stride");
    v.src1_rep_stride = param(in, 6, 0, 65535, "src1_rep_stride");
    v.scalar = eval(in.params[7]).as_double();
    if (v.repeat == 0) return;  // TIK: nothing to do
    check_extents(in, v);
    send(Pipe::V, v, regions, n);
    if (in.result_scalar >= 0) {  // the kept count is the instruction's result: the scalar unit waits
      c_.barrier_all();
      store_scalar(in.result_scalar, int_value(static_cast<int64_t>(c_.vector_unit().gather_mask_count())));
    }
  }

  // A vector instruction stays inside its tensors: the 32 B blocks it writes lie in the
  // destination tensor and those it reads in one of its sources (a tensor's last block may
  // run into the alignment padding after it), as TIK's debugger checks.
  void check_extents(const Instr& in, const aicore::VectorOp& v) {
    auto bounds = [&](const View& view) {
      const TensorDecl& t = p_.tensors[view.tensor];
      const uint64_t base = tensor_base(view.tensor);
      return std::make_pair(base, base + (t.bytes + 31) / 32 * 32);
    };
    for (const auto& b : aicore::VectorUnit::operand_bytes(v)) {
      if (b.begin == 0 && b.end == ~0ull) continue;  // Gather's data: anywhere
      if (b.write) {
        if (!in.dst.present()) continue;
        const auto [lo, hi] = bounds(in.dst);
        if (b.begin < lo || b.end > hi) {
          fail_here(fmt::format("dst writes UB bytes [0x{:x}, 0x{:x}), outside tensor {} [0x{:x}, 0x{:x}): "
                                "check repeat_times, strides and mask", b.begin, b.end,
                                p_.tensors[in.dst.tensor].name, lo, hi));
        }
        continue;
      }
      bool inside = false;
      std::string names;
      for (const View* view : {&in.src0, &in.src1, &in.src2, &in.src3}) {
        if (!view->present()) continue;
        const auto [lo, hi] = bounds(*view);
        inside = inside || (b.begin >= lo && b.end <= hi);
        names += (names.empty() ? "" : ", ") + p_.tensors[view->tensor].name;
      }
      if (!inside && !names.empty()) {
        fail_here(fmt::format("reads UB bytes [0x{:x}, 0x{:x}), outside its source tensor(s) {}: check "
                              "repeat_times, strides and mask", b.begin, b.end, names));
      }
    }
  }

  void move(const Instr& in) {
    aicore::DataMove m;
    m.dst = operand(in.dst);
    m.src = operand(in.src0);
    auto pipe = aicore::copy_pipe(c_.product(), m.src.space, m.dst.space);
    if (!pipe) {
      fail_here(fmt::format("moving from {} to {} is not a legal data path on {}", p_.tensors[in.src0.tensor].name,
                            p_.tensors[in.dst.tensor].name, aicore::product_name(c_.product())));
    }
    m.pipe = *pipe;
    if (in.broadcast) {  // UB -> L0C, each 16-element unit written as 16 equal rows
      m.broadcast = true;
      m.src_type = m.dst_type = isa_type(in.type_a);
    }
    m.block_count = param(in, 0, 1, 4095, "nburst");
    m.block_len = param(in, 1, 1, in.pad ? 2097151 : 65535, "burst");
    m.src_gap = param(in, 2, 0, 65535, "src_stride");
    m.dst_gap = param(in, 3, 0, 65535, "dst_stride");
    m.unit = in.unit;
    m.elem_size = type_size(in.type_b);
    if (in.pad) {  // data_move_pad: DataCopyPad
      m.pad = true;
      m.pad_left = in.pad_left;
      m.pad_right = in.pad_right;
      m.pad_value = in.pad_value;
    }
    if (in.type_a != in.type_b) {  // L0C -> UB in matrix mode converting f32 to f16
      m.src_type = isa_type(in.type_b);
      m.dst_type = isa_type(in.type_a);
    }
    Region regions[2] = {region(in.src0.tensor, false), region(in.dst.tensor, true)};
    send(*pipe, m, regions, 2);
  }

  void load2d(const Instr& in) {
    aicore::LoadData2D l;
    l.dst = operand(in.dst);
    l.src = operand(in.src0);
    l.dtype = isa_type(in.type_a);
    auto pipe = aicore::load2d_pipe(c_.product(), l.src.space, l.dst.space);
    if (!pipe) fail_here(fmt::format("load2d from {} to {} is not a legal data path", aicore::mem_space_name(l.src.space), aicore::mem_space_name(l.dst.space)));
    l.pipe = *pipe;
    l.start_index = param(in, 0, 0, 65535, "start_index");
    l.repeat = param(in, 1, 1, 255, "repeat_times");
    l.src_stride = param(in, 2, 0, 65535, "src_stride");
    l.dst_gap = param(in, 3, 0, 65535, "dst_gap");
    l.transpose = in.transpose;
    Region regions[2] = {region(in.src0.tensor, false), region(in.dst.tensor, true)};
    send(*pipe, l, regions, 2);
  }

  void load3d(const Instr& in) {
    aicore::LoadData3D l = *in.load3d;
    if (in.params.size() >= 2) {  // load3dv1: the window start and kernel position are run-time values
      l.m_start = param(in, 0, 0, 0xffffffffll, "first output position (left_top_h/w)");
      l.k_start = param(in, 1, 0, 0xffffffffll, "first column (c1_index, fetch_filter_h/w)");
    }
    l.dst = operand(in.dst);
    l.src = operand(in.src0);
    Region regions[2] = {region(in.src0.tensor, false), region(in.dst.tensor, true)};
    send(Pipe::MTE1, l, regions, 2);
  }

  void mmad(const Instr& in) {
    aicore::Mmad m;
    m.c = operand(in.dst).addr;
    m.a = operand(in.src0).addr;
    m.b = operand(in.src1).addr;
    m.m = param(in, 0, 0, 4095, "m");
    m.k = param(in, 1, 0, 4095, "k");
    m.n = param(in, 2, 0, 4095, "n");
    m.init_c = eval(in.params[3]).as_int() == 0;
    m.a_type = isa_type(in.type_a);
    m.b_type = isa_type(in.type_b);
    m.c_type = isa_type(in.type_c);
    Region regions[3] = {region(in.src0.tensor, false), region(in.src1.tensor, false), region(in.dst.tensor, true)};
    if (!m.init_c) regions[2].write = true;
    send(Pipe::M, m, regions, 3);
  }

  void fixpipe(const Instr& in) {
    aicore::Fixpipe f;
    f.dst = operand(in.dst);
    f.src = operand(in.src0).addr;
    f.src_type = isa_type(in.type_c);
    f.dst_type = isa_type(in.type_a);
    f.m_size = param(in, 0, 1, 4095, "m");
    f.n_size = param(in, 1, 1, 4095, "n");
    f.src_stride = param(in, 2, 0, 65535, "src_stride");
    f.dst_stride = param(in, 3, 0, 0xffffffffll, "dst_stride");
    f.nz2nd = in.transpose;
    f.relu = in.relu;
    if (f.src_type == DType::F32 && f.dst_type == DType::F16) f.quant = aicore::QuantMode::F322F16;
    Region regions[2] = {region(in.src0.tensor, false), region(in.dst.tensor, true)};
    send(Pipe::FIX, f, regions, 2);
  }

  const Program& p_;
  AiCore& c_;
  const std::vector<uint64_t>& gm_;
  std::vector<Value> scalars_;
  std::vector<uint8_t> scalar_set_;  // per Scalar: set since the block began
  Console* console_ = nullptr;       // interactive start_debug, block 0
  int depth_ = 0;                    // nesting of the statement being run
  std::vector<int64_t> iter_;
  SyncTracker sync_;

 public:
  uint64_t issued_ = 0;
};

}  // namespace

const char* platform_for_tik_soc(const char* soc) {
  if (!soc) return nullptr;
  // TIK's names: Ascend910 (and its A/Pro variants), Ascend310P*, Ascend910B* (A2).
  if (strncasecmp(soc, "Ascend910B", 10) == 0 && soc[10] >= '1' && soc[10] <= '4') return "ascend910b";
  if (strncasecmp(soc, "Ascend910_93", 12) == 0) return "ascend910b";
  if (strncasecmp(soc, "Ascend910", 9) == 0) return "ascend910";
  if (strncasecmp(soc, "Ascend310P", 10) == 0) return "ascend310p";
  return nullptr;
}

RunResult run(const Program& p, const std::vector<Feed>& feeds, Console* console) {
  if (feeds.size() != p.inputs.size()) {
    raise("tik", "{}: {} inputs given, the kernel has {}", p.kernel_name, feeds.size(), p.inputs.size());
  }
  Device& dev = Device::instance();
  std::vector<uint64_t> gm(p.tensors.size(), 0);
  std::vector<void*> host(p.tensors.size(), nullptr);
  for (size_t i = 0; i < p.tensors.size(); ++i) {
    const TensorDecl& t = p.tensors[i];
    if (t.scope != Scope::GM) continue;
    host[i] = dev.malloc(std::max<uint64_t>(t.bytes, 32));
    gm[i] = dev.device_address(host[i]);
    std::vector<uint8_t> pattern(t.bytes, kUninitialisedByte);
    const uint8_t* bytes = t.init.empty() ? pattern.data() : t.init.data();  // init_value, else the pattern
    dev.memcpy(host[i], bytes, t.bytes, Device::Copy::HostToDevice);
  }
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    if (p.inputs[i].is_scalar) continue;
    const TensorDecl& t = p.tensors[p.inputs[i].id];
    if (feeds[i].bytes.size() != t.bytes) {
      raise("tik", "{}: input {} has {} bytes, the tensor {}", p.kernel_name, t.name, feeds[i].bytes.size(), t.bytes);
    }
    dev.memcpy(host[p.inputs[i].id], feeds[i].bytes.data(), t.bytes, Device::Copy::HostToDevice);
  }
  LaunchOptions options;
  if (dev.soc().separated()) options.kernel_type = p.uses_cube ? aicore::KernelType::AicOnly : aicore::KernelType::AivOnly;
  uint64_t issued = 0;
  RunResult result;
  result.report = dev.launch(p.kernel_name, p.block_num, [&] {
    // The device may run the body once outside any core, looking for a declared kernel type
    // (Device::launch); a TIK program declares none.
    if (!AiCore::current()) return;
    Interpreter interp(p, gm, feeds, AiCore::current()->block_idx() == 0 ? console : nullptr);
    interp.run();
    issued += interp.issued_;
  }, options);
  result.instructions = issued;
  for (int id : p.outputs) {
    std::vector<uint8_t> out(p.tensors[id].bytes);
    dev.memcpy(out.data(), host[id], out.size(), Device::Copy::DeviceToHost);
    result.outputs.push_back(std::move(out));
  }
  for (void* h : host) {
    if (h) dev.free(h);
  }
  return result;
}

}  // namespace npuvp::tik
