"""aicore-sim from Python: simulate Ascend AI Core traces and kernel manifests, inspect configs.

    import aicore_sim
    r = aicore_sim.run("traces/seed_sparse_16x64x16/seed_sparse_16x64x16.trace",
                       set={"cube.head_cycles": 0}, timing_only=True)
    print(r.cycles, r.time_us, r.bound_pipe, r.pipes["MTE2"]["busy_cycles"])
    table = aicore_sim.sweep({"traces": ["traces/seed_sparse_16x64x16/seed_sparse_16x64x16.trace"],
                              "grid": {"gm.read.bytes_per_cycle": [64, 128]}}, jobs=2)
    case = aicore_sim.gen(16, 64, 16, sparse=True, out="cases/s16")   # -> its .trace, for run()

Each run() is simulated in a forked child process (SystemC elaborates one model per process), so
one Python process can run any number of simulations; the GIL is released meanwhile, so threads
can run several side by side. Errors: InputError (what the CLI exits 2 for, with its message and
suggestion), Fault (exit 3: the simulation failed); checker errors and .expect mismatches are a
Result's status ("check_error", "mismatch") unless check="raise". sweep() runs a what-if study
(docs/sweeps.md) as `aicore-sim sweep` does and returns its results table (a pandas DataFrame, or a
list of dicts without pandas); gen() is `aicore-sim gen`. docs/python.md has the details.
"""
import os as _os
import pathlib as _pathlib

from . import _core

try:  # written by `cmake --install` only: how deep below the prefix this package sits
    from ._install import PREFIX_DEPTH as _PREFIX_DEPTH
except ImportError:  # the build tree: the simulator reads the source tree's presets
    _PREFIX_DEPTH = None
if _PREFIX_DEPTH is not None:
    _core.set_install_prefix(str(_pathlib.Path(_os.path.abspath(__file__)).parents[_PREFIX_DEPTH]))

from ._config import Config, config  # noqa: E402
from ._errors import CheckError, Fault, InputError  # noqa: E402
from ._result import Result  # noqa: E402
from ._run import run  # noqa: E402
from ._sweep import Rows, sweep  # noqa: E402
from ._gen import gen  # noqa: E402

__version__: str = _core.__version__
PRESETS: tuple = tuple(_core.presets)

__all__ = ["run", "sweep", "gen", "config", "Config", "Result", "Rows", "InputError", "Fault", "CheckError", "PRESETS",
           "__version__"]
