#!/usr/bin/python3
"""PNG of a what-if study, from its results.csv (aicore-sim sweep; `sweep --plot` runs this).

Top row: cycles against each swept key, one line per value of the other key (two-key studies) or
per trace (the best point over the other keys, with a band from best to worst); each marker is
coloured by the point's bound pipe. Bottom row (two or more keys): a heatmap of cycles over the
first two keys and the bound pipe of each cell. Only points with status ok are drawn; the title
counts the others. Needs Debian's python3-matplotlib: run it with /usr/bin/python3.

  /usr/bin/python3 tools/plot_sweep.py out/study/results.csv [-o DIR] [--title T]

Writes DIR/sweep.png (DIR defaults to the CSV's folder). Exit status: 0 written, 2 bad input
(missing file or column, no ok point) or matplotlib missing, as aicore-sim.
"""
import argparse
import json
import os
import sys

from plot_common import PIPES, UNKNOWN_PIPE, InputProblem, main as run_main, number, pyplot, read_csv

NEEDED = ("trace", "config", "status", "cycles", "bound_pipe")
MAX_LINES = 8  # more lines than this in one panel are unreadable: fall back to best + band


def read_rows(path):
    return read_csv(path, NEEDED, "a sweep results.csv")


def swept_keys(path, cols, rows):
    """The swept keys: results.json's list when it is beside the CSV, else the key columns
    (between config and status) plus trace/config, whichever take more than one value."""
    meta = os.path.join(os.path.dirname(os.path.abspath(path)), "results.json")
    try:
        with open(meta) as f:
            keys = json.load(f)["swept"]
        if all(k in cols for k in keys):
            return keys
    except (OSError, ValueError, KeyError, TypeError):
        pass
    keys = cols[cols.index("config") + 1:cols.index("status")]
    keys = [k for k in ("trace", "config") if len({r[k] for r in rows}) > 1] + keys
    return keys


def ordered_values(rows, key):
    """Distinct values of a key: numeric order when all are numbers, else first-seen order."""
    seen = []
    for r in rows:
        if r[key] not in seen:
            seen.append(r[key])
    if all(number(v) is not None for v in seen):
        seen.sort(key=number)
    return seen


def short(n):
    return f"{n / 1000:.1f}k" if n >= 10000 else f"{n:.0f}"


class Axis:
    """x positions of a key's values: the values themselves (log2 when they span 8x or more) or
    0..n-1 for text."""

    def __init__(self, values):
        self.values = values
        nums = [number(v) for v in values]
        self.numeric = all(n is not None for n in nums)
        self.log = self.numeric and min(nums) > 0 and max(nums) / min(nums) >= 8
        self.pos = {v: (number(v) if self.numeric else i) for i, v in enumerate(values)}

    def apply(self, ax, key):
        if self.log:
            ax.set_xscale("log", base=2)
        ax.set_xticks([self.pos[v] for v in self.values])
        ax.set_xticklabels(self.values, rotation=0 if len(self.values) <= 8 else 45)
        ax.minorticks_off()
        ax.set_xlabel(key)


def trace_name(t):
    return os.path.splitext(os.path.basename(t))[0]


def pipe_markers(ax, xs, ys, pipes):
    for x, y, p in zip(xs, ys, pipes):
        ax.scatter([x], [y], s=46, color=PIPES.get(p, UNKNOWN_PIPE)[1], edgecolors="black",
                   linewidths=0.6, zorder=3)


def line_panel(ax, rows, key, keys):
    xaxis = Axis(ordered_values(rows, key))
    others = [k for k in keys if k != key and k != "trace"]
    # Along a gen field the trace changes with x: one line over all of them, not one per trace.
    traces = [None] if is_input_key(key) and key != "trace" else ordered_values(rows, "trace")
    other_vals = ordered_values(rows, others[0]) if len(others) == 1 else []
    if len(traces) == 1 and len(others) == 1 and len(other_vals) <= MAX_LINES:
        cmap = __import__("matplotlib").colormaps["Greys"]
        for i, ov in enumerate(other_vals):
            pts = sorted(((xaxis.pos[r[key]], float(r["cycles"]), r["bound_pipe"]) for r in rows
                          if r[others[0]] == ov), key=lambda p: p[0])
            shade = cmap(0.35 + 0.6 * i / max(1, len(other_vals) - 1))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=shade, linewidth=1.6,
                    label=f"{ov}")
            pipe_markers(ax, *zip(*pts))
        ax.legend(title=others[0], fontsize=8, title_fontsize=8, loc="best")
    else:
        for t in traces:
            best, worst = {}, {}
            for r in rows:
                if t is not None and r["trace"] != t:
                    continue
                x, c = xaxis.pos[r[key]], float(r["cycles"])
                if x not in best or c < best[x][0]:
                    best[x] = (c, r["bound_pipe"])
                worst[x] = max(worst.get(x, c), c)
            xs = sorted(best)
            name = trace_name(t) if t is not None else "cycles"
            line, = ax.plot(xs, [best[x][0] for x in xs], linewidth=1.6,
                            label=name + (" (best)" if others else ""))
            if others:
                ax.fill_between(xs, [best[x][0] for x in xs], [worst[x] for x in xs],
                                color=line.get_color(), alpha=0.15, linewidth=0)
            pipe_markers(ax, xs, [best[x][0] for x in xs], [best[x][1] for x in xs])
        ax.legend(fontsize=8, loc="best")
    xaxis.apply(ax, key)
    cycles = [float(r["cycles"]) for r in rows]
    if min(cycles) > 0 and max(cycles) / min(cycles) > 20:  # traces of very different sizes
        ax.set_yscale("log")
        ax.set_ylabel("cycles (log scale)")
    else:
        ax.set_ylabel("cycles")
        ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title(f"cycles vs {key}", fontsize=11)


def grid_cells(rows, kx, ky):
    """(x value, y value) -> the best point over every other key."""
    cells = {}
    for r in rows:
        c = float(r["cycles"])
        k = (r[kx], r[ky])
        if k not in cells or c < cells[k][0]:
            cells[k] = (c, r["bound_pipe"])
    return cells


def is_input_key(key):
    """A column that picks the input: the trace, or a gen field (each gen case is a trace of its own)."""
    return key == "trace" or key.startswith("gen.")


def heatmap_view(rows, keys):
    """What the heatmap shows: (rows, x key, y key, title note), or None with fewer than two keys besides
    the trace. The rows are those of the first trace when the trace does not follow from the two keys;
    when one of them is a gen field, each of its values is another trace, so every trace stays (one
    trace would leave a single column)."""
    grid = [k for k in keys if k != "trace"][:2]
    if len(grid) < 2:
        return None
    kx, ky = grid
    # A gen column is empty on the rows of a listed trace: those have no cell.
    rows = [r for r in rows if r.get(kx, "") != "" and r.get(ky, "") != ""]
    note = ""
    if not any(is_input_key(k) for k in grid):
        traces = ordered_values(rows, "trace")
        if len(traces) > 1:
            note = f" ({trace_name(traces[0])})"
        rows = [r for r in rows if r["trace"] == traces[0]]
    rest = [k for k in keys if k not in grid and k != "trace" and len(ordered_values(rows, k)) > 1]
    if rest:
        note += " (best over " + ", ".join(rest) + ")"
    return rows, kx, ky, note


def heatmaps(ax_c, ax_p, fig, rows, kx, ky, note):
    from matplotlib.colors import ListedColormap
    xs, ys = ordered_values(rows, kx), ordered_values(rows, ky)
    cells = grid_cells(rows, kx, ky)
    nan = float("nan")
    data = [[cells[(x, y)][0] if (x, y) in cells else nan for x in xs] for y in ys]
    im = ax_c.imshow(data, origin="lower", aspect="auto", cmap="viridis_r")
    fig.colorbar(im, ax=ax_c, label="cycles (lower is better)")
    pipes = [p for p in PIPES if any(v[1] == p for v in cells.values())]
    idx = [[pipes.index(cells[(x, y)][1]) if (x, y) in cells else nan for x in xs] for y in ys]
    ax_p.imshow(idx, origin="lower", aspect="auto", cmap=ListedColormap([PIPES[p][1] for p in pipes]),
                vmin=-0.5, vmax=len(pipes) - 0.5)
    vmax = max(v[0] for v in cells.values())
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            if (x, y) not in cells:
                continue
            c, p = cells[(x, y)]
            ax_c.text(i, j, short(c), ha="center", va="center", fontsize=8,
                      color="white" if c > 0.55 * vmax else "black")
            ax_p.text(i, j, p, ha="center", va="center", fontsize=8, color="white")
    for ax, title in ((ax_c, "cycles" + note), (ax_p, "bound pipe" + note)):
        ax.set_xticks(range(len(xs)), xs)
        ax.set_yticks(range(len(ys)), ys)
        ax.set_xlabel(kx)
        ax.set_ylabel(ky)
        ax.set_title(title, fontsize=11)


def plot(rows, keys, failed, title, out):
    plt = pyplot()
    from matplotlib.lines import Line2D

    line_keys = [k for k in keys if k != "trace"] or ["trace"]
    grid_keys = [k for k in keys if k != "trace"][:2]
    ncols = max(len(line_keys), 2 if len(grid_keys) == 2 else 1)
    nrows = 2 if len(grid_keys) == 2 else 1
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.6 * ncols, 5.0 * nrows + 0.6), squeeze=False)
    for i, k in enumerate(line_keys):
        line_panel(axes[0][i], rows, k, keys)
    for i in range(len(line_keys), ncols):
        axes[0][i].axis("off")
    if nrows == 2:
        sub, kx, ky, note = heatmap_view(rows, keys)
        heatmaps(axes[1][0], axes[1][1], fig, sub, kx, ky, note)
        for i in range(2, ncols):
            axes[1][i].axis("off")
    seen = [p for p in PIPES if any(r["bound_pipe"] == p for r in rows)]
    handles = [Line2D([], [], marker="o", linestyle="", markersize=8, markerfacecolor=PIPES[p][1],
                      markeredgecolor="black", label=f"{p} ({PIPES[p][0]})") for p in seen]
    fig.legend(handles=handles, title="bound pipe", loc="upper right", ncol=len(handles), fontsize=9)
    fig.suptitle(title + f"  —  {len(rows)} ok points" + (f", {failed} failed (not drawn)" if failed else ""),
                 x=0.01, ha="left", fontsize=13)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(out, dpi=100)


def main(argv):
    ap = argparse.ArgumentParser(prog="plot_sweep.py", description=__doc__.split("\n")[0])
    ap.add_argument("csv", help="results.csv of aicore-sim sweep")
    ap.add_argument("-o", "--out", help="folder for sweep.png (default: the CSV's folder)")
    ap.add_argument("--title", help="figure title (default: the study's name)")
    args = ap.parse_args(argv)
    out_dir = args.out or os.path.dirname(os.path.abspath(args.csv))
    out = os.path.join(out_dir, "sweep.png")

    def draw():
        cols, rows = read_rows(args.csv)
        keys = swept_keys(args.csv, cols, rows)
        ok = [r for r in rows if r["status"] == "ok" and number(r["cycles"]) is not None]
        if not ok:
            raise InputProblem(f"{args.csv}: no point with status ok to plot ({len(rows)} rows)")
        if not keys:
            raise InputProblem(f"{args.csv}: nothing was swept (one point): nothing to plot")
        title = args.title or os.path.basename(os.path.dirname(os.path.abspath(args.csv)))
        try:
            with open(os.path.join(os.path.dirname(os.path.abspath(args.csv)), "results.json")) as f:
                title = args.title or json.load(f).get("name", title)
        except (OSError, ValueError):
            pass
        plot(ok, keys, len(rows) - len(ok), title, out)

    return run_main("plot_sweep.py", draw, out)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
