"""A Selection/Rejection table (RULES.md §1.3), and the history of its offers."""

from dataclasses import replace

import numpy as np

from kernels.cards import card_bit
from kernels.games import common as C
from kernels.games import selection_rejection as SR

from ..cards import card_text
from ..errors import WantitError
from .parse import (
    _cards,
    _common,
    _history_items,
    _mask,
    _next_in,
    _offer_game_cards,
    _seat,
    _seat_cards,
    _set_declarations,
    _set_unknowns,
    whole_text,
)


def _history_entries(history, n):
    """``[(seat, took, card), ...]`` from "SEAT takes CARD" / "SEAT refuses CARD" entries."""
    out = []
    for item in _history_items(history, "'SEAT takes CARD' entries"):
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


def sr_condition_rows(inp, table):
    """The conditioning rows (``SR.HISTORY_WIDTH`` each) of the free choices of the
    seats whose hole cards are unknown, from ``table.history``."""
    n, dealer, _ = _common(inp, table)
    if not _history_entries(table.history, n):
        raise WantitError("--condition needs the history of the choices seen (--history, or history in the file)")
    hole = _seat_cards(table.hole, n, "hole")
    rows, _, _ = _sr_history(inp, table, n, dealer)
    free = [r for r in rows if len([c for c in hole.get(r[0], []) if c is not None]) < 2]
    return np.array([x for r in free for x in r], np.int64)


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


def _offer_positions(n, leader, max_rej, fresh):
    """Every ``(seats still needing a card (a bit set), seat offered, refusals)`` a
    dealing round of RULES.md §1.3 can reach from its leader's first offer, whatever
    the seats choose: a card taken moves the offer to the next seat needing one, a
    card refused to the next seat needing one (the lone last seat's refusal, under
    fresh_card, brings it a fresh card). The refusals are as a table counts them:
    the card's, or the lone seat's own."""
    start = ((1 << n) - 1, leader, 0, 0)
    seen = {start}
    todo = [start]
    while todo:
        needs, target, rej, lone_rej = todo.pop()
        members = {s for s in range(n) if needs >> s & 1}
        lone = needs == 1 << target
        can_refuse = (lone_rej < max_rej and rej < max_rej) if (lone and fresh) else (rej < max_rej and not lone)
        after = []
        if not lone:
            after.append((needs & ~(1 << target), _next_in(members - {target}, target, n), 0, 0))
        if can_refuse:
            after.append((needs, target, rej, lone_rej + 1) if lone
                         else (needs, _next_in(members, target, n), rej + 1, lone_rej))
        for state in after:
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return {(needs, target, lone_rej if needs == 1 << target else rej) for needs, target, rej, lone_rej in seen}


def _sr_state(inp, table):
    """Selection/Rejection (RULES.md §1.3): the round is read from the up-card counts
    (all equal: a round begins; one more for some: the round is under way and the
    card on offer, or the seat the next one goes to, must be given), the seventh
    card from the hole-card counts."""
    from ..engine import new_state

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
                # Where the history leaves a fresh card to come, the table may name it.
                if (card is not None and (offer[0] if offer else None) != card) or \
                        _seat(table.to, n, "to") != seat or whole_text(table.refusals, "refusals") != refused:
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
    refusals = whole_text(table.refusals, "refusals")
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
    if to is not None:
        # Whose turn it is follows from the seats that have their card this round.
        leader = (dealer + 1 + rnd) % n
        fresh = int(rules[SR.R_LAST_PLAYER_RULE]) == SR.LAST_PLAYER_FRESH_CARD
        positions = _offer_positions(n, leader, max_rej, fresh)
        if (needs, to, refusals) not in positions:
            holding = sorted(s for s in range(n) if not needs >> s & 1)
            could = sorted({t for held, t, r in positions if held == needs and r == refusals})
            holders = (f"seat {holding[0]} holding its card" if len(holding) == 1 else
                       f"seats {', '.join(map(str, holding))} holding theirs" if holding else
                       "no seat holding its card")
            refused = "no refusal" if refusals == 0 else f"{refusals} refusal{'s' if refusals > 1 else ''}"
            raise WantitError(f"to: seat {to} cannot be offered a card with {refused} in round {rnd + 1}, led by "
                              f"seat {leader}, with {holders}: "
                              + (f"the card goes to seat {' or '.join(map(str, could))}" if could
                                 else f"no card has {refused} then"))

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
    waiting = None if seventh else "the seventh card" if rnd >= SR.UP else "more up cards and the seventh card"
    _set_declarations(inp, table, st, n, dealer, waiting,
                      {s for s in range(n) if sum(c is not None for c in hole.get(s, [])) < hidden})
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    st[C.B.decisions] = 0
    return st

