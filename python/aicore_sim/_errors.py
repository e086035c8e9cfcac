"""The exceptions of aicore_sim, by the CLI's exit statuses (docs/cli.md, Exit status)."""
from typing import Optional

from . import _core

# Exit status 2: a bad trace, manifest, config, --set key or value, or option. The message is the
# CLI's: file:line:column, what is wrong and the nearest valid word. A ValueError.
InputError = _core.InputError


class Fault(RuntimeError):
    """Exit status 3: the simulation failed (a deadlock, an illegal access at run time...). The
    message names the instruction, its line and the cycle; `result` holds what ran up to it."""

    def __init__(self, message: str, result: Optional["object"] = None):
        super().__init__(message)
        self.result = result


class CheckError(RuntimeError):
    """Raised by run(check="raise") when the checker reported errors (status "check_error") or an
    .expect tensor did not match (status "mismatch"); `result` is the whole Result."""

    def __init__(self, message: str, result: Optional["object"] = None):
        super().__init__(message)
        self.result = result
