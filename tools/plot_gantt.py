#!/usr/bin/python3
"""PNG Gantt chart of an aicore-sim run, from its instr.csv (aicore-sim run --instr-log).

One lane per pipe (SCALAR, MTE2, MTE1, CUBE, FIXP, as msprof names them; per core on a chip of several) showing when the pipe
was occupied (start_cycle to busy_end_cycle), and beside it a bar per pipe with its busy ratio
over the plotted cycles. Needs Debian's python3-matplotlib: run it with /usr/bin/python3.

  /usr/bin/python3 tools/plot_gantt.py out/instr.csv -o gantt.png [--window 0:20000] [--title T]

Exit status: 0 written, 2 bad input (missing file or column, bad --window) or matplotlib missing, as
aicore-sim.
"""
import argparse
import sys

from plot_common import PIPES, InputProblem, main as run_main, pyplot, read_csv

NEEDED = ("pipe", "start_cycle", "busy_end_cycle", "end_cycle")


def parse_window(text):
    start, sep, end = text.partition(":")
    if not sep or not start.isdigit() or (end and not end.isdigit()):
        raise InputProblem(f"--window {text}: expected START:END in cycles (END may be omitted)")
    if end and int(end) <= int(start):
        raise InputProblem(f"--window {text}: END must be greater than START")
    return int(start), (int(end) if end else None)


def read_intervals(path):
    """Busy intervals per (core, pipe), merged where one instruction starts as the previous ends (keeps
    the drawing small for long runs), and the last cycle any result became visible."""
    _, rows = read_csv(path, NEEDED, "an instr.csv")
    spans, last = {}, 0
    for line, r in enumerate(rows, start=2):
        try:
            s, e = int(r["start_cycle"]), int(r["busy_end_cycle"])
            last = max(last, int(r["end_cycle"]))
            core = int(r.get("core") or 0)
        except (ValueError, TypeError):
            raise InputProblem(f"{path}:{line}: malformed row")
        if e > s:
            # instr.csv of a chip of several cores has a core column: a lane per core and pipe
            spans.setdefault((core, r["pipe"]), []).append((s, e))
    merged = {}
    for pipe, iv in spans.items():
        iv.sort()
        out = [list(iv[0])]
        for s, e in iv[1:]:
            if s <= out[-1][1]:
                out[-1][1] = max(out[-1][1], e)
            else:
                out.append([s, e])
        merged[pipe] = out
    return merged, last


def clip(intervals, lo, hi):
    return [(max(s, lo), min(e, hi)) for s, e in intervals if e > lo and s < hi]


def plot(merged, lo, hi, title, out):
    plt = pyplot()
    cores = sorted({core for core, _ in merged})
    lanes = [((core, pipe), (f"core{core} " if len(cores) > 1 else "") + label, colour)
             for core in cores for pipe, (label, colour) in PIPES.items()
             if (core, pipe) in merged or pipe != "MTE3"]
    fig, (gantt, util) = plt.subplots(1, 2, figsize=(12, 0.55 * len(lanes) + 1.6),
                                      gridspec_kw={"width_ratios": [5, 1]}, sharey=True)
    span = max(hi - lo, 1)
    for row, (pipe, label, colour) in enumerate(lanes):
        iv = clip(merged.get(pipe, []), lo, hi)
        gantt.broken_barh([(s, e - s) for s, e in iv], (row - 0.4, 0.8), facecolors=colour, linewidth=0)
        ratio = sum(e - s for s, e in iv) / span
        util.barh(row, 100 * ratio, color=colour, height=0.6)
        util.text(min(100 * ratio + 2, 70), row, f"{100 * ratio:.1f}%", va="center", fontsize=9)
    gantt.set_yticks(range(len(lanes)), [l[1] for l in lanes])
    gantt.invert_yaxis()
    gantt.set_xlim(lo, hi)
    gantt.set_xlabel("cycle")
    gantt.set_title(title or "pipe occupancy (start to busy_end)")
    gantt.grid(axis="x", alpha=0.3)
    util.set_xlim(0, 100)
    util.set_xlabel("busy %")
    util.set_title("utilisation")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


def main(argv):
    ap = argparse.ArgumentParser(prog="plot_gantt.py", description=__doc__.split("\n")[0])
    ap.add_argument("csv", help="instr.csv from aicore-sim run --instr-log")
    ap.add_argument("-o", "--out", default="gantt.png", help="PNG to write (default gantt.png)")
    ap.add_argument("--window", help="plot only cycles START:END")
    ap.add_argument("--title", help="chart title")
    args = ap.parse_args(argv)

    def draw():
        lo, hi = parse_window(args.window) if args.window else (0, None)
        merged, last = read_intervals(args.csv)
        if not merged:
            raise InputProblem(f"{args.csv}: no instruction occupied a pipe (empty run?)")
        plot(merged, lo, hi if hi is not None else max(last, lo + 1), args.title, args.out)

    return run_main("plot_gantt.py", draw, args.out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
