"""A table described by a player: who sits where, the cards each seat holds (any
hidden card may be unknown, mine too), the cards gone from play, the card on offer
and its refusals. ``table_state`` turns a description into the game's table
state (``analyzer.engine``), from which the engine plays every deal on: the known
cards stay where they are, the unknown hidden cards are dealt at random from the
cards nobody has seen, afresh for every deal.

Three ways to describe a table, all ending in a ``Table``: the dataclass itself,
``table_from_flags`` (the command line's ``--hole SEAT=CARDS``, ``--up``,
``--gone``, ``--offer CARD --to SEAT --refusals K``) and ``load_table`` (a TOML or
JSON file with the same fields; ``examples/`` has one). Unknown cards are written
``??`` (or ``xx``). An impossible table is one ``WantitError`` naming what is wrong.

Built for Selection/Rejection (``_sr_state``) and Anaconda (``_anaconda_state``;
its own fields ``phase``, ``passed``, ``received``: the flags ``--phase``,
``--passed CARDS``, ``--received CARDS``).
"""

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernels.cards import card_bit
from kernels.games import anaconda as AN
from kernels.games import common as C
from kernels.games import selection_rejection as SR

from .cards import CardError, card_code, card_text
from .errors import WantitError
from .runs import whole

UNKNOWN_TOKENS = ("??", "?", "xx", "x")
FIELDS = ("variant", "players", "dealer", "me", "hole", "up", "gone", "offer", "to", "refusals", "phase", "passed",
          "received")


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
    to: int | None = None  # the seat it is offered to (with no offer: the seat the next card goes to)
    refusals: int = 0  # refusals of the card on offer so far
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
    try:
        s = whole(value, where) if not isinstance(value, str) else int(value) if value.strip().isdecimal() else None
    except WantitError:
        s = None
    if s is None or not 0 <= int(s) < n:
        raise WantitError(f"{where}: seat {value!r} is not a seat 0..{n - 1}")
    return int(s)


def _seat_cards(mapping, n, what):
    if not isinstance(mapping, dict):
        raise WantitError(f"{what}: give a table of seat = cards")
    out = {}
    for key, cards in mapping.items():
        seat = _seat(key, n, what)
        if seat in out:
            raise WantitError(f"{what}: seat {seat} is given twice")
        out[seat] = _cards(cards, f"{what}[{seat}]")
    return out


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
                     refusals=0, phase=None, passed=(), received=()) -> Table:
    """A ``Table`` from the command line's repeatable ``SEAT=CARDS`` items."""
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
                 phase=phase, passed=list(passed), received=list(received))


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
    return builder(inp, table)


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


def _sr_state(inp, table):
    """Selection/Rejection (RULES.md §1.3): the round is read from the up-card counts
    (all equal: a round begins; one more for some: the round is under way and the
    card on offer, or the seat the next one goes to, must be given), the seventh
    card from the hole-card counts."""
    from .engine import new_state

    n, dealer, me = _common(inp, table)
    if table.phase is not None or _given(table.passed) or _given(table.received):
        raise WantitError("phase, passed and received describe an Anaconda table; Selection/Rejection has no passes")
    S = SR.S
    rules = inp.rules
    hole = _seat_cards(table.hole, n, "hole")
    up = _seat_cards(table.up, n, "up")
    gone = _cards(table.gone, "gone")
    offer = _cards(table.offer, "offer") if table.offer is not None else []
    if len(offer) > 1 or (offer and offer[0] is None):
        raise WantitError("offer: give the one card on offer")
    seen = _Cards()
    for s, cards in up.items():
        if None in cards:
            raise WantitError(f"up[{s}]: face-up cards are known to everyone; an unknown one cannot be up")
        if len(cards) > SR.UP:
            raise WantitError(f"up[{s}]: {len(cards)} up cards; a seat takes {SR.UP}")
        for c in cards:
            seen.add(c, f"up card of seat {s}")
    for s, cards in hole.items():
        if len(cards) > SR.HOLE:
            raise WantitError(f"hole[{s}]: {len(cards)} hole cards; a seat has {SR.HOLE} at most")
        for c in cards:
            seen.add(c, f"hole card of seat {s}")
    for c in gone:
        if c is None:
            raise WantitError("gone: a card gone from play was seen; give it")
        seen.add(c, "gone")
    for c in offer:
        seen.add(c, "the card on offer")

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


BUILDERS = {"selection_rejection": _sr_state, "anaconda": _anaconda_state}
