// The result of one point, as stored in DIR/points/ID/point.json: written atomically once the
// point's run has ended, so an interrupted or crashed sweep keeps every finished point, and read
// back to rebuild results.csv/json and to skip finished points when the study runs again.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace aicore::sweep {

enum class Status { Ok, Mismatch, BadInput, Fault, CheckError, Crashed, Timeout };
const char* to_string(Status s);  // ok, mismatch, bad_input, fault, check_error, crashed, timeout
std::optional<Status> status_from_string(const std::string& s);

// How a point's process ended.
struct Outcome {
  int exit_code = -1;  // -1 when it did not exit by itself
  int signal = 0;      // the signal that ended it, if any
  bool timed_out = false;
  double seconds = 0;       // wall time from start to reaped, as the sweep saw it
  double sim_seconds = -1;  // time inside `run` (fork launcher only; -1 = unknown)
};

// What a point's record is made of besides its outcome: set by the plan.
struct JobInfo {
  std::string id;                 // the resume key (points/ID)
  std::string dir;                // points/ID, absolute
  nlohmann::json values;          // key column -> value as written
  std::vector<std::string> args;  // `aicore-sim run` arguments
  double timeout_s = 0;
};

struct Record {
  std::string id;
  Status status = Status::Crashed;
  int exit_code = -1, signal = 0;
  std::string message;  // the error, fault or check message ("" when ok)
  double seconds = 0, sim_seconds = -1;
  nlohmann::json values;   // as JobInfo::values
  nlohmann::json metrics;  // flat: "cycles", "busy_ratio.MTE2", ... -> number or string
};

// The record of a finished run: status from the exit status (and stats.json's "status" to tell a
// check error from a fault), metrics from its stats.json, the message from stats.json or, when
// the run wrote none, the first error line of its log (DIR/run.log).
Record make_record(const JobInfo& job, const Outcome& outcome);

// The flat metrics of a stats.json: cycles, time_us, instructions, bound_pipe, busy_cycles.PIPE,
// busy_ratio.PIPE, stall_cycles.CAUSE (summed over pipes), mac_utilisation, bytes.PATH. Top-level
// fields only; whatever is missing is left out.
nlohmann::json metrics_from_stats(const nlohmann::json& stats);

nlohmann::json to_json(const Record& r);
std::optional<Record> record_from_json(const nlohmann::json& j);  // nullopt if not a record

// DIR/point.json via a temporary file and rename(): readers see the old file or the new one.
void write_record(const std::string& dir, const Record& r);
std::optional<Record> read_record(const std::string& dir);  // nullopt if absent or unreadable

// Whether a stored record stands for its point on a re-run: a crash or a timeout is tried again.
bool is_final(const Record& r);

// Writes `text` to `path` through a temporary file and rename(). Throws InputError on failure.
void write_atomically(const std::string& path, const std::string& text);

}  // namespace aicore::sweep
