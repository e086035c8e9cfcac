"""A what-if study from Python (docs/python.md): the tiled 4:2 sparse GEMM on atlas-a2 over the GM
read bandwidth and the Fixpipe GM write bandwidth, one aicore_sim.sweep() over a grid of both keys
(each point a run on a worker process), plotted with matplotlib.   python3 sweep_two_keys.py [OUT.png]"""
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
writes = [4, 8, 128]  # gm.write.bytes_per_cycle, Fixpipe L0C -> GM (atlas-a2: 128)
# The grid's first key varies slowest: points come back read by read, each with every write value.
# as_dataframe=False: a list of dicts, pandas or not (leave it out for a DataFrame when pandas is there).
points = aicore_sim.sweep({"traces": [TRACE], "config": "atlas-a2", "timing_only": True,
                           "grid": {"gm.read.bytes_per_cycle": reads, "gm.write.bytes_per_cycle": writes}},
                          as_dataframe=False)

print(f"{'read B/cyc':>10} {'write B/cyc':>11} {'cycles':>8} {'bound':>5} {'MTE2 busy':>9}")
for p in points:
    print(f"{p['gm.read.bytes_per_cycle']:>10} {p['gm.write.bytes_per_cycle']:>11} {p['cycles']:>8} "
          f"{p['bound_pipe']:>5} {p['busy_ratio.MTE2']:>9.2f}")

fig, ax = plt.subplots(figsize=(5, 3.5))
for wr in writes:
    mine = [p for p in points if p["gm.write.bytes_per_cycle"] == wr]
    ax.plot([p["gm.read.bytes_per_cycle"] for p in mine], [p["cycles"] / 1000 for p in mine], marker="o",
            label=f"gm.write.bytes_per_cycle = {wr}")
ax.set_xlabel("gm.read.bytes_per_cycle")
ax.set_ylabel("kilocycles")
ax.set_title("tiled_sparse_512x1024x512 on atlas-a2")
ax.legend()
fig.tight_layout()
out = sys.argv[1] if len(sys.argv) > 1 else "sweep_two_keys.png"
fig.savefig(out, dpi=100)
print("wrote", out)
