"""A Do Ya table (RULES.md §3.3), and the history of the seats' choices.

Besides the cards, a Do Ya table has ``pool`` (``--pool``: the rejects lying face up
this round, in the order refused) and the turn of the seat to act so far:
``declined`` (``--declined``: it has passed over the pool and its fresh card is not
turned up yet; passing over counts each reject as a refusal), ``offer`` (a fresh
card turned up for it) and ``refusals`` (the fresh cards it refused this turn, the
last of the pool). With none of them the seat is still to choose at the pool.

The history (``history``, ``--history``) lists what the table saw the seats choose,
in order from the deal's first choice, entries separated by ';':

* ``SEAT takes CARD``: the seat takes CARD, a reject lying on the table (the pool)
  if it lies there, else the fresh card turned up for it (forced takes too);
* ``SEAT takes pool CARD``: the same, saying the card is a reject from the pool;
* ``SEAT declines pool``: the seat passes over the rejects and asks for a fresh
  card (a seat facing rejects that is turned up a fresh card declined them, so
  this entry may be left out before its ``refuses`` or ``takes``);
* ``SEAT refuses CARD``: the seat refuses the fresh card CARD, which joins the pool.

It is replayed by §3.3 (the seats in turn from the dealer's left, a seat with
``max_rejections`` refusals counted taking its next card, the pool's leftovers
dead at the end of each round) and must agree with the up cards, the pool, the
dead cards (``gone``), the refusals and ``declined`` given; those left out are
filled in from it (``up`` when no seat's up cards are given). Where it stops at
the start of a seat's turn, ``declined`` or ``offer`` may carry the turn on (they
are not conditioned on: write them in the history for that).
"""

from dataclasses import replace

import numpy as np

from kernels.cards import card_bit
from kernels.games import common as C
from kernels.games import do_ya as DY

from ..cards import card_text
from ..errors import WantitError
from .parse import (
    _cards,
    _common,
    _given,
    _history_items,
    _mask,
    _offer_game_cards,
    _seat,
    _seat_cards,
    _set_declarations,
    _set_unknowns,
    whole_text,
)

TAKE_WORDS = ("takes", "take", "took")
REFUSE_WORDS = ("refuses", "refuse", "refused", "rejects", "reject", "rejected")
DECLINE_WORDS = ("declines", "decline", "declined")
ENTRY_FORMS = "'SEAT takes CARD', 'SEAT takes pool CARD', 'SEAT declines pool' or 'SEAT refuses CARD'"


def _history_entries(history, n):
    """``[(seat, verb, card, text), ...]`` (verb "take", "take_pool", "decline" or
    "refuse"; card None for "decline") from the history's entries."""
    out = []
    for item in _history_items(history, f"entries such as {ENTRY_FORMS}"):
        words = item.split()
        verb = words[1].lower() if len(words) > 1 else ""
        rest = [w.lower() for w in words[2:]]
        if verb in DECLINE_WORDS and rest in ([], ["pool"], ["the", "pool"]):
            kind, card_word = "decline", None
        elif verb in TAKE_WORDS and len(rest) == 2 and rest[0] == "pool":
            kind, card_word = "take_pool", words[3]
        elif verb in TAKE_WORDS and len(rest) == 1:
            kind, card_word = "take", words[2]
        elif verb in REFUSE_WORDS and len(rest) == 1:
            kind, card_word = "refuse", words[2]
        else:
            raise WantitError(f"history: {item!r} should look like {ENTRY_FORMS}")
        seat = _seat(words[0], n, f"history {item!r}")
        card = None
        if card_word is not None:
            cards = _cards(card_word, f"history {item!r}")
            if len(cards) != 1 or cards[0] is None:
                raise WantitError(f"history {item!r}: name the card")
            card = cards[0]
        out.append((seat, kind, card, item))
    return out


def _dy_history(inp, table, n, dealer):
    """Replay the history by RULES.md §3.3. Returns the rows of the choices seats
    made freely (``DY.HISTORY_WIDTH`` each, every seat's), the seats' up cards after
    it, the dead rejects of the rounds done, and where it leaves the deal: ``(pool,
    refused, declined)``: the rejects on the table in order, the fresh cards the
    seat to act has refused this turn, whether it has passed over the rejects."""
    max_rej = int(inp.rules[DY.R_MAX_REJECTIONS])
    entries = _history_entries(table.history, n)
    order = [(dealer + i) % n for i in range(1, n + 1)]
    up = {s: [] for s in range(n)}
    dead = []
    used = {}  # card -> what the history did with it first
    rows = []
    pool, refused, declined = [], [], False
    k = 0

    def row(kind, seat, action, card, nxt):
        pool_cards = list(pool) + [0] * (DY.POOL - len(pool))
        return [kind, seat, action, card, _mask(up[seat]), _mask(up[nxt]) if nxt is not None else 0,
                int(nxt is not None), len(pool)] + pool_cards

    def fresh(card, where):
        if card in used:
            raise WantitError(f"{where}: {card_text(card)} {used[card]} earlier in the history; a fresh card is "
                              f"one nobody has seen")

    for rnd in range(DY.UP):
        if k == len(entries):
            break
        pool = []
        for position, p in enumerate(order):
            refused, declined = [], False
            if k == len(entries):
                break
            nxt = order[position + 1] if position + 1 < n else None
            rej = 0
            done = False
            while not done:
                if k == len(entries):
                    break
                seat, kind, card, text = entries[k]
                where = f"history entry {k + 1} ({text})"
                if seat != p:
                    raise WantitError(f"{where}: it is seat {p}'s turn then (round {rnd + 1}), not seat {seat}'s")
                facing = bool(pool) and rej == 0 and not declined
                if kind == "decline":
                    if not facing:
                        raise WantitError(f"{where}: {_no_pool_choice(p, pool, declined)}")
                    rows.append(row(DY.H_POOL, p, C.POOL_DRAW, 0, nxt))
                    declined, rej = True, len(pool)
                elif kind == "take_pool" or (kind == "take" and card in pool):
                    if card not in pool:
                        raise WantitError(f"{where}: {card_text(card)} is not among the rejects on the table "
                                          f"({' '.join(card_text(c) for c in pool) or 'none'})")
                    if not facing:
                        raise WantitError(f"{where}: {_no_pool_choice(p, pool, declined)}")
                    rows.append(row(DY.H_POOL, p, card, 0, nxt))
                    pool.remove(card)
                    up[p].append(card)
                    done = True
                else:  # a fresh card, taken or refused
                    fresh(card, where)
                    if facing:  # turned up a fresh card: it passed over the rejects
                        rows.append(row(DY.H_POOL, p, C.POOL_DRAW, 0, nxt))
                        declined, rej = True, len(pool)
                    free = rej < max_rej
                    if kind == "refuse" and not free:
                        raise WantitError(f"{where}: seat {p} has {rej} refusals this turn (the rejects it passed "
                                          f"over count), so it had to take it (max_rejections = {max_rej})")
                    if free:
                        rows.append(row(DY.H_OFFER, p, C.TAKE if kind == "take" else C.REFUSE, card, nxt))
                    used[card] = "was turned up"
                    if kind == "take":
                        up[p].append(card)
                        done = True
                    else:
                        pool.append(card)
                        refused.append(card)
                        rej += 1
                k += 1
            if not done:
                break  # the history ends inside this seat's turn
        else:
            dead += pool  # 3. the rejects left at the end of the round are dead
            pool, refused, declined = [], [], False
            continue
        break
    if k < len(entries):
        raise WantitError(f"history: {len(entries) - k} entries after the last up card was taken")
    return rows, up, dead, (pool, refused, declined)


def _no_pool_choice(seat, pool, declined):
    """Why a seat cannot choose among the rejects now (RULES.md §3.3 2.2: once, first)."""
    if declined:
        return f"seat {seat} has already passed over the rejects this turn: fresh cards only now"
    if pool:
        return (f"seat {seat} has refused a fresh card this turn; the rejects are chosen from, or passed over, "
                f"before any fresh card")
    return f"seat {seat} faces no rejects on the table then"


def _with_history(inp, table, n, dealer):
    """``table`` with what the history says filled in, checked against what it gives."""
    rows, up, dead, (pool, refused, declined) = _dy_history(inp, table, n, dealer)

    def shown(cards):
        return " ".join(card_text(c) for c in cards) or "none"

    if table.up:
        given_up = _seat_cards(table.up, n, "up")
        for s in range(n):
            if up[s] != given_up.get(s, []):
                raise WantitError(f"history: seat {s} takes {shown(up[s])} by it, but its up cards are given as "
                                  f"{shown(given_up.get(s, []))}")
    if _given(table.pool):
        given_pool = _cards(table.pool, "pool")
        if given_pool != pool:
            raise WantitError(f"history: it leaves the rejects {shown(pool)} on the table, in that order, but the "
                              f"pool is given as {shown(given_pool)}")
    if _given(table.gone):
        given_gone = _cards(table.gone, "gone")
        if sorted(c for c in given_gone if c is not None) != sorted(dead) or None in given_gone:
            raise WantitError(f"history: the rounds it plays leave {shown(dead)} dead, but gone is given as "
                              f"{shown([c for c in given_gone if c is not None])}")
    refusals = whole_text(table.refusals, "refusals")
    if refusals and refusals != len(refused):
        raise WantitError(f"history: the seat to act refused {len(refused)} card(s) this turn by it, but refusals "
                          f"is given as {refusals}")
    if table.declined and not declined:
        # The history may stop at the start of a turn; the table carries on from there.
        if refused or not pool:
            raise WantitError("declined: by the history, the seat to act found no rejects on the table when its "
                              "turn began, so it had none to pass over")
        declined = True
    return replace(table, up={s: up[s] for s in range(n)}, pool=pool, gone=dead, refusals=len(refused),
                   declined=declined, history=())


def dy_condition_rows(inp, table):
    """The conditioning rows (``DY.HISTORY_WIDTH`` each) of the free choices of the
    seats whose hole card is unknown, from ``table.history``."""
    n, dealer, _ = _common(inp, table)
    if not _history_entries(table.history, n):
        raise WantitError("--condition needs the history of the choices seen (--history, or history in the file)")
    hole = _seat_cards(table.hole, n, "hole")
    rows, _, _, _ = _dy_history(inp, table, n, dealer)
    free = [r for r in rows if not [c for c in hole.get(r[1], []) if c is not None]]
    return np.array([x for r in free for x in r], np.int64)


def _do_ya_state(inp, table):
    """Do Ya (RULES.md §3.3): one wild hole card a seat, then four up-rounds in which
    the seats take an up card each in turn from the dealer's left, the seat to act
    taking one of the round's rejects (``pool``) or asking for fresh cards. The round
    is read from the up-card counts: all equal, a round begins; the first seats from
    the dealer's left one more, the round is under way and the seat to act is the
    next of them (``to`` may name it; it is checked). Its turn so far: nothing given,
    it is still to choose at the rejects (or, with none, to see a fresh card);
    ``declined``, it has passed over the rejects and its fresh card is still to be
    turned up; ``offer``, a fresh card turned up for it (after it passed over the
    rejects, if any); ``refusals``, the fresh cards it refused this turn (the last
    of the pool). ``history``: see the module docstring."""
    from ..engine import new_state

    n, dealer, me = _common(inp, table)
    if _given(table.history):
        _table_cards(table, n)  # what the table gives is read (and refused) before the history is
        table = _with_history(inp, table, n, dealer)
    S = DY.S
    max_rej = int(inp.rules[DY.R_MAX_REJECTIONS])
    hole, up, gone, offer, seen, pool = _table_cards(table, n)

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
    refusals = whole_text(table.refusals, "refusals")
    declined = _flag(table.declined, "declined")
    if rnd >= DY.UP:
        if offer or pool or refusals or declined or table.to is not None:
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
        if declined and offer:
            raise WantitError(f"declined: seat {turn}'s fresh card is not turned up yet, but offer gives it as turned "
                              f"up; give offer alone (a seat turned up a fresh card has passed over the rejects)")
        if declined and len(pool) == refusals:
            raise WantitError(f"declined: seat {turn} found no rejects on the table when its turn began (the pool's "
                              f"{len(pool)} card(s) are the ones it refused), so it had none to pass over")

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
    elif offer or refusals or declined:
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
    _set_declarations(inp, table, st, n, dealer, None if rnd >= DY.UP else "the rest of the up cards",
                      {s for s in range(n) if (hole.get(s) or [None])[0] is None})
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    st[C.B.decisions] = 0
    return st



def _table_cards(table, n):
    """The hole, up, gone, offer cards and the pool, checked, and every known card once."""
    hole, up, gone, offer, seen, (pool,) = _offer_game_cards(
        table, n, DY.UP, DY.HOLE, f"a seat has {DY.HOLE}, its wild card", "give the one card on offer (it is face up)",
        also=(("pool", "the pool", "the rejects lie face up on the table; give each of them"),))
    return hole, up, gone, offer, seen, pool


def _flag(value, where):
    """A true/false field: a bool (or 0/1), nothing else."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    raise WantitError(f"{where}: {value!r} should be true or false")
