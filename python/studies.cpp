#include "studies.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "aicore/common/error.hpp"
#include "aicore/gen/cli.hpp"
#include "aicore/sweep/generate.hpp"
#include "aicore/sweep/progress.hpp"
#include "aicore/sweep/summary.hpp"
#include "aicore/sweep/work.hpp"
#include "sweep_support.hpp"

namespace aicore::python {

namespace fs = std::filesystem;

namespace {

// DIR and DIR/points, and the study as run in DIR/study.yaml (a dict's text, or a copy of the file).
void prepare(const SweepRequest& q) {
  if (q.text.empty()) return cli::prepare_out_dir(q.study, q.out_dir);
  std::error_code ec;
  fs::create_directories(fs::path(q.out_dir) / "points", ec);
  if (ec) throw InputError(SourceLoc{q.out_dir}, "cannot create the output directory: " + ec.message());
  sweep::write_atomically((fs::path(q.out_dir) / "study.yaml").string(), q.text);
}

nlohmann::json sweep_table(const SweepRequest& q) {
  sweep::Plan plan = q.text.empty() ? sweep::load_plan(q.study, q.out_dir)
                                    : sweep::load_plan_text(q.text, q.study, "", q.out_dir);
  prepare(q);
  sweep::generate_cases(plan);
  sweep::assign_ids(plan);
  sweep::Work w = sweep::collect(plan, q.out_dir, q.force);
  // Forked workers only: Launch::Exec would start this process's executable, python3.
  sweep::PoolOptions pool = cli::pool_options(q.jobs, "fork");
  // Python's threads do not block SIGCHLD as the pool's thread does, so a point's end may wake one
  // of them instead: the pool looks every few milliseconds, or a slot could idle for its 250 ms.
  pool.wake_ms = 5;
  pool.stop = q.stop;
  sweep::Progress progress(w.jobs.size(), q.progress, isatty(2) != 0, std::cerr);
  std::map<std::string, sweep::Record> fresh;
  const auto t0 = std::chrono::steady_clock::now();
  const int interrupted = sweep::run_pool(
      w.jobs, pool,
      [&](const sweep::Record& r) {
        fresh[r.id] = r;
        progress.point_done(r.status == sweep::Status::Ok);
      },
      [&] { progress.tick(); });
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sweep::fill_records(plan, w, fresh);
  const sweep::Table t = sweep::build_table(plan, w.records);
  sweep::write_results(plan, t, q.out_dir);
  const std::string executor =
      std::to_string(pool.workers) + " local worker" + (pool.workers == 1 ? "" : "s");
  const sweep::RunCounts counts{fresh.size(), w.skipped, seconds, executor};
  return {{"columns", t.columns},      {"rows", t.rows},
          {"missing", t.missing},      {"swept", plan.swept},
          {"warnings", plan.warnings}, {"summary", sweep::summary_text(plan, t, counts, q.out_dir)},
          {"name", plan.study.name},   {"run", fresh.size()},
          {"skipped", w.skipped},      {"interrupted", interrupted}};
}

}  // namespace

SweepOutcome run_sweep(const SweepRequest& q) {
  SweepOutcome o;
  try {
    o.json = sweep_table(q).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const sweep::StudyErrors& e) {
    for (const std::string& m : e.messages()) o.error += (o.error.empty() ? "" : "\n") + m;
  } catch (const InputError& e) {
    o.error = e.what();
  } catch (const fs::filesystem_error& e) {
    o.error = std::string("aicore-sim sweep: error: ") + e.what();
  }
  return o;
}

GenOutcome run_gen(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  GenOutcome o;
  o.status = gen::gen_main(args, out, err, "aicore-sim");
  o.out = out.str();
  o.err = err.str();
  return o;
}

}  // namespace aicore::python
