"""Configurations: a preset or YAML file plus `set` overrides, resolved and validated as the CLI does."""
import json
from typing import Any, Dict, Iterable, List, Mapping, Tuple, Union

from . import _core

SetArg = Union[None, Mapping[str, Any], Iterable[Union[str, Tuple[str, Any]]]]


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def set_strings(sets: SetArg) -> List[str]:
    """{"a.b": 1} or ["a.b=1"] or [("a.b", 1)] -> ["a.b=1"], in order (later ones win)."""
    if sets is None:
        return []
    if isinstance(sets, str):
        raise TypeError("set= takes a dict or a list of 'key=value' strings, not a string")
    if isinstance(sets, Mapping):
        return [f"{k}={_value_text(v)}" for k, v in sets.items()]
    out = []
    for s in sets:
        if isinstance(s, str):
            out.append(s)
        else:
            k, v = s
            out.append(f"{k}={_value_text(v)}")
    return out


class Config:
    """A resolved configuration (what `aicore-sim config show` prints). `source` is the preset name
    or YAML path, `sets` the overrides on top ("key=value"), `warnings` what the CLI would warn
    (a value past the key that caps it). c["cube.head_cycles"] reads a key; c.with_set({...})
    gives a new Config with more overrides, validated the same way."""

    def __init__(self, source: str = "atlas-a2", sets: SetArg = None):
        self.source: str = str(source)
        self.sets: List[str] = set_strings(sets)
        text, self.yaml, warnings = _core.load_config(self.source, self.sets)
        self.warnings: List[str] = list(warnings)
        self._tree: Dict[str, Any] = json.loads(text)

    def to_dict(self) -> Dict[str, Any]:
        """The whole key tree (as stats.json's "config")."""
        return json.loads(json.dumps(self._tree))

    def __getitem__(self, key: str) -> Any:
        node: Any = self._tree
        for i, part in enumerate(key.split(".")):
            if not isinstance(node, dict) or part not in node:
                raise KeyError(f"no config key '{key}' ('{'.'.join(key.split('.')[:i + 1])}' is not in the tree)")
            node = node[part]
        return node

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def with_set(self, sets: SetArg) -> "Config":
        """This configuration with more overrides (later ones win); InputError on a bad key or value."""
        return Config(self.source, self.sets + set_strings(sets))

    @property
    def name(self) -> str:
        return self.source

    def __repr__(self) -> str:
        extra = "".join(f", {s!r}" for s in self.sets)
        return f"aicore_sim.config({self.source!r}{extra})"


def config(preset: str = "atlas-a2", set: SetArg = None) -> Config:  # noqa: A002 (the CLI's word)
    """Resolves `preset` (a preset name or a YAML file, overlays followed) with `set` overrides.
    InputError (the CLI's message, with the nearest valid key or preset) when anything is wrong."""
    return Config(preset, set)


def resolve(cfg: Union[str, Config, None], sets: SetArg) -> Tuple[str, List[str]]:
    """run()'s config= and set= as the CLI's --config and --set list."""
    if isinstance(cfg, Config):
        return cfg.source, cfg.sets + set_strings(sets)
    return ("atlas-a2" if cfg is None else str(cfg)), set_strings(sets)


__all__ = ["Config", "config"]
