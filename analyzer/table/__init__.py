"""A table described by a player: who sits where, the cards each seat holds (any
hidden card may be unknown, mine too), the cards gone from play, the card on offer
and its refusals, and (Do Ya) the rejects lying on the table. ``table_state``
turns a description into the game's table state (``analyzer.engine``), from which
the engine plays every deal on: the known cards stay where they are, the unknown
hidden cards are dealt at random from the cards nobody has seen, afresh for every
deal.

Three ways to describe a table, all ending in a ``Table``: the dataclass itself,
``table_from_flags`` (the command line's ``--hole SEAT=CARDS``, ``--up``,
``--gone``, ``--offer CARD --to SEAT --refusals K``, ``--pool CARDS``,
``--declined``, ``--history``) and
``load_table`` (a TOML or JSON file with the same fields; ``examples/`` has them).
Unknown cards are written ``??`` (or ``xx``). An impossible table is one
``WantitError`` naming what is wrong.

One module a game builds its table state (``BUILDERS``); ``parse`` reads the
fields they share.

Do Ya (``do_ya``) adds ``pool`` and ``declined`` (``--pool CARDS``, ``--declined``),
and reads its own ``history`` entries ("2 takes pool 7h; 3 declines pool; 3
refuses Kd; 3 takes 5c"; see ``do_ya``).

Anaconda (``anaconda``) adds ``phase``, ``passed`` and ``received``
(``--phase``, ``--passed CARDS``, ``--received CARDS``); after passes the deal is
held as dealt and the passes replayed (``analyzer.table.anaconda``), and
``--condition`` keeps the deals whose passers' policies chose what I received.
Selection (``selection``, the board-scoring game) adds the round, the draw under
way, each seat's board, my discards, the stock's size, the declared targets and
the board and deck (``SE_FIELDS``; ``hole`` holds the hands, ``to`` the seat to
act).
Train Wreck (``train_wreck``) adds the street, extra and stolen cards, the
cards discarded by special pairs, the fees each seat has paid, the special pairs
that have acted and those still to act, and the hole cards taken blind
(``TW_FIELDS``); ``up`` holds a seat's table cards, ``gone`` the buried ones; its
``history`` is the offers and special actions seen.
"""

import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernels.games import common as C

from ..errors import WantitError
from .parse import _given

TW_FIELDS = ("street", "extra", "stolen", "discarded", "fees", "acted", "to_act", "hole_taken", "community")
AN_FIELDS = ("phase", "passed", "received")
SE_FIELDS = ("round", "draw", "scores", "discards", "stock", "targets", "board", "deck")
FIELDS = ("variant", "players", "dealer", "me", "hole", "up", "gone", "offer", "to", "refusals", "history",
          "pool", "declined") + TW_FIELDS + AN_FIELDS + SE_FIELDS + ("declared",)
# The fields only some games have: field -> the game, or a tuple of the games.
OWN_FIELDS = {"history": ("selection_rejection", "do_ya", "train_wreck"), "pool": "do_ya", "declined": "do_ya",
              **{f: "train_wreck" for f in TW_FIELDS}, **{f: "anaconda" for f in AN_FIELDS},
              **{f: "selection" for f in SE_FIELDS},
              "declared": ("selection_rejection", "do_ya", "anaconda", "train_wreck")}


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
    #                        the seat to act, which the up-card counts imply, so it may be left out;
    #                        Selection: the seat to act, default me; the seats before it from the dealer's
    #                        left have acted in the draw or scoring under way)
    refusals: int = 0  # refusals of the card on offer so far (Do Ya: the fresh cards ``to`` refused this turn)
    # What the table saw the players choose, in order: "SEAT takes CARD" or "SEAT
    # refuses CARD" from the first offer of the deal (a list, or one text with ';'
    # between entries; Do Ya also "SEAT takes pool CARD", "SEAT declines pool").
    # Checked against the cards; used by equity's --condition.
    # Train Wreck: "SEAT takes CARD", "SEAT pays CARD [for CARD]", "SEAT gets CARD",
    # "SEAT discards|steals CARD [from SEAT] [blind]", "SEAT declines" from 4th street's
    # first offer; it fills in the fields it implies.
    history: object = ()
    pool: object = ""  # Do Ya: the rejects lying face up on the table this round, in the order refused
    declined: bool = False  # Do Ya: the seat to act passed over the pool; its fresh card is still to be turned up
    # Train Wreck only (``up``: the table cards in the order received; ``gone``: the buried cards):
    street: int | None = None  # the street under way, 3 (nothing dealt) .. 7 (default: from the table cards)
    extra: dict = field(default_factory=dict)  # seat -> extra cards dealt for its pairs of 2s
    stolen: dict = field(default_factory=dict)  # seat -> cards it stole with pairs of 5s
    discarded: object = ""  # table cards discarded by pairs of 3s and 4s (the dead pile)
    fees: dict = field(default_factory=dict)  # seat -> chips paid this deal to refuse offered cards
    acted: dict = field(default_factory=dict)  # seat -> ranks whose pair acted and is since broken
    to_act: dict = field(default_factory=dict)  # seat -> ranks whose pair is still to act this street (the first
    #                                             in dealing order, then rank order, acts now)
    hole_taken: dict = field(default_factory=dict)  # seat -> its hole cards a discard or steal took blind
    community: object = ""  # the 7th-street community card (TW-A9 c: the stock too short for every seat's)
    # Anaconda (``_anaconda_state``): where the deal is, "pass N" (before the N-th
    # pass, or my packet for it chosen), "keep" (the passes done), "stacked" (my
    # stack made) or "roll" (the stacks made; None: inferred), and the packets I
    # passed and received, one per pass done, in order (passed: one more, the packet
    # I have chosen and not yet passed).
    phase: str | None = None
    passed: object = ()
    received: object = ()
    # The declarations already made (split_mode = declare; at the declaration, every
    # card dealt): seat -> "high", "low" or "both". Declaring in turn, the first seats
    # from the dealer's left; declaring at once, every seat or none. --condition reads
    # those of seats whose cards are unknown.
    declared: dict = field(default_factory=dict)
    # Selection (``analyzer.table.selection``; ``hole``: the hands, ``to``: the seat
    # to act, default ``me``; ``dealer``: the round's dealer):
    round: int | None = None  # the round under way, 1..11 (default 1)
    draw: object = None  # the draw under way, 1..3, or "score" after the last (SE-A6: "target"); default 1
    scores: dict = field(default_factory=dict)  # seat -> {slot id: points} of the slots filled (0: scratched)
    discards: object = ""  # my discards lying in the discard pile
    stock: int | None = None  # cards in the stock (default: every unseen card not in a hand)
    targets: dict = field(default_factory=dict)  # seat -> the slot it declared this round (SE-A6)
    board: str | None = None  # a board file (default: the PROVISIONAL board)
    deck: str | None = None  # a deck spec (default: the board file's, else standard52)


def table_from_flags(variant, players=None, dealer=None, me=0, hole=(), up=(), gone="", offer=None, to=None,
                     refusals=0, history=(), pool="", declined=False, street=None, extra=(), stolen=(), discarded="",
                     fees=(), acted=(), phase=None, passed=(), received=(), declared=(), round=None, draw=None,
                     scores=(), discards="", stock=None, targets=(), board=None, deck=None, to_act=(), hole_taken=(),
                     community="") -> Table:
    """A ``Table`` from the command line's repeatable ``SEAT=CARDS`` items (``fees``:
    ``SEAT=CHIPS``, ``acted`` and ``to_act``: ``SEAT=RANKS``, ``declared``: ``SEAT=high|low|both``,
    ``scores``: ``SEAT=SLOT:POINTS,...``, ``targets``: ``SEAT=SLOT``)."""
    def pairs(items, flag, shape="SEAT=CARDS, e.g. 0='As Kd'"):
        out = {}
        for item in items:
            seat, eq, cards = item.partition("=")
            if not eq or not seat.strip():
                raise WantitError(f"{flag} {item!r} should look like {shape}")
            if seat.strip() in out:
                raise WantitError(f"{flag}: seat {seat.strip()} is given twice")
            out[seat.strip()] = cards
        return out

    return Table(variant, players, dealer, me, pairs(hole, "--hole"), pairs(up, "--up"), gone, offer, to, refusals,
                 history or (), pool, declined, street, pairs(extra, "--extra"), pairs(stolen, "--stolen"),
                 discarded, pairs(fees, "--fee", "SEAT=CHIPS, e.g. 2=1"),
                 pairs(acted, "--acted", "SEAT=RANKS, e.g. 0=5"), phase=phase, passed=list(passed) or (),
                 received=list(received) or (),
                 declared=pairs(declared, "--declared", "SEAT=high|low|both, e.g. 2=low"), round=round, draw=draw,
                 scores=pairs(scores, "--scores", "SEAT=SLOT:POINTS,..., e.g. 0=low:60"), discards=discards,
                 stock=stock, targets=pairs(targets, "--target", "SEAT=SLOT, e.g. 1=low"), board=board, deck=deck,
                 to_act=pairs(to_act, "--to-act", "SEAT=RANKS, e.g. 0=5"), hole_taken=pairs(hole_taken, "--hole-taken"),
                 community=community)


def load_table(path, variant=None) -> Table:
    """A ``Table`` from a TOML (``.toml``) or JSON (``.json``) file with the fields of
    ``Table``; ``hole`` and ``up`` are tables of seat = cards."""
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise WantitError(f"state file {path!r} is not a file path")
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
        from ..variants import get_variant

        if get_variant(data["variant"]) is not get_variant(variant):
            raise WantitError(f"{p} describes a {data['variant']} table, not {variant}")
    data.setdefault("variant", variant)
    if data["variant"] is None:
        raise WantitError(f"{p}: say which game (variant = ...)")
    return Table(**data)


def table_state(inp, table: Table, condition=False) -> np.ndarray:
    """The table state of ``table`` for the engine inputs ``inp`` (its game and seats);
    with ``condition``, each deal must agree with the declarations seen of the seats
    whose cards are unknown (``check_declared``)."""
    builder = BUILDERS.get(inp.variant.name)
    if builder is None:
        raise WantitError(f"describing a table is built for {', '.join(BUILDERS)} so far, not "
                          f"{inp.variant.name}")
    check_own_fields(inp.variant.name, table)
    st = _game_function(builder)(inp, table)
    if not condition and inp.variant.kind == "pot":
        st[C.P.check_declared] = 0
    return st


def check_own_fields(variant_name, table: Table):
    """Refuse the fields of other games given for a ``variant_name`` table."""
    for name, games in OWN_FIELDS.items():
        games = (games,) if isinstance(games, str) else games
        value = getattr(table, name)
        if variant_name not in games and value is not False and _given(value):  # a flag's False: not given
            raise WantitError(f"{name}: a {variant_name} table has no {name} (only {', '.join(games)} tables "
                              f"have it)" if name != "history" else
                              f"history: reading the choices seen is built for {', '.join(games)} so far, not "
                              f"{variant_name}")


def condition_data(inp, table: Table) -> np.ndarray:
    """The engine's ``idata`` for conditioning on what the table saw the players
    choose: the choices of the seats whose hole cards are unknown, which each deal's
    cards must agree with (the game's kernel reads them in ``history_consistent``)."""
    rows = CONDITIONS.get(inp.variant.name)
    if rows is None:
        raise WantitError(f"conditioning on the choices seen is built for {', '.join(CONDITIONS)} so far, not "
                          f"{inp.variant.name}")
    return _game_function(rows)(inp, table)


def _game_function(target):
    """``"module:function"`` of this package -> the function. A game's module is
    imported when a table of that game is first described: each imports its game's
    kernels, and a query about one game need not import the others'."""
    from ..variants import _resolve

    return _resolve(f"{__name__}.{target}")


# Each game's table state, from its module.
BUILDERS = {"selection_rejection": "selection_rejection:_sr_state", "do_ya": "do_ya:_do_ya_state",
            "anaconda": "anaconda:_anaconda_state", "train_wreck": "train_wreck:_train_wreck_state",
            "selection": "selection:_selection_state"}
# Each game's conditioning rows (``condition_data``), from its module.
CONDITIONS = {"selection_rejection": "selection_rejection:sr_condition_rows", "do_ya": "do_ya:dy_condition_rows",
              "anaconda": "anaconda:an_condition_rows", "train_wreck": "train_wreck:tw_condition_rows"}
