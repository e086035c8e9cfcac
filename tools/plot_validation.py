#!/usr/bin/python3
"""PNG of measured silicon against simulated timing, from the points `aicore-sim validate --plot` writes.

One panel per microbenchmark kind: the simulated curve over PARAM (a line per dst), the measured
points on it (filled: training rows, the fit used them; hollow: check rows, held out) and, beside
each measured point, the simulated value at its PARAM (x). One more panel per kernel: measured and
simulated task time and per-pipe times, side by side, with the error over each pair. Needs Debian's
python3-matplotlib: run it with /usr/bin/python3.

  /usr/bin/python3 tools/plot_validation.py POINTS.csv [-o OUT.png] [--title T]

POINTS.csv columns: kind,dst,param,measured,simulated,set,unit (set: train, check, or curve for a
simulated point with no measurement). Exit status: 0 written, 2 bad input or matplotlib missing.
"""
import argparse
import os
import sys

from plot_common import InputProblem, main as run_main, number, pyplot, read_csv

NEEDED = ("kind", "dst", "param", "measured", "simulated", "set", "unit")
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#ff7f0e"]  # one per dst line


def read_rows(path):
    _, rows = read_csv(path, NEEDED, "a validate points file")
    if not rows:
        raise InputProblem(f"{path}: no points to plot")
    return rows


def micro_panel(ax, kind, rows):
    dsts = []
    for r in rows:
        if r["dst"] not in dsts:
            dsts.append(r["dst"])
    for i, dst in enumerate(dsts):
        colour = COLOURS[i % len(COLOURS)]
        curve = sorted((number(r["param"]), number(r["simulated"])) for r in rows
                       if r["dst"] == dst and r["set"] == "curve")
        if curve:
            ax.plot([p for p, _ in curve], [v for _, v in curve], color=colour, linewidth=1.5,
                    label=f"{dst} simulated")
        for r in rows:
            if r["dst"] != dst or r["set"] == "curve":
                continue
            p, m, s = number(r["param"]), number(r["measured"]), number(r["simulated"])
            filled = r["set"] == "train"
            ax.scatter([p], [m], s=44, color=colour if filled else "white", edgecolors=colour,
                       linewidths=1.5, zorder=3)
            ax.scatter([p], [s], s=30, marker="x", color="black", linewidths=1.0, zorder=4)
            ax.annotate(f"{100 * (s / m - 1):+.1f}%", (p, m), textcoords="offset points", xytext=(5, -11),
                        fontsize=7)
        ax.plot([], [], "o", color=colour, label=f"{dst} measured (train)")
        ax.plot([], [], "o", markerfacecolor="white", markeredgecolor=colour, label=f"{dst} measured (check)")
    ax.plot([], [], "x", color="black", label="simulated at a measured point")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("PARAM")
    ax.set_ylabel(rows[0]["unit"])
    ax.set_title(kind, fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=6.5, loc="best")


def kernel_panel(ax, name, rows):
    labels = [r["param"] for r in rows]
    measured = [number(r["measured"]) for r in rows]
    simulated = [number(r["simulated"]) for r in rows]
    xs = range(len(rows))
    w = 0.38
    held = rows[0]["set"] == "check"
    ax.bar([x - w / 2 for x in xs], measured, w, color="#7f7f7f", label="measured")
    ax.bar([x + w / 2 for x in xs], simulated, w, color="#1f77b4", label="simulated")
    for x, m, s in zip(xs, measured, simulated):
        ax.annotate(f"{100 * (s / m - 1):+.1f}%", (x, max(m, s)), textcoords="offset points", xytext=(0, 3),
                    ha="center", fontsize=7)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([l.replace(" us", "") for l in labels], fontsize=8)
    ax.set_ylabel("us")
    ax.set_title(f"{name} ({'check: held out' if held else 'train'})", fontsize=9)
    ax.legend(fontsize=7, loc="best")


def plot(rows, title, out):
    plt = pyplot()

    panels = []
    for r in rows:
        key = ("kernel", r["dst"]) if r["kind"] == "kernel" else ("micro", r["kind"])
        if key not in panels:
            panels.append(key)
    ncols = min(3, len(panels))
    nrows = (len(panels) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols, 3.9 * nrows), squeeze=False)
    for i, (what, name) in enumerate(panels):
        ax = axes[i // ncols][i % ncols]
        if what == "kernel":
            kernel_panel(ax, name, [r for r in rows if r["kind"] == "kernel" and r["dst"] == name])
        else:
            micro_panel(ax, name, [r for r in rows if r["kind"] == name])
    for j in range(len(panels), nrows * ncols):
        axes[j // ncols][j % ncols].axis("off")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv):
    ap = argparse.ArgumentParser(prog="plot_validation.py", description=__doc__.split("\n")[0])
    ap.add_argument("csv", help="the points file of aicore-sim validate --plot")
    ap.add_argument("-o", "--out", help="the PNG to write (default: the CSV's name with .png)")
    ap.add_argument("--title", default="aicore-sim against measured silicon", help="figure title")
    args = ap.parse_args(argv)
    out = args.out or os.path.splitext(args.csv)[0] + ".png"

    def draw():
        rows = read_rows(args.csv)
        for r in rows:
            if number(r["simulated"]) is None or (r["set"] != "curve" and not number(r["measured"])):
                raise InputProblem(f"{args.csv}: a row without numbers: {r}")
        plot(rows, args.title, out)

    return run_main("plot_validation.py", draw, out)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
