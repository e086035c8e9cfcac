// aicore_sim._core: the Python API's way into the session layer (docs/python.md). Every run is
// session::run_in_child: SystemC elaborates one model per process, so the Python process never
// simulates itself and can run any number of simulations, from any number of threads. The GIL is
// released while a child simulates. Results cross as the session's JSON (session::to_json), which
// the Python side (aicore_sim/__init__.py) turns into a Result. sweep() and gen() run the sweep
// library (each point a forked worker) and the generator (studies.cpp), also without the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <csignal>
#include <sstream>
#include <string>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/common/install.hpp"
#include "aicore/common/version.hpp"
#include "aicore/config/json.hpp"
#include "aicore/config/loader.hpp"
#include "aicore/session/config.hpp"
#include "aicore/session/process.hpp"
#include "aicore/session/session.hpp"
#include "studies.hpp"

namespace py = pybind11;
using namespace aicore;

namespace {

// Raised for every exit-2 problem: the message is the CLI's (file:line:column and the suggestion).
PyObject* g_input_error = nullptr;

[[noreturn]] void raise_input_error(const std::string& message) {
  PyErr_SetString(g_input_error, message.c_str());
  throw py::error_already_set();
}

session::RunOptions run_options(const std::string& config, const std::vector<std::string>& sets,
                                const std::string& out_dir, bool timing_only, const std::string& check,
                                bool instr_log, bool timeline, bool vcd, const std::string& window,
                                bool keep_instructions, bool keep_tensors, int verbosity) {
  session::RunOptions o;
  o.config = config;
  o.sets = sets;
  o.out_dir = out_dir;
  o.timing_only = timing_only;
  const auto mode = session::check_mode_from(check);
  if (!mode) raise_input_error("check: error: " + session::check_mode_error(check));
  o.check = *mode;
  o.instr_log = instr_log;
  o.timeline = timeline;
  o.vcd = vcd;
  o.window = window;
  o.quiet = true;  // the summary and notes are in the result; warnings and errors still come back
  o.verbosity = verbosity;
  o.keep_instructions = keep_instructions;
  o.keep_tensors = keep_tensors;
  if (const std::string e = session::options_error(o); !e.empty()) raise_input_error("error: " + e);
  return o;
}

// (result JSON text, the child's stdout text, its stderr text)
py::tuple run(const std::string& path, const session::RunOptions& o) {
  std::ostringstream out, err;
  std::string text;
  {
    py::gil_scoped_release released;
    const session::RunResult r = session::run_in_child(
        [&](std::ostream& cout, std::ostream& cerr) { return session::run_trace(path, o, cout, cerr); }, out,
        err, path);
    text = session::to_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return py::make_tuple(py::bytes(text), out.str(), err.str());
}

// (resolved config as JSON text, as YAML, its warnings): the loader's own validation and messages.
py::tuple load_config(const std::string& preset_or_path, const std::vector<std::string>& sets) {
  std::ostringstream err;
  session::Diagnostics diag(err, true);
  try {
    const config::Config c = session::load_config(preset_or_path, sets, diag);
    std::vector<std::string> warnings;
    for (const session::Message& m : diag.messages())
      if (m.level == session::Message::Level::Warning) warnings.push_back(m.text);
    return py::make_tuple(config::to_json(c).dump(), config::to_yaml(c), warnings);
  } catch (const InputError& e) {
    raise_input_error(e.what());
  }
}

// A study's results table as JSON text ({columns, rows, ...}: python::run_sweep). The GIL is
// released for the whole sweep: validation, generation and every point.
py::bytes sweep(const std::string& study, const std::string& text, const std::string& out_dir, int jobs,
                bool force, bool progress) {
  python::SweepRequest q{study, text, out_dir, jobs, force, progress, nullptr};
  // Ctrl-C: Python's handler may have taken the SIGINT (another thread received it); asking Python
  // whether a signal came stops the sweep as the SIGINT itself would. Python raises KeyboardInterrupt.
  q.stop = [] {
    py::gil_scoped_acquire held;
    if (PyErr_CheckSignals() == 0) return 0;
    PyErr_Clear();
    return SIGINT;
  };
  python::SweepOutcome o;
  {
    py::gil_scoped_release released;
    o = python::run_sweep(q);
  }
  if (!o.error.empty()) raise_input_error(o.error);
  return py::bytes(o.json);
}

// (exit status, stdout text, stderr text) of `aicore-sim gen ARGS`.
py::tuple gen(const std::vector<std::string>& args) {
  python::GenOutcome o;
  {
    py::gil_scoped_release released;
    o = python::run_gen(args);
  }
  return py::make_tuple(o.status, o.out, o.err);
}

}  // namespace

// libsystemc.so refers to sc_main (for its own main(), which python3 never runs); the dynamic
// loader resolves that reference when the module loads, so the module must define one.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char*[]) {
  return 0;
}

PYBIND11_MODULE(_core, m) {
  m.doc() = "aicore-sim's session layer (use the aicore_sim package, not this module)";
  m.attr("__version__") = kVersion;
  m.attr("presets") = config::preset_names();
  py::object base = py::module_::import("builtins").attr("ValueError");
  g_input_error = PyErr_NewException("aicore_sim.InputError", base.ptr(), nullptr);
  m.attr("InputError") = py::handle(g_input_error);
  m.def("set_install_prefix", &set_install_prefix, py::arg("prefix"),
        "Where the installed tree is (its presets), for a module loaded by python3");
  m.def("default_configs_dir", &config::default_configs_dir);
  py::class_<session::RunOptions>(m, "RunOptions");
  m.def("run_options", &run_options, py::arg("config"), py::arg("sets"), py::arg("out_dir"),
        py::arg("timing_only"), py::arg("check"), py::arg("instr_log"), py::arg("timeline"), py::arg("vcd"),
        py::arg("window"), py::arg("keep_instructions"), py::arg("keep_tensors"), py::arg("verbosity"));
  m.def("run", &run, py::arg("path"), py::arg("options"));
  m.def("load_config", &load_config, py::arg("preset_or_path"), py::arg("sets"));
  m.def("sweep", &sweep, py::arg("study"), py::arg("text"), py::arg("out_dir"), py::arg("jobs"),
        py::arg("force"), py::arg("progress"));
  m.def("gen", &gen, py::arg("args"));
}
