"""The plotting scripts without drawing: a clean error where matplotlib is missing (no traceback),
and what the sweep heatmap crosses when a study sweeps generated cases (gen.*). Run by CTest
(tools.plots) with the tools folder as argv[1]."""
import os
import subprocess
import sys
import tempfile
import unittest

TOOLS = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "tools")
sys.path.insert(0, TOOLS)

import plot_sweep  # noqa: E402


def row(trace, shape, bw, cycles):
    return {"trace": trace, "config": "c.yaml", "gen.shape": shape, "gm.read.bytes_per_cycle": bw,
            "status": "ok", "cycles": str(cycles), "bound_pipe": "MTE2"}


class NoMatplotlib(unittest.TestCase):
    def run_without_site(self, script, *args):
        # -S: no site packages, so no matplotlib (nor numpy) even where they are installed.
        return subprocess.run([sys.executable, "-S", os.path.join(TOOLS, script), *args],
                              capture_output=True, text=True)

    def test_gantt_says_what_is_missing_and_exits_2(self):
        with tempfile.TemporaryDirectory() as d:
            csv = os.path.join(d, "instr.csv")
            with open(csv, "w") as f:
                f.write("index,line,mnemonic,pipe,issue_cycle,start_cycle,busy_end_cycle,end_cycle\n"
                        "0,1,DataCopy,MTE2,0,1,5,9\n")
            r = self.run_without_site("plot_gantt.py", csv, "-o", os.path.join(d, "g.png"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("plot_gantt.py: error: matplotlib is not installed", r.stderr)
        self.assertIn("python3-matplotlib", r.stderr)
        self.assertNotIn("Traceback", r.stderr)

    def test_validation_plot_too(self):
        with tempfile.TemporaryDirectory() as d:
            csv = os.path.join(d, "points.csv")
            with open(csv, "w") as f:
                f.write("kind,dst,param,measured,simulated,set,unit\nmte2,L1,64,1.0,1.1,train,us\n")
            r = self.run_without_site("plot_validation.py", csv)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("plot_validation.py: error: matplotlib is not installed", r.stderr)
        self.assertNotIn("Traceback", r.stderr)


class SweepHeatmap(unittest.TestCase):
    def test_a_gen_axis_crosses_the_config_key(self):
        # Each gen.shape value is a trace of its own: every (shape, bandwidth) pair is a cell.
        rows = [row("gen/a.trace", "a", "64", 10), row("gen/a.trace", "a", "128", 8),
                row("gen/b.trace", "b", "64", 30), row("gen/b.trace", "b", "128", 20)]
        view, kx, ky, note = plot_sweep.heatmap_view(rows, ["gen.shape", "gm.read.bytes_per_cycle"])
        self.assertEqual((kx, ky), ("gen.shape", "gm.read.bytes_per_cycle"))
        cells = plot_sweep.grid_cells(view, kx, ky)
        self.assertEqual(sorted(cells), [("a", "128"), ("a", "64"), ("b", "128"), ("b", "64")])
        self.assertEqual(cells[("b", "64")][0], 30.0)
        self.assertEqual(note, "")

    def test_two_config_keys_over_several_traces_show_the_first_trace(self):
        rows = [{**row("x.trace", "", "64", 10), "k": "1"}, {**row("x.trace", "", "64", 9), "k": "2"},
                {**row("y.trace", "", "64", 50), "k": "1"}]
        view, kx, ky, note = plot_sweep.heatmap_view(rows, ["trace", "gm.read.bytes_per_cycle", "k"])
        self.assertEqual({r["trace"] for r in view}, {"x.trace"})
        self.assertEqual(note, " (x)")

    def test_a_listed_trace_beside_gen_cases_has_no_cell(self):
        rows = [row("gen/a.trace", "a", "64", 10), row("listed.trace", "", "64", 5)]
        view, kx, ky, _ = plot_sweep.heatmap_view(rows, ["trace", "gen.shape", "gm.read.bytes_per_cycle"])
        self.assertEqual([r["trace"] for r in view], ["gen/a.trace"])


if __name__ == "__main__":
    unittest.main()
