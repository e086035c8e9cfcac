"""Result: what a run returns (the session layer's RunResult), with stats.json as dicts."""
import html
from typing import Any, Dict, List, Optional, Union

PIPES = ("S", "MTE2", "MTE1", "M", "FIX")
# Result.instructions()' columns: instr.csv's (docs/cli.md, instr.csv), the core first.
INSTRUCTION_COLUMNS = ("core", "index", "line", "mnemonic", "pipe", "issue_cycle", "start_cycle",
                       "busy_end_cycle", "end_cycle", "bytes", "macs", "dense_macs", "wait_cycles",
                       "wait_cause", "queue_wait_cycles")


class Result:
    """One run.

    status        "completed", "mismatch" (an .expect failed) or "check_error" (the checker, in its
                  error mode, reported errors); faults and bad input raise instead
    exit_status   what `aicore-sim run` would exit with (0, 1 or 3)
    cycles, time_us, bound_pipe, instruction_count
    pipes         {"MTE2": {"busy_cycles": ..., "busy_ratio": ..., "wait_cycles": {...}}, ...}, as stats.json
    stats         the whole stats.json; checks the checker's reports (checks.json's "reports")
    check_summary checks.json without its reports (mode, errors, warnings, complete, unstored);
                  check_errors, check_warnings the counts
    expects       the .expect results; files the files written; messages every note/warning/error
    summary       the CLI's one-screen summary; log the stderr text of the run (warnings, reports)
    tensors       {name: numpy uint8 array of its bytes} (run(..., tensors=True), not timing-only)
    """

    def __init__(self, doc: Dict[str, Any], log: str = "", kept_instructions: bool = False):
        self.status: str = doc["status"]
        self.exit_status: int = doc["exit_status"]
        self.message: str = doc["message"]
        self.cycles: int = doc["cycles"]
        self.instruction_count: int = doc["instructions"]
        self.time_us: float = doc["time_us"]
        self.bound_pipe: str = doc["bound_pipe"]
        self.stats: Dict[str, Any] = doc["stats"] or {}
        self.pipes: Dict[str, Dict[str, Any]] = dict(self.stats.get("pipes") or {})
        if not self.pipes:
            self.pipes = {p["pipe"]: {k: v for k, v in p.items() if k != "pipe"} for p in doc["pipes"]}
        checks = doc["checks"] or {}
        self.checks: List[Dict[str, Any]] = list(checks.get("reports") or [])
        self.check_summary: Dict[str, Any] = {k: v for k, v in checks.items() if k != "reports"}
        self.check_errors: int = doc["check_errors"]
        self.check_warnings: int = doc["check_warnings"]
        self.expects: List[Dict[str, Any]] = doc["expects"]
        self.files: List[str] = doc["files"]
        self.messages: List[Dict[str, str]] = doc["messages"]
        self.summary: str = doc["summary"]
        self.log: str = log
        self._rows: List[List[Any]] = doc["rows"]
        self._kept = kept_instructions
        self._tensor_hex = {t["name"]: t["bytes"] for t in doc["tensors"]}
        self._tensors: Optional[Dict[str, Any]] = None

    @property
    def ok(self) -> bool:
        """True when the run completed with no checker error and no .expect mismatch."""
        return self.status == "completed"

    def instructions(self, as_dataframe: Optional[bool] = None) -> Union[List[Dict[str, Any]], Any]:
        """One row per instruction, as instr.csv has them: a pandas DataFrame when pandas is
        installed (or as_dataframe=True), else a list of dicts. Needs run(..., instructions=True)."""
        if not self._kept:
            raise ValueError("run(..., instructions=True) keeps one row per instruction; this run did not")
        rows = [dict(zip(INSTRUCTION_COLUMNS, r)) for r in self._rows]
        if as_dataframe is False:
            return rows
        try:
            import pandas
        except ImportError:
            if as_dataframe:
                raise
            return rows
        return pandas.DataFrame(rows, columns=list(INSTRUCTION_COLUMNS))

    @property
    def tensors(self) -> Dict[str, Any]:
        """{name: numpy.ndarray of uint8} of every GM tensor after the run (run(..., tensors=True));
        view them as their element type, e.g. r.tensors["c"].view(numpy.float16)."""
        if self._tensors is None:
            import numpy
            self._tensors = {n: numpy.frombuffer(bytes.fromhex(h), dtype=numpy.uint8)
                             for n, h in self._tensor_hex.items()}
        return self._tensors

    def __repr__(self) -> str:
        return (f"<aicore_sim.Result {self.status}: {self.cycles} cycles ({self.time_us:.3f} us), "
                f"bound pipe {self.bound_pipe}, {self.check_errors} check error(s)>")

    def _repr_html_(self) -> str:
        """Jupyter: the summary line, the pipes' table with a busy bar each and, when the run kept
        its instructions, a small Gantt chart of each pipe's busy spans."""
        head = (f"<b>{html.escape(self.status)}</b>: {self.cycles} cycles ({self.time_us:.3f} us), "
                f"{self.instruction_count} instructions, bound pipe <b>{html.escape(self.bound_pipe)}</b>, "
                f"{self.check_errors} check error(s), {self.check_warnings} warning(s)")
        rows = []
        for p in PIPES:
            f = self.pipes.get(p)
            if f is None:
                continue
            ratio = f.get("busy_ratio", 0.0)
            width = max(0.0, min(100.0, 100.0 * ratio))
            bar = (f'<div style="background:#ddd;width:200px;height:10px"><div style="background:#4a7;'
                   f'width:{width:.1f}%;height:10px"></div></div>')
            rows.append(f"<tr><td>{p}</td><td>{f.get('busy_cycles', 0)}</td><td>{100 * ratio:.1f}%</td>"
                        f"<td>{f.get('instructions', 0)}</td><td>{f.get('stall_cycles', 0)}</td><td>{bar}</td></tr>")
        table = ("<table><tr><th>pipe</th><th>busy cycles</th><th>busy</th><th>instructions</th>"
                 "<th>stall cycles</th><th></th></tr>" + "".join(rows) + "</table>")
        return f"<div>{head}{table}{self._gantt_svg()}</div>"

    def _gantt_svg(self, width: int = 600, lane: int = 14, most: int = 5000) -> str:
        """Each instruction's busy span (start_cycle to busy_end_cycle) on its pipe's lane, over
        the run's cycles: only when run(..., instructions=True) kept them, and only the first
        `most` (a notebook cell is no place for a million rectangles)."""
        if not self._kept or not self._rows or self.cycles == 0:
            return ""
        lanes = {p: i for i, p in enumerate(PIPES)}
        col = {c: i for i, c in enumerate(INSTRUCTION_COLUMNS)}
        scale = (width - 40) / self.cycles
        parts = [f'<text x="0" y="{lanes[p] * lane + 11}" font-size="10">{p}</text>' for p in PIPES]
        for r in self._rows[:most]:
            y = lanes.get(r[col["pipe"]])
            if y is None:
                continue
            x = 40 + r[col["start_cycle"]] * scale
            w = max(0.5, (r[col["busy_end_cycle"]] - r[col["start_cycle"]]) * scale)
            parts.append(f'<rect x="{x:.1f}" y="{y * lane + 2}" width="{w:.1f}" height="{lane - 4}" fill="#4a7"/>')
        shown = "" if len(self._rows) <= most else f"<br>(the first {most} of {len(self._rows)} instructions)"
        return (f'<svg width="{width}" height="{lane * len(PIPES)}" xmlns="http://www.w3.org/2000/svg">'
                + "".join(parts) + f"</svg>{shown}")
