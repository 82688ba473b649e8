"""A Train Wreck table (RULES.md §4.3-4.4), and the history of its offers and
special actions."""

from dataclasses import replace

import numpy as np

from kernels.cards import NO_CARD, RANK_CHARS, card_bit
from kernels.games import common as C
from kernels.games import train_wreck as TW

from ..cards import CardError, card_text, parse_ranks
from ..errors import WantitError
from .parse import (
    _Cards,
    _cards,
    _common,
    _count,
    _given,
    _history_items,
    _mask,
    _per_seat,
    _seat,
    _seat_cards,
    _set_declarations,
    _set_unknowns,
    whole_text,
)


def _nth(street):
    return "the showdown (after 7th street)" if street == 8 else f"{street}{'rd' if street == 3 else 'th'} street"


def _rank_name(r):
    return f"{RANK_CHARS[r]}s"


def _seat_chips(mapping, n):
    def chips(value, seat):
        paid = whole_text(value, f"fees[{seat}]")
        if paid < 0:
            raise WantitError(f"fees[{seat}]: {paid} chips; a fee paid is 0 or more")
        return paid

    return _per_seat(mapping, n, "fees", "chips", chips)


def _seat_ranks(mapping, n, what):
    def ranks(value, seat):
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if isinstance(text, str) and not text.strip():
            return []
        try:
            return parse_ranks(text)
        except CardError as e:
            raise WantitError(f"{what}[{seat}]: {e}") from None

    return _per_seat(mapping, n, what, "ranks", ranks)


def _train_wreck_state(inp, table):
    """Train Wreck (RULES.md §4.3-4.4), in equity mode (nobody folds), at the start
    of a street (``street`` 3: nothing dealt yet; 4-6: the previous street's table
    cards and special pairs done, the street's offers next; 7: six cards each, the
    face-down 7th next), on streets 4-6 with a card offered to a seat (``offer``,
    ``to``, ``refusals``: the seats just before it that paid to refuse it) or with
    the seat the next fresh card is turned up for (``to`` alone), in the middle of
    a street's special pairs (``to_act``: the pairs still to act, the first in
    dealing order acting now), or after the 7th-street card (``street`` 8: three
    hole cards each, or two and the ``community`` card when the stock was too short
    for every seat's (TW-A9 c); only the showdown left). Each seat has its hole cards (missing
    ones unknown; ``hole_taken`` those a discard or steal took blind), its table
    cards in the order received (``up``), its ``extra`` and ``stolen`` cards;
    ``gone`` are the buried cards, ``discarded`` the cards 3s/4s discarded, ``fees``
    the chips each seat paid to refuse cards, ``acted`` the ranks whose pair acted
    and has since been broken. A ``history`` of the offers and actions seen is
    replayed (``_replay``): it must agree with the fields given and fills in the
    others.

    The street is read from the table-card counts unless given. Every pair among a
    seat's table cards has acted by the start of a street; on a street under way
    with end-of-street timing, a pair made by this street's card (a seat's last
    table card) is still to act."""
    from ..engine import new_state

    n, dealer, _ = _common(inp, table)
    if _history_entries(table.history, n):
        table = _with_history(inp, table, n, dealer)
    S = TW.S
    rules = inp.rules
    actions = [int(rules[TW.R_SPECIAL_PAIRS + r]) for r in range(13)]
    counts_extras = rules[TW.R_PAIRS_COUNT_EXTRAS] > 0
    retrigger = rules[TW.R_RETRIGGER] > 0
    optional = rules[TW.R_ACTIONS_OPTIONAL] > 0
    immediate = int(rules[TW.R_SPECIAL_TIMING]) == TW.TIMING_IMMEDIATE
    table_targets = int(rules[TW.R_TARGETS]) == TW.TARGETS_TABLE
    any_targets = int(rules[TW.R_TARGETS]) == TW.TARGETS_ANY

    def fee(street):
        return int(rules[TW.R_FEE_UNIT] * rules[TW.R_FEE_MULTIPLIERS + street - 4])

    hole = _seat_cards(table.hole, n, "hole")
    up = _seat_cards(table.up, n, "up")
    extra = _seat_cards(table.extra, n, "extra")
    stolen = _seat_cards(table.stolen, n, "stolen")
    hole_taken = _seat_cards(table.hole_taken, n, "hole_taken")
    gone = _cards(table.gone, "gone")
    discarded = _cards(table.discarded, "discarded")
    offer = _cards(table.offer, "offer") if table.offer is not None else []
    if len(offer) > 1 or (offer and offer[0] is None):
        raise WantitError("offer: give the one card on offer")
    community = _cards(table.community, "community")
    if len(community) > 1 or None in community:
        raise WantitError("community: give the one community card, turned face up for every seat on 7th street")
    if community and not rules[TW.R_COMMUNITY_CARD] > 0:
        raise WantitError("community: no community card is turned with community_card = false (TW-A9 c)")
    fees = _seat_chips(table.fees, n)
    acted = _seat_ranks(table.acted, n, "acted")
    to_act = {s: ranks for s, ranks in _seat_ranks(table.to_act, n, "to_act").items() if ranks}

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
    for name, cards, what in (("gone", gone, "buried card"), ("discarded", discarded, "discarded card")):
        for c in cards:
            if c is None:
                raise WantitError(f"{name}: a {what} was seen face up; give it")
            seen.add(c, what)
    # A hole card taken blind (TW-A3 targets = any) was turned face up: it lies among the thief's
    # stolen cards or the discards, already counted there.
    elsewhere = {c: s for s, cards in stolen.items() for c in cards}
    for s, cards in hole_taken.items():
        if cards and not any_targets:
            raise WantitError(f"hole_taken[{s}]: a hole card is taken blind only with targets = any (TW-A3)")
        if len(cards) > 2:
            raise WantitError(f"hole_taken[{s}]: {len(cards)} cards; a seat holds 2 hole cards while special "
                              f"pairs act")
        for c in cards:
            if c is None:
                raise WantitError(f"hole_taken[{s}]: a hole card taken blind is turned face up; give it")
            if c not in discarded and elsewhere.get(c, s) == s:
                raise WantitError(f"hole_taken[{s}]: {card_text(c)} is neither discarded nor stolen by another "
                                  f"seat; a hole card taken blind goes to one or the other")
    for c in offer:
        seen.add(c, "the card on offer")

    # Which street, and where in it: seats walk from the dealer's left (step 1) to the dealer (step n).
    step = {(dealer + i) % n: i for i in range(1, n + 1)}
    counts = [len(up.get(s, [])) for s in range(n)]
    seventh = any(len(hole.get(s, [])) + len(hole_taken.get(s, [])) == TW.HOLE for s in range(n))
    to = None
    if offer or table.to is not None:
        if table.to is None:
            raise WantitError("offer: say which seat the card is offered to (--to SEAT)")
        to = _seat(table.to, n, "to")
    if table.street is not None:
        street = whole_text(table.street, "street")
        if not 3 <= street <= 8:
            raise WantitError(f"street: {street}; Train Wreck's streets are 3 to 7 (8: after the 7th-street card)")
    elif seventh or community:
        street = 8
    elif to is None:
        street = 3 + max(counts) - (1 if to_act else 0)
    else:
        street = max(counts) + (3 if step[to] == 1 else 2)
    if to is not None and not 4 <= street <= 6:
        raise WantitError(f"offer: no table card is offered on {_nth(street)}; cards are offered, and refused "
                          f"for a fee, on streets 4 to 6")
    if community and street != 8:
        raise WantitError(f"community: the community card is turned on 7th street; {_nth(street)} is before it")
    if to_act and not 4 <= street <= 6:
        raise WantitError(f"to_act: special pairs act on streets 4 to 6 (TW-A12), not on {_nth(street)}")
    if to_act and to is not None and not immediate:
        raise WantitError("to_act: special pairs act once the street's offers are over (special_timing = "
                          "end_of_street): no card is offered to a seat while they act")
    if to_act and to is not None and step[to] == 1:
        raise WantitError(f"to_act: seat {to} is the first offered a card this street; nobody has been dealt one "
                          f"yet, so no pair of this street can act")
    # j: the place in dealing order of the seat to be offered a card next (n + 1: every seat has
    # been dealt this street's card; 0: nobody has).
    j = step[to] if to is not None else n + 1 if to_act else 0
    resolver = None
    if to_act:
        if immediate:
            resolver = (dealer + j - 1) % n  # immediate timing: the seat just dealt acts at once
            others = sorted(set(to_act) - {resolver})
            if others:
                raise WantitError(f"to_act[{others[0]}]: with special_timing = immediate only the seat just dealt "
                                  f"its card (seat {resolver}) has pairs to act")
        else:
            resolver = min(to_act, key=lambda s: step[s])  # end of street: in dealing order
    when = (f"at the start of {_nth(street)}" if street < 8 and j == 0 else
            "after the 7th-street card" if street == 8 else
            f"in {_nth(street)}'s special pairs" if to is None else
            f"on {_nth(street)} with the {'card on offer' if offer else 'next card'} for seat {to}")
    for s, cards in hole.items():
        most = (TW.HOLE if street == 8 and not community else 2) - len(hole_taken.get(s, []))
        if len(cards) > most:
            raise WantitError(f"hole[{s}]: {len(cards)} hole cards; a seat has 2 before 7th street and 3 after" +
                              (" (2 when 7th street is a community card)" if community else "") +
                              (f", less the {len(hole_taken[s])} taken blind" if hole_taken.get(s) else ""))
        for c in cards:
            seen.add(c, f"hole card of seat {s}")
            if c in hole_taken.get(s, []):
                raise WantitError(f"hole[{s}]: {card_text(c)} was taken blind (hole_taken): seat {s} holds it no "
                                  f"more")
    anything = (any(counts) or any(hole.values()) or any(extra.values()) or any(stolen.values()) or gone
                or discarded)
    if street == 3 and anything:
        raise WantitError("no seat has a table card: a table is described once the first three cards (two down, "
                          "table card #1 up) are dealt; give each seat's table card")

    refusals = whole_text(table.refusals, "refusals")
    if refusals and to is None:
        raise WantitError("refusals: give the card on offer (--offer CARD --to SEAT)")
    if refusals and not offer:
        raise WantitError("refusals: give the card that was refused (--offer CARD)")
    if not 0 <= refusals <= max(j - 1, 0):
        raise WantitError(f"refusals: {refusals}; seat {to} is the first offered a card this street, so nobody has "
                          f"refused one yet" if j == 1 else
                          f"refusals: {refusals}; only {j - 1} seats were offered a card before seat {to} this street")

    def took_this_street(s):
        return street <= 6 and step[s] < j

    def received(s):  # table cards dealt to seat s so far
        return max(min(street, 7) - 3, 0) + (1 if took_this_street(s) else 0)

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
    # card, and (a street under way, end-of-street timing) those this card made, still to act; in
    # the middle of the special pairs, those to_act names.
    prior = [set() for _ in range(n)]
    pending = [set() for _ in range(n)]
    counted = []  # each seat's cards its pairs are counted among, less a card whose pair is still to act
    for s in range(n):
        cards = list(up.get(s, [])) + (extra.get(s, []) + stolen.get(s, []) if counts_extras else [])
        new = None
        if took_this_street(s) and not immediate and counts[s] and not to_act:
            new = up[s][-1]  # nothing leaves a seat during the offers: its last table card came this street
            cards.remove(new)
        counted.append(cards)
        before = received(s) - (1 if took_this_street(s) and not immediate and not to_act else 0)  # pairs last acted
        for r in acted.get(s, []):
            if actions[r] == TW.ACTION_NONE:
                raise WantitError(f"acted[{s}]: a pair of {_rank_name(r)} does nothing under special_pairs")
            if not counts_extras and before < 2:
                raise WantitError(f"acted[{s}]: seat {s} had {before} table card{'' if before == 1 else 's'} when "
                                  f"special pairs last acted: no pair of {_rank_name(r)} can have acted")
            # A pair that has acted is still held (before this street's card), or was broken
            # since: the seat lost a table card, and a card of its rank was discarded or stolen.
            held = sum(c >> 2 == r for c in cards) >= 2
            taken = any(c >> 2 == r for c in discarded + [c for got in stolen.values() for c in got])
            if not held and not (taken and (counts_extras or received(s) > counts[s])):
                raise WantitError(f"acted[{s}]: seat {s} holds no pair of {_rank_name(r)} that has acted, and none "
                                  f"was broken since (" + ("it has lost none of its table cards" if taken else
                                                           f"no {RANK_CHARS[r]} has been discarded or stolen")
                                  + "): acted lists the pairs that have acted")
            prior[s].add(r)
        for r in range(13):
            if actions[r] != TW.ACTION_NONE and sum(c >> 2 == r for c in cards) >= 2:
                prior[s].add(r)
        if new is not None:
            r = new >> 2
            if actions[r] != TW.ACTION_NONE and sum(c >> 2 == r for c in cards) == 1 and (
                    retrigger or r not in prior[s]):
                pending[s].add(r)
    if to_act:
        _check_to_act(to_act, resolver, up, counts, received, step, actions, acted, counts_extras, retrigger,
                      immediate, n)
        for s, ranks in to_act.items():
            pending[s] = set(ranks)
            prior[s] -= pending[s]

    def done(s, action):  # pairs of seat s whose ``action`` has been carried out
        return sum(actions[r] == action for r in prior[s])

    def held_pairs(s, action):  # pairs of ``action`` seat s holds that have acted
        return [r for r in sorted(prior[s])
                if actions[r] == action and sum(c >> 2 == r for c in counted[s]) >= 2]

    def middle(what):
        return (f"{what}: if it is still to act, say so (to_act SEAT = RANKS, the pairs still to act this "
                f"street)")

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
                raise WantitError(middle(f"seat {s}'s pair of {_rank_name(owed[0])} has acted by now, but seat "
                                         f"{s} holds {_count(k, what)}"))
    may_discard = sum(done(s, TW.ACTION_DISCARD) for s in range(n))
    if len(discarded) > may_discard and (not retrigger or may_discard == 0):
        raise WantitError(f"discarded: {_count(len(discarded), 'card')}, but the seats have had "
                          f"{_count(may_discard, 'pair')} that discard{'s' if may_discard == 1 else ''} one "
                          f"(among their table cards now, or listed in acted)")
    owed = sum(len(held_pairs(s, TW.ACTION_DISCARD)) for s in range(n))
    if not optional and len(discarded) < owed:
        raise WantitError(middle(f"{_count(owed, 'pair')} among the table cards that discard a card "
                                 f"{'has' if owed == 1 else 'have'} acted by now, but {_count(len(discarded), 'card')} "
                                 f"{'is' if len(discarded) == 1 else 'are'} discarded"))
    lost = sum(received(s) - counts[s] for s in range(n)) + sum(len(c) for c in hole_taken.values())
    taken = len(discarded) + sum(len(c) for c in stolen.values())
    if lost > taken or (table_targets and lost != taken):
        raise WantitError(f"table cards: the seats hold {sum(counts)} of the {lost + sum(counts)} dealt {when}; "
                          f"every one a seat lost was discarded or stolen by a special pair, but {taken} are "
                          f"discarded or stolen (or say street = N)")

    # Fees: one a street at most, refusing the card offered on it (4.3.3); the refusers of the
    # card on offer paid this street's, the seat before them took a card free; a card is buried
    # when the dealer (last) pays.
    def streets_acted(s):
        return list(range(4, min(street, 7))) + ([street] if took_this_street(s) else [])

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
            held = 2 - len(hole_taken.get(s, []))  # the two dealt down, less any taken blind
            seventh_card = street == 8 and not community
            cards = cards + [None] * (held + (1 if seventh_card else 0) - len(cards))
            slots = list(range(held)) + ([2] if seventh_card else [])  # the 7th-street card goes in slot 2
        else:
            slots = list(range(len(cards)))
        for k, c in zip(slots, cards):
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
    if street == 8:
        st[S.street] = 7
        st[C.B.phase] = TW.PH_HANDS
    elif street >= 4:
        st[S.street] = street
        if resolver is not None:
            st[S.fee] = fee(street)
            st[S.resolver] = resolver
            st[C.B.phase] = TW.PH_RESOLVE
            if immediate:
                st[S.step] = j - 1
                st[S.refusals] = refusals
                st[S.offered] = offer[0] if offer else NO_CARD
                if offer:
                    st[C.P.seen] |= np.int64(card_bit(offer[0]))
            else:
                st[S.step] = n + 1
                st[S.res_step] = step[resolver]
                st[S.offered] = NO_CARD
        elif to is None:
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
    for cards in hole_taken.values():
        for c in cards:
            st[C.P.seen] |= np.int64(card_bit(c))
    unseen = 52 - len(seen.where)
    if len(unknowns) > unseen:
        raise WantitError(f"the table leaves {unseen} unseen cards for {len(unknowns)} unknown hole cards")
    if community:
        # TW-A9 (c): turned only when the cards left (the stock, the dead cards and, with
        # reshuffle_includes_buried, the buried ones) cannot give every seat its 7th card.
        left = unseen - len(unknowns) + len(discarded) + (len(gone) if rules[TW.R_RESHUFFLE_BURIED] > 0 else 0)
        if left >= n:
            raise WantitError(f"community: {left} cards were left for 7th street, enough for every seat's face-down "
                              f"card; a community card is turned only when fewer than {n} are (TW-A9 c)")
        c = community[0]
        seen.add(c, "the community card")
        st[S.community] = np.int64(card_bit(c))
        st[C.P.seen] |= np.int64(card_bit(c))
        for s in range(n):
            st[S.up + TW.UP * s + st[S.n_up + s]] = c
            st[S.n_up + s] += 1
    _set_declarations(inp, table, st, n, dealer, None, set())  # high only: refused with the reason
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    st[C.B.decisions] = 0
    return st


def _check_to_act(to_act, resolver, up, counts, received, step, actions, acted, counts_extras, retrigger, immediate,
                  n):
    """The pairs ``to_act`` names can still be due: each a rank with an action, made by the
    card the seat received this street (it gets one: one pair at most, unless extra and
    stolen cards count), not acted before (TW-A5); with end-of-street timing a pair made
    this street by a seat after the one acting now is still to act too."""
    for s, ranks in to_act.items():
        for r in ranks:
            if actions[r] == TW.ACTION_NONE:
                raise WantitError(f"to_act[{s}]: a pair of {_rank_name(r)} does nothing under special_pairs")
            if r in acted.get(s, []) and not retrigger:
                raise WantitError(f"to_act[{s}]: seat {s}'s pair of {_rank_name(r)} has acted (acted[{s}]); a rank "
                                  f"acts once a deal (TW-A5)")
        if counts_extras:
            continue
        if len(ranks) > 1:
            raise WantitError(f"to_act[{s}]: {len(ranks)} pairs; a seat gets one table card a street, which makes "
                              f"one pair at most")
        cards = up.get(s, [])
        if counts[s] == received(s) and cards:  # it holds every card it was dealt: the last came this street
            r = ranks[0]
            if cards[-1] >> 2 != r or sum(c >> 2 == r for c in cards[:-1]) != 1:
                raise WantitError(f"to_act[{s}]: seat {s}'s table card of this street ({card_text(cards[-1])}) "
                                  f"makes no new pair of {_rank_name(r)}")
    if immediate or counts_extras:
        return
    for s in range(n):
        cards = up.get(s, [])
        if step[s] <= step[resolver] or s in to_act or counts[s] != received(s) or len(cards) < 2:
            continue
        r = cards[-1] >> 2
        if actions[r] != TW.ACTION_NONE and sum(c >> 2 == r for c in cards[:-1]) == 1 and \
                r not in acted.get(s, []):
            raise WantitError(f"to_act: seat {s}'s {card_text(cards[-1])} made a pair of {_rank_name(r)} this "
                              f"street, and seat {s} acts after seat {resolver}: it is still to act (to_act {s} = "
                              f"{RANK_CHARS[r]})")


# ---------------------------------------------------------------- the history of a deal
# What the table saw, in order of play from the first offer of 4th street (RULES.md
# §4.3-4.4): every offer's outcome and every special action carried out or declined.
_VERBS = {
    "takes": "takes", "take": "takes", "took": "takes", "accepts": "takes", "accept": "takes", "accepted": "takes",
    "pays": "pays", "pay": "pays", "paid": "pays", "refuses": "pays", "refuse": "pays", "refused": "pays",
    "gets": "gets", "get": "gets", "got": "gets",
    "discards": "discards", "discard": "discards", "discarded": "discards",
    "steals": "steals", "steal": "steals", "stole": "steals",
    "declines": "declines", "decline": "declines", "declined": "declines",
}
_FORMS = ("'SEAT takes CARD', 'SEAT pays CARD [for CARD]', 'SEAT gets CARD', 'SEAT discards CARD [from SEAT] "
          "[blind]', 'SEAT steals CARD [from SEAT] [blind]' or 'SEAT declines'")


class _Entry:
    """One history entry: ``seat verb card``, the card dealt for a fee (``dealt``), the
    victim of a discard or steal and whether it was a hole card taken blind."""

    def __init__(self, text, seat, verb, card=None, dealt=None, victim=None, blind=False):
        self.text, self.seat, self.verb, self.card = text, seat, verb, card
        self.dealt, self.victim, self.blind = dealt, victim, blind


def _history_entries(history, n):
    """The ``_Entry`` list of a Train Wreck history (a list, or one text with ';'
    between entries)."""
    out = []
    for item in _history_items(history, "entries such as 'SEAT takes CARD'"):
        words = item.replace(",", " ").split()
        verb = _VERBS.get(words[1].lower()) if len(words) >= 2 else None
        if verb is None:
            raise WantitError(f"history: {item!r} should look like {_FORMS}")
        seat = _seat(words[0], n, f"history {item!r}")

        def card_of(word):
            card = _cards(word, f"history {item!r}")
            if len(card) != 1 or card[0] is None:
                raise WantitError(f"history {item!r}: name the card")
            return card[0]

        rest = words[2:]
        if verb == "declines":
            if rest:
                raise WantitError(f"history {item!r}: 'SEAT declines' declines the special action due; nothing "
                                  f"follows it")
            out.append(_Entry(item, seat, verb))
            continue
        if not rest:
            raise WantitError(f"history {item!r}: name the card")
        card = card_of(rest[0])
        rest = rest[1:]
        entry = _Entry(item, seat, verb, card)
        if verb == "pays" and rest:
            if len(rest) != 2 or rest[0].lower() != "for":
                raise WantitError(f"history {item!r} should look like 'SEAT pays CARD' or 'SEAT pays CARD for "
                                  f"CARD' (the card dealt in its place)")
            entry.dealt = card_of(rest[1])
        elif verb in ("discards", "steals"):
            words_left = [w.lower() for w in rest]
            if "blind" in words_left:
                entry.blind = True
                rest = [w for w in rest if w.lower() != "blind"]
            if rest:
                if len(rest) != 2 or rest[0].lower() != "from":
                    raise WantitError(f"history {item!r} should look like 'SEAT {verb} CARD [from SEAT] [blind]'")
                entry.victim = _seat(rest[1], n, f"history {item!r}")
            if entry.blind and entry.victim is None:
                raise WantitError(f"history {item!r}: say whose hole card it was ('... from SEAT blind')")
        elif rest:
            raise WantitError(f"history {item!r} should look like 'SEAT {verb} CARD'")
        out.append(entry)
    return out


def _bit_order(c):
    """A card's place in the kernels' mask order (16 bits a suit), the order the
    kernel lists a seat's cards as targets in."""
    return 16 * (c & 3) + (c >> 2)


class _Replay:
    """The deal replayed from the history by §4.3-4.4, on the public cards only: each
    seat's table, extra and stolen cards, the fees, the pairs, and the rows of the free
    choices (``rows``: ``(seat, time, row)``, ``held`` filled in later)."""

    def __init__(self, inp, table, n, dealer):
        rules = inp.rules
        self.n, self.dealer = n, dealer
        self.actions = [int(rules[TW.R_SPECIAL_PAIRS + r]) for r in range(13)]
        self.fees_of = [int(rules[TW.R_FEE_UNIT] * rules[TW.R_FEE_MULTIPLIERS + k]) for k in range(3)]
        self.counts_extras = rules[TW.R_PAIRS_COUNT_EXTRAS] > 0
        self.retrigger = rules[TW.R_RETRIGGER] > 0
        self.optional = rules[TW.R_ACTIONS_OPTIONAL] > 0
        self.immediate = int(rules[TW.R_SPECIAL_TIMING]) == TW.TIMING_IMMEDIATE
        self.targets = int(rules[TW.R_TARGETS])
        self.with_buried = rules[TW.R_RESHUFFLE_BURIED] > 0
        self.entries = _history_entries(table.history, n)
        self.k = 0
        up = _seat_cards(table.up, n, "up")
        hole = _seat_cards(table.hole, n, "hole")
        self.known_hole = {c: s for s, cards in hole.items() for c in cards if c is not None}
        self.table = [[] for _ in range(n)]
        self.extra = [[] for _ in range(n)]
        self.stolen = [[] for _ in range(n)]
        self.holes = [2] * n
        self.taken = [[] for _ in range(n)]  # (card, time) of the hole cards taken blind
        self.triggered = [set() for _ in range(n)]
        self.pending = [set() for _ in range(n)]
        self.fees = [0] * n
        self.dead, self.buried = [], []
        self.rows = []
        self.up = up
        self.ptr = [0] * n  # the next of up[s] not yet dealt to seat s in the replay
        self.seen = set()
        for s in range(n):
            first = self._first_card(s)
            self.table[s].append(first)
            self.seen.add(first)
            if up.get(s) and up[s][0] == first:
                self.ptr[s] = 1
        self.drawn = 3 * n  # two down and table card #1 each
        self.where = None  # where the history leaves the deal (``_run``)

    def _first_card(self, s):
        """Seat s's table card #1: the first of its up cards, unless the history shows a
        card it never received taken from it (then that was card #1, since lost)."""
        received = {e.card for e in self.entries if e.seat == s and e.verb in ("takes", "gets", "steals")}
        received |= {e.dealt for e in self.entries if e.seat == s and e.dealt is not None}
        lost = [e.card for e in self.entries if e.verb in ("discards", "steals") and e.victim == s and not e.blind
                and e.card not in received and e.card not in self.up.get(s, [])]
        if len(lost) > 1:
            raise WantitError(f"history: {', '.join(card_text(c) for c in lost)} are taken from seat {s}, which was "
                              f"dealt neither (only table card #1 is dealt without an entry)")
        if lost:
            return lost[0]
        if not self.up.get(s):
            raise WantitError(f"up: give seat {s}'s table cards (table card #1 is dealt, not in the history)")
        return self.up[s][0]

    # -- cards
    def _where(self, e):
        return f"history entry {self.k} ({e.text})"

    def _fresh(self, e, c, what):
        if c in self.seen:
            raise WantitError(f"{self._where(e)}: {card_text(c)} was seen before; {what} is a fresh card")
        if c in self.known_hole:
            raise WantitError(f"{self._where(e)}: {card_text(c)} is a hole card of seat {self.known_hole[c]}; "
                              f"{what} is a fresh card")
        self._draw(e)
        self.seen.add(c)

    def _draw(self, e):
        if self.drawn >= 52:
            raise WantitError(f"{self._where(e)}: the stock is empty by then; a history through a reshuffled stock "
                              f"(TW-A9) is not read")
        self.drawn += 1

    def _available(self):
        return 52 - self.drawn + len(self.dead) + (len(self.buried) if self.with_buried else 0)

    def visible(self, s):
        return _mask(self.table[s] + self.extra[s] + self.stolen[s])

    def _n_up(self, s):
        return len(self.table[s]) + len(self.extra[s]) + len(self.stolen[s])

    def _counted(self, s):
        return self.table[s] + (self.extra[s] + self.stolen[s] if self.counts_extras else [])

    def _trigger(self, s, c):
        r = c >> 2
        if self.actions[r] == TW.ACTION_NONE or sum(x >> 2 == r for x in self._counted(s)) != 2:
            return
        if r in self.triggered[s] and not self.retrigger:
            return
        self.triggered[s].add(r)
        self.pending[s].add(r)

    def _receive(self, s, c):
        self.table[s].append(c)
        if self.ptr[s] < len(self.up.get(s, [])) and self.up[s][self.ptr[s]] == c:
            self.ptr[s] += 1
        self._trigger(s, c)

    def _next(self):
        e = self.entries[self.k]
        self.k += 1
        return e

    def _left(self):
        return self.k < len(self.entries)

    def _row(self, seat, kind, choice, extra):
        head = [kind, TW.HISTORY_HEAD + len(extra), seat, choice, 0, self.visible(seat), _mask(self.seen)]
        self.rows.append((seat, self.k, head + extra))

    # -- the procedure
    def run(self):
        n, dealer = self.n, self.dealer
        for street in (4, 5, 6):
            if not self._left():
                self.where = dict(street=street)
                return self
            fee = self.fees_of[street - 4]
            offered, refusals = None, 0
            for i in range(1, n + 1):
                p = (dealer + i) % n
                if not self._left():
                    self.where = dict(street=street, to=p, offer=offered, refusals=refusals)
                    return self
                e = self._next()
                if e.verb not in ("takes", "pays") or e.seat != p:
                    raise WantitError(f"{self._where(e)}: seat {p} is offered {_nth(street)}'s card then "
                                      f"({'SEAT takes CARD' if offered is None else f'{p} takes or pays ' + card_text(offered)})")
                if offered is None:
                    self._fresh(e, e.card, "a card turned up to be offered")
                    offered, refusals = e.card, 0
                elif e.card != offered:
                    raise WantitError(f"{self._where(e)}: the card on offer is {card_text(offered)}")
                can_pay = self._available() > 0  # TW-A9 (a)
                if can_pay:
                    self._row(p, TW.HK_PAY, int(e.verb == "pays"),
                              [offered, fee, self.visible((p + 1) % n), int(i == n)])
                if e.verb == "pays":
                    if not can_pay:
                        raise WantitError(f"{self._where(e)}: no card could replace it, so seat {p} had to take it")
                    dealt = e.dealt
                    if dealt is None:
                        up = self.up.get(p, [])
                        if self.ptr[p] >= len(up):
                            raise WantitError(f"{self._where(e)}: say which card seat {p} was dealt in its place "
                                              f"('{p} pays {card_text(offered)} for CARD'): up[{p}] has no more")
                        dealt = up[self.ptr[p]]
                    self._fresh(e, dealt, "the card dealt for the fee")
                    self.fees[p] += fee
                    refusals += 1
                    self._receive(p, dealt)
                else:
                    offered, refusals = None, 0
                    self._receive(p, e.card)
                if self.immediate and not self._resolve(p):
                    self.where = dict(street=street, to=(p + 1) % n if i < n else None, offer=offered,
                                      refusals=refusals if i < n else 0, to_act={p: sorted(self.pending[p])})
                    if i == n and offered is not None:
                        self.buried.append(offered)  # the dealer's refused card: buried when it is done
                    return self
            if offered is not None:
                self.buried.append(offered)
            if not self.immediate:
                for i in range(1, n + 1):
                    if not self._resolve((dealer + i) % n):
                        self.where = dict(street=street, to_act={s: sorted(self.pending[s]) for s in range(n)
                                                                 if self.pending[s]})
                        return self
        if self._left():
            raise WantitError(f"history: {len(self.entries) - self.k} entries after 6th street's special pairs; "
                              f"nothing is offered or acts after them")
        self.where = dict(street=7)
        return self

    def _resolve(self, p):
        """Seat p's pending pairs in rank order; False when the history ends first."""
        while self.pending[p]:
            if not self._left():
                return False
            r = min(self.pending[p])
            self.pending[p].discard(r)
            self._act(p, r)
        return True

    def _candidates(self, p):
        out = []
        for i in range(1, self.n):
            o = (p + i) % self.n
            cards = self.table[o] if self.targets == TW.TARGETS_TABLE else \
                self.table[o] + self.extra[o] + self.stolen[o]
            out += [(o, c) for c in sorted(cards, key=_bit_order)]
            if self.targets == TW.TARGETS_ANY and self.holes[o] > 0:
                out.append((o, None))
        return out[:TW.MAX_CANDIDATES]

    def _act(self, p, r):
        action = self.actions[r]
        pair = f"seat {p}'s pair of {_rank_name(r)}"
        if action == TW.ACTION_EXTRA_CARD:
            if self._n_up(p) >= TW.UP - 1:
                return  # no room (never in practice)
            e = self._next()
            if e.seat != p or e.verb not in (("gets", "declines") if self.optional else ("gets",)):
                raise WantitError(f"{self._where(e)}: {pair} acts then: '{p} gets CARD' (its extra card)" +
                                  (f" or '{p} declines'" if self.optional else ""))
            if self.optional:
                self._row(p, TW.HK_EXTRA, int(e.verb == "gets"), [])
            if e.verb == "gets":
                if self._available() == 0:
                    raise WantitError(f"{self._where(e)}: no card was left to deal (TW-A9 d)")
                self._fresh(e, e.card, "an extra card")
                self.extra[p].append(e.card)
                if self.counts_extras:
                    self._trigger(p, e.card)
            return
        steal = action == TW.ACTION_STEAL
        if steal and self._n_up(p) >= TW.UP - 1:
            return
        cands = self._candidates(p)
        if not cands:
            return  # no target: skipped
        verb = "steals" if steal else "discards"
        e = self._next()
        if e.seat != p or e.verb not in ((verb, "declines") if self.optional else (verb,)):
            raise WantitError(f"{self._where(e)}: {pair} acts then: '{p} {verb} CARD'" +
                              (f" or '{p} declines'" if self.optional else ""))
        choice = -1
        if e.verb != "declines":
            victim = e.victim
            if e.blind:
                target = (victim, None)
            else:
                if victim is None:
                    holders = [o for o, c in cands if c == e.card]
                    if not holders:
                        raise WantitError(f"{self._where(e)}: no opponent of seat {p} shows {card_text(e.card)} "
                                          f"as a card it may take then (a table card #1 since lost: say whose, "
                                          f"'{p} {verb} {card_text(e.card)} from SEAT')")
                    victim = holders[0]
                target = (victim, e.card)
            if target not in cands:
                shown = "a hole card blind" if e.blind else card_text(e.card)
                raise WantitError(f"{self._where(e)}: seat {p} cannot take {shown} from seat {victim} then (targets: "
                                  f"{', '.join(f'{o}:' + (card_text(c) if c is not None else 'hole') for o, c in cands)})")
            choice = cands.index(target)
        if self.optional or len(cands) > 1:
            self._row(p, TW.HK_TARGET, choice,
                      [int(steal), int(self.optional), len(cands)] +
                      [self.visible(s) if s < self.n else 0 for s in range(C.SEATS)] +
                      [o for o, _ in cands] + [NO_CARD if c is None else c for _, c in cands])
        if choice < 0:
            return
        c = e.card
        if e.blind:
            if c in self.seen or c in self.known_hole:
                raise WantitError(f"{self._where(e)}: {card_text(c)} " +
                                  ("was seen face up before" if c in self.seen else
                                   f"is a hole card of seat {self.known_hole[c]}, given") +
                                  f"; it cannot be seat {victim}'s hole card taken blind")
            self.holes[victim] -= 1
            self.taken[victim].append((c, self.k))
            self.seen.add(c)
        else:
            for cards in (self.table[victim], self.extra[victim], self.stolen[victim]):
                if c in cards:
                    cards.remove(c)
        if steal:
            self.stolen[p].append(c)
            if self.counts_extras:
                self._trigger(p, c)
        else:
            self.dead.append(c)

    def condition_rows(self):
        """The rows with each one's ``held``: the seat's hole cards then taken blind since."""
        out = []
        for seat, time, row in self.rows:
            row = list(row)
            row[4] = _mask([c for c, t in self.taken[seat] if t > time])
            out.append((seat, row))
        return out

    def fields(self):
        """The table fields the history gives (the ``Table`` names)."""
        n = self.n
        acted = {}
        for s in range(n):
            held = self._counted(s)
            acted[s] = sorted(r for r in self.triggered[s] - self.pending[s] if sum(c >> 2 == r for c in held) < 2)
        w = self.where
        return dict(up={s: self.table[s] for s in range(n)}, extra={s: self.extra[s] for s in range(n)},
                    stolen={s: self.stolen[s] for s in range(n)}, discarded=list(self.dead),
                    gone=list(self.buried), fees={s: self.fees[s] for s in range(n)}, acted=acted,
                    to_act={s: r for s, r in w.get("to_act", {}).items() if r},
                    hole_taken={s: [c for c, _ in self.taken[s]] for s in range(n)},
                    street=w["street"], offer=w.get("offer"), to=w.get("to"), refusals=w.get("refusals", 0))


def _text(cards):
    return " ".join(card_text(c) for c in cards) or "none"


def _ranks_text(ranks):
    return "".join(RANK_CHARS[r] for r in sorted(ranks)) or "none"


def _with_history(inp, table, n, dealer):
    """``table`` with the fields its history gives filled in, each one given checked
    against the history first (one line naming the first that disagrees)."""
    replay = _Replay(inp, table, n, dealer).run()
    got = replay.fields()
    changes = {}
    up = _seat_cards(table.up, n, "up")
    for s in range(n):
        if up.get(s, []) != got["up"][s]:
            raise WantitError(f"history: seat {s} holds the table cards {_text(got['up'][s])} by it, but up[{s}] "
                              f"gives {_text(up.get(s, []))}")
    for name, what, read in (("extra", "extra cards", _seat_cards), ("stolen", "stolen cards", _seat_cards),
                             ("hole_taken", "hole cards taken blind", _seat_cards)):
        given = read(getattr(table, name), n, name)
        for s, cards in given.items():
            if sorted(cards, key=lambda c: -1 if c is None else c) != sorted(got[name][s]):
                raise WantitError(f"history: seat {s} has the {what} {_text(got[name][s])} by it, but {name}[{s}] "
                                  f"gives {_text(c for c in cards if c is not None)}")
        changes[name] = {**{s: got[name][s] for s in range(n)}, **given}
    for name, what in (("discarded", "discarded cards"), ("gone", "buried cards")):
        if _given(getattr(table, name)):
            cards = _cards(getattr(table, name), name)
            if sorted(c for c in cards if c is not None) != sorted(got[name]) or None in cards:
                raise WantitError(f"history: the {what} are {_text(got[name])} by it, but {name} gives "
                                  f"{_text(c for c in cards if c is not None)}")
        changes[name] = got[name]
    fees = _seat_chips(table.fees, n)
    for s, paid in fees.items():
        if paid != got["fees"][s]:
            raise WantitError(f"history: seat {s} paid {got['fees'][s]} chips in fees by it, but fees[{s}] = {paid}")
    changes["fees"] = got["fees"]
    for name in ("acted", "to_act"):
        given = _seat_ranks(getattr(table, name), n, name)
        for s, ranks in given.items():
            if sorted(set(ranks)) != sorted(got[name].get(s, [])):
                raise WantitError(f"history: seat {s}'s {name} ranks are {_ranks_text(got[name].get(s, []))} by "
                                  f"it, but {name}[{s}] gives {_ranks_text(ranks)}")
        changes[name] = {s: "".join(RANK_CHARS[r] for r in ranks) for s, ranks in got[name].items()}
    where = got["street"]
    if table.street is not None:
        street = whole_text(table.street, "street")
        if street != where and not (where == 7 and street == 8):
            raise WantitError(f"history: it leaves the deal on {_nth(where)}, but street = {street} (the history "
                              f"runs from 4th street's first offer to now)")
        where = street
    changes["street"] = None if where == 7 and table.street is None else where  # 7 or 8: the hole cards say
    offer = _cards(table.offer, "offer") if table.offer is not None else []
    if offer or table.to is not None:
        to = _seat(table.to, n, "to") if table.to is not None else None
        if got["to"] is None and not got["to_act"] and 4 <= got["street"] <= 6:
            got["to"] = (dealer + 1) % n  # the history ends as a street begins: its first seat is next
        if got["offer"] is None and got["to"] is not None and len(offer) == 1 and to == got["to"] and \
                whole_text(table.refusals, "refusals") == 0:
            got["offer"] = offer[0]  # the card turned up for the seat since the history's last entry
        if (offer[0] if offer else None) != got["offer"] or to != got["to"] or \
                whole_text(table.refusals, "refusals") != got["refusals"]:
            said = (f"{card_text(got['offer'])} offered to seat {got['to']} with {got['refusals']} refusals"
                    if got["offer"] is not None else
                    f"the next card for seat {got['to']}" if got["to"] is not None else "no card on offer")
            raise WantitError(f"history: it leaves {said}; the table says otherwise")
    changes.update(offer=None if got["offer"] is None else card_text(got["offer"]), to=got["to"],
                   refusals=got["refusals"])
    changes["history"] = ()
    return replace(table, **changes)


def tw_condition_rows(inp, table):
    """The conditioning rows (``TW.history_consistent``) of the free choices of the
    seats whose hole cards are unknown, from ``table.history``."""
    n, dealer, _ = _common(inp, table)
    if not _history_entries(table.history, n):
        raise WantitError("--condition needs the history of the choices seen (--history, or history in the file)")
    replay = _Replay(inp, table, n, dealer).run()
    hole = _seat_cards(table.hole, n, "hole")
    out = []
    for seat, row in replay.condition_rows():
        during = 2 - len(replay.taken[seat])  # its hole cards on streets 4-6 still held now
        known = [c for c in hole.get(seat, [])[:during] if c is not None]
        if len(known) + len(replay.taken[seat]) < 2:
            out.extend(row)
    return np.array(out, np.int64)
