"""sweep(): a what-if study (docs/sweeps.md) run as `aicore-sim sweep` runs it, its results as a table."""
import json
import math
import os
import re
import shutil
import tempfile
import warnings
from typing import Any, Dict, List, Mapping, Optional, Union

from . import _core
from ._errors import InputError

# What a dict study is called in the messages that point into it (line:column of its YAML text,
# which the message then lists).
DICT_STUDY = "<dict>"

_PLAIN = re.compile(r"[A-Za-z0-9_./][A-Za-z0-9_./+\-]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def _scalar(v: Any) -> str:
    """One YAML scalar: numbers and booleans plain, text plain when YAML reads it back unchanged,
    else double-quoted (JSON's escapes are YAML's)."""
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):  # numpy scalars
        v = v.item()
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return str(v).lower()  # the loader refuses it, with its own message
        return repr(v)
    s = os.fspath(v) if isinstance(v, os.PathLike) else str(v)
    if _PLAIN.fullmatch(s) and s.lower() not in _YAML_WORDS:
        return s
    return json.dumps(s)


def _flow(v: Any) -> str:
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple, range)):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    return _scalar(v)


def _block(obj: Mapping, indent: int, lines: List[str]) -> None:
    pad = " " * indent
    for k, v in obj.items():
        key = _scalar(k)
        if isinstance(v, Mapping) and v and not _is_range(v):
            lines.append(f"{pad}{key}:")
            _block(v, indent + 2, lines)
        elif isinstance(v, (list, tuple)) and any(isinstance(x, Mapping) and not _is_range(x) for x in v):
            lines.append(f"{pad}{key}:")
            for x in v:
                if isinstance(x, Mapping) and x:
                    lines.append(f"{pad}  -")
                    _block(x, indent + 4, lines)
                else:
                    lines.append(f"{pad}  - {_flow(x)}")
        else:
            lines.append(f"{pad}{key}: {_flow(v)}")


def _is_range(v: Mapping) -> bool:
    """{from: 0, to: 16, step: 4}: a range, written on one line as the docs write it."""
    return bool(v) and set(v) <= {"from", "to", "step", "times"}


def study_text(study: Mapping[str, Any]) -> str:
    """A dict study as the YAML text of a study file: one key per line, lists in flow style, so a
    message's line:column points at the key or value it is about."""
    lines: List[str] = []
    _block(study, 0, lines)
    return "\n".join(lines) + "\n"


def _numbered(text: str) -> str:
    return "".join(f"{i:4}| {line}\n" for i, line in enumerate(text.splitlines(), 1))


def _number(text: Any) -> Any:
    """A key column's value as written ("48", "177.3") as a number when it is one, as
    pandas.read_csv would read results.csv; other text stays text."""
    if not isinstance(text, str):
        return text
    try:
        return int(text)
    except ValueError:
        pass
    try:
        x = float(text)
    except ValueError:
        return text
    return x if math.isfinite(x) else text


def sweep(study: Union[str, "os.PathLike[str]", Mapping[str, Any]], jobs: Optional[int] = None,
          out: Optional[Union[str, "os.PathLike[str]"]] = None, force: bool = False, progress: bool = False,
          as_dataframe: Optional[bool] = None) -> Union["Rows", Any]:
    """Runs a what-if study, as `aicore-sim sweep STUDY.yaml -j JOBS --out OUT` does, and returns
    its results table: a pandas DataFrame when pandas is installed (or as_dataframe=True), else a
    Rows, a list of dicts with .columns and .attrs (as_dataframe=False always gives the list). One
    row per point, in point order, with results.csv's columns: point, id, trace, config, the swept
    keys (their values as numbers when they are numbers), status ("ok", "mismatch", "bad_input",
    "fault", "check_error", "crashed", "timeout"), exit_code, cycles, time_us, instructions,
    bound_pipe, busy_cycles.PIPE, busy_ratio.PIPE, stall_cycles.CAUSE, mac_utilisation,
    bytes.PATH, seconds, message.

    study     a study file (docs/sweeps.md; its paths are relative to it), or a dict with the same
              keys ({"traces": [...], "grid": {"gm.read.bytes_per_cycle": [64, 128]}, ...}; its
              paths are relative to the current directory)
    jobs      worker processes (default: every core this process may use); each point is one
              `aicore-sim run` in a forked process of its own
    out       the study's folder (points/ID/stats.json and point.json, results.csv, results.json,
              gen/): points with a result there are not run again unless force=True. None: a
              temporary folder, removed afterwards
    progress  the CLI's progress lines on stderr

    The table's attrs hold "summary" (the CLI's summary text), "swept", "warnings", "name", "out"
    (None for a temporary folder), "run" and "skipped" (points run now, points done before).
    Failed points are rows with their status and message, not exceptions. Raises InputError (with
    every file:line:column message of the study, as the CLI prints them) for a bad study, and
    KeyboardInterrupt when interrupted (finished points keep their records in out).
    """
    if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1):
        raise InputError(f"error: jobs must be an integer of at least 1, not {jobs!r}")
    if isinstance(study, Mapping):
        text = study_text(study)
        if "name" not in study:
            text += "name: study\n"  # after the user's keys: their lines stay where they are
        path = DICT_STUDY
    else:
        text, path = "", os.fspath(study)
    folder = tempfile.mkdtemp(prefix="aicore-sweep-") if out is None else os.fspath(out)
    try:
        try:
            doc = json.loads(_core.sweep(path, text, folder, jobs or 0, bool(force), bool(progress)))
        except InputError as e:
            if text:
                raise InputError(f"{e}\n(the study as YAML, which the line:column above count in:)\n"
                                 + _numbered(text)) from None
            raise
    finally:
        if out is None:
            shutil.rmtree(folder, ignore_errors=True)
    for w in doc["warnings"]:
        warnings.warn(w, RuntimeWarning, stacklevel=2)
    if doc["interrupted"]:
        raise KeyboardInterrupt(f"sweep interrupted (signal {doc['interrupted']}): "
                                f"{len(doc['rows'])} point(s) have results")
    return _table(doc, None if out is None else folder, as_dataframe)


class Rows(list):
    """sweep()'s table without pandas: a list of dicts, one per point, with a DataFrame's attrs."""

    def __init__(self, rows: List[Dict[str, Any]], columns: List[str], attrs: Dict[str, Any]):
        super().__init__(rows)
        self.columns: List[str] = columns
        self.attrs: Dict[str, Any] = attrs


def _table(doc: Dict[str, Any], out: Optional[str], as_dataframe: Optional[bool]):
    columns: List[str] = doc["columns"]
    keys = columns[2:columns.index("status")]  # trace, config, gen.*, the swept config keys
    rows = []
    for r in doc["rows"]:
        row = {c: r.get(c) for c in columns}
        for k in keys:
            row[k] = _number(row[k])
        rows.append(row)
    attrs = {"summary": doc["summary"], "swept": doc["swept"], "warnings": doc["warnings"], "name": doc["name"],
             "out": out, "run": doc["run"], "skipped": doc["skipped"]}
    if as_dataframe is False:
        return Rows(rows, columns, attrs)
    try:
        import pandas
    except ImportError:
        if as_dataframe:
            raise
        return Rows(rows, columns, attrs)
    frame = pandas.DataFrame(rows, columns=columns)
    frame.attrs.update(attrs)
    return frame
