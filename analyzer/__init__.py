"""wantit: Monte Carlo strategy and odds analyzer for offer / reject / pass poker games.

The Python layer: card parsing, hand evaluation, the variant registry, the
simulation drivers and the CLI. The numba kernels live in the ``kernels`` package.

The names below are imported when first used (PEP 562), so importing the package,
and starting the command line, does not load numba until a command needs it.
"""

import importlib

__version__ = "0.1.0"

_EXPORTS = {
    "CardError": ".cards",
    "format_cards": ".cards",
    "parse_cards": ".cards",
    "parse_ranks": ".cards",
    "WantitError": ".errors",
    "Category": ".evaluate",
    "best_high_five": ".evaluate",
    "best_low_five": ".evaluate",
    "describe_high": ".evaluate",
    "describe_low": ".evaluate",
    "evaluate_high": ".evaluate",
    "evaluate_low": ".evaluate",
    "hand_category": ".evaluate",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
