"""A Train Wreck table (RULES.md §4.3-4.4)."""


import numpy as np

from kernels.cards import NO_CARD, RANK_CHARS, card_bit
from kernels.games import common as C
from kernels.games import train_wreck as TW

from ..cards import CardError, parse_ranks
from ..errors import WantitError
from ..runs import whole
from .parse import (
    _Cards,
    _cards,
    _common,
    _count,
    _per_seat,
    _seat,
    _seat_cards,
    _set_declarations,
    _set_unknowns,
)


def _nth(street):
    return f"{street}{'rd' if street == 3 else 'th'} street"


def _rank_name(r):
    return f"{RANK_CHARS[r]}s"


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
    from ..engine import new_state

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
    _set_declarations(inp, table, st, n, dealer, None, set())  # high only: refused with the reason
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    st[C.B.decisions] = 0
    return st

