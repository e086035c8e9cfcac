"""gen(): the test-case generator, as `aicore-sim gen` (`aicore-sim gen --help`)."""
import os
import warnings
from typing import Any, List, Optional, Sequence, Union

from . import _core
from ._errors import InputError

PathArg = Union[str, "os.PathLike[str]"]


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def gen_args(options: dict) -> List[str]:
    """gen()'s keywords as `aicore-sim gen`'s command line, in the order given. True is a switch
    (--l1-full); False and None leave an option out, except sparse=False (--dense),
    originals=False (--no-originals) and unit_flag (on/off); a (M, N, K) base is MxNxK."""
    args: List[str] = []
    for key, value in options.items():
        if value is None:
            continue
        if key == "sparse":
            args.append("--sparse" if value else "--dense")
        elif key == "originals":
            if not value:
                args.append("--no-originals")
        elif key == "unit_flag" and isinstance(value, bool):
            args += [_option(key), "on" if value else "off"]
        elif isinstance(value, bool):
            if value:
                args.append(_option(key))
        elif key == "base" and isinstance(value, Sequence) and not isinstance(value, str):
            args += [_option(key), "x".join(str(v) for v in value)]
        else:
            args += [_option(key), os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return args


def gen(m: Optional[int] = None, k: Optional[int] = None, n: Optional[int] = None, *,
        out: Optional[PathArg] = None, sparse: Optional[bool] = None, dtype: Optional[str] = None,
        name: Optional[str] = None, seed: Optional[int] = None, a: Optional[PathArg] = None,
        b: Optional[PathArg] = None, tile_m: Optional[int] = None, tile_n: Optional[int] = None,
        tile_k: Optional[int] = None, l1_full: bool = False, pattern: Optional[str] = None,
        density: Optional[float] = None, lossy: Optional[float] = None, originals: bool = True,
        c_dtype: Optional[str] = None, unit_flag: Optional[Union[bool, str]] = None,
        b_layout: Optional[str] = None, base: Optional[Union[str, Sequence[int]]] = None,
        l1_buffers: Optional[int] = None, l0_buffers: Optional[int] = None, values: Optional[str] = None,
        timing_only: bool = False, blocks: Optional[int] = None, **more: Any) -> str:
    """Generates a test case as `aicore-sim gen` does and returns the path of its trace (give it
    to run()); the GM images and the golden result are beside it, in `out`.

    The int8 GEMM (sparse=True for 4:2 sparse B, sparse=False for dense; one of them is needed):
        gen(16, 64, 16, sparse=True, out="cases/s16") -> "cases/s16/s16.trace"
        m, k, n    the shape (or a=, b= int8 .npy matrices)    seed     random seed (default 1)
        name       the trace's name (default: out's last part) tile_m, tile_n, tile_k  force tiles
        l1_full, pattern ("4:2" or "full"), density, lossy, originals=False (no a.npy/b*.npy)
    The fp16/bf16 best-practice matmul kernel (dtype="half" or "bf16"):
        c_dtype, unit_flag (True/False or "on"/"off"), b_layout ("nd"/"nt"), base ("128x256x64" or
        (128, 256, 64)), l1_buffers, l0_buffers, values ("exact"/"random"), timing_only, blocks

    Each keyword is the option of the same name (tile_m is --tile-m); any other keyword is passed
    on the same way, so a misspelt one gets the CLI's "did you mean". Raises InputError with the
    CLI's message (e.g. "gen: error: --m must be in [1, 1048576], got 0") for bad arguments.
    """
    options = dict(m=m, k=k, n=n, sparse=sparse, dtype=dtype, out=out, name=name, seed=seed, a=a, b=b,
                   tile_m=tile_m, tile_n=tile_n, tile_k=tile_k, l1_full=l1_full, pattern=pattern,
                   density=density, lossy=lossy, originals=originals, c_dtype=c_dtype, unit_flag=unit_flag,
                   b_layout=b_layout, base=base, l1_buffers=l1_buffers, l0_buffers=l0_buffers, values=values,
                   timing_only=timing_only, blocks=blocks)
    options.update(more)
    status, stdout_text, stderr_text = _core.gen(gen_args(options))
    if status != 0:
        # The CLI follows a command-line error with its usage text: the message is what precedes it.
        message = stderr_text.split("\nusage:", 1)[0].strip()
        raise InputError(message or f"gen: error: exit status {status}")
    for line in stderr_text.splitlines():
        if line.startswith("warning:"):
            warnings.warn(line, RuntimeWarning, stacklevel=2)
    written = [line[len("wrote "):] for line in stdout_text.splitlines() if line.startswith("wrote ")]
    traces = [w for w in written if w.endswith(".trace")]
    if not traces:
        raise InputError(f"gen: error: the generator wrote no trace ({', '.join(written) or 'nothing'})")
    return traces[0]
