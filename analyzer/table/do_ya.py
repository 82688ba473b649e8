"""A Do Ya table (RULES.md §3.3)."""


import numpy as np

from kernels.cards import card_bit
from kernels.games import common as C
from kernels.games import do_ya as DY

from ..errors import WantitError
from ..runs import whole
from .parse import _common, _offer_game_cards, _seat, _set_declarations, _set_unknowns


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
    from ..engine import new_state

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
    _set_declarations(inp, table, st, n, dealer, None if rnd >= DY.UP else "the rest of the up cards",
                      {s for s in range(n) if (hole.get(s) or [None])[0] is None})
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    st[C.B.decisions] = 0
    return st

