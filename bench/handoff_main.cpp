// bench_handoff N: the cheapest thing a SystemC simulator can do per step, as a yardstick for
// aicore-sim's speed on this host. Two SC_THREADs hand control back and forth through two
// sc_events; every handoff is a timed notify (1 ns, through SystemC's timed-event queue, as the
// simulator's engines advance time by computed durations) plus a context switch into the
// other thread. One handoff = one iteration. Prints "handoffs N seconds S handoffs_per_s R".
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <systemc>

namespace {

struct PingPong : sc_core::sc_module {
  sc_core::sc_event to_b, to_a;
  uint64_t target = 0, handoffs = 0;

  explicit PingPong(sc_core::sc_module_name name, uint64_t n) : sc_module(name), target(n) {
    SC_THREAD(a);
    SC_THREAD(b);
  }
  // Counts the handoff it just received. After the last one nothing is notified any more, so
  // sc_start() returns by starvation (no sc_stop: it prints an info message).
  bool received() { return ++handoffs >= target; }
  void a() {
    for (;;) {
      to_b.notify(1, sc_core::SC_NS);
      wait(to_a);
      if (received()) return;
    }
  }
  void b() {
    for (;;) {
      wait(to_b);
      if (received()) return;
      to_a.notify(1, sc_core::SC_NS);
    }
  }
  SC_HAS_PROCESS(PingPong);
};

}  // namespace

int sc_main(int argc, char** argv) {
  const unsigned long long n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000ULL;
  if (n == 0) {
    std::fprintf(stderr, "usage: bench_handoff N   (N > 0 handoffs)\n");
    return 2;
  }
  PingPong pp("pp", n);
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("handoffs %llu seconds %.6f handoffs_per_s %.0f\n",
              static_cast<unsigned long long>(pp.handoffs), s, double(pp.handoffs) / s);
  return pp.handoffs == n ? 0 : 1;
}
