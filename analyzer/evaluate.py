"""Hand evaluation, the public face of ``kernels.evaluate``.

Every function accepts one hand (a card string, a list of cards or a 1-D array of
codes) and returns an ``int``, or many hands (a 2-D array of codes, one hand per
row, ``255`` padding allowed) and returns an ``int32`` array. Strengths are larger
for better hands, for low as for high; see ``kernels.ranking`` for the layout.
"""

import re
from enum import IntEnum

import numpy as np

from kernels import ranking as R
from kernels.cards import NO_CARD, RANK_CHARS, check_hands
from kernels.evaluate import (
    eval_tables,
    high_batch_checked,
    high_batch_hashed,
    high_batch_masked,
    low_batch_checked,
    low_batch_hashed,
    low_batch_masked,
)

from .cards import CardError, _tokens, card_text, cards_mask, parse_cards, parse_ranks, ranks_mask
from .errors import WantitError

MAX_CARDS = 10

FIVE_KIND_POSITIONS = {
    "above_straight_flush": R.FK_ABOVE_STRAIGHT_FLUSH,
    "below_straight_flush": R.FK_BELOW_STRAIGHT_FLUSH,
    "above_sf_below_natural_royal": R.FK_ABOVE_SF_BELOW_NATURAL_ROYAL,
}


class Category(IntEnum):
    """High-hand categories, worst to best in the default five-of-a-kind position."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").capitalize()


# Strength slot (kernels.ranking) -> Category.
_SLOT_CATEGORY = R.SLOT_CATEGORY

_TABLES = None


def _tables():
    global _TABLES
    if _TABLES is None:
        _TABLES = eval_tables()
    return _TABLES


# ------------------------------------------------------------------------ inputs


def _is_list_of_hands(cards):
    """A list of hands (a batch), not one hand's cards: some item is itself a hand (a
    list or array), or a text of several cards. A flat list of single cards (strings
    or codes) is one hand."""
    if not isinstance(cards, (list, tuple)) or not cards:
        return False
    return any(not isinstance(c, (str, int, np.integer)) or isinstance(c, str) and _several_cards(c)
               for c in cards)


def _several_cards(text):
    try:
        return len(_tokens(text)) > 1
    except CardError:  # named when the hand is read; a space or comma says a text of cards
        return bool(re.search(r"[\s,]", text.strip()))


def _hands_array(hands):
    """A list of hands as a 2-D array: whole numbers as numpy reads them (-1 or 255 an
    empty place), else each hand read as ``parse_cards`` reads one (its text, or its
    card strings or codes), shorter hands padded with empty places."""
    try:
        array = np.array(hands)
    except ValueError:  # hands of different lengths
        array = None
    if array is not None and array.ndim == 2 and np.issubdtype(array.dtype, np.integer):
        return array
    rows = []
    for i, hand in enumerate(hands):
        try:
            rows.append(parse_cards(hand))
        except CardError as e:
            raise CardError(f"hand {i}: {e}") from None
    out = np.full((len(rows), max(len(r) for r in rows)), NO_CARD, dtype=np.uint8)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def _as_hands(cards):
    """``(2-D uint8 array, single, padded)`` from any accepted hand input, validated;
    ``padded`` says some row holds fewer real cards than the array is wide."""
    if isinstance(cards, np.ndarray) and cards.ndim == 2:
        if not np.issubdtype(cards.dtype, np.integer):
            raise CardError(f"card codes must be integers, got dtype {cards.dtype}")
        if cards.dtype != np.uint8:
            if cards.size and (cards.min() < -1 or cards.max() > NO_CARD):
                raise CardError("card codes must be 0..51 (or -1 / 255 for an empty place)")
            cards = np.where(cards < 0, NO_CARD, cards).astype(np.uint8)
        hands = np.ascontiguousarray(cards)
        single = False
    elif _is_list_of_hands(cards):
        return _as_hands(_hands_array(cards))
    else:
        hands = parse_cards(cards)[None, :]
        single = True
    if hands.shape[0] == 0:
        return hands, single, False
    if hands.shape[1] == 0:
        raise CardError("a hand holds no cards")
    problems, counts = check_hands(hands)
    bad = np.flatnonzero(problems)
    if len(bad):
        row = int(bad[0])
        problem, code = divmod(int(problems[row]), 256)
        what = f"unknown card code {code}" if problem == 1 else f"duplicate card {card_text(code)!r}"
        raise CardError(f"{what} in hand {row}")
    if counts.max() > MAX_CARDS:
        raise CardError(f"a hand holds {int(counts.max())} cards; at most {MAX_CARDS} are evaluated")
    if counts.min() < 1:
        raise CardError("a hand holds no cards")
    padded = bool(counts.min() < hands.shape[1])
    return hands, single, padded


def _plain_rows(cards):
    """``cards`` when it can go straight to a kernel that checks each hand as it
    evaluates it (one pass over the data, not a checking pass and then an
    evaluating one): a C-ordered 2-D ``uint8`` array of 5 to 7 columns; else None."""
    if (isinstance(cards, np.ndarray) and cards.ndim == 2 and cards.dtype == np.uint8 and cards.shape[0] > 0
            and 5 <= cards.shape[1] <= 7 and cards.flags.c_contiguous):
        return cards
    return None


def _wild_masks(hands, wild, wild_ranks):
    """Per-row card masks of the wild cards, or ``None`` when nothing is wild."""
    if wild is None and wild_ranks is None:
        return None
    n = hands.shape[0]
    masks = np.zeros(n, dtype=np.uint64)
    if wild_ranks is not None:
        masks |= np.uint64(ranks_mask(parse_ranks(wild_ranks)))
    if wild is not None:
        if isinstance(wild, np.ndarray) and wild.dtype == np.bool_:
            if wild.shape != hands.shape:
                raise WantitError(
                    f"a wild-flag array must have the shape of the hands {hands.shape}, got {wild.shape}"
                )
            real = hands != NO_CARD
            codes = hands.astype(np.uint64)
            bits = np.left_shift(np.uint64(1), np.uint64(16) * (codes & np.uint64(3)) + (codes >> np.uint64(2)))
            masks |= np.bitwise_or.reduce(np.where(wild & real, bits, np.uint64(0)), axis=1)
        else:
            masks |= np.uint64(cards_mask(parse_cards(wild, allow_empty=True)))
    return masks


def _five_kind_code(five_kind):
    if isinstance(five_kind, (int, np.integer)) and int(five_kind) in FIVE_KIND_POSITIONS.values():
        return int(five_kind)
    try:
        return FIVE_KIND_POSITIONS[str(five_kind)]
    except KeyError:
        raise WantitError(
            f"unknown five_kind position {five_kind!r}; choose one of {', '.join(FIVE_KIND_POSITIONS)}"
        ) from None


def low_threshold(qualifier) -> int:
    """The smallest qualifying low strength for a qualifier (``None``: any low)."""
    if qualifier is None:
        return 1
    from .runs import whole

    try:
        q = int(qualifier) if isinstance(qualifier, str) else whole(qualifier, "low qualifier")
    except (TypeError, ValueError, WantitError):
        raise WantitError(f"low qualifier must be a whole number 5..13 (8 = eight-or-better), got {qualifier!r}") from None
    if not 5 <= q <= 13:
        raise WantitError(f"low qualifier must be 5..13 (8 = eight-or-better), got {q}")
    return int(R.low_qualifier_threshold(q))


def _result(out, single):
    return int(out[0]) if single else out


def _result_array(out, n, hands):
    """The array to write ``n`` strengths into: a fresh one, or the caller's ``out``
    once it is known to fit (``int32``, shape ``(n,)``, contiguous, writeable, apart
    from the hands)."""
    if out is None:
        return np.empty(n, dtype=np.int32)
    if not isinstance(out, np.ndarray):
        raise WantitError(f"out must be a numpy array, got {type(out).__name__}")
    if out.dtype != np.int32:
        raise WantitError(f"out must have dtype int32, got {out.dtype}")
    if out.shape != (n,):
        raise WantitError(f"out must have shape ({n},), one strength per hand, got {out.shape}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise WantitError("out must be a contiguous, writeable array")
    if isinstance(hands, np.ndarray) and np.may_share_memory(out, hands):
        raise WantitError("out must not share memory with the hands")
    return out


def _check_out_for_batch(out, cards):
    """``out`` is for many hands: one hand returns an ``int``."""
    if out is not None and not (isinstance(cards, np.ndarray) and cards.ndim == 2) and not _is_list_of_hands(cards):
        raise WantitError("out is for a batch of hands (a 2-D array); one hand returns an int")


# -------------------------------------------------------------------- evaluators


def evaluate_high(cards, wild=None, wild_ranks=None, five_kind="above_straight_flush",
                  wild_may_duplicate=False, out=None):
    """Best high hand of each hand (best five of up to ten cards), larger is better.

    ``wild``: cards that are wild for their holder (a string, codes, or for many
    hands a boolean array of the hands' shape flagging wild places). ``wild_ranks``:
    ranks whose every card is wild (``"3"``). ``five_kind``: where five of a kind
    ranks (``above_straight_flush``, ``below_straight_flush``,
    ``above_sf_below_natural_royal``). ``wild_may_duplicate`` allows the
    "double-ace flush". A hand of fewer than five cards is an incomplete hand.
    ``out``: for many hands, an ``int32`` array of one place per hand to write the
    strengths into (and return), as numpy's ``out=``; it saves a fresh array's cost.
    After an error its contents are unspecified.
    """
    fk = _five_kind_code(five_kind)
    _check_out_for_batch(out, cards)
    rows = _plain_rows(cards) if wild is None and wild_ranks is None else None
    if rows is not None:
        out = _result_array(out, rows.shape[0], rows)
        if high_batch_checked(_tables(), rows, fk, out) == 0:
            return out
    hands, single, padded = _as_hands(cards)  # says which row is wrong, or takes the padded rows
    wild_masks = _wild_masks(hands, wild, wild_ranks)
    out = _result_array(out, hands.shape[0], cards)
    if wild_masks is None and 5 <= hands.shape[1] <= 7 and not padded:
        high_batch_hashed(_tables(), hands, fk, out)
    else:
        if wild_masks is None:
            wild_masks = np.zeros(hands.shape[0], dtype=np.uint64)
        high_batch_masked(_tables(), hands, wild_masks, fk, bool(wild_may_duplicate), out)
    return _result(out, single)


def evaluate_low(cards, qualifier=None, wild=None, wild_ranks=None, out=None):
    """Best ace-to-five low of each hand, larger is better; 0 means no low.

    ``qualifier``: e.g. ``8`` for eight-or-better (five different ranks, all 8 or
    lower, ace 1); a hand that does not qualify, or holds fewer than five cards,
    gets 0. ``wild`` and ``wild_ranks`` as in ``evaluate_high``: a wild card takes
    the lowest rank the hand lacks. ``out`` as in ``evaluate_high``.
    """
    threshold = low_threshold(qualifier)
    _check_out_for_batch(out, cards)
    rows = _plain_rows(cards) if wild is None and wild_ranks is None else None
    if rows is not None:
        out = _result_array(out, rows.shape[0], rows)
        if low_batch_checked(_tables(), rows, threshold, out) == 0:
            return out
    hands, single, padded = _as_hands(cards)
    wild_masks = _wild_masks(hands, wild, wild_ranks)
    out = _result_array(out, hands.shape[0], cards)
    if wild_masks is None and 5 <= hands.shape[1] <= 7 and not padded:
        low_batch_hashed(_tables(), hands, threshold, out)
    else:
        if wild_masks is None:
            wild_masks = np.zeros(hands.shape[0], dtype=np.uint64)
        low_batch_masked(_tables(), hands, wild_masks, threshold, out)
    return _result(out, single)


# -------------------------------------------------------------------- categories


def hand_category(strength):
    """The ``Category`` of a high strength, or an int array of them."""
    if np.ndim(strength) == 0:
        slot = int(strength) >> R.CAT_SHIFT
        if not 1 <= slot <= R.NATURAL_ROYAL:
            raise WantitError(f"{strength} is not a high-hand strength")
        return Category(int(_SLOT_CATEGORY[slot]))
    slots = np.asarray(strength, dtype=np.int64) >> R.CAT_SHIFT
    if slots.size and (slots.min() < 1 or slots.max() > R.NATURAL_ROYAL):
        raise WantitError("not every value is a high-hand strength")
    return _SLOT_CATEGORY[slots]


def high_ranks(strength) -> list[int]:
    """The ranks (0..12 for 2..A) of the five cards of a high strength, in the order
    they are compared; an incomplete hand gives fewer."""
    s = int(strength)
    nibbles = [(s >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
    return [n - 1 for n in nibbles if n]


def low_ranks(strength) -> list[int]:
    """The ranks (0..12 for 2..A) of the five cards of a low strength, in the order
    they are compared."""
    s = int(strength)
    out = []
    for shift in (16, 12, 8, 4, 0):
        v = 14 - ((s >> shift) & 0xF)  # low value, ace 1
        out.append(12 if v == 1 else v - 2)
    return out


_NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace"]
_PLURALS = ["twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
            "tens", "jacks", "queens", "kings", "aces"]


def _chars(ranks):
    return "-".join(RANK_CHARS[r] for r in ranks)


def _strength(value, kind) -> int:
    """``value`` as a strength, refusing what no evaluator returns: not a whole
    number, or rank nibbles out of range (high: 1..13, then only 0s for missing
    cards of an incomplete hand; low: 1..13 each)."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        value = int(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise WantitError(f"{value!r} is not a {kind}-hand strength (a whole number)")
    s = int(value)
    nibbles = [(s >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
    if kind == "high":
        ranks = list(nibbles)
        while ranks and ranks[-1] == 0:
            ranks.pop()
        good = bool(ranks) and all(1 <= n <= 13 for n in ranks)
    else:
        good = s == 0 or all(1 <= n <= 13 for n in nibbles)
    if s < 0 or not good:
        raise WantitError(f"{value} is not a {kind}-hand strength")
    return s


def describe_high(strength) -> str:
    """A high strength in words: ``"Full house, nines full of fives"``."""
    s = _strength(strength, "high")
    slot = s >> R.CAT_SHIFT
    cat = hand_category(s)
    r = high_ranks(s)
    if slot == R.NATURAL_ROYAL:
        return "Royal flush (natural)"
    if cat == Category.FIVE_OF_A_KIND:
        return f"Five of a kind, {_PLURALS[r[0]]}"
    if cat == Category.STRAIGHT_FLUSH:
        return "Royal flush" if r[0] == 12 else f"Straight flush, {_NAMES[r[0]]} high"
    if cat == Category.FOUR_OF_A_KIND:
        kick = f", {_NAMES[r[4]]} kicker" if len(r) > 4 else ""
        return f"Four of a kind, {_PLURALS[r[0]]}{kick}"
    if cat == Category.FULL_HOUSE:
        return f"Full house, {_PLURALS[r[0]]} full of {_PLURALS[r[3]]}"
    if cat == Category.FLUSH:
        return f"Flush, {_chars(r)}"
    if cat == Category.STRAIGHT:
        return f"Straight, {_NAMES[r[0]]} high"
    if cat == Category.THREE_OF_A_KIND:
        kick = f", {_chars(r[3:])} kickers" if len(r) > 3 else ""
        return f"Three of a kind, {_PLURALS[r[0]]}{kick}"
    if cat == Category.TWO_PAIR:
        kick = f", {_NAMES[r[4]]} kicker" if len(r) > 4 else ""
        return f"Two pair, {_PLURALS[r[0]]} and {_PLURALS[r[2]]}{kick}"
    if cat == Category.PAIR:
        kick = f", {_chars(r[2:])} kickers" if len(r) > 2 else ""
        return f"Pair of {_PLURALS[r[0]]}{kick}"
    return f"High card, {_chars(r)}"


_LOW_PATTERNS = {
    R.LOW_NO_PAIR: "",
    R.LOW_PAIR: "pair",
    R.LOW_TWO_PAIR: "two pair",
    R.LOW_TRIPS: "three of a kind",
    R.LOW_FULL_HOUSE: "full house",
    R.LOW_QUADS: "four of a kind",
}


def describe_low(strength) -> str:
    """A low strength in words: ``"7-5-4-3-2"``; paired lows name their pattern."""
    s = _strength(strength, "low")
    if s == 0:
        return "No low"
    pattern = s >> R.CAT_SHIFT
    if pattern not in _LOW_PATTERNS:
        raise WantitError(f"{strength} is not a low-hand strength")
    ranks = sorted(low_ranks(s), key=lambda r: -1 if r == 12 else r, reverse=True)
    text = _chars(ranks)
    return text if pattern == R.LOW_NO_PAIR else f"{text} ({_LOW_PATTERNS[pattern]})"


# ------------------------------------------------------------ the five cards used


def _wild_set(codes, wild, wild_ranks):
    wild_codes = set()
    if wild is not None:
        wild_codes |= {int(c) for c in parse_cards(wild, allow_empty=True)}
    if wild_ranks is not None:
        wr = set(parse_ranks(wild_ranks))
        wild_codes |= {c for c in range(52) if c >> 2 in wr}
    return [int(c) for c in codes if int(c) in wild_codes]


def _assign(needed, naturals, wilds, suit=None):
    """Match each needed rank to a held natural card (of ``suit`` if given) or a wild.

    Returns ``[(card, stands_for or None)]``.
    """
    free = list(naturals)
    spare = list(wilds)
    used = []
    for rank in needed:
        pick = next((c for c in free if c >> 2 == rank and (suit is None or c & 3 == suit)), None)
        if pick is not None:
            free.remove(pick)
            used.append((pick, None))
            continue
        if not spare:
            return None
        taken = {c for c, _ in used} | {s for _, s in used if s is not None} | set(naturals)
        suits = [suit] if suit is not None else [x for x in range(4) if 4 * rank + x not in taken] or [0]
        used.append((spare.pop(0), 4 * rank + suits[0]))
    return used


def best_high_five(cards, wild=None, wild_ranks=None, five_kind="above_straight_flush",
                   wild_may_duplicate=False):
    """``(strength, [(card, stands_for)])``: the best high hand and the cards it uses.

    ``stands_for`` is the card a wild card becomes (``None`` for a natural card).
    """
    codes = [int(c) for c in parse_cards(cards)]
    wilds = _wild_set(codes, wild, wild_ranks)  # bad wild specs are refused before the kernels compile
    _five_kind_code(five_kind)
    strength = evaluate_high(codes, wild=wild, wild_ranks=wild_ranks, five_kind=five_kind,
                             wild_may_duplicate=wild_may_duplicate)
    naturals = [c for c in codes if c not in wilds]
    needed = high_ranks(strength)
    cat = hand_category(strength)
    if cat in (Category.FLUSH, Category.STRAIGHT_FLUSH):
        for suit in range(4):
            used = _assign(needed, naturals, wilds, suit)
            if used is not None:
                return strength, used
    return strength, _assign(needed, naturals, wilds) or []


def best_low_five(cards, qualifier=None, wild=None, wild_ranks=None):
    """``(strength, [(card, stands_for)])`` for the best low (empty when no low)."""
    codes = [int(c) for c in parse_cards(cards)]
    wilds = _wild_set(codes, wild, wild_ranks)  # bad wild specs and qualifiers are refused before the kernels
    low_threshold(qualifier)
    strength = evaluate_low(codes, qualifier=qualifier, wild=wild, wild_ranks=wild_ranks)
    if strength == 0:
        return 0, []
    naturals = [c for c in codes if c not in wilds]
    return strength, _assign(low_ranks(strength), naturals, wilds) or []


def format_used(used) -> str:
    """``"As Kd 3h(=Qs)"``: the cards of a hand, wild cards with what they stand for."""
    parts = []
    for card, stands in used:
        parts.append(card_text(card) + (f"(={card_text(stands)})" if stands is not None else ""))
    return " ".join(parts)


__all__ = [
    "Category", "evaluate_high", "evaluate_low", "hand_category", "describe_high",
    "describe_low", "best_high_five", "best_low_five", "high_ranks", "low_ranks",
    "low_threshold", "format_used",
]
