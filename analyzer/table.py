"""A table described by a player: who sits where, the cards each seat holds (any
hidden card may be unknown, mine too), the cards gone from play, the card on offer
and its refusals, and (Do Ya) the rejects lying on the table. ``table_state``
turns a description into the game's table state (``analyzer.engine``), from which
the engine plays every deal on: the known cards stay where they are, the unknown
hidden cards are dealt at random from the cards nobody has seen, afresh for every
deal.

Three ways to describe a table, all ending in a ``Table``: the dataclass itself,
``table_from_flags`` (the command line's ``--hole SEAT=CARDS``, ``--up``,
``--gone``, ``--offer CARD --to SEAT --refusals K``, ``--pool CARDS``) and
``load_table`` (a TOML or JSON file with the same fields; ``examples/`` has them).
Unknown cards are written ``??`` (or ``xx``). An impossible table is one
``WantitError`` naming what is wrong.

Anaconda (``_anaconda_state``) adds ``phase``, ``passed`` and ``received``
(``--phase``, ``--passed CARDS``, ``--received CARDS``).
Train Wreck (``_train_wreck_state``) adds the street, extra and stolen cards, the
cards discarded by special pairs, the fees each seat has paid and the special pairs
that have acted (``TW_FIELDS``); ``up`` holds a seat's table cards, ``gone`` the
buried ones.
"""

import json
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from kernels.cards import NO_CARD, RANK_CHARS, card_bit
from kernels.games import anaconda as AN
from kernels.games import common as C
from kernels.games import do_ya as DY
from kernels.games import selection_rejection as SR
from kernels.games import train_wreck as TW

from .cards import CardError, card_code, card_text, parse_ranks
from .errors import WantitError
from .runs import whole

UNKNOWN_TOKENS = ("??", "?", "xx", "x")
TW_FIELDS = ("street", "extra", "stolen", "discarded", "fees", "acted")
AN_FIELDS = ("phase", "passed", "received")
FIELDS = ("variant", "players", "dealer", "me", "hole", "up", "gone", "offer", "to", "refusals", "history",
          "pool") + TW_FIELDS + AN_FIELDS
# The fields only one game reads: given for another game, they are refused.
OWN_FIELDS = {"history": "selection_rejection", "pool": "do_ya", **{f: "train_wreck" for f in TW_FIELDS},
              **{f: "anaconda" for f in AN_FIELDS}}


@dataclass
class Table:
    """One table, as a player sees it. Cards are text (``"As Kd"``; ``??`` for an
    unknown card) or lists of codes, ``None`` for unknown."""

    variant: str
    players: int | None = None  # default: the variant's
    dealer: int | None = None  # default: the last seat
    me: int = 0  # the seat whose equity is asked for
    hole: dict = field(default_factory=dict)  # seat -> its face-down cards (missing: all unknown)
    up: dict = field(default_factory=dict)  # seat -> its face-up cards, in the order taken
    gone: object = ""  # cards out of play and known to all: refused and dead
    offer: object = None  # the card on offer (None: none, or a fresh card still to be turned up)
    to: int | None = None  # the seat it is offered to (with no offer: the seat the next card goes to; Do Ya:
    #                        the seat to act, which the up-card counts imply, so it may be left out)
    refusals: int = 0  # refusals of the card on offer so far (Do Ya: the fresh cards ``to`` refused this turn)
    # What the table saw the players choose, in order: "SEAT takes CARD" or "SEAT
    # refuses CARD" from the first offer of the deal (a list, or one text with ';'
    # between entries). Checked against the cards; used by equity's --condition.
    history: object = ()
    pool: object = ""  # Do Ya: the rejects lying face up on the table this round, in the order refused
    # Train Wreck only (``up``: the table cards in the order received; ``gone``: the buried cards):
    street: int | None = None  # the street under way, 3 (nothing dealt) .. 7 (default: from the table cards)
    extra: dict = field(default_factory=dict)  # seat -> extra cards dealt for its pairs of 2s
    stolen: dict = field(default_factory=dict)  # seat -> cards it stole with pairs of 5s
    discarded: object = ""  # table cards discarded by pairs of 3s and 4s (the dead pile)
    fees: dict = field(default_factory=dict)  # seat -> chips paid this deal to refuse offered cards
    acted: dict = field(default_factory=dict)  # seat -> ranks whose pair acted and is since broken
    # Anaconda (``_anaconda_state``): where the deal is, "pass N" (before the N-th
    # pass), "keep" (the passes done) or "roll" (the stacks made; None: inferred),
    # and the packets I passed and received, one per pass done, in order.
    phase: str | None = None
    passed: object = ()
    received: object = ()


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


def table_from_flags(variant, players=None, dealer=None, me=0, hole=(), up=(), gone="", offer=None, to=None,
                     refusals=0, history=(), pool="", street=None, extra=(), stolen=(), discarded="", fees=(),
                     acted=(), phase=None, passed=(), received=()) -> Table:
    """A ``Table`` from the command line's repeatable ``SEAT=CARDS`` items (``fees``:
    ``SEAT=CHIPS``, ``acted``: ``SEAT=RANKS``)."""
    def pairs(items, flag):
        out = {}
        for item in items:
            seat, eq, cards = item.partition("=")
            if not eq or not seat.strip():
                raise WantitError(f"{flag} {item!r} should look like SEAT=CARDS, e.g. 0='As Kd'")
            if seat.strip() in out:
                raise WantitError(f"{flag}: seat {seat.strip()} is given twice")
            out[seat.strip()] = cards
        return out

    return Table(variant, players, dealer, me, pairs(hole, "--hole"), pairs(up, "--up"), gone, offer, to, refusals,
                 history or (), pool, street, pairs(extra, "--extra"), pairs(stolen, "--stolen"), discarded,
                 pairs(fees, "--fee"), pairs(acted, "--acted"), phase=phase, passed=list(passed) or (),
                 received=list(received) or ())


def load_table(path, variant=None) -> Table:
    """A ``Table`` from a TOML (``.toml``) or JSON (``.json``) file with the fields of
    ``Table``; ``hole`` and ``up`` are tables of seat = cards."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise WantitError(f"state file {p} not found") from None
    except OSError as e:
        raise WantitError(f"state file {p}: {e.strerror}") from None
    try:
        data = json.loads(raw) if p.suffix.lower() == ".json" else tomllib.loads(raw.decode("utf-8"))
    except (json.JSONDecodeError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise WantitError(f"{p}: not valid {'JSON' if p.suffix.lower() == '.json' else 'TOML'}: "
                          f"{' '.join(str(e).split())}") from None
    except RecursionError:
        raise WantitError(f"{p}: nested too deeply to be a table") from None
    if not isinstance(data, dict):
        raise WantitError(f"{p}: the file must hold a table of fields ({', '.join(FIELDS)})")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise WantitError(f"{p}: unknown field {unknown[0]!r} (fields: {', '.join(FIELDS)})")
    if variant is not None and "variant" in data and str(data["variant"]) != str(variant):
        from .variants import get_variant

        if get_variant(data["variant"]) is not get_variant(variant):
            raise WantitError(f"{p} describes a {data['variant']} table, not {variant}")
    data.setdefault("variant", variant)
    if data["variant"] is None:
        raise WantitError(f"{p}: say which game (variant = ...)")
    return Table(**data)


def table_state(inp, table: Table) -> np.ndarray:
    """The table state of ``table`` for the engine inputs ``inp`` (its game and seats)."""
    builder = BUILDERS.get(inp.variant.name)
    if builder is None:
        raise WantitError(f"describing a table is built for {', '.join(BUILDERS)} so far, not "
                          f"{inp.variant.name}")
    for name, game in OWN_FIELDS.items():
        if game != inp.variant.name and _given(getattr(table, name)):
            raise WantitError(f"{name}: a {inp.variant.name} table has no {name} (only {game} tables have it)"
                              if name != "history" else
                              f"history: reading the choices seen is built for {game} so far, not "
                              f"{inp.variant.name}")
    return builder(inp, table)


def condition_data(inp, table: Table) -> np.ndarray:
    """The engine's ``idata`` for conditioning on ``table.history``: the choices of
    the seats whose hole cards are unknown, which each deal's cards must agree with."""
    if inp.variant.name != "selection_rejection":
        raise WantitError(f"conditioning on the choices seen is built for selection_rejection so far, not "
                          f"{inp.variant.name}")
    n, dealer, _ = _common(inp, table)
    if not _history_entries(table.history, n):
        raise WantitError("--condition needs the history of the choices seen (--history, or history in the file)")
    hole = _seat_cards(table.hole, n, "hole")
    rows, _, _ = _sr_history(inp, table, n, dealer)
    free = [r for r in rows if len([c for c in hole.get(r[0], []) if c is not None]) < 2]
    return np.array([x for r in free for x in r], np.int64)


def _history_entries(history, n):
    """``[(seat, took, card), ...]`` from "SEAT takes CARD" / "SEAT refuses CARD" entries."""
    if isinstance(history, str):
        items = [x.strip() for x in history.split(";")]
    elif isinstance(history, (list, tuple)):
        items = [str(x).strip() for x in history]
    else:
        raise WantitError(f"history: {history!r} should be a list of 'SEAT takes CARD' entries")
    out = []
    for item in filter(None, items):
        words = item.split()
        if len(words) != 3 or words[1].lower() not in ("takes", "take", "took", "refuses", "refuse", "refused",
                                                       "rejects", "reject", "rejected"):
            raise WantitError(f"history: {item!r} should look like 'SEAT takes CARD' or 'SEAT refuses CARD'")
        seat = _seat(words[0], n, f"history {item!r}")
        card = _cards(words[2], f"history {item!r}")
        if len(card) != 1 or card[0] is None:
            raise WantitError(f"history {item!r}: name the card")
        out.append((seat, words[1].lower().startswith("t"), card[0]))
    return out


def _sr_history(inp, table, n, dealer):
    """Replay the history by the offering procedure of RULES.md §1.3: the rows of
    the free choices (see ``SR.HISTORY_WIDTH``), each seat's up cards after it, and
    the card left on offer ``(card, seat, refusals)`` or None."""
    rules = inp.rules
    max_rej = int(rules[SR.R_MAX_REJECTIONS])
    fresh = int(rules[SR.R_LAST_PLAYER_RULE]) == SR.LAST_PLAYER_FRESH_CARD
    up = {s: [] for s in range(n)}
    given_up = _seat_cards(table.up, n, "up")
    first = 0
    if not rules[SR.R_FIRST_UPCARD_OFFERED]:
        first = 1  # SR-A9: round 1's up cards are dealt, not offered
        for s in range(n):
            up[s] = given_up.get(s, [])[:1]
    rows = []
    entries = _history_entries(table.history, n)
    k = 0
    left = None
    for rnd in range(first, SR.UP):
        if k == len(entries):
            break
        needs = set(range(n))
        target = (dealer + 1 + rnd) % n
        rej = lone_rej = 0
        offer = None
        while needs and k < len(entries):
            seat, took, card = entries[k]
            where = f"history entry {k + 1} ({seat} {'takes' if took else 'refuses'} {card_text(card)})"
            if seat != target:
                raise WantitError(f"{where}: seat {target} is offered the card then, not seat {seat}")
            if offer is not None and card != offer:
                raise WantitError(f"{where}: the card on offer is {card_text(offer)}")
            offer = card
            lone = needs == {target}
            free = (lone_rej < max_rej and rej < max_rej) if (lone and fresh) else (rej < max_rej and not lone)
            nxt = target if lone else _next_in(needs, target, n)
            nxt_forced = (not lone) and rej + 1 >= max_rej
            if free:
                rows.append((seat, card, int(took), _mask(up[seat]), _mask(up[nxt]), int(nxt_forced)))
            if took:
                up[seat].append(card)
                needs.discard(seat)
                offer, rej, lone_rej = None, 0, 0
                if needs:
                    target = _next_in(needs, seat, n)
            else:
                if not free:
                    raise WantitError(f"{where}: seat {seat} had to take it")
                if lone:
                    lone_rej += 1
                    offer = None  # it went dead; a fresh card comes
                else:
                    rej += 1
                    target = nxt
            k += 1
        if needs:  # the history ends inside this round
            left = (offer, target, lone_rej if needs == {target} else rej)
            break
    if k < len(entries):
        raise WantitError(f"history: {len(entries) - k} entries after the last up card was taken")
    for s in range(n):
        if up[s] != given_up.get(s, []):
            shown = " ".join(card_text(c) for c in up[s]) or "none"
            raise WantitError(f"history: seat {s} takes {shown} by it, but its up cards are given as "
                              f"{' '.join(card_text(c) for c in given_up.get(s, [])) or 'none'}")
    return rows, up, left


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


def _sr_state(inp, table):
    """Selection/Rejection (RULES.md §1.3): the round is read from the up-card counts
    (all equal: a round begins; one more for some: the round is under way and the
    card on offer, or the seat the next one goes to, must be given), the seventh
    card from the hole-card counts."""
    from .engine import new_state

    n, dealer, me = _common(inp, table)
    S = SR.S
    rules = inp.rules
    hole, up, gone, offer, seen, _ = _offer_game_cards(table, n, SR.UP, SR.HOLE, f"a seat has {SR.HOLE} at most",
                                                       "give the one card on offer")

    if _history_entries(table.history, n):
        _, _, left = _sr_history(inp, table, n, dealer)
        if left is not None:
            card, seat, refused = left
            if offer or table.to is not None:
                if (offer[0] if offer else None) != card or _seat(table.to, n, "to") != seat or \
                        whole(table.refusals, "refusals") != refused:
                    said = f"{card_text(card)} offered to seat {seat}" if card is not None else \
                        f"the next card for seat {seat}"
                    raise WantitError(f"the history leaves {said} with {refused} refusals; the table says otherwise")
            else:
                offer = [card] if card is not None else []
                if card is not None:
                    seen.add(card, "the card on offer")
                table = replace(table, to=seat, refusals=refused)
    counts = [len(up.get(s, [])) for s in range(n)]
    low, high = min(counts), max(counts)
    if high - low > 1:
        raise WantitError(f"up cards: seats hold {low} to {high}; in a dealing round every seat takes one, so "
                          f"they differ by one at most")
    mid_round = high == low + 1
    rnd = low
    seventh = any(len(hole.get(s, [])) == SR.HOLE for s in range(n))
    if seventh and (rnd < SR.UP or mid_round):
        raise WantitError("a seat has its third hole card, which comes after the four up cards are taken")
    max_rej = int(rules[SR.R_MAX_REJECTIONS])
    refusals = whole(table.refusals, "refusals")
    needs = sum(1 << s for s in range(n) if counts[s] == rnd) if rnd < SR.UP else 0
    if (offer or table.to is not None) and rnd >= SR.UP:
        raise WantitError("every seat has its four up cards: no card is offered any more")
    if mid_round and not offer and table.to is None:
        raise WantitError(f"round {rnd + 1} is under way (some seats hold {high} up cards): give the card on offer "
                          f"and the seat it is offered to (--offer CARD --to SEAT), or the seat the next card "
                          f"goes to (--to SEAT)")
    to = None
    if offer or table.to is not None:
        if table.to is None:
            raise WantitError("offer: say which seat the card is offered to (--to SEAT)")
        to = _seat(table.to, n, "to")
        if not needs >> to & 1:
            raise WantitError(f"seat {to} already has its up card of round {rnd + 1}: the card cannot be offered "
                              f"to it")
        if not 0 <= refusals <= max_rej:
            raise WantitError(f"refusals: {refusals}; a card is refused {max_rej} times at most (max_rejections)")
        if refusals and not offer:
            raise WantitError("refusals: give the card that was refused (--offer CARD)")
    elif refusals:
        raise WantitError("refusals: give the card on offer (--offer CARD --to SEAT)")
    lone = to is not None and needs == 1 << to
    if to is not None and rnd == 0 and not rules[SR.R_FIRST_UPCARD_OFFERED]:
        raise WantitError("round 1's up cards are dealt face up, not offered (first_upcard_offered = false)")
    if lone and refusals and int(rules[SR.R_LAST_PLAYER_RULE]) == SR.LAST_PLAYER_FORCED:
        raise WantitError(f"seat {to} is the only one still needing a card this round: the card offered to it "
                          f"cannot have been refused (last_player_rule = forced)")

    st = new_state(inp, dealer=dealer)
    unknowns = []
    hidden = SR.HOLE if seventh else 2
    for s in range(n):
        cards = hole.get(s, [])
        cards = cards + [None] * (hidden - len(cards))
        for k, c in enumerate(cards):
            if c is None:
                unknowns.append((S.hole + SR.HOLE * s + k, S.hole_mask + s))
            else:
                st[S.hole + SR.HOLE * s + k] = c
                st[S.hole_mask + s] |= np.int64(card_bit(c))
        for k, c in enumerate(up.get(s, [])):
            st[S.up + SR.UP * s + k] = c
            st[S.up_mask + s] |= np.int64(card_bit(c))
            st[C.P.seen] |= np.int64(card_bit(c))
        st[S.n_up + s] = counts[s]
    for k, c in enumerate(gone):
        st[C.P.dead + k] = c
        st[C.P.seen] |= np.int64(card_bit(c))
    st[C.P.n_dead] = len(gone)
    st[S.round] = rnd
    # The leader moves one seat left each round from the dealer's left (SR-A8: nobody folds).
    st[S.leader] = (dealer + 1 + max(rnd - (0 if mid_round or to is not None else 1), 0)) % n
    if rnd >= SR.UP:
        st[C.B.phase] = SR.PH_HANDS if seventh else SR.PH_SEVENTH
    elif to is not None:
        st[C.B.phase] = SR.PH_OFFER
        st[S.needs] = needs
        st[C.B.turn] = to
        if lone:
            st[S.lone_rejections] = refusals  # SR-A2 fresh_card: the lone player's own refusals
        else:
            st[S.rejections] = refusals
        if offer:
            st[S.offer] = offer[0]
            st[C.P.seen] |= np.int64(card_bit(offer[0]))
        else:
            unknowns.append((S.offer, C.P.seen))  # a fresh card, turned up for ``to``
    else:
        st[C.B.phase] = SR.PH_ROUND
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    st[C.B.decisions] = 0
    return st


def _do_ya_state(inp, table):
    """Do Ya (RULES.md §3.3): one wild hole card a seat, then four up-rounds in which
    the seats take an up card each in turn from the dealer's left, the seat to act
    taking one of the round's rejects (``pool``) or asking for fresh cards. The round
    is read from the up-card counts: all equal, a round begins; the first seats from
    the dealer's left one more, the round is under way and the seat to act is the
    next of them (``to`` may name it; it is checked). Its turn so far: nothing given,
    it is still to choose at the rejects (or, with none, to see a fresh card);
    ``offer``, a fresh card turned up for it after it passed over the rejects;
    ``refusals``, the fresh cards it refused this turn (the last of the pool)."""
    from .engine import new_state

    n, dealer, me = _common(inp, table)
    S = DY.S
    max_rej = int(inp.rules[DY.R_MAX_REJECTIONS])
    hole, up, gone, offer, seen, (pool,) = _offer_game_cards(
        table, n, DY.UP, DY.HOLE, f"a seat has {DY.HOLE}, its wild card", "give the one card on offer (it is face up)",
        also=(("pool", "the pool", "the rejects lie face up on the table; give each of them"),))

    counts = [len(up.get(s, [])) for s in range(n)]
    low, high = min(counts), max(counts)
    if high - low > 1:
        raise WantitError(f"up cards: seats hold {low} to {high}; in an up-round every seat takes one, so they "
                          f"differ by one at most")
    rnd = low
    order = [(dealer + i) % n for i in range(1, n + 1)]  # the seats in turn, from the dealer's left
    done = sum(1 for s in order if counts[s] > rnd)  # seats that have their card of this round
    for i in range(done):
        if counts[order[i]] == rnd:
            later = next(order[j] for j in range(i + 1, n) if counts[order[j]] > rnd)
            raise WantitError(f"up cards: the seats take their round-{rnd + 1} cards in turn from the dealer's left "
                              f"(seat {order[0]} first): seat {later} has its card, but seat {order[i]} before it "
                              f"has not")
    if len(gone) > max_rej * rnd:
        raise WantitError(f"gone: {len(gone)} dead cards, but the {rnd} up-round(s) done leave {max_rej * rnd} at "
                          f"most (the rejects left on the table, max_rejections = {max_rej} a round)")
    refusals = whole(table.refusals, "refusals")
    if rnd >= DY.UP:
        if offer or pool or refusals or table.to is not None:
            raise WantitError("every seat has its four up cards: no card is offered any more and no rejects lie "
                              "on the table")
    else:
        turn = order[done]  # the seat to act
        if table.to is not None:
            to = _seat(table.to, n, "to")
            if counts[to] > rnd:
                raise WantitError(f"seat {to} already has its up card of round {rnd + 1}: the card cannot be "
                                  f"offered to it")
            if to != turn:
                raise WantitError(f"to: it is seat {turn}'s turn, not seat {to}'s: the seats take their "
                                  f"round-{rnd + 1} cards in turn from the dealer's left (seat {order[0]} first)")
        if not 0 <= refusals <= max_rej:
            raise WantitError(f"refusals: {refusals}; a seat refuses at most {max_rej} card(s) a turn "
                              f"(max_rejections)")
        if len(pool) > max_rej:
            raise WantitError(f"pool: {len(pool)} rejects; at most {max_rej} lie on the table at once "
                              f"(max_rejections)")
        if refusals > len(pool):
            raise WantitError(f"refusals: seat {turn} refused {refusals} card(s) this turn, which lie in the pool, "
                              f"but the pool holds {len(pool)}")
        if done == 0 and len(pool) > refusals:
            raise WantitError(f"pool: {len(pool)} rejects, but seat {turn} is the first to act in round {rnd + 1} "
                              f"and refused {refusals}: the pool starts empty each round, so every reject on it is "
                              f"one the first seat refused (refusals); earlier rounds' rejects are gone")
        if offer and len(pool) >= max_rej:
            raise WantitError(f"offer: seat {turn} has refused or passed over the {len(pool)} rejects in the pool "
                              f"this turn (max_rejections = {max_rej}), so it must take the next card: give it as "
                              f"its up card")

    st = new_state(inp, dealer=dealer)
    unknowns = []
    for s in range(n):
        c = (hole.get(s) or [None])[0]
        if c is None:
            unknowns.append((S.hole + DY.HOLE * s, -1))  # no mask: the hole card is read from its slot
        else:
            st[S.hole + DY.HOLE * s] = c
        for k, c in enumerate(up.get(s, [])):
            st[S.up + DY.UP * s + k] = c
            st[S.up_mask + s] |= np.int64(card_bit(c))
            st[C.P.seen] |= np.int64(card_bit(c))
        st[S.n_up + s] = counts[s]
    for k, c in enumerate(gone):
        st[C.P.dead + k] = c  # an empty stock is rebuilt from them (§3.3 deck exhaustion)
        st[C.P.seen] |= np.int64(card_bit(c))
    st[C.P.n_dead] = len(gone)
    for j, c in enumerate(pool):
        st[S.pool + j] = c
        st[C.P.seen] |= np.int64(card_bit(c))
    st[S.n_pool] = len(pool)
    st[S.round] = rnd
    if rnd >= DY.UP:
        st[C.B.phase] = DY.PH_ROUND  # the four are done: the hands, the showdown
    elif offer or refusals:
        # The seat has passed over the rejects (declining them counts each, §3.3 2.2)
        # and refused ``refusals`` fresh cards, which joined them: its refusals so far
        # are the pool's size, and at max_rejections the next card is forced.
        st[S.position] = done + 1
        st[C.B.turn] = turn
        st[S.rejections] = len(pool)
        if offer:
            st[S.offer] = offer[0]
            st[C.P.seen] |= np.int64(card_bit(offer[0]))
            st[C.B.phase] = DY.PH_OFFER
        else:
            st[C.B.phase] = DY.PH_DRAW
    elif done == 0 and not pool:
        st[C.B.phase] = DY.PH_ROUND  # the round begins (its pool empty, the first seat from the dealer's left)
    else:
        st[S.position] = done + 1
        st[C.B.phase] = DY.PH_SEAT  # the seat to act: the rejects on the table, or a fresh card
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    st[C.B.decisions] = 0
    return st


def _nth(street):
    return f"{street}{'rd' if street == 3 else 'th'} street"


def _rank_name(r):
    return f"{RANK_CHARS[r]}s"


def _count(k, word):
    return f"{k} {word}{'' if k == 1 else 's'}"


def _seat_chips(mapping, n):
    def chips(value, seat):
        if isinstance(value, str) and value.strip().isdecimal():
            value = int(value)
        paid = whole(value, f"fees[{seat}]")
        if paid < 0:
            raise WantitError(f"fees[{seat}]: {paid} chips; a fee paid is 0 or more")
        return paid

    return _per_seat(mapping, n, "fees", "chips", chips)


def _seat_ranks(mapping, n):
    def ranks(value, seat):
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if isinstance(text, str) and not text.strip():
            return []
        try:
            return parse_ranks(text)
        except CardError as e:
            raise WantitError(f"acted[{seat}]: {e}") from None

    return _per_seat(mapping, n, "acted", "ranks", ranks)


def _train_wreck_state(inp, table):
    """Train Wreck (RULES.md §4.3-4.4), in equity mode (nobody folds), at the start
    of a street (``street`` 3: nothing dealt yet; 4-6: the previous street's table
    cards and special pairs done, the street's offers next; 7: six cards each, the
    face-down 7th next), or on streets 4-6 with a card offered to a seat (``offer``,
    ``to``, ``refusals``: the seats just before it that paid to refuse it) or with
    the seat the next fresh card is turned up for (``to`` alone). Each seat has two
    hole cards (missing ones unknown), its table cards in the order received
    (``up``), its ``extra`` and ``stolen`` cards; ``gone`` are the buried cards,
    ``discarded`` the cards 3s/4s discarded, ``fees`` the chips each seat paid to
    refuse cards, ``acted`` the ranks whose pair acted and has since been broken.

    The street is read from the table-card counts unless given. Every pair among a
    seat's table cards has acted by the start of a street; on a street under way
    with end-of-street timing, a pair made by this street's card (a seat's last
    table card) is still to act. A table in the middle of the special actions, or
    after the 7th-street card, is refused as not supported yet."""
    from .engine import new_state

    n, dealer, _ = _common(inp, table)
    S = TW.S
    rules = inp.rules
    actions = [int(rules[TW.R_SPECIAL_PAIRS + r]) for r in range(13)]
    counts_extras = rules[TW.R_PAIRS_COUNT_EXTRAS] > 0
    retrigger = rules[TW.R_RETRIGGER] > 0
    optional = rules[TW.R_ACTIONS_OPTIONAL] > 0
    immediate = int(rules[TW.R_SPECIAL_TIMING]) == TW.TIMING_IMMEDIATE
    table_targets = int(rules[TW.R_TARGETS]) == TW.TARGETS_TABLE

    def fee(street):
        return int(rules[TW.R_FEE_UNIT] * rules[TW.R_FEE_MULTIPLIERS + street - 4])

    hole = _seat_cards(table.hole, n, "hole")
    up = _seat_cards(table.up, n, "up")
    extra = _seat_cards(table.extra, n, "extra")
    stolen = _seat_cards(table.stolen, n, "stolen")
    gone = _cards(table.gone, "gone")
    discarded = _cards(table.discarded, "discarded")
    offer = _cards(table.offer, "offer") if table.offer is not None else []
    if len(offer) > 1 or (offer and offer[0] is None):
        raise WantitError("offer: give the one card on offer")
    fees = _seat_chips(table.fees, n)
    acted = _seat_ranks(table.acted, n)

    seen = _Cards()
    for name, cards_of, what in (("up", up, "table card"), ("extra", extra, "extra card"),
                                 ("stolen", stolen, "stolen card")):
        for s, cards in cards_of.items():
            if None in cards:
                raise WantitError(f"{name}[{s}]: {what}s are face up and known to everyone; an unknown one "
                                  f"cannot be given")
            for c in cards:
                seen.add(c, f"{what} of seat {s}")
    for s, cards in up.items():
        if len(cards) > 4:
            raise WantitError(f"up[{s}]: {len(cards)} table cards; a seat is dealt 4 (table cards #1-#4)")
    for s, cards in hole.items():
        if len(cards) == TW.HOLE:
            raise WantitError(f"hole[{s}]: 3 hole cards: a table after the 7th-street card is not supported yet "
                              f"(describe it at the start of 7th street, before the face-down card)")
        if len(cards) > 2:
            raise WantitError(f"hole[{s}]: {len(cards)} hole cards; a seat has 2 before 7th street")
        for c in cards:
            seen.add(c, f"hole card of seat {s}")
    for name, cards, what in (("gone", gone, "buried card"), ("discarded", discarded, "discarded card")):
        for c in cards:
            if c is None:
                raise WantitError(f"{name}: a {what} was seen face up; give it")
            seen.add(c, what)
    for c in offer:
        seen.add(c, "the card on offer")

    # Which street, and where in it: seats walk from the dealer's left (step 1) to the dealer (step n).
    step = {(dealer + i) % n: i for i in range(1, n + 1)}
    counts = [len(up.get(s, [])) for s in range(n)]
    to = None
    if offer or table.to is not None:
        if table.to is None:
            raise WantitError("offer: say which seat the card is offered to (--to SEAT)")
        to = _seat(table.to, n, "to")
    if table.street is not None:
        street = whole(table.street, "street")
        if not 3 <= street <= 7:
            raise WantitError(f"street: {street}; Train Wreck's streets are 3 to 7")
    elif to is None:
        street = 3 + max(counts)
    else:
        street = max(counts) + (3 if step[to] == 1 else 2)
    if to is not None and not 4 <= street <= 6:
        raise WantitError(f"offer: no table card is offered on {_nth(street)}; cards are offered, and refused "
                          f"for a fee, on streets 4 to 6")
    j = step[to] if to is not None else 0
    when = (f"at the start of {_nth(street)}" if to is None else
            f"on {_nth(street)} with the {'card on offer' if offer else 'next card'} for seat {to}")
    anything = (any(counts) or any(hole.values()) or any(extra.values()) or any(stolen.values()) or gone
                or discarded)
    if street == 3 and anything:
        raise WantitError("no seat has a table card: a table is described once the first three cards (two down, "
                          "table card #1 up) are dealt; give each seat's table card")

    refusals = whole(table.refusals, "refusals")
    if refusals and to is None:
        raise WantitError("refusals: give the card on offer (--offer CARD --to SEAT)")
    if refusals and not offer:
        raise WantitError("refusals: give the card that was refused (--offer CARD)")
    if not 0 <= refusals <= max(j - 1, 0):
        raise WantitError(f"refusals: {refusals}; seat {to} is the first offered a card this street, so nobody has "
                          f"refused one yet" if j == 1 else
                          f"refusals: {refusals}; only {j - 1} seats were offered a card before seat {to} this street")

    def took_this_street(s):
        return to is not None and step[s] < j

    def received(s):  # table cards dealt to seat s so far
        return max(street - 3, 0) + (1 if took_this_street(s) else 0)

    for s in range(n):
        if street >= 4 and s not in up:
            raise WantitError(f"up: give seat {s}'s table cards (up {s} = \"\" if special pairs took them all)")
        if counts[s] > received(s):
            raise WantitError(f"up[{s}]: {counts[s]} table cards; {when} seat {s} has been dealt {received(s)} "
                              f"(one a street; say street = N if the street is later)")
        if counts[s] + len(extra.get(s, [])) + len(stolen.get(s, [])) > TW.UP - 1:
            raise WantitError(f"seat {s}: {counts[s]} table, {len(extra.get(s, []))} extra and "
                              f"{len(stolen.get(s, []))} stolen cards; a seat holds {TW.UP - 1} face up at most")

    # Special pairs: the ranks that have triggered (and acted) for each seat before this street's
    # card, and (a street under way, end-of-street timing) those this card made, still to act.
    prior = [set() for _ in range(n)]
    pending = [set() for _ in range(n)]
    counted = []  # each seat's cards its pairs are counted among, less a card whose pair is still to act
    for s in range(n):
        cards = list(up.get(s, [])) + (extra.get(s, []) + stolen.get(s, []) if counts_extras else [])
        new = None
        if took_this_street(s) and not immediate and counts[s]:
            new = up[s][-1]  # nothing leaves a seat during the offers: its last table card came this street
            cards.remove(new)
        counted.append(cards)
        before = received(s) - (1 if took_this_street(s) and not immediate else 0)  # when its pairs last acted
        for r in acted.get(s, []):
            if actions[r] == TW.ACTION_NONE:
                raise WantitError(f"acted[{s}]: a pair of {_rank_name(r)} does nothing under special_pairs")
            if not counts_extras and before < 2:
                raise WantitError(f"acted[{s}]: seat {s} had {before} table card{'' if before == 1 else 's'} when "
                                  f"special pairs last acted: no pair of {_rank_name(r)} can have acted")
            prior[s].add(r)
        for r in range(13):
            if actions[r] != TW.ACTION_NONE and sum(c >> 2 == r for c in cards) >= 2:
                prior[s].add(r)
        if new is not None:
            r = new >> 2
            if actions[r] != TW.ACTION_NONE and sum(c >> 2 == r for c in cards) == 1 and (
                    retrigger or r not in prior[s]):
                pending[s].add(r)

    def done(s, action):  # pairs of seat s whose ``action`` has been carried out
        return sum(actions[r] == action for r in prior[s])

    def held_pairs(s, action):  # pairs of ``action`` seat s holds that have acted
        return [r for r in sorted(prior[s])
                if actions[r] == action and sum(c >> 2 == r for c in counted[s]) >= 2]

    middle = "not supported yet: describe the table before or after the special actions"
    for s in range(n):
        for name, cards_of, action, what, verb in (("extra", extra, TW.ACTION_EXTRA_CARD, "extra card", "deal"),
                                                   ("stolen", stolen, TW.ACTION_STEAL, "stolen card", "steal")):
            k = len(cards_of.get(s, []))
            have = done(s, action)
            if k and (have == 0 or (k > have and not retrigger)):
                raise WantitError(f"{name}[{s}]: {_count(k, what)}, but seat {s} has had {_count(have, 'pair')} "
                                  f"that {verb}{'s' if have == 1 else ''} one (among its table cards now, or "
                                  f"listed in acted)")
            owed = held_pairs(s, action)
            if not optional and table_targets and k < len(owed):
                raise WantitError(f"{middle} (seat {s}'s pair of {_rank_name(owed[0])} has acted by now, but seat "
                                  f"{s} holds {_count(k, what)})")
    may_discard = sum(done(s, TW.ACTION_DISCARD) for s in range(n))
    if len(discarded) > may_discard and (not retrigger or may_discard == 0):
        raise WantitError(f"discarded: {_count(len(discarded), 'card')}, but the seats have had "
                          f"{_count(may_discard, 'pair')} that discard{'s' if may_discard == 1 else ''} one "
                          f"(among their table cards now, or listed in acted)")
    owed = sum(len(held_pairs(s, TW.ACTION_DISCARD)) for s in range(n))
    if not optional and len(discarded) < owed:
        raise WantitError(f"{middle} ({_count(owed, 'pair')} among the table cards that discard a card "
                          f"{'has' if owed == 1 else 'have'} acted by now, but {_count(len(discarded), 'card')} "
                          f"{'is' if len(discarded) == 1 else 'are'} discarded)")
    lost = sum(received(s) - counts[s] for s in range(n))
    taken = len(discarded) + sum(len(c) for c in stolen.values())
    if lost > taken or (table_targets and lost != taken):
        raise WantitError(f"table cards: the seats hold {sum(counts)} of the {lost + sum(counts)} dealt {when}; "
                          f"every one a seat lost was discarded or stolen by a special pair, but {taken} are "
                          f"discarded or stolen (or say street = N)")

    # Fees: one a street at most, refusing the card offered on it (4.3.3); the refusers of the
    # card on offer paid this street's, the seat before them took a card free; a card is buried
    # when the dealer (last) pays.
    def streets_acted(s):
        return list(range(4, street)) + ([street] if took_this_street(s) else [])

    def ways(s):  # the sets of streets whose fees add up to what seat s paid
        streets = streets_acted(s)
        out = []
        for bits in range(1 << len(streets)):
            chosen = [t for k, t in enumerate(streets) if bits >> k & 1]
            if sum(fee(t) for t in chosen) == fees.get(s, 0):
                out.append(set(chosen))
        return out

    for s in range(n):
        options = ways(s)
        if not options:
            streets = streets_acted(s)
            schedule = ", ".join(f"{fee(t)} on {_nth(t)}" for t in streets)
            raise WantitError(f"fees[{s}]: {fees.get(s, 0)} chips is not what refusing cards can have cost seat "
                              f"{s} {when}: at most one fee a street" + (f" ({schedule})" if streets else
                                                                          ", and no card has been offered to it yet"))
        if to is not None and j - refusals <= step[s] < j and not any(street in o for o in options):
            raise WantitError(f"fees[{s}]: seat {s} refused the card on offer (refusals = {refusals}) and paid "
                              f"{fee(street)} on {_nth(street)}, which {fees.get(s, 0)} chips do not include")
        if to is not None and step[s] == j - refusals - 1 and not any(street not in o for o in options):
            raise WantitError(f"fees[{s}]: seat {s} took its {_nth(street)} card free before the card on offer "
                              f"was turned (refusals = {refusals}), but {fees.get(s, 0)} chips include "
                              f"{_nth(street)}'s fee")
    if not any(len(o) == len(gone) for o in ways(dealer)):
        raise WantitError(f"gone: {len(gone)} buried card{'' if len(gone) == 1 else 's'}, but a card is buried "
                          f"only when the dealer (seat {dealer}, the last to be offered) pays to refuse it, and "
                          f"fees[{dealer}] = {fees.get(dealer, 0)} chips pay for a different number of refusals")

    st = new_state(inp, dealer=dealer)
    unknowns = []
    for s in range(n):
        cards = hole.get(s, [])
        if street >= 4:
            cards = cards + [None] * (2 - len(cards))
        for k, c in enumerate(cards):
            if c is None:
                unknowns.append((S.hole + TW.HOLE * s + k, S.hole_mask + s))
            else:
                st[S.hole + TW.HOLE * s + k] = c
                st[S.hole_mask + s] |= np.int64(card_bit(c))
        k = 0
        for slot, cards in ((S.table, up.get(s, [])), (S.extra, extra.get(s, [])), (S.stolen, stolen.get(s, []))):
            for c in cards:
                st[slot + s] |= np.int64(card_bit(c))
                st[C.P.seen] |= np.int64(card_bit(c))
                st[S.up + TW.UP * s + k] = c
                k += 1
        st[S.n_up + s] = k
        st[S.triggered + s] = sum(1 << r for r in prior[s] | pending[s])
        st[S.pending + s] = sum(1 << r for r in pending[s])
        st[C.P.paid + s] += fees.get(s, 0)
    for k, c in enumerate(gone):
        st[S.buried + k] = c
        st[C.P.seen] |= np.int64(card_bit(c))
    st[S.n_buried] = len(gone)
    for k, c in enumerate(discarded):
        st[C.P.dead + k] = c
        st[C.P.seen] |= np.int64(card_bit(c))
    st[C.P.n_dead] = len(discarded)
    if street >= 4:
        st[S.street] = street
        if to is None:
            st[C.B.phase] = TW.PH_STREET if street <= 6 else TW.PH_SEVENTH
        else:
            st[S.fee] = fee(street)
            st[S.step] = j
            st[S.refusals] = refusals
            if offer:
                st[S.offered] = offer[0]
                st[C.P.seen] |= np.int64(card_bit(offer[0]))
                st[C.B.turn] = to
                st[C.B.phase] = TW.PH_PAY
            else:
                st[S.offered] = NO_CARD
                st[C.B.phase] = TW.PH_SEAT
    unseen = 52 - len(seen.where)
    if len(unknowns) > unseen:
        raise WantitError(f"the table leaves {unseen} unseen cards for {len(unknowns)} unknown hole cards")
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    st[C.B.decisions] = 0
    return st


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


def _packets(value, what):
    """Packets of cards, one per pass (each a list of codes, every card known): a
    list of card texts or code lists, or one text with ';' between packets."""
    if not _given(value):
        return []
    if isinstance(value, str):
        items = value.split(";")
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise WantitError(f"{what}: give a list of packets, one per pass (e.g. [\"7c 2d 3h\", \"9s 4d\"])")
    out = []
    for k, item in enumerate(items, 1):
        if not isinstance(item, (str, list, tuple)):
            raise WantitError(f"{what}[{k}]: {item!r} is not a packet of cards (text such as '7c 2d 3h', or a list)")
        cards = _cards(item, f"{what}[{k}]")
        if None in cards:
            raise WantitError(f"{what}[{k}]: you know the cards you {what}; '??' cannot be one")
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise WantitError(f"{what}[{k}]: card {card_text(twice)} is given twice")
        out.append(cards)
    return out


def _an_phase(value, passes):
    """``(stage, passes done)`` from the ``phase`` text: "pass N", "keep" or "roll"."""
    text = " ".join(str(value).lower().split())
    if text in ("keep", "roll"):
        return text, passes
    m = re.fullmatch(r"pass ?(\d+)", text)
    if m:
        k = int(m.group(1))
        if not passes:
            raise WantitError(f"phase: {text}; no pass is made at this table (every pass of the schedule would "
                              f"reach its passer, pass_to_self_rule = skip)")
        if not 1 <= k <= passes:
            raise WantitError(f"phase: {text}; this table makes {_n(passes, 'pass')} (pass 1..{passes})")
        return "pass", k - 1
    raise WantitError(f"phase {value!r}: write 'pass N' (before the N-th pass), 'keep' (the passes done, the keep "
                      f"to come) or 'roll' (the stacks made)")


def _n(k, word):
    return f"{k} {word}" + ("" if k == 1 else "es" if word.endswith("s") else "s")


def _or(seats):
    seats = [str(s) for s in sorted(seats)]
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " or " + seats[-1]


def _anaconda_state(inp, table):
    """Anaconda (RULES.md §2.3) from my chair (``me``). Three stages:

    * ``pass N``: before the N-th pass (of those made at this table: a phase that
      AN-A3 skips does not count); my hand of ``hand_size`` cards; ``passed`` and
      ``received``, one packet per pass done (or neither). The stage is inferred
      from how many packets I have passed, when ``phase`` is not given.
    * ``keep``: the passes done, every seat keeps five (in the table state from the
      dealer's left, as the kernel plays it; the keeps are secret, so the order
      tells nobody anything). My hand: ``hand_size`` cards, or the five I kept
      (then ``gone`` is the cards I discarded, and my stack order is still to
      choose: the hide decision).
    * ``roll``: the stacks made, ``up`` the cards turned up so far (as many for
      every seat), ``hole`` each seat's face-down stack cards in stack order (the
      last is the one that stays down till the showdown), ``gone`` the discards
      seen. The cards I passed cannot be placed here (each is in its holder's stack
      or among its discards): ``passed`` and ``received`` are refused.

    What I know goes where the kernel keeps it: my hand; a card I passed that is not
    back in my hand, in the hand of the one seat that can hold it (when it may have
    been passed on, so that more than one seat could, the table is refused: the
    state holds a card only where it is); the ``received[receiver, passer]``
    matrix the pass policies read, for what I passed and received (what the others
    passed each other is unknown to me and left empty: their policies then see no
    spite evidence of it). Every other hidden card is unknown, dealt at random
    from the unseen cards for each deal."""
    from .engine import new_state

    n, dealer, me = _common(inp, table)
    S = AN.S
    rules = inp.rules
    size = int(rules[AN.R_HAND_SIZE])
    skip = int(rules[AN.R_PASS_TO_SELF])
    schedule = [(int(rules[AN.R_PASSES + 2 * i]), int(rules[AN.R_PASSES + 2 * i + 1]))
                for i in range(int(rules[AN.R_N_PASSES]))]
    # The passes made at this table (AN-A3 skip: an offset reaching back to the passer skips the phase).
    phases = [i for i, (_, off) in enumerate(schedule) if AN.recipient(0, off, n, skip) >= 0]

    def recipient(seat, e):
        return int(AN.recipient(seat, schedule[phases[e]][1], n, skip))

    def count(e):
        return schedule[phases[e]][0]

    if table.offer is not None or table.to is not None or whole(table.refusals, "refusals"):
        raise WantitError("offer, to and refusals describe a card on offer (Selection/Rejection); Anaconda offers none")
    hole = _seat_cards(table.hole, n, "hole")
    up = _seat_cards(table.up, n, "up")
    gone = _cards(table.gone, "gone")
    passed = _packets(table.passed, "passed")
    received = _packets(table.received, "received")
    for s, cards in up.items():
        if None in cards:
            raise WantitError(f"up[{s}]: face-up cards are known to everyone; an unknown one cannot be up")
        if len(cards) > AN.UP:
            raise WantitError(f"up[{s}]: {len(cards)} cards turned up; a stack turns up {AN.UP} before the showdown")
    if None in gone:
        raise WantitError("gone: a card gone from play was seen; give it")

    # Where the deal is: stated, or read from the cards turned up and the packets passed.
    rolled = max((len(c) for c in up.values()), default=0)
    for name, packets in (("passed", passed), ("received", received)):
        if len(packets) > len(phases):
            raise WantitError(f"{name}: {_n(len(packets), 'packet')}; this table makes {_n(len(phases), 'pass')}")
    if table.phase is not None:
        stage, done = _an_phase(table.phase, len(phases))
    elif rolled:
        stage, done = "roll", len(phases)
    elif passed or received:
        done = max(len(passed), len(received))
        stage = "pass" if done < len(phases) else "keep"
    elif not phases or len(hole.get(me, ())) == 5:
        stage, done = "keep", len(phases)
    else:
        stage, done = "pass", 0
    where = {"pass": f"before pass {done + 1}", "keep": "after the passes", "roll": "in the roll"}[stage]
    if stage == "roll" and (passed or received):
        raise WantitError("passed, received: in the roll a card you passed is in its holder's stack or among its "
                          "discards, which a table state cannot hold; leave them out (your passed cards are then "
                          "unseen cards)")
    for name, packets in (("passed", passed), ("received", received)):
        if packets and len(packets) != done:
            raise WantitError(f"{name}: {_n(len(packets), 'packet')}, but {_n(done, 'pass')} "
                              f"{'are' if done != 1 else 'is'} done "
                              f"({where}); give one per pass done, or none")
        for e, cards in enumerate(packets):
            if len(cards) != count(e):
                raise WantitError(f"{name}[{e + 1}]: {len(cards)} cards; pass {e + 1} passes {count(e)}")
    if rolled and stage != "roll":
        raise WantitError(f"up: cards are turned up in the roll, once the stacks are made; {where} none is up")

    # Hand sizes.
    kept = stage == "keep" and len(hole.get(me, ())) == 5
    if stage == "roll":
        for s in range(n):
            if len(up.get(s, [])) != rolled:
                other = next(t for t in range(n) if len(up.get(t, [])) == rolled)
                raise WantitError(f"up: seat {s} shows {_n(len(up.get(s, [])), 'card')} and seat {other} {rolled}; "
                                  f"every seat turns up its stack cards together")
        limit = mine_size = AN.STACK - rolled
        held = f"a stack has {limit} face down with {rolled} turned up"
    else:
        limit = size
        mine_size = 5 if kept else size
        held = f"a hand is {size} cards {where}"
    mine = hole.get(me, [None] * mine_size)
    if len(mine) != mine_size:
        if stage == "pass" and len(mine) == size - count(done):
            raise WantitError(f"hole[{me}]: {len(mine)} cards, a hand between passing and receiving: describe it "
                              f"before pass {done + 1}, the {count(done)} cards you pass still in your hand (a table "
                              f"state holds no packet chosen ahead)")
        if stage == "keep":
            raise WantitError(f"hole[{me}]: {len(mine)} cards; after the passes you hold {size}, or the 5 you kept")
        raise WantitError(f"hole[{me}]: {len(mine)} cards; {held}")
    for s, cards in hole.items():
        if s != me and len(cards) > limit:
            raise WantitError(f"hole[{s}]: {len(cards)} cards; {held}")
    if stage == "roll":
        if len(gone) > (size - 5) * n:
            raise WantitError(f"gone: {len(gone)} cards; the {n} seats discard {(size - 5) * n} in all")
    elif kept:
        if len(gone) != size - 5:
            raise WantitError(f"gone: give the {_n(size - 5, 'card')} you discarded (you kept 5 of {size}); "
                              f"{len(gone)} given")
    elif gone:
        raise WantitError("gone: nothing is out of play before you keep five (then gone is what you discarded)")

    seen = _Cards()
    for s, cards in up.items():
        for c in cards:
            seen.add(c, f"up card of seat {s}")
    for s, cards in hole.items():
        for c in cards:
            seen.add(c, f"hole card of seat {s}")
    for c in gone:
        seen.add(c, "gone")

    # My passes: my hand read back pass by pass, and where each card I passed is now.
    final = mine + (gone if kept else [])  # my hand after the passes
    place = {s: set() for s in range(n)}
    if passed or received:
        if None in final:
            raise WantitError(f"hole[{me}]: give your own cards to describe what you passed and received")
        hand = set(final)
        for e in reversed(range(done)):
            sent = set(passed[e]) if passed else set()
            got = set(received[e]) if received else set()
            both = sent & got
            if both:
                raise WantitError(f"card {card_text(min(both))} is passed and received in pass {e + 1}: the packets "
                                  f"cross, a card cannot be in both")
            if (passed and received) or e == done - 1:
                for c in sorted(got):
                    if c not in hand:
                        raise WantitError(f"card {card_text(c)} you received in pass {e + 1} is not in your hand, nor "
                                          f"in a packet you passed later")
                for c in sorted(sent):
                    if c in hand:
                        raise WantitError(f"card {card_text(c)} you passed in pass {e + 1} is in your hand"
                                          + (", and you did not receive it back" if e < done - 1 else ""))
            hand = (hand - got) | sent
        others = {c: s for s, cards in hole.items() if s != me for c in cards if c is not None}
        last = {c: e for e, cards in enumerate(passed) for c in cards}
        for c in sorted(last):
            e = last[c]
            if c in final:
                continue  # it came back to me
            r = recipient(me, e)
            reach = {r}
            for k in range(e + 1, done):
                reach |= {recipient(h, k) for h in reach}
                reach.discard(me)  # had it come back to me, I would hold it or have passed it again
            if c in others:
                if others[c] not in reach:
                    raise WantitError(f"card {card_text(c)} you passed to seat {r} in pass {e + 1} cannot have reached "
                                      f"seat {others[c]} (seat {_or(reach)} holds it)")
                continue
            if len(reach) > 1:
                raise WantitError(f"card {card_text(c)} you passed to seat {r} in pass {e + 1} may have been passed on "
                                  f"since (seat {_or(reach)} holds it): a table state holds a card only where it is "
                                  f"known to be; describe the table before pass {e + 2}, say which seat holds it "
                                  f"(hole), or leave passed and received out (your passed cards are then unseen cards)")
            place[r].add(c)
            seen.add(c, f"the card you passed to seat {r}")

    st = new_state(inp, dealer=dealer)
    for e in range(done):
        # received[receiver, passer]: what I passed, what was passed to me (the pass policies' evidence).
        if passed:
            r = recipient(me, e)
            st[S.received + C.SEATS * r + me] |= np.int64(sum(int(card_bit(c)) for c in passed[e]))
        if received:
            p = next(q for q in range(n) if recipient(q, e) == me)
            st[S.received + C.SEATS * me + p] |= np.int64(sum(int(card_bit(c)) for c in received[e]))
    unknowns = []
    if stage == "roll":
        # The kernel reads each stack from kept / up / hole now (a seat's hand is not read after its keep).
        for s in range(n):
            down = mine if s == me else hole.get(s, [])
            stack = up.get(s, []) + down + [None] * (limit - len(down))
            for k, c in enumerate(stack):
                slot = S.up + AN.UP * s + k if k < AN.UP else S.hole + AN.HOLE * s
                if c is None:
                    unknowns.append((slot, S.kept + s))
                else:
                    st[slot] = c
                    st[S.kept + s] |= np.int64(card_bit(c))
            for c in up.get(s, []):
                st[C.P.shown + s] |= np.int64(card_bit(c))
                st[C.P.seen] |= np.int64(card_bit(c))
        st[S.pass_phase] = len(schedule)
        st[C.B.phase] = AN.PH_ROLL
    else:
        for s in range(n):
            listed = mine if s == me else hole.get(s, [])
            known = {c for c in listed if c is not None} | place[s]
            if len(known) > limit:
                raise WantitError(f"hole[{s}]: seat {s} holds the {_n(len(place[s]), 'card')} you passed it and "
                                  f"{len(known) - len(place[s])} more; {held}")
            for c in known:
                st[S.hand + s] |= np.int64(card_bit(c))
            unknowns += [(-1, S.hand + s)] * ((mine_size if s == me else size) - len(known))
        st[S.pass_phase] = phases[done] if stage == "pass" else len(schedule)
        st[C.B.phase] = AN.PH_PASS_PHASE
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    if len(unknowns) > int(st[C.P.deck + 1] - st[C.P.deck]):
        raise WantitError(f"the table leaves {int(st[C.P.deck + 1] - st[C.P.deck])} unseen cards for "
                          f"{len(unknowns)} unknown ones")
    st[C.B.decisions] = 0
    return st


BUILDERS = {"selection_rejection": _sr_state, "do_ya": _do_ya_state, "anaconda": _anaconda_state,
            "train_wreck": _train_wreck_state}
