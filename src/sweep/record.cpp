#include "aicore/sweep/record.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "aicore/common/error.hpp"

namespace aicore::sweep {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxMessage = 400;  // a table cell, not a log

const char* const kStatusNames[] = {"ok",          "mismatch", "bad_input", "fault",
                                    "check_error", "crashed",  "timeout"};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::optional<nlohmann::json> read_json(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  try {
    return nlohmann::json::parse(slurp(p));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::string shorten(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  if (s.size() > kMaxMessage) s = s.substr(0, kMaxMessage - 3) + "...";
  return s;
}

// The line of a run's log that says what went wrong: the first error or fault line, else the last
// line written.
std::string log_message(const fs::path& log) {
  std::istringstream in(slurp(log));
  std::string last;
  for (std::string line; std::getline(in, line);) {
    if (line.find("error:") != std::string::npos || line.find("fault:") != std::string::npos) return line;
    if (!line.empty()) last = line;
  }
  return last;
}

Status status_of(const Outcome& o, const std::optional<nlohmann::json>& stats) {
  if (o.timed_out) return Status::Timeout;
  if (o.signal) return Status::Crashed;
  switch (o.exit_code) {
    case 0:
      return stats ? Status::Ok : Status::Crashed;
    case 1:
      return Status::Mismatch;
    case 2:
      return Status::BadInput;
    case 3: {
      const std::string s =
          stats && (*stats)["status"].is_string() ? (*stats)["status"].get<std::string>() : "";
      const bool check = s.find("check") != std::string::npos || s.find("race") != std::string::npos;
      return check ? Status::CheckError : Status::Fault;
    }
    default:
      return Status::Crashed;
  }
}

std::string message_of(const JobInfo& job, const Outcome& o, Status st,
                       const std::optional<nlohmann::json>& stats) {
  if (st == Status::Ok) return "";
  if (o.timed_out) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "no result within the %g s timeout (killed)", job.timeout_s);
    return buf;
  }
  if (o.signal) return "killed by signal " + std::to_string(o.signal) + " (" + strsignal(o.signal) + ")";
  // contains() first: operator[] on a const json with a missing key is undefined behaviour.
  if (stats && stats->contains("message") && (*stats)["message"].is_string() &&
      !(*stats)["message"].get<std::string>().empty())
    return shorten((*stats)["message"].get<std::string>());
  std::string m = shorten(log_message(fs::path(job.dir) / "run.log"));
  if (m.empty() && o.exit_code == 0) m = "the run wrote no stats.json";
  if (m.empty()) m = "exit status " + std::to_string(o.exit_code);
  return m;
}

void add_number(nlohmann::json& out, const std::string& name, const nlohmann::json& v) {
  if (v.is_number()) out[name] = v;
}

}  // namespace

const char* to_string(Status s) {
  return kStatusNames[static_cast<int>(s)];
}

std::optional<Status> status_from_string(const std::string& s) {
  for (int i = 0; i <= static_cast<int>(Status::Timeout); ++i)
    if (s == kStatusNames[i]) return static_cast<Status>(i);
  return std::nullopt;
}

nlohmann::json metrics_from_stats(const nlohmann::json& st) {
  nlohmann::json m = nlohmann::json::object();
  if (!st.is_object()) return m;
  for (const char* k : {"cycles", "time_us", "instructions"})
    if (st.contains(k)) add_number(m, k, st[k]);
  if (st.contains("summary") && st["summary"].is_object() && st["summary"].contains("bound_pipe") &&
      st["summary"]["bound_pipe"].is_string())
    m["bound_pipe"] = st["summary"]["bound_pipe"];
  if (st.contains("pipes") && st["pipes"].is_object()) {
    nlohmann::json stall = nlohmann::json::object();
    for (const auto& [pipe, p] : st["pipes"].items()) {
      if (!p.is_object()) continue;
      if (p.contains("busy_cycles")) add_number(m, "busy_cycles." + pipe, p["busy_cycles"]);
      if (p.contains("busy_ratio")) add_number(m, "busy_ratio." + pipe, p["busy_ratio"]);
      if (!p.contains("wait_cycles") || !p["wait_cycles"].is_object()) continue;
      for (const auto& [cause, n] : p["wait_cycles"].items()) {
        if (n.is_number_unsigned())
          stall[cause] = stall.value(cause, uint64_t{0}) + n.get<uint64_t>();
        else if (n.is_number())
          stall[cause] = stall.value(cause, 0.0) + n.get<double>();
      }
    }
    for (const auto& [cause, n] : stall.items()) m["stall_cycles." + cause] = n;
  }
  if (st.contains("cube") && st["cube"].is_object() && st["cube"].contains("mac_utilisation"))
    add_number(m, "mac_utilisation", st["cube"]["mac_utilisation"]);
  if (st.contains("paths") && st["paths"].is_object())
    for (const auto& [path, p] : st["paths"].items())
      if (p.is_object() && p.contains("bytes")) add_number(m, "bytes." + path, p["bytes"]);
  return m;
}

Record make_record(const JobInfo& job, const Outcome& o) {
  const std::optional<nlohmann::json> stats = read_json(fs::path(job.dir) / "stats.json");
  Record r;
  r.id = job.id;
  r.status = status_of(o, stats);
  r.exit_code = o.exit_code;
  r.signal = o.signal;
  r.message = message_of(job, o, r.status, stats);
  r.seconds = o.seconds;
  r.sim_seconds = o.sim_seconds;
  r.values = job.values;
  r.metrics = stats ? metrics_from_stats(*stats) : nlohmann::json::object();
  return r;
}

nlohmann::json to_json(const Record& r) {
  return {{"id", r.id},
          {"status", to_string(r.status)},
          {"exit_code", r.exit_code},
          {"signal", r.signal},
          {"message", r.message},
          {"seconds", r.seconds},
          {"sim_seconds", r.sim_seconds},
          {"values", r.values},
          {"metrics", r.metrics}};
}

std::optional<Record> record_from_json(const nlohmann::json& j) {
  try {
    Record r;
    r.id = j.at("id").get<std::string>();
    const auto st = status_from_string(j.at("status").get<std::string>());
    if (!st) return std::nullopt;
    r.status = *st;
    r.exit_code = j.at("exit_code").get<int>();
    r.signal = j.value("signal", 0);
    r.message = j.value("message", "");
    r.seconds = j.value("seconds", 0.0);
    r.sim_seconds = j.value("sim_seconds", -1.0);
    r.values = j.value("values", nlohmann::json::object());
    r.metrics = j.value("metrics", nlohmann::json::object());
    if (!r.metrics.is_object()) return std::nullopt;
    return r;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw InputError(SourceLoc{path}, std::string("cannot create: ") + std::strerror(errno));
    f << text;
    if (!f.flush()) {
      std::remove(tmp.c_str());
      throw InputError(SourceLoc{path}, "cannot write (disk full?)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw InputError(SourceLoc{path}, std::string("cannot write: ") + std::strerror(e));
  }
}

void write_record(const std::string& dir, const Record& r) {
  write_atomically((fs::path(dir) / "point.json").string(), to_json(r).dump(1) + "\n");
}

std::optional<Record> read_record(const std::string& dir) {
  const auto j = read_json(fs::path(dir) / "point.json");
  if (!j) return std::nullopt;
  return record_from_json(*j);
}

bool is_final(const Record& r) {
  return r.status != Status::Crashed && r.status != Status::Timeout;
}

}  // namespace aicore::sweep
