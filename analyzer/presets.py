"""The tuned presets: policy parameters found by ``wantit tune`` (iterated best
response) per variant and player count, shipped as data (``analyzer/data/tuned.json``)
and named ``tuned`` wherever a policy is given.

A table of a player count that was not tuned takes the nearest tuned count (the
fewer players on a tie); a variant with no tuned entry has no ``tuned`` preset."""

import json
from functools import lru_cache
from pathlib import Path

from .errors import WantitError

TUNED_FILE = Path(__file__).parent / "data" / "tuned.json"
TUNED = "tuned"


def _load():
    return _read(TUNED_FILE)


@lru_cache(maxsize=4)
def _read(path):
    if not Path(path).exists():
        return {}
    return json.loads(Path(path).read_text())


def tuned_entry(variant, players):
    """``(players tuned, entry)`` for ``variant`` at the count nearest ``players``, or
    ``(None, None)`` when the variant has none. ``entry``: ``values`` (the preset it
    starts from and the tuned parameters), ``exploitability``, ``settings``."""
    entries = _load().get(variant, {})
    if not entries:
        return None, None
    counts = sorted(int(k) for k in entries)
    nearest = min(counts, key=lambda c: (abs(c - int(players)), c))
    return nearest, entries[str(nearest)]


def has_tuned(variant):
    return bool(_load().get(variant))


def tuned_values(variant, players):
    """The tuned preset's values (``{"preset": base, param: value}``) at ``players``."""
    _, entry = tuned_entry(variant, players)
    if entry is None:
        raise WantitError(f"{variant} has no tuned preset yet: run wantit tune {variant} --save")
    return dict(entry["values"])


def resolve(v, players, spec):
    """``spec`` with a ``tuned`` preset (by name, ``"tuned:k=v"`` or a dict) made
    explicit for ``players``: ``{"preset": "tuned"}``, the values tuned at that count,
    then the spec's own overrides (so the seat's values, and its label, are right at
    any player count)."""
    if spec is None:
        spec = v.default_preset
    if isinstance(spec, str) and not spec.strip():
        return spec  # an empty policy: refused where it is read
    if isinstance(spec, str):
        from .variants import split_policy_spec

        name, overrides = split_policy_spec(spec)
        if (name or v.default_preset) != TUNED:
            return spec
        return {**_tuned_params(v, players), **overrides, "preset": TUNED}
    if isinstance(spec, dict) and spec.get("preset", v.default_preset) == TUNED:
        return {**_tuned_params(v, players), **spec, "preset": TUNED}
    return spec


def _tuned_params(v, players):
    """The tuned preset at ``players`` as every parameter's value (its base preset's
    where not tuned)."""
    values = v.policy_values(tuned_values(v.name, players))
    values.pop("preset")
    return values


def save_tuned(variant, players, values, exploitability, settings, path=None):
    """Write (or replace) the tuned entry of ``variant`` at ``players`` in ``path``
    (default ``TUNED_FILE``); returns the path."""
    from .results import write_json

    path = TUNED_FILE if path is None else Path(path)
    data = dict(_read(path))
    data.setdefault(variant, {})[str(int(players))] = {
        "values": {k: (x if k == "preset" else float(x)) for k, x in sorted(values.items())},
        "exploitability": exploitability, "settings": settings}
    data[variant] = dict(sorted(data[variant].items(), key=lambda kv: int(kv[0])))
    write_json(path, dict(sorted(data.items())))
    _read.cache_clear()
    return Path(path)


def describe_field(v, players, values):
    """One line naming the field the seats played: their presets, and for a tuned
    one the player count it was tuned at and what a deviating seat gained there."""
    names = sorted({val["preset"] for val in values}, key=lambda x: (x != v.default_preset, x))
    text = "field: " + ", ".join(names)
    if TUNED in names:
        tuned_at, entry = tuned_entry(v.name, players)
        e = entry["exploitability"]
        text += (f" (tuned at {tuned_at} players by wantit tune; there a seat changing its parameters gained "
                 f"{e['gain']:+.4f} +/- {1.96 * e['gain_se']:.4f})")
    elif names == ["heuristic"]:
        text += " (hand-set parameters, not tuned)"
    return text


def tuned_summary(v):
    """``wantit variants`` lines on the tuned preset: per player count tuned, the
    parameters that differ from the hand-set preset and the exploitability."""
    entries = _load().get(v.name, {})
    if not entries:
        return []
    base = v.policy_values(v.default_policy)
    lines = ["  tuned preset (wantit tune; a seat changing its parameters gains at most about):"]
    for players, entry in entries.items():
        e = entry["exploitability"]
        changed = ", ".join(f"{k}={x:g}" for k, x in entry["values"].items() if k != "preset" and x != base[k])
        lines.append(f"    {players} players: {e['gain']:+.4f} +/- {1.96 * e['gain_se']:.4f}; "
                     f"{changed or 'the hand-set values'}")
    return lines
