"""Reading a described table (cards, seats, tables of seat = value) and the pieces of
state every game's builder shares."""


import re

import numpy as np

from kernels.cards import card_bit
from kernels.games import common as C
from kernels.showdown import SPLIT_DECLARE

from ..cards import CardError, card_code, card_text
from ..errors import WantitError
from ..runs import whole

UNKNOWN_TOKENS = ("??", "?", "xx", "x")


def _cards(value, where):
    """``value`` as a list of codes, ``None`` for an unknown card."""
    if value is None:
        return []
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, (str, list, tuple, np.ndarray)):
        raise WantitError(f"{where}: {value!r} is not cards (text such as 'As Kd', or a list)")
    items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    out = []
    for item in items:
        if item is None or (isinstance(item, str) and item.strip().lower() in UNKNOWN_TOKENS):
            out.append(None)
            continue
        try:
            code = card_code(item) if isinstance(item, str) else int(whole(item, where))
        except (CardError, WantitError) as e:
            raise WantitError(f"{where}: {e}") from None
        if not 0 <= code < 52:
            raise WantitError(f"{where}: card code {item!r} is not 0..51")
        out.append(code)
    return out


def whole_text(value, where):
    """A whole number from an int or from text of one, signed or not (what a command
    line gives), so that a range check can say what is wrong with ``-8``; anything
    else is refused as ``runs.whole`` refuses it."""
    if isinstance(value, str):
        if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
            raise WantitError(f"{where}: {value!r} is not a whole number")
        return int(value)
    return int(whole(value, where))


def _seat(value, n, where):
    """A seat number 0..n-1 from an int or decimal text; anything else is refused."""
    if isinstance(value, str):
        s = int(value) if value.strip().isdecimal() else None
    else:
        try:
            s = whole(value, where)
        except WantitError:
            s = None
    if s is None or not 0 <= int(s) < n:
        raise WantitError(f"{where}: seat {value!r} is not a seat 0..{n - 1}")
    return int(s)


def _per_seat(mapping, n, what, noun, read):
    """``{seat: read(value, seat)}`` from a table of seat = value (each seat once)."""
    if not isinstance(mapping, dict):
        raise WantitError(f"{what}: give a table of seat = {noun}")
    out = {}
    for key, value in mapping.items():
        seat = _seat(key, n, what)
        if seat in out:
            raise WantitError(f"{what}: seat {seat} is given twice")
        out[seat] = read(value, seat)
    return out


def _seat_cards(mapping, n, what):
    return _per_seat(mapping, n, what, "cards", lambda cards, seat: _cards(cards, f"{what}[{seat}]"))


class _Cards:
    """Every known card of the table once: a card given twice is an error."""

    def __init__(self):
        self.where = {}

    def add(self, code, where):
        if code is None:
            return
        if code in self.where:
            raise WantitError(f"card {card_text(code)} is given twice ({self.where[code]} and {where})")
        self.where[code] = where

    def mask(self):
        m = np.uint64(0)
        for c in self.where:
            m |= card_bit(c)
        return m


def _next_in(members, after, n):
    for step in range(1, n + 1):
        s = (after + step) % n
        if s in members:
            return s
    return -1


def _mask(cards):
    """The kernels' card mask (``kernels.cards.card_bit``) of ``cards``, as an int."""
    m = 0
    for c in cards:
        m |= int(card_bit(c))
    return m


def _common(inp, table):
    n = inp.players
    dealer = n - 1 if table.dealer is None else _seat(table.dealer, n, "dealer")
    me = _seat(table.me, n, "me")
    return n, dealer, me


def _set_unknowns(st, unknowns):
    if len(unknowns) > C.MAX_UNKNOWN:
        raise WantitError(f"at most {C.MAX_UNKNOWN} unknown cards")
    st[C.P.n_unknown] = len(unknowns)
    for k, (slot, mask) in enumerate(unknowns):
        st[C.P.unknown_at + k] = slot
        st[C.P.unknown_mask + k] = mask


def _offer_game_cards(table, n, most_up, most_hole, hole_rule, offer_rule, also=()):
    """The hole cards, up cards, gone cards and card on offer of a game of hole and
    up cards (Selection/Rejection, Do Ya), checked, and every known card once in a
    ``_Cards``; ``also``: more lists of face-up cards, ``(field, where, what an
    unknown one is told)``, read after ``gone``, returned last."""
    hole = _seat_cards(table.hole, n, "hole")
    up = _seat_cards(table.up, n, "up")
    gone = _cards(table.gone, "gone")
    more = [_cards(getattr(table, name), name) for name, _, _ in also]
    offer = _cards(table.offer, "offer") if table.offer is not None else []
    if len(offer) > 1 or (offer and offer[0] is None):
        raise WantitError(f"offer: {offer_rule}")
    seen = _Cards()
    for s, cards in up.items():
        if None in cards:
            raise WantitError(f"up[{s}]: face-up cards are known to everyone; an unknown one cannot be up")
        if len(cards) > most_up:
            raise WantitError(f"up[{s}]: {len(cards)} up cards; a seat takes {most_up}")
        for c in cards:
            seen.add(c, f"up card of seat {s}")
    for s, cards in hole.items():
        if len(cards) > most_hole:
            raise WantitError(f"hole[{s}]: {len(cards)} hole cards; {hole_rule}")
        for c in cards:
            seen.add(c, f"hole card of seat {s}")
    for c in gone:
        if c is None:
            raise WantitError("gone: a card gone from play was seen; give it")
        seen.add(c, "gone")
    for cards, (name, where, unknown) in zip(more, also):
        for c in cards:
            if c is None:
                raise WantitError(f"{name}: {unknown}")
            seen.add(c, where)
    for c in offer:
        seen.add(c, "the card on offer")
    return hole, up, gone, offer, seen, more


def _given(value):
    """Whether an optional list field holds something (None, "" and [] do not)."""
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip(" ;\t\n"))
    try:
        return len(value) > 0
    except TypeError:
        return True


def _count(k, word):
    return f"{k} {word}{'' if k == 1 else 's'}"


def _n(k, word):
    return f"{k} {word}" + ("" if k == 1 else "es" if word.endswith("s") else "s")


def _or(seats):
    seats = [str(s) for s in sorted(seats)]
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " or " + seats[-1]



DECLARATION_WORDS = {"high": C.DECLARE_HIGH, "hi": C.DECLARE_HIGH, "low": C.DECLARE_LOW, "lo": C.DECLARE_LOW,
                     "both": C.DECLARE_BOTH, "swing": C.DECLARE_BOTH}


def _set_declarations(inp, table, st, n, dealer, at_declaration, unknown_seats):
    """The declarations already made (``table.declared``, RULES.md §0.8) into ``st``.
    ``at_declaration``: None when every card is dealt (the declarations are next),
    else what the table still waits for; ``unknown_seats``: the seats some of whose
    cards are unknown, whose declarations ``--condition`` checks each deal against."""
    def choice(value, seat):
        word = str(value).strip().lower()
        if word not in DECLARATION_WORDS:
            raise WantitError(f"declared[{seat}]: {value!r}; a seat declares high, low or both")
        return DECLARATION_WORDS[word]

    given = _per_seat(table.declared, n, "declared", "high, low or both", choice)
    if not given:
        return
    if int(inp.rules[C.R_SPLIT_MODE]) != SPLIT_DECLARE:
        split = inp.variant.option("split_mode")
        name = next(k for k, code in split.choices.items() if code == int(inp.rules[C.R_SPLIT_MODE]))
        raise WantitError(f"declared: nobody declares at this table (split_mode = {name}); declarations come with "
                          f"split_mode = declare")
    if at_declaration is not None:
        raise WantitError(f"declared: declarations are made once every card is dealt; this table still waits for "
                          f"{at_declaration}")
    order = [(dealer + k) % n for k in range(1, n + 1)]  # nobody folds in a described table
    if int(inp.rules[C.R_DECLARE_MODE]) == C.DECLARE_SEQUENTIAL:
        first = order[:len(given)]
        if set(given) != set(first):
            raise WantitError(f"declared: seats declare in turn from the dealer's left ({', '.join(map(str, order))}"
                              f"), so the first {len(given)} to declare are seat{'s' if len(first) > 1 else ''} "
                              f"{', '.join(map(str, first))}, not {', '.join(map(str, sorted(given)))}")
    elif len(given) != n:
        raise WantitError(f"declared: {len(given)} of {n} seats; declarations are shown all at once (declare_mode = "
                          f"simultaneous), so give every seat's or none (declare_mode = sequential: in turn)")
    for k, s in enumerate(order[:len(given)]):
        st[C.P.declared + s] = given[s]
        st[C.P.declare_order + k] = given[s]
    st[C.P.preset_declared] = len(given)
    st[C.P.check_declared] = sum(1 << s for s in given if s in unknown_seats)


def _history_items(history, example):
    """The entries of a history (a list, or one text with ';' between entries),
    stripped, empty ones dropped; ``example`` names what a list should hold."""
    if isinstance(history, str):
        items = history.split(";")
    elif isinstance(history, (list, tuple)):
        items = [str(x) for x in history]
    else:
        raise WantitError(f"history: {history!r} should be a list of {example}")
    return [x.strip() for x in items if x.strip()]
