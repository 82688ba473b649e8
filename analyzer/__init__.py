"""wantit: Monte Carlo strategy and odds analyzer for offer / reject / pass poker games.

The Python layer: card parsing, hand evaluation, (later) rules, policies, the
simulation driver and the CLI. The numba kernels live in the ``kernels`` package.
"""

from .cards import CardError, format_cards, parse_cards, parse_ranks
from .errors import WantitError
from .evaluate import (
    Category,
    best_high_five,
    best_low_five,
    describe_high,
    describe_low,
    evaluate_high,
    evaluate_low,
    hand_category,
)

__version__ = "0.1.0"

__all__ = [
    "CardError",
    "Category",
    "WantitError",
    "best_high_five",
    "best_low_five",
    "describe_high",
    "describe_low",
    "evaluate_high",
    "evaluate_low",
    "format_cards",
    "hand_category",
    "parse_cards",
    "parse_ranks",
]
