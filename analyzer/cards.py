"""Card text: parsing, formatting, validation.

Text form ``As Td 2c``: rank ``2-9 T J Q K A`` (``10`` accepted for ``T``), suit
``c d h s``, case-insensitive, cards separated by spaces or commas (or written
together, ``AsKs``). A card is a ``uint8`` code ``4*rank + suit`` (``kernels.cards``).
"""

import re
from collections.abc import Iterable

import numpy as np

from kernels.cards import N_CARDS, NO_CARD, RANK_CHARS, SUIT_CHARS

from .errors import WantitError

_CARD_RE = re.compile(r"(10|[2-9tjqka])([cdhs])", re.IGNORECASE)
_RANK_RE = re.compile(r"10|[2-9tjqka]", re.IGNORECASE)


class CardError(WantitError):
    """Bad card input: an unknown token, a duplicate card, a bad hand size."""


def card_code(text: str) -> int:
    """The code of one card written as text (``"As"`` -> 51)."""
    m = _CARD_RE.fullmatch(text.strip())
    if not m:
        raise CardError(f"unknown card {text.strip()!r} (expected rank 2-9/T/J/Q/K/A and suit c/d/h/s, e.g. 'As')")
    rank = RANK_CHARS.index("T" if m.group(1) == "10" else m.group(1).upper())
    return 4 * rank + SUIT_CHARS.index(m.group(2).lower())


def card_text(code: int) -> str:
    code = int(code)
    if not 0 <= code < N_CARDS:
        raise CardError(f"unknown card code {code} (codes are 0..51)")
    return RANK_CHARS[code >> 2] + SUIT_CHARS[code & 3]


def _tokens(text: str) -> list[str]:
    out = []
    for chunk in re.split(r"[\s,]+", text.strip()):
        if not chunk:
            continue
        pos = 0
        while pos < len(chunk):
            m = _CARD_RE.match(chunk, pos)
            if not m:
                bad = chunk[pos:] if pos else chunk
                raise CardError(
                    f"unknown card {bad!r} (expected rank 2-9/T/J/Q/K/A and suit c/d/h/s, e.g. 'As')"
                )
            out.append(m.group(0))
            pos = m.end()
    return out


def parse_cards(cards, allow_empty: bool = False) -> np.ndarray:
    """Cards as a 1-D ``uint8`` array of codes.

    Accepts a string (``"As Td, 2c"``), an iterable of card strings or codes, or an
    array of codes. Unknown tokens and duplicate cards raise ``CardError`` naming
    the token.
    """
    if isinstance(cards, str):
        tokens = _tokens(cards)
        codes = [card_code(t) for t in tokens]
        names = tokens
    elif isinstance(cards, np.ndarray) and cards.dtype != object:
        if cards.ndim != 1:
            raise CardError(f"expected one hand (a 1-D array), got shape {cards.shape}")
        if cards.size and not np.issubdtype(cards.dtype, np.integer):
            raise CardError(f"card codes must be integers, got dtype {cards.dtype}")
        codes = [int(c) for c in cards]
        names = [card_text(c) for c in codes]
    elif isinstance(cards, Iterable):
        codes, names = [], []
        for item in cards:
            if isinstance(item, str):
                for tok in _tokens(item):
                    codes.append(card_code(tok))
                    names.append(tok)
            elif isinstance(item, (int, np.integer)):
                codes.append(int(item))
                names.append(card_text(item))
            else:
                raise CardError(f"unknown card {item!r}")
    else:
        raise CardError(f"cannot read cards from {cards!r}")
    seen = {}
    for code, name in zip(codes, names):
        if code in seen:
            also = "given twice" if seen[code] == name else f"also given as {seen[code]!r}"
            raise CardError(f"duplicate card {name!r} ({also})")
        seen[code] = name
    if not codes and not allow_empty:
        raise CardError("no cards given")
    return np.array(codes, dtype=np.uint8)


def format_cards(codes) -> str:
    """``"As Td 2c"`` from codes (``NO_CARD`` padding is skipped)."""
    return " ".join(card_text(c) for c in np.asarray(codes).ravel() if int(c) != NO_CARD)


def parse_ranks(ranks) -> list[int]:
    """Ranks as indices 0..12 (2..A) from ``"3"``, ``"3K"``, ``"3,K"``, ``["3", "K"]``."""
    if isinstance(ranks, str):
        text = ranks
    elif isinstance(ranks, Iterable):
        text = ",".join(str(r) for r in ranks)
    else:
        raise CardError(f"cannot read ranks from {ranks!r}")
    out = []
    for chunk in re.split(r"[\s,]+", text.strip()):
        pos = 0
        while pos < len(chunk):
            m = _RANK_RE.match(chunk, pos)
            if not m:
                raise CardError(f"unknown rank {chunk[pos:]!r} (expected 2-9, T or 10, J, Q, K, A)")
            r = RANK_CHARS.index("T" if m.group(0) == "10" else m.group(0).upper())
            if r not in out:
                out.append(r)
            pos = m.end()
    if not out:
        raise CardError("no ranks given")
    return out


def cards_mask(codes) -> int:
    """Suit-major card mask (``kernels.cards``) of some codes, as a Python int."""
    m = 0
    for c in np.asarray(codes).ravel():
        c = int(c)
        if c != NO_CARD:
            m |= 1 << (16 * (c & 3) + (c >> 2))
    return m


def ranks_mask(ranks) -> int:
    """Card mask of every card of the given rank indices."""
    m = 0
    for r in ranks:
        m |= 0x0001_0001_0001_0001 << r
    return m
