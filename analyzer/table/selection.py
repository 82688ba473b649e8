"""A Selection (RulesPal) table (RULES.md §5.3): a game described in the middle.

The round ``t`` (1..11) and where it stands (``draw``: the draw under way, 1..3,
or ``"score"`` once the draws are done; ``"target"`` for the declarations of
SE-A6), the round's dealer (``dealer``) and the seat to act (``to``, default
``me``), each seat's board (``scores``: seat -> {slot id: points}; 0 is a
scratch), the cards a seat holds (``hole``: my 7 cards, ``??`` for an unknown
one; a seat not given holds 7 unknown cards), my discards lying in the discard
pile (``discards``), the stock's size (``stock``; default: every unseen card not
in a hand is in the stock, i.e. the other seats' discards are not counted) and,
with ``declare_target_before_draws``, the targets declared this round
(``targets``: seat -> slot id). ``board`` and ``deck`` name the board file and
deck (default: the PROVISIONAL board, standard52).

The unknown cards (every card of the deck not in a given hand or my discards)
are dealt at random for every deal to the unknown hand places, to the other
seats' discards (the pile's cards beyond mine, when ``stock`` leaves some) and
to the stock. That is the uniform completion: it does not condition the other
seats' hands on what their policies would have kept. The policies' memory of
the slot they aimed at by an earlier draw of this round is not known either: at
their next draw they estimate every open slot afresh.
"""

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

from kernels.games import selection as G
from kernels.games.common import B

from ..errors import WantitError
from ..runs import whole
from ..selection_config import card_points, resolve
from .parse import UNKNOWN_TOKENS, _count, _given, _per_seat, _seat, whole_text

SCORE_WORDS = ("score", "scoring", "fill", "assign")


@dataclass(frozen=True)
class Where:
    """Where a described table stands, read from its fields (for reports)."""

    round: int  # 1..11
    phase: str  # "target", "draw" or "score"
    draw: int  # the draw under way, 1..draws (0 for target and score)
    draws: int  # draws this round
    to: int  # the seat to act
    dealer: int  # the round's dealer
    stock: int  # cards in the stock
    unseen: int  # cards nobody at the query knows


def _round(value, n_slots):
    if value is None:
        return 1
    t = whole_text(value, "round")
    if not 1 <= t <= n_slots:
        raise WantitError(f"round: {value!r} is not a round 1..{n_slots} (one slot is filled a round)")
    return t


def _phase(value, draws, declare):
    """``(phase, draw)`` from the ``draw`` field."""
    if value is None:
        return "draw", 1
    if isinstance(value, str) and value.strip().lower() in SCORE_WORDS:
        return "score", 0
    if isinstance(value, str) and value.strip().lower() == "target":
        if not declare:
            raise WantitError("draw: 'target' is the declaration of the targets, which only "
                              "declare_target_before_draws has")
        return "target", 0
    if isinstance(value, str) and not value.strip().isdecimal():
        raise WantitError(f"draw: {value!r} should be the draw under way (1..{draws}), 'score' after the last "
                          f"draw" + (", or 'target'" if declare else ""))
    d = whole_text(value, "draw")
    if not 1 <= d <= draws:
        raise WantitError(f"draw: {d}; this round has {draws} draws (1..{draws}; 'score' after the last)")
    return "draw", d


def _slot_scores(text, seat, ids):
    """``{slot index: points}`` of one seat's board: a table of slot id = points, or
    text ``"low:60, cosmopolitan:94"`` (``=`` also)."""
    where = f"scores[{seat}]"
    if isinstance(text, dict):
        items = list(text.items())
    elif isinstance(text, str):
        items = []
        for part in text.replace(",", " ").split():
            key, sep, value = part.replace("=", ":").partition(":")
            if not sep or not key:
                raise WantitError(f"{where}: {part!r} should look like SLOT:POINTS, e.g. low:60")
            items.append((key, value))
    else:
        raise WantitError(f"{where}: give a table of slot id = points")
    out = {}
    for key, value in items:
        key = str(key).strip()
        if key not in ids:
            raise WantitError(f"{where}: no slot {key!r} on the board; slots are {', '.join(ids)}")
        k = ids.index(key)
        if k in out:
            raise WantitError(f"{where}: slot {key} is given twice (a slot is filled once)")
        points = whole_text(value, f"{where}.{key}")
        if points < 0:
            raise WantitError(f"{where}.{key}: {points} must be points >= 0 (0: scratched)")
        out[k] = points
    return out


def _lh_points(rank, ace_one):
    if rank <= 10:
        return card_points(rank)
    return 11 if rank == 14 and ace_one else 0


@lru_cache(maxsize=32)
def _possible_scores(kind, used, deck, ace_one, min_cards):
    """Every score a fill of ``kind`` can write with ``deck`` (RULES.md §5.2-§5.4),
    from every multiset of at most five ranks the deck holds."""
    per_rank = {}
    for rank, colour in deck.cards:
        per_rank.setdefault(rank, {}).setdefault(colour, 0)
        per_rank[rank][colour] += 1
    ranks = sorted(per_rank)
    total = {r: sum(per_rank[r].values()) for r in ranks}
    colours = range(deck.n_colours)
    low_ranks = {14: 1} if deck.ace_low else {}
    out = set()
    for size in range(1, 6):
        for combo in combinations_with_replacement(ranks, size):
            count = {r: combo.count(r) for r in set(combo)}
            if any(count[r] > total[r] for r in count):
                continue
            points = sum(card_points(r) for r in combo)
            if kind in ("low", "high"):
                if size >= min_cards and all(_lh_points(r, ace_one) for r in combo):
                    out.add(sum(_lh_points(r, ace_one) for r in combo))
                continue
            groups = sorted(count.values(), reverse=True)
            if kind in ("pair", "three_of_a_kind", "four_of_a_kind"):
                need = {"pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4}[kind]
                ok = groups[0] >= need and (used == "all" or (size == need and len(groups) == 1))
            elif kind == "two_pair":
                ok = len(groups) >= 2 and groups[1] >= 2 and (used == "all" or size == 4)
            elif kind == "full_house":
                ok = size == 5 and groups[:2] == [3, 2]
            elif size != 5:
                ok = False
            elif kind == "cosmopolitan":
                ok = True  # five cards can always be of different colours (one colour a card, in turn)
            else:
                values = sorted({low_ranks.get(r, r) for r in combo} | set(combo))
                straight = len(count) == 5 and any(all(v in values for v in range(s, s + 5)) for s in range(1, 11))
                one_colour = any(all(per_rank[r].get(c, 0) >= count[r] for r in count) for c in colours)
                ok = {"straight": straight, "flush": one_colour,
                      "straight_flush": straight and one_colour}[kind]
            if ok:
                out.add(points)
    return frozenset(out)


class _TableCards:
    """Every card of the table once, as deck indices; a deck holding several copies
    of a card gives each mention the next copy."""

    def __init__(self, deck):
        self.deck = deck
        self.where = {}

    def read(self, value, where, unknown_ok):
        if value is None:
            return []
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            value = [value]
        if not isinstance(value, (str, list, tuple)):
            raise WantitError(f"{where}: {value!r} is not cards (text such as 'As Kd', or a list)")
        items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
        out = []
        for item in items:
            if item is None or (isinstance(item, str) and item.strip().lower() in UNKNOWN_TOKENS):
                if not unknown_ok:
                    raise WantitError(f"{where}: name each card (an unknown card cannot be given here)")
                out.append(None)
                continue
            out.append(self._one(item, where))
        return out

    def _one(self, item, where):
        d = self.deck
        if isinstance(item, str):
            try:
                parsed = d.parse(item)
            except WantitError as e:
                raise WantitError(f"{where}: {e}") from None
            if len(parsed) != 1:
                raise WantitError(f"{where}: {item!r} should be one card, e.g. {d.card_text(0)}")
            first = parsed[0]
            copies = [i for i, c in enumerate(d.cards) if c == d.cards[first]]
        else:
            first = int(whole(item, where))
            if not 0 <= first < d.size:
                raise WantitError(f"{where}: card index {item!r} is not 0..{d.size - 1}")
            copies = [first]
        for i in copies:
            if i not in self.where:
                self.where[i] = where
                return i
        if len(copies) == 1:
            raise WantitError(f"card {d.card_text(first)} is given twice ({self.where[first]} and {where})")
        places = " and ".join(sorted({self.where[i] for i in copies} | {where}))
        raise WantitError(f"card {d.card_text(first)} is given {len(copies) + 1} times; deck {d.name} holds "
                          f"{len(copies)} ({places})")


def _refuse_other_fields(table):
    for name, why in (("up", "Selection hands are held face down (give them with hole)"),
                      ("gone", "nothing is out of play in Selection (my discards: discards)"),
                      ("offer", "nothing is offered in Selection"),
                      ("refusals", "nothing is offered in Selection")):
        value = getattr(table, name)
        if (value not in (0, None) if name == "refusals" else _given(value)):
            raise WantitError(f"{name}: a Selection table has no {name} ({why})")


def _check_board(seat, board_scores, slots, expected, t, rules, deck):
    """One seat's board against the rules: one slot a round, the opening rule, the
    Low / High rule and scores a fill can write."""
    filled = len(board_scores)
    if filled != expected:
        raise WantitError(f"scores[{seat}]: {_count(filled, 'slot')} filled, but seat {seat} has filled "
                          f"{expected} by now (one slot a round; round {t} is under way)")
    ids = [s.id for s in slots]
    opening = next((k for k, s in enumerate(slots) if s.opening), None)
    if opening is not None:
        if opening not in board_scores:
            pointed = [k for k, v in board_scores.items() if v > 0]
            if pointed:
                raise WantitError(f"scores[{seat}]: {ids[pointed[0]]} has {board_scores[pointed[0]]} points while "
                                  f"{ids[opening]} is open; until the opening is made only it takes points "
                                  f"(§5.3 a)")
        elif board_scores[opening] == 0 and filled < len(slots):
            raise WantitError(f"scores[{seat}]: {ids[opening]} is 0, which it is given only as the last open slot "
                              f"(§5.3 a, SE-A10)")
    ace_one = rules[G.R_ACE_ONE] > 0
    min_cards = int(rules[G.R_LOW_HIGH_MIN])
    for k, points in board_scores.items():
        if points and points not in _possible_scores(slots[k].kind, slots[k].used, deck, ace_one, min_cards):
            raise WantitError(f"scores[{seat}].{ids[k]}: no {slots[k].kind} fill scores {points} with deck "
                              f"{deck.name}")
    low = next((k for k, s in enumerate(slots) if s.kind == "low"), None)
    high = next((k for k, s in enumerate(slots) if s.kind == "high"), None)
    if low is not None and high is not None:
        lo, hi = board_scores.get(low, 0), board_scores.get(high, 0)
        if lo > 0 and hi > 0 and hi <= lo:
            raise WantitError(f"scores[{seat}]: {ids[high]} {hi} must be above {ids[low]} {lo} (§5.4)")


def selection_table(inp, table):
    """``(state, Where)`` of a Selection table for the engine inputs ``inp`` (built
    with the table's board and deck)."""
    from ..engine import new_state

    _refuse_other_fields(table)
    board, deck = resolve(table.board, table.deck)
    slots = board.slots
    ids = [s.id for s in slots]
    n_slots = len(slots)
    n = inp.players
    rules = inp.rules
    declare = rules[G.R_DECLARE_TARGET] > 0
    dealer = n - 1 if table.dealer is None else _seat(table.dealer, n, "dealer")
    me = _seat(table.me, n, "me")
    to = me if table.to is None else _seat(table.to, n, "to")
    t = _round(table.round, n_slots)
    draws = 3 if t - 1 >= n_slots - 2 else 2
    phase, d = _phase(table.draw, draws, declare)
    step_to = (to - dealer - 1) % n + 1
    done = {(dealer + i) % n for i in range(1, step_to)}  # seats that acted in this phase already

    boards = _per_seat(table.scores, n, "scores", "slot scores", lambda v, s: _slot_scores(v, s, ids))
    for s in range(n):
        expected = t - 1 + (1 if phase == "score" and s in done else 0)
        _check_board(s, boards.get(s, {}), slots, expected, t, rules, deck)

    targets = _per_seat(table.targets, n, "targets", "slot id", lambda v, s: str(v).strip())
    if targets and not declare:
        raise WantitError("targets: slots are declared before the draws only with declare_target_before_draws "
                          "(--rule declare_target_before_draws=true)")
    aims = {}
    if declare:
        for s in range(n):
            declared = (s in done) if phase == "target" else True
            if phase == "score" and s in done:
                declared = s in targets  # it has filled this round: its target no longer matters
            if s in targets and not declared:
                raise WantitError(f"targets[{s}]: seat {s} has not declared its target yet (seat {to} is to "
                                  f"declare now, from the dealer's left)")
            if declared and s not in targets and not (phase == "score" and s in done):
                raise WantitError(f"targets: seat {s} has declared its target this round "
                                  f"(declare_target_before_draws): give it (targets, --target {s}=SLOT)")
            if s in targets:
                if targets[s] not in ids:
                    raise WantitError(f"targets[{s}]: no slot {targets[s]!r} on the board; slots are "
                                      f"{', '.join(ids)}")
                k = ids.index(targets[s])
                if k in boards.get(s, {}) and not (phase == "score" and s in done):
                    raise WantitError(f"targets[{s}]: {targets[s]} is filled already; a target is an open slot")
                aims[s] = k

    cards = _TableCards(deck)
    hole = _per_seat(table.hole, n, "hole", "cards",
                     lambda v, s: cards.read(v, f"hand of seat {s}", unknown_ok=True))
    for s, held in hole.items():
        if len(held) > G.HAND:
            raise WantitError(f"hole[{s}]: {len(held)} cards; a Selection hand has {G.HAND}")
    discards = cards.read(table.discards, "discards", unknown_ok=False)
    my_draws = (d - 1 + (me in done)) if phase == "draw" else (draws if phase == "score" else 0)
    if rules[G.R_CARRY_HAND] > 0:  # hands and the pile carry over: earlier rounds' discards may lie there
        my_draws += sum(3 if r - 1 >= n_slots - 2 else 2 for r in range(1, t))
    if len(discards) > 5 * my_draws:
        raise WantitError(f"discards: {len(discards)} cards, but seat {me} has made {my_draws} draw(s) by now "
                          f"({G.HAND - G.MIN_KEEP} discards at most each)")

    known = set(cards.where)
    pool = [c for c in range(deck.size) if c not in known]
    hands = {s: hole.get(s, []) + [None] * (G.HAND - len(hole.get(s, []))) for s in range(n)}
    unknown_hand = sum(1 for s in range(n) for c in hands[s] if c is None)
    room = len(pool) - unknown_hand
    if room < 0:
        raise WantitError(f"the hands need {unknown_hand} unknown cards, but only {len(pool)} of deck {deck.name}'s "
                          f"{deck.size} are not given")
    if table.stock is None:
        stock = room
    else:
        stock = whole_text(table.stock, "stock")
        if not 0 <= stock <= room:
            raise WantitError(f"stock: {stock} cards, but {room} cards are neither in a hand nor among my discards "
                              f"(deck {deck.name}, {deck.size} cards)")
    others_discards = room - stock

    st = new_state(inp, dealer=(dealer - (t - 1)) % n)  # the state's dealer deals round 1
    S = G.S
    unknown_at = []
    for s in range(n):
        for j, c in enumerate(hands[s]):
            if c is None:
                unknown_at.append(S.hands + G.HAND * s + j)
            else:
                st[S.hands + G.HAND * s + j] = c
        for k, points in boards.get(s, {}).items():
            st[S.score + G.MAX_SLOTS * s + k] = points
            st[S.scratched + G.MAX_SLOTS * s + k] = int(points == 0)
        # open_round (the round the opening took points) is not known from a board;
        # only whole-game reports read it.
        st[S.aims + 2 * s] = aims.get(s, -1)
        st[S.aims + 2 * s + 1] = -1
    for i, c in enumerate(discards):
        st[S.disc + i] = c
    for i in range(others_discards):
        unknown_at.append(S.disc + len(discards) + i)
    for i, c in enumerate(pool):
        st[S.stock + i] = c
    sst = S.stock_state
    st[sst + G.ST_TOP] = 0
    st[sst + G.ST_SIZE] = len(pool)
    st[sst + G.ST_ORDERED] = 0
    st[sst + G.ST_DISCARDS] = len(discards) + others_discards
    st[sst + G.ST_STACKED] = 0
    st[S.n_unknown] = len(unknown_at)
    st[S.unknown_at:S.unknown_at + len(unknown_at)] = unknown_at
    st[S.round_keyed] = G.ROUND_KEYED
    st[S.round] = t - 1
    st[S.step] = step_to
    st[S.draw] = d - 1 if phase == "draw" else (draws if phase == "score" else 0)
    st[B.phase] = {"target": G.PH_TARGET, "draw": G.PH_DRAW, "score": G.PH_FILL}[phase]
    st[B.turn] = to
    st[B.decisions] = 0
    return st, Where(t, phase, d, draws, to, dealer, stock, len(pool))


def _selection_state(inp, table):
    """The table state (``analyzer.table.BUILDERS``)."""
    return selection_table(inp, table)[0]
