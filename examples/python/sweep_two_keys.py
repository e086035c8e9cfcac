"""A what-if study from Python (docs/python.md): the tiled 4:2 sparse GEMM on atlas-a2 over the GM
read bandwidth and the per-row cost of GM writes, a loop of aicore_sim.run() calls, plotted with
matplotlib.   python3 sweep_two_keys.py [OUT.png]"""
import itertools
import os
import sys

import matplotlib

matplotlib.use("Agg")  # a file, no window (in a notebook, leave this out)
import matplotlib.pyplot as plt  # noqa: E402

import aicore_sim  # noqa: E402

# The shipped trace, beside examples/ in the repository and in an installed share/aicore-sim.
HERE = os.path.dirname(os.path.abspath(__file__))
TRACE = os.path.join(HERE, "..", "..", "traces", "tiled_sparse_512x1024x512", "tiled_sparse_512x1024x512.trace")

reads = [48, 96, 177.3, 256]  # gm.read.bytes_per_cycle (atlas-a2: 177.3)
rows = [0, 35, 69.72]  # gm.write.row_cycles (atlas-a2: 69.72)
points = []
for bw, rc in itertools.product(reads, rows):
    r = aicore_sim.run(TRACE, set={"gm.read.bytes_per_cycle": bw, "gm.write.row_cycles": rc}, timing_only=True)
    points.append({"read": bw, "row_cycles": rc, "cycles": r.cycles, "bound": r.bound_pipe,
                   "mte2_busy": r.pipes["MTE2"]["busy_ratio"]})

print(f"{'read B/cyc':>10} {'row cyc':>8} {'cycles':>8} {'bound':>5} {'MTE2 busy':>9}")
for p in points:
    print(f"{p['read']:>10} {p['row_cycles']:>8} {p['cycles']:>8} {p['bound']:>5} {p['mte2_busy']:>9.2f}")

fig, ax = plt.subplots(figsize=(5, 3.5))
for rc in rows:
    mine = [p for p in points if p["row_cycles"] == rc]
    ax.plot([p["read"] for p in mine], [p["cycles"] / 1000 for p in mine], marker="o",
            label=f"gm.write.row_cycles = {rc}")
ax.set_xlabel("gm.read.bytes_per_cycle")
ax.set_ylabel("kilocycles")
ax.set_title("tiled_sparse_512x1024x512 on atlas-a2")
ax.legend()
fig.tight_layout()
out = sys.argv[1] if len(sys.argv) > 1 else "sweep_two_keys.png"
fig.savefig(out, dpi=100)
print("wrote", out)
