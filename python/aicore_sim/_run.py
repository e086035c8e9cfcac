"""run(): one simulation through the session layer, in a forked child process."""
import difflib
import json
import os
import warnings
from typing import Optional, Union

from . import _core
from ._config import Config, SetArg, resolve
from ._errors import CheckError, Fault, InputError
from ._result import Result

_CHECKS = ("error", "warn", "none", "raise")


def run(trace_or_manifest: Union[str, "os.PathLike[str]"], config: Union[str, Config, None] = "atlas-a2",
        set: SetArg = None, timing_only: bool = False, check: str = "error",  # noqa: A002
        out: Optional[Union[str, "os.PathLike[str]"]] = None, instr_log: bool = False, timeline: bool = False,
        vcd: bool = False, window: str = "", instructions: bool = False, tensors: bool = False,
        verbose: int = 0) -> Result:
    """Simulates a .trace (one core) or a kernel manifest (kernel.yaml: one trace per core), as
    `aicore-sim run` does, and returns its Result.

    config       a preset name ("atlas-a2", "ascend910b4", ...), a YAML file, or a Config
    set          overrides: {"cube.head_cycles": 0} or ["cube.head_cycles=0"] (later ones win)
    timing_only  the same cycles without touching data (no .out/.expect, no tensors)
    check        the race/sync checker: "error" (errors make status "check_error"), "warn",
                 "none", or "raise" ("error", and raise CheckError for "check_error" and "mismatch")
    out          a folder for the CLI's files (stats.json, checks.json, .out tensors and, when asked,
                 instr.csv, timeline.json, waves.vcd); None writes no file
    window       "START:END" for timeline.json and waves.vcd
    instructions keep one row per instruction, for Result.instructions()
    tensors      keep every GM tensor's bytes after the run, for Result.tensors
    verbose      1: the run's set-up and end on stderr; 2: every instruction

    Raises InputError (the CLI's exit 2: bad trace, config, set= key or value, option) and Fault
    (exit 3: the simulation failed; .result has what ran up to it).
    """
    if check not in _CHECKS:
        near = difflib.get_close_matches(str(check), _CHECKS, 1)
        raise InputError(f"error: check must be error, warn, none or raise, not '{check}'"
                         + (f"; did you mean '{near[0]}'?" if near else ""))
    mode = "error" if check == "raise" else check
    source, sets = resolve(config, set)
    if out is None and (instr_log or timeline or vcd):
        raise InputError("error: instr_log, timeline and vcd write files: give out=FOLDER")
    options = _core.run_options(source, sets, "" if out is None else os.fspath(out), bool(timing_only), mode,
                                bool(instr_log), bool(timeline), bool(vcd), str(window), bool(instructions),
                                bool(tensors), int(verbose))
    doc, stdout_text, stderr_text = _core.run(os.fspath(trace_or_manifest), options)
    result = Result(json.loads(doc), stderr_text, kept_instructions=bool(instructions))
    for m in result.messages:
        if m["level"] == "warning":
            warnings.warn(m["text"], RuntimeWarning, stacklevel=2)
    if result.status == "input_error":
        raise InputError(result.message)
    if result.status == "fault":
        raise Fault(result.message, result)
    if check == "raise" and result.status in ("check_error", "mismatch"):
        raise CheckError(result.message or _first_error(result), result)
    return result


def _first_error(result: Result) -> str:
    for m in result.messages:
        if m["level"] == "error":
            return m["text"]
    return f"the run's status is {result.status}"
