"""What the plotting scripts share: the pipe table (msprof's lane names and one colour per pipe, as
the Gantt chart and the sweep plot draw them), the input error and the exit statuses, reading a CSV
with the columns a script needs, and loading matplotlib with a clear error where it is missing.

Exit statuses are aicore-sim's: 0 written, 2 bad input (a missing file or column) or no matplotlib.
"""
import csv
import math
import sys

# Pipe as instr.csv and results.csv name it -> msprof-style label and colour, in data-flow order.
PIPES = {"S": ("SCALAR", "#7f7f7f"), "MTE2": ("MTE2", "#1f77b4"), "MTE1": ("MTE1", "#2ca02c"),
         "M": ("CUBE", "#d62728"), "FIX": ("FIXP", "#9467bd"), "MTE3": ("MTE3", "#8c564b")}
UNKNOWN_PIPE = ("?", "#000000")


class InputProblem(Exception):
    """Bad input: the script prints it as PROG: error: MESSAGE and exits 2."""


def number(text):
    """The finite number `text` holds, else None."""
    try:
        v = float(text)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def read_csv(path, needed, what):
    """(columns, rows as dicts) of a CSV that must have the `needed` columns; `what` names the file
    in the error ("an instr.csv")."""
    try:
        f = open(path, newline="")
    except OSError as e:
        raise InputProblem(f"cannot read {path}: {e.strerror}")
    with f:
        reader = csv.DictReader(f)
        cols = reader.fieldnames or []
        missing = [c for c in needed if c not in cols]
        if missing:
            raise InputProblem(f"{path}: not {what} (missing column {', '.join(missing)})")
        try:
            rows = list(reader)
        except csv.Error as e:
            raise InputProblem(f"{path}:{reader.line_num}: {e}")
    return cols, rows


def pyplot():
    """matplotlib.pyplot on the file-only Agg backend; InputProblem where matplotlib (or numpy, which
    it needs) cannot be imported."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise InputProblem(f"matplotlib is not installed ({e}): on Debian install python3-matplotlib "
                           "(bash scripts/deps.sh does), or run this with a python3 that has it")
    return plt


def main(prog, draw, out):
    """Runs draw() and turns its outcome into the message and exit status: 0 and 'wrote OUT', or 2
    and 'PROG: error: ...'. `out` is the file draw() writes (named when writing it fails)."""
    try:
        draw()
    except InputProblem as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{prog}: error: cannot write {out}: {e.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {out}")
    return 0
