// npuvp._core: the C++ half of the Python package. Each call that simulates must run in a
// fresh process (SystemC elaborates once per process); npuvp.tik's runner forks for it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string_view>

#include "sw/runtime/device.h"
#include "sw/tik/tik_console.h"
#include "sw/tik/tik_program.h"
#include "sw/tik/tik_run.h"
#include "tlm/log.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace py = pybind11;

namespace {

// A recorded program (dicts, lists, numbers, strings, None) as JSON without going through
// text: start_debug hands the Python structure over directly, which skips serialising and
// lexing 10^5 instructions (docs/performance.md, "TIK front end").
nlohmann::json to_json(PyObject* o) {
  if (PyList_Check(o) || PyTuple_Check(o)) {
    const bool list = PyList_Check(o);
    const Py_ssize_t n = list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    nlohmann::json a = nlohmann::json::array();
    a.get_ref<nlohmann::json::array_t&>().reserve(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) a.push_back(to_json(list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i)));
    return a;
  }
  if (PyUnicode_Check(o)) {
    Py_ssize_t len = 0;
    const char* s = PyUnicode_AsUTF8AndSize(o, &len);
    if (!s) throw py::error_already_set();
    return nlohmann::json(std::string(s, static_cast<size_t>(len)));
  }
  if (PyBool_Check(o)) return nlohmann::json(o == Py_True);
  if (PyLong_Check(o)) {
    const long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    return nlohmann::json(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(o)) return nlohmann::json(PyFloat_AS_DOUBLE(o));
  if (o == Py_None) return nlohmann::json();
  if (PyDict_Check(o)) {
    nlohmann::json obj = nlohmann::json::object();
    PyObject* key;
    PyObject* value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) throw std::runtime_error("a TIK program's dict keys are strings");
      obj[PyUnicode_AsUTF8(key)] = to_json(value);
    }
    return obj;
  }
  throw std::runtime_error(std::string("a TIK program holds a ") + Py_TYPE(o)->tp_name + ", not a JSON value");
}

// The recorder's compact vector tuple read straight into a VectorRecord: strings and numbers
// in place, JSON built only for the fields that hold expressions (`keep` owns it: at most
// 2 mask words + 4 operands + 8 parameters + the extras).
struct JsonSlots {
  nlohmann::json slot[16];
  int used = 0;
  nlohmann::json* add(nlohmann::json j) { slot[used] = std::move(j); return &slot[used++]; }
};
std::string_view utf8(PyObject* o) {
  Py_ssize_t len = 0;
  const char* s = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, &len) : nullptr;
  if (!s) throw std::runtime_error("a TIK vector instruction's names are strings");
  return {s, static_cast<size_t>(len)};
}

void read_field(PyObject* o, npuvp::tik::VectorRecord::Field& f, JsonSlots& keep) {
  if (PyLong_CheckExact(o)) {
    const long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    f.value.i = v;
  } else if (PyFloat_CheckExact(o)) {
    f.value.is_float = true;
    f.value.f = PyFloat_AS_DOUBLE(o);
  } else {
    f.json = keep.add(to_json(o));
  }
}

// An operand: its tensor id and byte offset, two fields of the record (None, None: absent).
void read_operand(PyObject* id, PyObject* offset, npuvp::tik::VectorRecord::Operand& op, JsonSlots& keep) {
  if (id == Py_None) return;
  if (!PyLong_Check(id)) throw std::runtime_error("a TIK vector operand's tensor is a number");
  op.present = true;
  op.tensor = static_cast<int>(PyLong_AsLong(id));
  read_field(offset, op.offset, keep);
}

// The recorder's flat vector tuple (python/npuvp/tik/tik.py, Tik._vec; docs/tik.md):
// ("v", api, loc, op, dtype, mask form, mask value, mask low word, dst tensor, dst offset,
//  src0 tensor, src0 offset, src1 ..., src2 ..., repeat, 3 block strides, 3 repeat strides,
//  scalar, extra).
constexpr Py_ssize_t kVectorFields = 25;

bool is_vector_tuple(PyObject* o) {
  static PyObject* const kV = PyUnicode_InternFromString("v");
  if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != kVectorFields) return false;
  PyObject* tag = PyTuple_GET_ITEM(o, 0);
  return tag == kV || (PyUnicode_Check(tag) && PyUnicode_Compare(tag, kV) == 0);
}

npuvp::tik::Stmt vector_stmt(npuvp::tik::StreamParser& parser, PyObject* o) {
  npuvp::tik::VectorRecord r;
  JsonSlots keep;
  auto item = [o](Py_ssize_t i) { return PyTuple_GET_ITEM(o, i); };
  r.api = utf8(item(1));
  r.loc = utf8(item(2));
  r.op = utf8(item(3));
  r.dtype = utf8(item(4));
  const std::string_view form = utf8(item(5));
  r.mask_form = form == "b" ? 'b' : form == "c" ? 'c' : 'n';
  read_field(item(6), r.mask[0], keep);
  if (r.mask_form == 'b') read_field(item(7), r.mask[1], keep);
  read_operand(item(8), item(9), r.dst, keep);
  for (int i = 0; i < 3; ++i) read_operand(item(10 + 2 * i), item(11 + 2 * i), r.src[i], keep);
  for (int i = 0; i < 8; ++i) read_field(item(16 + i), r.params[i], keep);
  PyObject* extra = item(24);
  if (PyDict_Check(extra)) r.extra = keep.add(to_json(extra));
  return parser.vector(r);
}

// One statement of the recorder's body: converted and parsed alone, its nested bodies
// statement by statement, so the JSON form of a statement lives only while it is parsed.
npuvp::tik::Stmt stream_stmt(npuvp::tik::StreamParser& parser, PyObject* o) {
  static PyObject* const kBody = PyUnicode_InternFromString("body");
  static PyObject* const kThen = PyUnicode_InternFromString("then");
  static PyObject* const kElse = PyUnicode_InternFromString("else");
  if (is_vector_tuple(o)) return vector_stmt(parser, o);
  if (!PyDict_Check(o)) return parser.stmt(to_json(o));
  PyObject* body = PyDict_GetItem(o, kBody);
  PyObject* then = PyDict_GetItem(o, kThen);
  PyObject* orelse = PyDict_GetItem(o, kElse);
  if (!body && !then && !orelse) return parser.stmt(to_json(o));
  nlohmann::json head = nlohmann::json::object();
  PyObject* key;
  PyObject* value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(o, &pos, &key, &value)) {
    if (value == body || value == then || value == orelse) continue;
    if (!PyUnicode_Check(key)) throw std::runtime_error("a TIK program's dict keys are strings");
    head[PyUnicode_AsUTF8(key)] = to_json(value);
  }
  npuvp::tik::Stmt s = parser.stmt(head);
  auto fill = [&](PyObject* list, std::vector<npuvp::tik::Stmt>& out) {
    if (!list) return;
    if (!PyList_Check(list)) throw std::runtime_error("a TIK statement's body is a list");
    out.reserve(static_cast<size_t>(PyList_GET_SIZE(list)));
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); ++i) out.push_back(stream_stmt(parser, PyList_GET_ITEM(list, i)));
  };
  fill(body ? body : then, s.body);
  fill(orelse, s.orelse);
  return s;
}

// The program as text (a kernel_meta .o) or as the recorder's Python structure.
npuvp::tik::Program program_of(const py::handle& program) {
  if (py::isinstance<py::str>(program)) return npuvp::tik::parse_text(program.cast<std::string>());
  if (!PyDict_Check(program.ptr())) throw std::runtime_error("a TIK program is JSON text or a dict");
  try {
    nlohmann::json head = nlohmann::json::object();
    PyObject* key;
    PyObject* value;
    Py_ssize_t pos = 0;
    PyObject* body = nullptr;
    while (PyDict_Next(program.ptr(), &pos, &key, &value)) {
      const char* k = PyUnicode_AsUTF8(key);
      if (!k) throw py::error_already_set();
      if (std::strcmp(k, "body") == 0) {
        body = value;
      } else {
        head[k] = to_json(value);
      }
    }
    if (!body || !PyList_Check(body)) throw std::runtime_error("a TIK program has a body list");
    npuvp::tik::Program p = npuvp::tik::parse_header(head);
    npuvp::tik::StreamParser parser(p);
    p.body.reserve(static_cast<size_t>(PyList_GET_SIZE(body)));
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); ++i) p.body.push_back(stream_stmt(parser, PyList_GET_ITEM(body, i)));
    return p;
  } catch (const nlohmann::json::exception& e) {
    npuvp::raise("tik", "malformed TIK program: {}", e.what());
  }
}

// Runs a TIK program: feeds are bytes (GM tensors) or numbers (InputScalars), in input order.
py::dict run_tik(const py::object& program_json, const py::list& feeds, const std::string& platform,
                 const std::vector<std::string>& sets, const std::string& trace, const std::string& stats,
                 bool interactive) {
  npuvp::tik::Program program = program_of(program_json);
  std::vector<npuvp::tik::Feed> in;
  for (const auto& f : feeds) {
    npuvp::tik::Feed feed;
    if (py::isinstance<py::bytes>(f)) {
      const std::string b = f.cast<std::string>();
      feed.bytes.assign(b.begin(), b.end());
    } else if (py::isinstance<py::float_>(f)) {
      feed.is_scalar = true;
      feed.scalar.is_float = true;
      feed.scalar.f = f.cast<double>();
    } else {
      feed.is_scalar = true;
      feed.scalar.i = f.cast<int64_t>();
    }
    in.push_back(std::move(feed));
  }
  npuvp::Device::configure(platform, sets);
  if (!trace.empty()) npuvp::Tracer::global().open(trace);
  npuvp::tik::RunResult r;
  {
    py::gil_scoped_release release;
    npuvp::tik::Console console(stdin, stdout);
    r = npuvp::tik::run(program, in, interactive ? &console : nullptr);
  }
  if (!trace.empty()) npuvp::Tracer::global().close();
  if (!stats.empty()) npuvp::Stats::global().write_json(stats);
  py::dict out;
  py::list outputs;
  for (const auto& o : r.outputs) outputs.append(py::bytes(reinterpret_cast<const char*>(o.data()), o.size()));
  out["outputs"] = outputs;
  out["cycles"] = r.report.cycles;
  out["sim_time_us"] = r.report.sim_time.to_seconds() * 1e6;
  out["blocks"] = r.report.block_dim;
  out["instructions"] = r.instructions;
  out["summary"] = r.report.to_text();
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "npuvp's C++ core: TIK programs on the virtual platforms";
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, npuvp::error_text(e).c_str());
    }
  });
  m.def("run_tik", &run_tik, py::arg("program_json"), py::arg("feeds"), py::arg("platform") = "",
        py::arg("sets") = std::vector<std::string>{}, py::arg("trace") = "", py::arg("stats") = "",
        py::arg("interactive") = false,
        "Runs a serialised TIK program on a fresh platform of this process; returns outputs and the run report");
  m.def("parse_tik", [](const py::object& program) { return program_of(program).instructions; },
        "Parses and checks a TIK program (JSON text or the recorder's structure); returns its instruction count");
  m.def("platform_for_soc", [](const std::string& soc) -> py::object {
    const char* p = npuvp::tik::platform_for_tik_soc(soc.c_str());
    return p ? py::object(py::str(p)) : py::object(py::none());
  });
  m.def("available_platforms", &npuvp::available_platforms);
}
