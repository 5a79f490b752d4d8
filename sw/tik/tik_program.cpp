#include "sw/tik/tik_program.h"

#include <cstring>
#include <unordered_map>
#include <fmt/format.h>
#include "tlm/log.h"

namespace npuvp::tik {

using aicore::DType;
using aicore::MemSpace;
using nlohmann::json;

static_assert(sizeof(Expr) == 16, "Expr stays compact (docs/performance.md)");

namespace {
struct TypeInfo {
  const char* name;
  unsigned size;
  bool is_float;
};
constexpr TypeInfo kTypes[] = {
    {"int8", 1, false},  {"uint8", 1, false},   {"int16", 2, false},  {"uint16", 2, false},
    {"int32", 4, false}, {"uint32", 4, false},  {"int64", 8, false},  {"uint64", 8, false},
    {"float16", 2, true}, {"float32", 4, true}, {"bfloat16", 2, true},
};
const TypeInfo& info(Type t) { return kTypes[static_cast<unsigned>(t)]; }
}  // namespace

Type type_from_name(const std::string& name) {
  for (unsigned i = 0; i < sizeof(kTypes) / sizeof(kTypes[0]); ++i) {
    if (name == kTypes[i].name) return static_cast<Type>(i);
  }
  if (name == "bool" || name == "uint1") return Type::U8;
  raise("tik", "unknown dtype '{}'", name);
}
const char* type_name(Type t) { return info(t).name; }
unsigned type_size(Type t) { return info(t).size; }
bool type_is_float(Type t) { return info(t).is_float; }

DType isa_type(Type t) {
  switch (t) {
    case Type::S8: return DType::S8;
    case Type::U8: return DType::U8;
    case Type::S16: return DType::S16;
    case Type::U16: return DType::U16;
    case Type::S32: return DType::S32;
    case Type::U32: return DType::U32;
    case Type::F16: return DType::F16;
    case Type::F32: return DType::F32;
    case Type::BF16: return DType::BF16;
    case Type::S64: case Type::U64: break;
  }
  raise("tik", "dtype {} has no vector or cube instruction", type_name(t));
}

Scope scope_from_name(const std::string& name) {
  if (name == "scope_gm") return Scope::GM;
  if (name == "scope_ubuf") return Scope::UB;
  if (name == "scope_cbuf") return Scope::L1;
  if (name == "scope_cbuf_out") return Scope::L1OUT;
  if (name == "scope_ca") return Scope::L0A;
  if (name == "scope_cb") return Scope::L0B;
  if (name == "scope_cc") return Scope::L0C;
  raise("tik", "unknown scope '{}'", name);
}

MemSpace mem_space(Scope s) {
  switch (s) {
    case Scope::GM: return MemSpace::GM;
    case Scope::UB: return MemSpace::UB;
    case Scope::L1: return MemSpace::L1;
    case Scope::L1OUT: case Scope::L0C: return MemSpace::L0C;
    case Scope::L0A: return MemSpace::L0A;
    case Scope::L0B: return MemSpace::L0B;
  }
  return MemSpace::UB;
}

// Operators of expressions: unary ones first. The interpreter switches on the index.
const char* const kOps[] = {"neg", "!", "~",                                         // unary
                            "+",   "-", "*", "/", "//", "%", "<", "<=", ">", ">=", "==", "!=",
                            "&&",  "||", "&", "|", "^", "<<", ">>", "min", "max",
                            // issue 24, TIK's scalar_sqrt / scalar_countbit0/1 / scalar_countleading0 (unary):
                            "sqrt", "countbit0", "countbit1", "countleading0",
                            // scalar_conv's float -> integer round modes (unary):
                            "floor", "ceil", "rint", "round", "trunc"};
constexpr unsigned kUnaryOps = 3;
constexpr unsigned kLateUnaryOps = 24;  // kOps[24..] are unary too
bool is_unary_op(unsigned i) { return i < kUnaryOps || i >= kLateUnaryOps; }
const char* expr_op_name(unsigned op) { return kOps[op]; }

namespace {

// A member of an object, or nullptr (no copy, unlike json::value).
const json* member(const json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}
const json kNull;

class Parser {
 public:
  explicit Parser(Program& p) : p_(p) {}

  Expr expr(const json& j) {
    Expr e;
    if (j.is_number_integer()) {
      Value v;
      v.i = j.get<int64_t>();
      e = Expr(v);
    } else if (j.is_number_float()) {
      Value v;
      v.is_float = true;
      v.f = j.get<double>();
      e = Expr(v);
    } else if (j.is_boolean()) {
      Value v;
      v.i = j.get<bool>() ? 1 : 0;
      e = Expr(v);
    } else if (j.is_array() && !j.empty() && j[0].is_string()) {
      const std::string& op = j[0].get_ref<const std::string&>();
      if (op == "s") {
        e.make(Expr::Kind::Scalar);
        e.id = scalar_id(j.at(1));
      } else if (op == "ld") {
        Expr* args = e.make(Expr::Kind::Load);
        e.id = tensor_id(j.at(1));
        args[0] = expr(j.at(2));
        e.type = type_from_name(j.at(3).get<std::string>());
      } else {
        unsigned i = 0;
        for (; i < sizeof(kOps) / sizeof(kOps[0]); ++i) {
          if (op == kOps[i]) break;
        }
        if (i == sizeof(kOps) / sizeof(kOps[0])) fail(fmt::format("unknown operator '{}'", op));
        const size_t n = is_unary_op(i) ? 1 : 2;
        if (j.size() != n + 1) fail(fmt::format("operator '{}' takes {} operands", op, n));
        Expr* args = e.make(is_unary_op(i) ? Expr::Kind::Unary : Expr::Kind::Binary);
        e.op = static_cast<uint8_t>(i);
        for (size_t k = 1; k <= n; ++k) args[k - 1] = expr(j[k]);
      }
    } else {
      fail(fmt::format("malformed expression {}", j.dump()));
    }
    return e;
  }

  View view(const json& j) {
    View v;
    if (j.is_null()) return v;
    v.tensor = tensor_id(j.at(0));
    v.offset = expr(j.at(1));
    return v;
  }

  std::vector<Stmt> block(const json& j) {
    std::vector<Stmt> out;
    out.reserve(j.size());
    for (const auto& s : j) out.push_back(stmt(s));
    return out;
  }

  Stmt stmt(const json& j) {
    if (j.is_array()) return vector_stmt(j);
    Stmt s;
    const std::string& k = j.at("k").get_ref<const std::string&>();
    if (const json* loc = member(j, "loc")) {
      const std::string& text = loc->get_ref<const std::string&>();
      if (text != loc_) loc_ = text;
    }
    s.loc = loc_;
    if (k == "set") {
      s.kind = Stmt::Kind::SetScalar;
      s.id = scalar_id(j.at("s"));
      s.a = expr(j.at("v"));
    } else if (k == "st") {
      s.kind = Stmt::Kind::Store;
      s.id = tensor_id(j.at("t"));
      s.a = expr(j.at("o"));
      s.type = type_from_name(j.at("dt").get<std::string>());
      s.b = expr(j.at("v"));
    } else if (k == "for") {
      s.kind = Stmt::Kind::For;
      s.id = scalar_id(j.at("s"));
      s.loop = j.at("loop").get<int>();
      s.a = expr(j.at("b"));
      s.b = expr(j.at("e"));
      s.c = expr(j.value("step", json(1)));
      s.block_num = j.value("block_num", 1u);
      s.thread_num = j.value("thread_num", 1u);
      if (const json* b = member(j, "body")) s.body = block(*b);  // absent: StreamParser's caller adds it
    } else if (k == "if") {
      s.kind = Stmt::Kind::If;
      s.a = expr(j.at("c"));
      if (const json* t = member(j, "then")) s.body = block(*t);
      if (const json* e = member(j, "else")) s.orelse = block(*e);
    } else if (k == "break") {
      s.kind = Stmt::Kind::Break;
    } else if (k == "i") {
      s.kind = Stmt::Kind::Instr;
      s.instr = std::make_shared<Instr>(instr(j));
      ++p_.instructions;
    } else {
      fail(fmt::format("unknown statement kind '{}'", k));
    }
    return s;
  }

  // The compact form of a vector instruction, flat (what the recorder writes):
  // ["v", api, loc, op, dtype, mask form, mask value, mask low word, dst tensor, dst offset,
  //  src0 tensor, src0 offset, src1 ..., src2 ..., repeat, 3 block strides, 3 repeat strides,
  //  scalar, extra (object or 0)], an absent operand null, null; or nested (earlier .o files):
  // ["v", api, loc, op, dtype, mask, dst, src0, src1, src2, params, extra].
  Stmt vector_stmt(const json& j) {
    if (j.size() == 25 && j[0] == "v") return flat_vector_stmt(j);
    if (j.size() != 12 || j[0] != "v") fail("malformed vector instruction " + j.dump());
    VectorRecord r;
    r.api = j[1].get_ref<const std::string&>();
    r.loc = j[2].get_ref<const std::string&>();
    r.op = j[3].get_ref<const std::string&>();
    r.dtype = j[4].get_ref<const std::string&>();
    const json& m = j[5];
    const std::string& form = m.at(0).get_ref<const std::string&>();
    r.mask_form = form == "b" ? 'b' : form == "c" ? 'c' : 'n';
    r.mask[0].json = &m.at(1);
    if (r.mask_form == 'b') r.mask[1].json = &m.at(2);
    auto operand = [](const json& v, VectorRecord::Operand& o) {
      if (v.is_null()) return;
      o.present = true;
      o.tensor = v.at(0).get<int>();
      o.offset.json = &v.at(1);
    };
    operand(j[6], r.dst);
    for (int i = 0; i < 3; ++i) operand(j[7 + i], r.src[i]);
    if (j[10].size() != 8) fail("a vector instruction has 8 parameters");
    for (int i = 0; i < 8; ++i) r.params[i].json = &j[10][i];
    if (j[11].is_object()) r.extra = &j[11];
    return vector(r);
  }

  Stmt flat_vector_stmt(const json& j) {
    VectorRecord r;
    r.api = j[1].get_ref<const std::string&>();
    r.loc = j[2].get_ref<const std::string&>();
    r.op = j[3].get_ref<const std::string&>();
    r.dtype = j[4].get_ref<const std::string&>();
    const std::string& form = j[5].get_ref<const std::string&>();
    r.mask_form = form == "b" ? 'b' : form == "c" ? 'c' : 'n';
    r.mask[0].json = &j[6];
    if (r.mask_form == 'b') r.mask[1].json = &j[7];
    auto operand = [&](size_t i, VectorRecord::Operand& o) {
      if (j[i].is_null()) return;
      o.present = true;
      o.tensor = j[i].get<int>();
      o.offset.json = &j[i + 1];
    };
    operand(8, r.dst);
    for (size_t i = 0; i < 3; ++i) operand(10 + 2 * i, r.src[i]);
    for (size_t i = 0; i < 8; ++i) r.params[i].json = &j[16 + i];
    if (j[24].is_object()) r.extra = &j[24];
    return vector(r);
  }

  Stmt vector(const VectorRecord& r) {
    if (r.loc != loc_) loc_.assign(r.loc.data(), r.loc.size());
    auto in = std::make_shared<Instr>();
    in->kind = Instr::Kind::Vector;
    in->api.assign(r.api.data(), r.api.size());
    in->loc = loc_;
    in->vec.op = vec_op(r.op);
    in->vec.dtype = isa_type(type_from_name(std::string(r.dtype)));
    in->vec.dst_dtype = in->vec.dtype;
    if (r.mask_form == 'b') {
      in->mask_bits = true;
      in->mask_hi = field(r.mask[0]);
      in->mask_lo = field(r.mask[1]);
    } else {
      in->vec.counter_mode = r.mask_form == 'c';  // counter mode: a total element count
      in->mask_count = field(r.mask[0]);
    }
    auto operand = [&](const VectorRecord::Operand& o) {
      View v;
      if (!o.present) return v;
      v.tensor = tensor_id(o.tensor);
      v.offset = field(o.offset);
      return v;
    };
    in->dst = operand(r.dst);
    in->src0 = operand(r.src[0]);
    in->src1 = operand(r.src[1]);
    in->src2 = operand(r.src[2]);
    for (const auto& x : r.params) in->params.push_back(field(x));
    if (r.extra) {
      const json& extra = *r.extra;
      auto small = [&](const char* key) { const json* v = member(extra, key); return v ? v->get<int>() : 0; };
      if (const json* d = member(extra, "ddt")) in->vec.dst_dtype = isa_type(type_from_name(d->get<std::string>()));
      in->vec.round = static_cast<aicore::RoundMode>(small("round"));
      in->vec.cmp = static_cast<aicore::CmpMode>(small("cmp"));
      in->vec.sel = static_cast<aicore::SelMode>(small("sel"));
      in->vec.order = static_cast<aicore::ReduceOrder>(small("order"));
      in->vec.gather_pattern = static_cast<uint8_t>(small("pattern"));  // vreduce (GatherMask)
      // vmrgsort4: the fourth queue, and the MrgSort fields (packed lengths; valid bits | stop << 8).
      if (const json* q = member(extra, "q3")) in->src3 = view(*q);
      if (const json* m = member(extra, "sort")) {
        in->vec.mask_lo = m->at(0).get<uint64_t>();
        in->vec.mask_hi = m->at(1).get<uint64_t>();
      }
      in->vec.proposal_field = static_cast<uint8_t>(small("field"));  // vconcat, vextract
      in->vec.deq = small("deq") != 0;  // vconv with deqscale (the scalar field)
      if (const json* r = member(extra, "rsvd")) in->result_scalar = r->get<int>();  // vreduce rsvd_scalar
    }
    Stmt s;
    s.kind = Stmt::Kind::Instr;  // its loc is the instruction's
    s.instr = std::move(in);
    ++p_.instructions;
    return s;
  }

  Expr field(const VectorRecord::Field& f) {
    if (f.json) return expr(*f.json);
    return Expr(f.value);
  }

  Instr instr(const json& j) {
    Instr in;
    in.api = j.at("api").get<std::string>();
    in.loc = loc_;
    const std::string& kind = j.at("kind").get_ref<const std::string&>();
    if (const json* p = member(j, "p")) {
      if (p->size() > Params::kMax) fail("an instruction has at most 8 parameters");
      for (const auto& x : *p) in.params.push_back(expr(x));
    }
    if (kind == "vec") {
      in.kind = Instr::Kind::Vector;
      in.vec.op = vec_op(j.at("op").get<std::string>());
      in.vec.dtype = isa_type(type_from_name(j.at("dt").get<std::string>()));
      in.vec.dst_dtype = j.contains("ddt") ? isa_type(type_from_name(j["ddt"].get<std::string>())) : in.vec.dtype;
      auto small = [&](const char* key) { const json* v = member(j, key); return v ? v->get<int>() : 0; };
      in.vec.round = static_cast<aicore::RoundMode>(small("round"));
      in.vec.cmp = static_cast<aicore::CmpMode>(small("cmp"));
      in.vec.sel = static_cast<aicore::SelMode>(small("sel"));
      in.vec.order = static_cast<aicore::ReduceOrder>(small("order"));
      in.vec.gather_pattern = static_cast<uint8_t>(small("pattern"));
      auto operand = [&](const char* key) { const json* v = member(j, key); return view(v ? *v : kNull); };
      in.dst = operand("dst");
      in.src0 = operand("src0");
      in.src1 = operand("src1");
      in.src2 = operand("src2");
      const json* mp = member(j, "mask");
      if (!mp) fail("a vector instruction needs a mask");
      const json& m = *mp;
      if (m.at(0) == "b") {
        in.mask_bits = true;
        in.mask_hi = expr(m.at(1));
        in.mask_lo = expr(m.at(2));
      } else if (m.at(0) == "c") {  // counter mode: a total element count
        in.vec.counter_mode = true;
        in.mask_count = expr(m.at(1));
      } else {
        in.mask_count = expr(m.at(1));
      }
      if (in.params.size() != 8) fail("a vector instruction has 8 parameters");
    } else if (kind == "move") {
      in.kind = Instr::Kind::Move;
      in.dst = view(j.at("dst"));
      in.src0 = view(j.at("src"));
      in.unit = j.value("unit", 32u);
      in.type_a = type_from_name(j.at("dt").get<std::string>());
      in.type_b = j.contains("st") ? type_from_name(j["st"].get<std::string>()) : in.type_a;
      in.broadcast = j.value("bcast", false);
      if (j.contains("pad")) {  // data_move_pad: [left bytes, right bytes, padding bits]
        const auto& pad = j["pad"];
        in.pad = true;
        in.pad_left = pad.at(0).get<uint32_t>();
        in.pad_right = pad.at(1).get<uint32_t>();
        in.pad_value = pad.at(2).get<uint64_t>();
      }
      if (in.params.size() != 4) fail("data_move has 4 parameters");
    } else if (kind == "load2d") {
      in.kind = Instr::Kind::Load2D;
      in.dst = view(j.at("dst"));
      in.src0 = view(j.at("src"));
      in.type_a = type_from_name(j.at("dt").get<std::string>());
      in.transpose = j.value("transpose", false);
      if (in.params.size() != 4) fail("load2d has 4 parameters");
    } else if (kind == "load3d") {
      in.kind = Instr::Kind::Load3D;
      in.dst = view(j.at("dst"));
      in.src0 = view(j.at("src"));
      in.type_a = type_from_name(j.at("dt").get<std::string>());
      const json& f = j.at("l3");
      in.load3d = std::make_shared<aicore::LoadData3D>();
      auto& l = *in.load3d;
      l.dtype = isa_type(in.type_a);
      l.fm_h = f.at("fm_h"); l.fm_w = f.at("fm_w"); l.channels = f.at("channels");
      l.pad_left = f.at("pad")[0]; l.pad_right = f.at("pad")[1];
      l.pad_top = f.at("pad")[2]; l.pad_bottom = f.at("pad")[3];
      l.stride_w = f.at("stride_w"); l.stride_h = f.at("stride_h");
      l.kernel_w = f.at("kernel_w"); l.kernel_h = f.at("kernel_h");
      l.dilation_w = f.at("dilation_w"); l.dilation_h = f.at("dilation_h");
      l.m_start = f.at("m_start"); l.m_extent = f.at("m_extent");
      l.k_start = f.at("k_start"); l.k_extent = f.at("k_extent");
      l.pad_value = f.value("pad_value", 0.0);
    } else if (kind == "mmad") {
      in.kind = Instr::Kind::Mmad;
      in.dst = view(j.at("dst"));
      in.src0 = view(j.at("src0"));
      in.src1 = view(j.at("src1"));
      in.type_a = type_from_name(j.at("ta").get<std::string>());
      in.type_b = type_from_name(j.at("tb").get<std::string>());
      in.type_c = type_from_name(j.at("tc").get<std::string>());
      if (in.params.size() != 4) fail("mmad has 4 parameters");
      p_.uses_cube = true;
    } else if (kind == "fixpipe") {
      in.kind = Instr::Kind::Fixpipe;
      in.dst = view(j.at("dst"));
      in.src0 = view(j.at("src"));
      in.type_c = type_from_name(j.at("tc").get<std::string>());
      in.type_a = type_from_name(j.at("td").get<std::string>());
      in.transpose = j.value("nz2nd", false);
      in.relu = j.value("relu", false);
      if (in.params.size() != 4) fail("fixpipe has 4 parameters");
    } else if (kind == "atomic") {
      in.kind = Instr::Kind::Atomic;
    } else if (kind == "barrier") {
      in.kind = Instr::Kind::Barrier;
    } else {
      fail(fmt::format("unknown instruction kind '{}'", kind));
    }
    return in;
  }

  [[noreturn]] void fail(const std::string& why) {
    raise("tik", "{}{}{}", loc_, loc_.empty() ? "" : ": ", why);
  }

 private:
  int scalar_id(const json& j) {
    const int id = j.get<int>();
    if (id < 0 || id >= static_cast<int>(p_.scalars.size())) fail(fmt::format("no scalar #{}", id));
    return id;
  }
  int tensor_id(const json& j) { return tensor_id(j.get<int>()); }
  int tensor_id(int id) {
    if (id < 0 || id >= static_cast<int>(p_.tensors.size())) fail(fmt::format("no tensor #{}", id));
    return id;
  }
  aicore::VecOp vec_op(std::string_view name) {
    static const std::unordered_map<std::string_view, aicore::VecOp> ops = [] {
      std::unordered_map<std::string_view, aicore::VecOp> m;
      for (unsigned i = 0; i <= static_cast<unsigned>(aicore::VecOp::ProposalExtract); ++i) {
        m.emplace(aicore::vec_op_name(static_cast<aicore::VecOp>(i)), static_cast<aicore::VecOp>(i));
      }
      return m;
    }();
    auto it = ops.find(name);
    if (it == ops.end()) fail(fmt::format("unknown vector operation '{}'", name));
    return it->second;
  }

  Program& p_;
  std::string loc_;
};

}  // namespace

struct StreamParser::Impl {
  explicit Impl(Program& p) : parser(p) {}
  Parser parser;
};
StreamParser::StreamParser(Program& p) : impl_(std::make_unique<Impl>(p)) {}
StreamParser::~StreamParser() = default;
Stmt StreamParser::stmt(const json& j) { return impl_->parser.stmt(j); }
Stmt StreamParser::vector(const VectorRecord& r) { return impl_->parser.vector(r); }

Program parse_header(const json& j) {
  Program p;
  if (j.value("format", "") != "npuvp-tik/1") {
    raise("tik", "not a TIK program of npuvp (format '{}', expected 'npuvp-tik/1')", j.value("format", ""));
  }
  p.kernel_name = j.at("kernel_name").get<std::string>();
  p.platform = j.value("platform", "");
  for (const auto& t : j.at("tensors")) {
    TensorDecl d;
    d.name = t.at("name").get<std::string>();
    d.type = type_from_name(t.at("dtype").get<std::string>());
    d.scope = scope_from_name(t.at("scope").get<std::string>());
    d.bytes = t.at("bytes").get<uint64_t>();
    const json& a = t.value("addr", json::array({0, 0}));
    d.addr[0] = a.at(0).get<uint64_t>();
    d.addr[1] = a.size() > 1 ? a[1].get<uint64_t>() : d.addr[0];
    d.db_loop = t.value("db", -1);
    if (const json* init = member(t, "init")) {  // hex bytes of a GM tensor's init_value
      const std::string& hex = init->get_ref<const std::string&>();
      if (hex.size() != 2 * d.bytes) {
        raise("tik", "tensor {}: init_value has {} bytes, the tensor {}", d.name, hex.size() / 2, d.bytes);
      }
      d.init.resize(d.bytes);
      for (size_t i = 0; i < d.bytes; ++i) d.init[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    }
    p.tensors.push_back(std::move(d));
  }
  for (const auto& s : j.at("scalars")) {
    ScalarDecl d;
    d.name = s.at("name").get<std::string>();
    d.type = type_from_name(s.at("dtype").get<std::string>());
    if (s.contains("init") && !s["init"].is_null()) {
      d.has_init = true;
      if (s["init"].is_number_float()) {
        d.init.is_float = true;
        d.init.f = s["init"].get<double>();
      } else {
        d.init.i = s["init"].get<int64_t>();
      }
    }
    p.scalars.push_back(std::move(d));
  }
  for (const auto& a : j.at("inputs")) {
    Program::Arg arg;
    arg.is_scalar = a.contains("scalar");
    arg.id = arg.is_scalar ? a["scalar"].get<int>() : a.at("tensor").get<int>();
    p.inputs.push_back(arg);
  }
  for (const auto& o : j.at("outputs")) p.outputs.push_back(o.get<int>());
  p.block_num = j.value("block_num", 1u);
  p.loops = j.value("loops", 0);
  return p;
}

Program parse(const json& j) {
  Program p = parse_header(j);
  Parser parser(p);
  p.body = parser.block(j.at("body"));
  return p;
}

// Deeper JSON is no program BuildCCE wrote, and the parser and the interpreter walk statements
// and expressions recursively: a file nested 10 000 levels deep ended in a segfault (issue 29's
// fuzzing). Real programs stay far below this.
constexpr int kMaxProgramDepth = 512;

Program parse_text(const std::string& text) {
  json j;
  struct TooDeep {};
  try {
    j = json::parse(text, [](int depth, json::parse_event_t, json&) {
      if (depth > kMaxProgramDepth) throw TooDeep{};
      return true;
    });
  } catch (const TooDeep&) {
    raise("tik", "the TIK program is nested more than {} levels deep (statements and expressions)", kMaxProgramDepth);
  } catch (const json::exception& e) {
    raise("tik", "the TIK program is not valid JSON: {}", e.what());
  }
  try {
    return parse(j);
  } catch (const json::exception& e) {
    raise("tik", "malformed TIK program: {}", e.what());
  }
}

}  // namespace npuvp::tik
