// The one process-wide fact of the session layer, forced by SystemC: its kernel (the simulation
// context) is global to the process and elaborates one model. Once sc_start() has run, no module
// can be added, so a process simulates at most one chip. The session keeps a single flag for it
// (model_elaborated) and offers two ways to run:
//   * run() in this process: a command that simulates once and exits (`aicore-sim run`, a point
//     of a sweep in its own forked process);
//   * run_in_child(): a fork of this process simulates and hands its RunResult back through a
//     pipe, so the caller's process never elaborates and may run any number of simulations (the
//     front end runs each launch of a kernel program so; the Python API is to run every call so).
// A process that has run() a model cannot fork further simulations: the children would inherit
// its elaborated context. Forking copies only the calling thread: call run_in_child from a thread
// that holds no lock the simulation needs (the session's own code takes none across the fork).
// Besides that flag, a run sets only what is process-wide by nature, in the process it runs in (the
// child, for run_in_child): SystemC's report handler, the log level (RunOptions::verbosity, one
// spdlog logger) and the table of source-file names instructions carry (append-only).
#pragma once
#include <functional>
#include <iosfwd>
#include <string>

#include "aicore/session/result.hpp"

namespace aicore::session {

// True once this process has elaborated a model (session::run).
bool model_elaborated();
// Called by session::run before it builds the chip: std::logic_error when a model ran already.
void claim_model(const char* who);

// Runs `body` in a forked child and returns its result here. The child's `out` and `err` text is
// written to these streams when it is done (the log of -v goes straight to stderr). `what` names
// the simulation in messages. A child that dies gives a fault result saying how.
RunResult run_in_child(const std::function<RunResult(std::ostream& out, std::ostream& err)>& body,
                       std::ostream& out, std::ostream& err, const std::string& what);

// How SystemC's own reports reach the user: its informational ones (e.g. "simulation stopped by
// user" after a fault) say nothing a user needs, and what it displays goes to stderr, since stdout
// carries results only. Also turns its copyright banner off unless the environment asked for it.
// session::run calls it; a program's own sc_main may call it earlier.
void route_systemc_reports();

}  // namespace aicore::session
