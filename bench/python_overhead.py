"""Python API overhead: aicore_sim.run() against `aicore-sim run` on bench_sim's trace (a tiled 4:2
sparse GEMM of >= 100k instructions, --timing-only), both writing the same stats.json/checks.json.
Runs alternate, REPS each; prints the median wall time of each and their ratio (target < 1.05).
    PYTHONPATH=BUILD/python python3 bench/python_overhead.py BUILD/aicore-sim [REPS]"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import aicore_sim

sim = sys.argv[1]
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
with tempfile.TemporaryDirectory() as work:
    gen_dir = os.path.join(work, "sparse")
    # The shape of bench/subprocess.hpp (kSparseM/K/N), so the numbers compare with bench_sim's.
    subprocess.run([sim, "gen", "--m", "2048", "--k", "4352", "--n", "2304", "--sparse", "--out", gen_dir,
                    "--name", "sparse", "--no-originals"], check=True, stdout=subprocess.DEVNULL)
    trace = os.path.join(gen_dir, "sparse.trace")
    cli, py = [], []
    for i in range(reps):
        out = os.path.join(work, f"cli{i}")
        t = time.perf_counter()
        subprocess.run([sim, "run", trace, "--timing-only", "--out", out, "-q"], check=True)
        cli.append(time.perf_counter() - t)
        t = time.perf_counter()
        r = aicore_sim.run(trace, timing_only=True, out=os.path.join(work, f"py{i}"))
        py.append(time.perf_counter() - t)
    assert r.instruction_count >= 100_000, r.instruction_count
    c, p = statistics.median(cli), statistics.median(py)
    print(f"trace: {r.instruction_count} instructions, {r.cycles} cycles (timing-only)")
    print(f"aicore-sim run     median {c:.3f} s over {reps}")
    print(f"aicore_sim.run()   median {p:.3f} s over {reps}")
    print(f"ratio python/cli = {p / c:.3f}")
