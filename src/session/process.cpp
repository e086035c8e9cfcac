#include "aicore/session/process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <systemc>

namespace aicore::session {

namespace {

std::atomic<bool> g_elaborated{false};  // the process-wide fact SystemC forces (process.hpp)

void report_to_stderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (actions & sc_core::SC_DISPLAY) std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

// Writes all of `text` to fd; false when the pipe broke.
bool write_all(int fd, const std::string& text) {
  for (size_t at = 0; at < text.size();) {
    const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += static_cast<size_t>(n);
  }
  return true;
}

std::string read_all(int fd) {
  std::string s;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return s;
    s.append(buf, static_cast<size_t>(n));
  }
}

[[noreturn]] void child(int fd, const std::function<RunResult(std::ostream&, std::ostream&)>& body,
                        const std::string& what) {
  std::ostringstream out, err;
  RunResult r;
  try {
    r = body(out, err);
  } catch (const std::exception& e) {
    r = failed_result(RunStatus::Fault, "the simulation of " + what + " failed: " + e.what());
    err << "aicore-sim: error: " << r.message << "\n";
  }
  const nlohmann::json doc = {{"result", to_json(r)}, {"out", out.str()}, {"err", err.str()}};
  const bool sent = write_all(fd, doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  std::fflush(nullptr);
  _exit(sent ? r.exit_status : kExitFault);  // not exit(): atexit handlers and destructors are the parent's
}

}  // namespace

bool model_elaborated() {
  return g_elaborated.load();
}

void claim_model(const char* who) {
  if (g_elaborated.exchange(true))
    throw std::logic_error(std::string(who) +
                           ": this process has simulated a model already, and SystemC elaborates one per "
                           "process; run each simulation with session::run_in_child");
}

RunResult run_in_child(const std::function<RunResult(std::ostream& out, std::ostream& err)>& body,
                       std::ostream& out, std::ostream& err, const std::string& what) {
  if (model_elaborated())
    throw std::logic_error(
        "session::run_in_child: this process has simulated a model already; its children "
        "would inherit the elaborated SystemC kernel");
  int fds[2];
  if (pipe(fds) != 0)
    return failed_result(RunStatus::Fault,
                         "cannot start the simulation of " + what + ": pipe: " + std::strerror(errno));
  out.flush();
  err.flush();
  std::fflush(nullptr);  // or the child would write the parent's buffered output a second time
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fds[0]);
    close(fds[1]);
    return failed_result(RunStatus::Fault,
                         "cannot start the simulation of " + what + ": fork: " + std::strerror(e));
  }
  if (pid == 0) {
    close(fds[0]);
    child(fds[1], body, what);
  }
  close(fds[1]);
  const std::string text = read_all(fds[0]);  // before waiting: a large result fills the pipe
  close(fds[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) break;
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_discarded() && doc.contains("result")) {
    out << doc["out"].get<std::string>();
    err << doc["err"].get<std::string>();
    return result_from_json(doc["result"]);
  }
  const std::string how = WIFSIGNALED(st)
                              ? "died by signal " + std::to_string(WTERMSIG(st))
                              : "exited with status " + std::to_string(WEXITSTATUS(st)) + " without a result";
  RunResult r = failed_result(RunStatus::Fault, "the simulation of " + what + " " + how);
  err << "aicore-sim: error: " << r.message << std::endl;
  return r;
}

void route_systemc_reports() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_handler(report_to_stderr);
}

}  // namespace aicore::session
