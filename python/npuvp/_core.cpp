// npuvp._core: the C++ half of the Python package. Each call that simulates must run in a
// fresh process (SystemC elaborates once per process); npuvp.tik's runner forks for it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "sw/runtime/device.h"
#include "sw/tik/tik_program.h"
#include "sw/tik/tik_run.h"
#include "tlm/log.h"
#include "tlm/stats.h"
#include "tlm/tracer.h"

namespace py = pybind11;

namespace {

// Runs a TIK program: feeds are bytes (GM tensors) or numbers (InputScalars), in input order.
py::dict run_tik(const std::string& program_json, const py::list& feeds, const std::string& platform,
                 const std::vector<std::string>& sets, const std::string& trace, const std::string& stats) {
  npuvp::tik::Program program = npuvp::tik::parse_text(program_json);
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
    r = npuvp::tik::run(program, in);
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
        "Runs a serialised TIK program on a fresh platform of this process; returns outputs and the run report");
  m.def("parse_tik", [](const std::string& text) { return npuvp::tik::parse_text(text).instructions; },
        "Parses and checks a serialised TIK program; returns its instruction count");
  m.def("platform_for_soc", [](const std::string& soc) -> py::object {
    const char* p = npuvp::tik::platform_for_tik_soc(soc.c_str());
    return p ? py::object(py::str(p)) : py::object(py::none());
  });
  m.def("available_platforms", &npuvp::available_platforms);
}
