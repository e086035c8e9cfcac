#include "aicore/session/result.hpp"

#include <array>

namespace aicore::session {

namespace {

const std::array<const char*, 5> kStatusNames = {"completed", "mismatch", "check_error", "input_error",
                                                 "fault"};

std::string hex(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    s[2 * i] = digits[bytes[i] >> 4];
    s[2 * i + 1] = digits[bytes[i] & 15];
  }
  return s;
}

std::vector<uint8_t> unhex(const std::string& s) {
  const auto nibble = [](char c) { return static_cast<uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10); };
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<uint8_t>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
  return out;
}

RunStatus status_named(const std::string& name) {
  for (size_t i = 0; i < kStatusNames.size(); ++i)
    if (name == kStatusNames[i]) return static_cast<RunStatus>(i);
  return RunStatus::Fault;
}

}  // namespace

const char* to_string(RunStatus s) {
  return kStatusNames[static_cast<size_t>(s)];
}

int exit_status(RunStatus s) {
  switch (s) {
    case RunStatus::Completed:
      return kExitOk;
    case RunStatus::Mismatch:
      return kExitMismatch;
    case RunStatus::InputError:
      return kExitBadInput;
    case RunStatus::CheckError:
    case RunStatus::Fault:
      return kExitFault;
  }
  return kExitFault;
}

RunResult failed_result(RunStatus status, const std::string& message) {
  RunResult r;
  r.status = status;
  r.exit_status = exit_status(status);
  r.message = message;
  r.messages.push_back({Message::Level::Error, message});
  return r;
}

nlohmann::json to_json(const RunResult& r) {
  nlohmann::json j;
  j["status"] = to_string(r.status);
  j["exit_status"] = r.exit_status;
  j["message"] = r.message;
  j["cycles"] = r.cycles;
  j["instructions"] = r.instructions;
  j["time_us"] = r.time_us;
  j["bound_pipe"] = r.bound_pipe;
  j["pipes"] = nlohmann::json::array();
  for (const PipeFigures& p : r.pipes)
    j["pipes"].push_back({{"pipe", p.pipe},
                          {"busy_cycles", p.busy_cycles},
                          {"active_cycles", p.active_cycles},
                          {"stall_cycles", p.stall_cycles},
                          {"instructions", p.instructions},
                          {"busy_ratio", p.busy_ratio}});
  j["stats"] = r.stats;
  j["checks"] = r.checks;
  j["check_errors"] = r.check_errors;
  j["check_warnings"] = r.check_warnings;
  j["rows"] = nlohmann::json::array();
  for (const InstrRow& x : r.rows)
    j["rows"].push_back({x.core, x.index, x.line, x.mnemonic, x.pipe, x.issue_cycle, x.start_cycle,
                         x.busy_end_cycle, x.end_cycle, x.bytes, x.macs, x.dense_macs, x.wait_cycles,
                         x.wait_cause, x.queue_wait_cycles});
  j["expects"] = nlohmann::json::array();
  for (const ExpectResult& e : r.expects)
    j["expects"].push_back({{"tensor", e.tensor},
                            {"file", e.file},
                            {"match", e.match},
                            {"bytes", e.bytes},
                            {"differing", e.differing},
                            {"elements", e.elements},
                            {"actual_file", e.actual_file}});
  j["tensors"] = nlohmann::json::array();
  for (const TensorBytes& t : r.tensors) j["tensors"].push_back({{"name", t.name}, {"bytes", hex(t.bytes)}});
  j["files"] = r.files;
  j["messages"] = nlohmann::json::array();
  for (const Message& m : r.messages)
    j["messages"].push_back({{"level", to_string(m.level)}, {"text", m.text}});
  j["summary"] = r.summary;
  return j;
}

RunResult result_from_json(const nlohmann::json& j) {
  RunResult r;
  r.status = status_named(j.at("status").get<std::string>());
  r.exit_status = j.at("exit_status").get<int>();
  r.message = j.at("message").get<std::string>();
  r.cycles = j.at("cycles").get<uint64_t>();
  r.instructions = j.at("instructions").get<uint64_t>();
  r.time_us = j.at("time_us").get<double>();
  r.bound_pipe = j.at("bound_pipe").get<std::string>();
  for (const auto& p : j.at("pipes"))
    r.pipes.push_back({p.at("pipe").get<std::string>(), p.at("busy_cycles").get<uint64_t>(),
                       p.at("active_cycles").get<uint64_t>(), p.at("stall_cycles").get<uint64_t>(),
                       p.at("instructions").get<uint64_t>(), p.at("busy_ratio").get<double>()});
  r.stats = j.at("stats");
  r.checks = j.at("checks");
  r.check_errors = j.at("check_errors").get<uint64_t>();
  r.check_warnings = j.at("check_warnings").get<uint64_t>();
  for (const auto& x : j.at("rows")) {
    InstrRow row;
    row.core = x.at(0).get<uint16_t>();
    row.index = x.at(1).get<uint64_t>();
    row.line = x.at(2).get<uint32_t>();
    row.mnemonic = x.at(3).get<std::string>();
    row.pipe = x.at(4).get<std::string>();
    row.issue_cycle = x.at(5).get<uint64_t>();
    row.start_cycle = x.at(6).get<uint64_t>();
    row.busy_end_cycle = x.at(7).get<uint64_t>();
    row.end_cycle = x.at(8).get<uint64_t>();
    row.bytes = x.at(9).get<uint64_t>();
    row.macs = x.at(10).get<uint64_t>();
    row.dense_macs = x.at(11).get<uint64_t>();
    row.wait_cycles = x.at(12).get<uint64_t>();
    row.wait_cause = x.at(13).get<std::string>();
    row.queue_wait_cycles = x.at(14).get<uint64_t>();
    r.rows.push_back(std::move(row));
  }
  for (const auto& e : j.at("expects"))
    r.expects.push_back({e.at("tensor").get<std::string>(), e.at("file").get<std::string>(),
                         e.at("match").get<bool>(), e.at("bytes").get<uint64_t>(),
                         e.at("differing").get<uint64_t>(), e.at("elements").get<uint64_t>(),
                         e.at("actual_file").get<std::string>()});
  for (const auto& t : j.at("tensors"))
    r.tensors.push_back({t.at("name").get<std::string>(), unhex(t.at("bytes").get<std::string>())});
  r.files = j.at("files").get<std::vector<std::string>>();
  for (const auto& m : j.at("messages")) {
    const std::string level = m.at("level").get<std::string>();
    r.messages.push_back({level == "error"     ? Message::Level::Error
                          : level == "warning" ? Message::Level::Warning
                                               : Message::Level::Note,
                          m.at("text").get<std::string>()});
  }
  r.summary = j.at("summary").get<std::string>();
  return r;
}

}  // namespace aicore::session
