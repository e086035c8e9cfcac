// Generated kernels: every shape `gen` writes is race-free (zero reports), and the checker kills
// every mutant of them that is not equivalent. A mutant the checker passes is run in random pipe
// interleavings (tests/support's machine: per-pipe order, flags, PIPE_ALL only); if any interleaving
// computes a wrong C, the checker missed a race and the test fails; otherwise the mutant is
// counted as equivalent.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>
#include <map>

#include "aicore/check/checker.hpp"
#include "aicore/check/format.hpp"
#include "aicore/common/error.hpp"
#include "aicore/gen/case.hpp"
#include "aicore/gen/random.hpp"
#include "machine.hpp"

using namespace aicore;

namespace {

std::vector<isa::Instruction> instructions(const std::vector<isa::Op>& ops) {
  static const FileId file = intern_source_file("gen.trace");
  std::vector<isa::Instruction> out;
  for (size_t i = 0; i < ops.size(); ++i)
    out.push_back(isa::Instruction{ops[i], i, static_cast<uint32_t>(i + 1), file});
  return out;
}

struct Result {
  std::vector<check::Report> reports;
  check::Summary summary;
};

Result check_ops(const std::vector<isa::Op>& ops) {
  check::Checker c(check::CheckOptions{});
  for (const auto& in : instructions(ops)) c.issue(isa::CoreId{0}, in);
  c.finish({});
  return Result{c.reports(), c.summary()};
}

gen::GemmCase make(uint32_t M, uint32_t K, uint32_t N, bool sparse, gen::TileRequest t = {}) {
  const gen::Plan plan = gen::make_plan({M, K, N, sparse}, t);
  gen::Rng rng(M * 131 + K * 7 + N);
  auto a = gen::random_i8(rng, uint64_t{M} * K);
  auto b = sparse ? gen::random_sparse_b(rng, K, N, 0.75) : gen::random_i8(rng, uint64_t{K} * N);
  return gen::build_case(plan, std::move(a), std::move(b));
}

std::string all_text(const Result& r) {
  return check::format_text(r.reports, r.summary, {}, r.reports.size());
}

// --- mutants --------------------------------------------------------------------------------

struct Mutant {
  std::string what;
  std::vector<isa::Op> ops;
};

bool is_set(const isa::Op& op) {
  return std::holds_alternative<isa::SetFlag>(op);
}
bool is_wait(const isa::Op& op) {
  return std::holds_alternative<isa::WaitFlag>(op);
}
int key_of(const isa::Op& op) {
  const auto key = [](isa::EventPair e, uint8_t id) {
    return (static_cast<int>(e.src) * isa::kPipeCount + static_cast<int>(e.dst)) * 8 + id;
  };
  if (const auto* s = std::get_if<isa::SetFlag>(&op)) return key(s->event, s->id);
  if (const auto* w = std::get_if<isa::WaitFlag>(&op)) return key(w->event, w->id);
  return -1;
}
bool is_memory(const isa::Op& op) {
  return !is_set(op) && !is_wait(op) && !std::holds_alternative<isa::PipeBarrier>(op);
}

std::vector<Mutant> mutants_of(const std::vector<isa::Op>& ops) {
  std::vector<Mutant> out;
  // Delete one SetFlag and the WaitFlag it pairs with (the i-th of each per flag).
  std::map<int, std::vector<size_t>> sets, waits;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (is_set(ops[i])) sets[key_of(ops[i])].push_back(i);
    if (is_wait(ops[i])) waits[key_of(ops[i])].push_back(i);
  }
  for (const auto& [key, s] : sets)
    for (size_t n = 0; n < s.size() && n < waits[key].size(); ++n) {
      Mutant m{
          "delete the pair at lines " + std::to_string(s[n] + 1) + "/" + std::to_string(waits[key][n] + 1),
          {}};
      for (size_t i = 0; i < ops.size(); ++i)
        if (i != s[n] && i != waits[key][n]) m.ops.push_back(ops[i]);
      out.push_back(std::move(m));
    }
  for (size_t i = 0; i < ops.size(); ++i) {
    const auto* w = std::get_if<isa::WaitFlag>(&ops[i]);
    if (w) {
      // Swap ids with the next WaitFlag of the same event that has another id (ping <-> pong).
      for (size_t j = i + 1; j < ops.size(); ++j) {
        const auto* v = std::get_if<isa::WaitFlag>(&ops[j]);
        if (!v || v->event.src != w->event.src || v->event.dst != w->event.dst || v->id == w->id) continue;
        Mutant m{
            "swap the ids of the waits at lines " + std::to_string(i + 1) + " and " + std::to_string(j + 1),
            ops};
        std::get<isa::WaitFlag>(m.ops[i]).id = v->id;
        std::get<isa::WaitFlag>(m.ops[j]).id = w->id;
        out.push_back(std::move(m));
        break;
      }
      // Move it after the next memory instruction of its pipe.
      const isa::Pipe p = isa::pipe_of(ops[i]);
      for (size_t j = i + 1; j < ops.size(); ++j) {
        if (isa::pipe_of(ops[j]) != p || !is_memory(ops[j])) continue;
        Mutant m{"move the wait at line " + std::to_string(i + 1) + " after line " + std::to_string(j + 1),
                 ops};
        m.ops.erase(m.ops.begin() + static_cast<long>(i));
        m.ops.insert(m.ops.begin() + static_cast<long>(j), ops[i]);
        out.push_back(std::move(m));
        break;
      }
    }
    if (std::holds_alternative<isa::PipeBarrier>(ops[i])) {
      Mutant m{"delete the barrier at line " + std::to_string(i + 1), ops};
      m.ops.erase(m.ops.begin() + static_cast<long>(i));
      out.push_back(std::move(m));
    }
  }
  return out;
}

// Some random interleaving computes a wrong C (or deadlocks, faults).
std::string shows_wrong_result(const gen::GemmCase& c, const std::vector<isa::Op>& ops, int tries) {
  for (int s = 0; s < tries; ++s) {
    gentest::Machine m(c.gm, 500 + s);
    const std::string problem = gentest::run_interleaved(ops, m, 900 + s);
    if (!problem.empty() && problem.find("left set") == std::string::npos) return problem;
    if (gentest::as_i32(m.gm[gen::gm_index_c(c.plan)]) != c.golden)
      return "wrong C in interleaving " + std::to_string(s);
  }
  return "";
}

}  // namespace

TEST_CASE("every generated kernel is race-free: no report of any kind", "[check][gen]") {
  int kernels = 0;
  for (const bool sparse : {true, false})
    for (const uint32_t M : {1u, 16u, 30u, 48u, 100u, 128u, 200u, 272u})
      for (const uint32_t K : {4u, 32u, 64u, 100u, 256u, 640u})
        for (const uint32_t N : {1u, 16u, 20u, 48u, 130u, 272u}) {
          if (sparse && K % 4 != 0) continue;
          gen::Plan plan;
          try {
            plan = gen::make_plan({M, K, N, sparse});
          } catch (const InputError&) {
            continue;  // a shape gen refuses
          }
          INFO(plan.describe());
          const Result r = check_ops(gentest::ops_of(gen::emit_program(plan)));
          CHECK(r.reports.empty());
          if (!r.reports.empty()) FAIL_CHECK(all_text(r));
          ++kernels;
        }
  // Forced tiles: double-buffered, edge tiles, small tiles accumulating over K (PipeBarrier<PIPE_M>).
  for (const auto& [M, K, N, sparse, t] :
       std::vector<std::tuple<uint32_t, uint32_t, uint32_t, bool, gen::TileRequest>>{
           {48, 512, 40, false, {16, 16, 64}},
           {130, 200, 150, false, {32, 48, 64}},
           {33, 128, 17, true, {16, 16, 64}},
           {160, 512, 64, false, {80, 32, 128}},
           {16, 4096, 16, false, {16, 16, 256}},
           {256, 1024, 256, true, {128, 128, 256}},
           {64, 640, 160, true, {32, 80, 128}}}) {
    const gen::Plan plan = gen::make_plan({M, K, N, sparse}, t);
    INFO(plan.describe());
    const Result r = check_ops(gentest::ops_of(gen::emit_program(plan)));
    CHECK(r.reports.empty());
    if (!r.reports.empty()) FAIL_CHECK(all_text(r));
    ++kernels;
  }
  CHECK(kernels > 200);
}

TEST_CASE("mutation: every non-equivalent mutant of a generated kernel is reported",
          "[check][gen][mutation]") {
  struct Kernel {
    const char* name;
    gen::GemmCase c;
  };
  std::vector<Kernel> kernels;
  kernels.push_back({"single tile sparse 16x64x16", make(16, 64, 16, true)});
  kernels.push_back({"single tile dense 48x96x40", make(48, 96, 40, false)});
  kernels.push_back({"tiled double-buffered sparse 64x256x64", make(64, 256, 64, true, {32, 32, 128})});
  kernels.push_back({"tiled dense, small tiles over K 32x256x32", make(32, 256, 32, false, {16, 16, 64})});
  kernels.push_back({"tiled dense, edge tiles 48x192x40", make(48, 192, 40, false, {32, 32, 64})});
  size_t total = 0, killed = 0, equivalent = 0;
  for (const Kernel& k : kernels) {
    INFO(k.name);
    const auto ops = gentest::ops_of(k.c.program);
    REQUIRE(check_ops(ops).reports.empty());
    size_t k_total = 0, k_killed = 0, k_equivalent = 0;
    for (const Mutant& m : mutants_of(ops)) {
      INFO(m.what);
      ++k_total;
      if (check_ops(m.ops).summary.errors > 0) {
        ++k_killed;
        continue;
      }
      // Passed: it must be equivalent.
      const std::string wrong = shows_wrong_result(k.c, m.ops, 12);
      CHECK(wrong == "");
      if (wrong.empty()) {
        ++k_equivalent;
        if (getenv("AICORE_LIST_EQUIVALENT")) std::cout << "  equivalent: " << m.what << "\n";
      }
    }
    std::cout << "mutation: " << k.name << ": " << k_total << " mutants, " << k_killed << " reported, "
              << k_equivalent << " equivalent\n";
    total += k_total;
    killed += k_killed;
    equivalent += k_equivalent;
  }
  std::cout << "mutation: kill rate " << killed << " / " << (total - equivalent)
            << " non-equivalent mutants (" << total << " in all, " << equivalent << " equivalent)\n";
  CHECK(total > 300);
  CHECK(killed == total - equivalent);
}
