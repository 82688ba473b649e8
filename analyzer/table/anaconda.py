"""An Anaconda table from my chair (RULES.md §2.3)."""

import re

import numpy as np

from kernels.cards import card_bit
from kernels.games import anaconda as AN
from kernels.games import common as C

from ..cards import card_text
from ..errors import WantitError
from .parse import (
    _Cards,
    _cards,
    _common,
    _given,
    _mask,
    _n,
    _or,
    _seat_cards,
    _set_declarations,
    _set_unknowns,
    whole_text,
)


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
    """``(stage, passes done)`` from the ``phase`` text: "pass N", "keep", "stacked"
    or "roll"."""
    text = " ".join(str(value).lower().split())
    if text in ("keep", "stacked", "roll"):
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
    raise WantitError(f"phase {value!r}: write 'pass N' (before the N-th pass, or my packet for it chosen), 'keep' "
                      f"(the passes done, the keep to come), 'stacked' (my stack made, the roll to come) or 'roll' "
                      f"(the stacks made and rolling)")


def _anaconda_state(inp, table):
    """Anaconda (RULES.md §2.3) from my chair (``me``): the table state (see
    ``_an_build``)."""
    return _an_build(inp, table)[0]


def an_condition_rows(inp, table):
    """``--condition``'s rows (``AN.OBSERVED_WIDTH`` each): every packet passed to me,
    ``[schedule phase, passer, mask]``, which the passer's policy must have chosen
    (``AN.replay_passes``). Each pass is a rotation of the table, so one seat passes
    to me in each: the passer is never in doubt."""
    _, plan = _an_build(inp, table)
    if not plan["received"]:
        raise WantitError("--condition needs the packets passed to you: give received (and passed), one packet per "
                          "pass done")
    if not plan["replayed"]:
        raise WantitError(f"--condition: the passes are replayed only when the other seats' cards are left unknown; "
                          f"leave out hole[{plan['others_given']}]")
    return np.array([x for row in plan["observed"] for x in row], np.int64)


def _an_build(inp, table):
    """Anaconda from my chair, and what ``--condition`` reads. Four stages:

    * ``pass N``: before the N-th pass (of those made at this table: a phase that
      AN-A3 skips does not count); my hand of ``hand_size`` cards; ``passed`` and
      ``received``, one packet per pass done (or neither). ``passed`` may hold one
      packet more, the one I have chosen for pass N and not yet delivered (my hand
      is then the ``hand_size`` minus those cards; the others choose theirs). The
      stage is inferred from the packets and my hand, when ``phase`` is not given.
    * ``keep``: the passes done, every seat keeps five (in the table state from the
      dealer's left, as the kernel plays it; the keeps are secret, so the order
      tells nobody anything). My hand: ``hand_size`` cards, or the five I kept
      (then ``gone`` is the cards I discarded, and my stack order is still to
      choose: the hide decision).
    * ``stacked``: as ``keep`` with my five kept and stacked: ``hole[me]`` in stack
      order (the last stays face down), ``gone`` my discards; the others keep and
      stack theirs by their policies, then the roll.
    * ``roll``: the stacks made, ``up`` the cards turned up so far (as many for
      every seat), ``hole`` each seat's face-down stack cards in stack order (the
      last is the one that stays down till the showdown), ``gone`` the discards
      seen. The cards I passed cannot be placed here (each is in its holder's stack
      or among its discards): ``passed`` and ``received`` are refused.

    After passes, with what I passed and received given and the others' cards
    unknown, the deal is held as it was dealt: my hand before the first pass (read
    back from my hand and my packets), every card passed to me dealt to a seat it
    can have come from (the one that passed it to me; under ``--condition`` any
    seat upstream of it, ``place_in_unknowns``), the rest of the others' hands
    unknown; play first replays the passes (``AN.replay_passes``), my packets as
    given and the others' by their policies, so that every deal's hands, the cards
    I passed (which may have been passed on) and each seat's record of what it
    passed and received (its spite evidence) agree with the passes. With some of
    the others' cards given, the hands are held as they are now instead: a card I
    passed goes to the one seat that can hold it (when more could, the table is
    refused), and the others' record of passes holds only what involves me.

    Returns the table state and ``plan``: ``observed``, the rows of the packets
    passed to me; ``replayed``; ``received`` (packets passed to me are given);
    ``others_given``."""
    from ..engine import new_state

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

    def passer(e):
        return next(q for q in range(n) if recipient(q, e) == me)

    def count(e):
        return schedule[phases[e]][0]

    if table.offer is not None or table.to is not None or whole_text(table.refusals, "refusals"):
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

    # Where the deal is: stated, or read from the cards turned up, the packets passed and my hand.
    rolled = max((len(c) for c in up.values()), default=0)
    for name, packets in (("passed", passed), ("received", received)):
        if len(packets) > len(phases):
            raise WantitError(f"{name}: {_n(len(packets), 'packet')}; this table makes {_n(len(phases), 'pass')}")
    mine_given = len(hole.get(me, ()))
    if table.phase is not None:
        stage, done = _an_phase(table.phase, len(phases))
    elif rolled:
        stage, done = "roll", len(phases)
    elif passed and len(passed) > len(received) and mine_given == size - count(len(passed) - 1) and \
            (not received or len(received) == len(passed) - 1):
        stage, done = "pass", len(passed) - 1  # my packet for the next pass is chosen
    elif passed or received:
        done = max(len(passed), len(received))
        stage = "pass" if done < len(phases) else "keep"
    elif not phases or mine_given == 5:
        stage, done = "keep", len(phases)
    else:
        stage, done = "pass", 0
    committed = stage == "pass" and len(passed) == done + 1
    chosen = passed[done] if committed else []
    passed = passed[:done] if committed else passed
    stacked = stage == "stacked"
    where = {"pass": f"before pass {done + 1}", "keep": "after the passes", "stacked": "after the passes",
             "roll": "in the roll"}[stage]
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
    if chosen and len(chosen) != count(done):
        raise WantitError(f"passed[{done + 1}]: {len(chosen)} cards; pass {done + 1} passes {count(done)}")
    if rolled and stage != "roll":
        raise WantitError(f"up: cards are turned up in the roll, once the stacks are made; {where} none is up")

    # Hand sizes.
    kept = stage in ("keep", "stacked") and mine_given == 5
    if stacked and (not kept or None in hole[me]):
        raise WantitError(f"hole[{me}]: {mine_given} cards; stacked, give your five in stack order (the last stays "
                          f"face down) and your discards (gone)")
    if stage == "roll":
        for s in range(n):
            if len(up.get(s, [])) != rolled:
                other = next(t for t in range(n) if len(up.get(t, [])) == rolled)
                raise WantitError(f"up: seat {s} shows {_n(len(up.get(s, [])), 'card')} and seat {other} {rolled}; "
                                  f"every seat turns up its stack cards together")
        limit = mine_size = AN.STACK - rolled
        held = f"a stack has {limit} face down with {rolled} turned up"
        if rolled == 0 and any(len([c for c in hole.get(s, []) if c is not None]) < AN.STACK
                               for s in range(n) if s != me):
            # In the roll a stack's unknown cards are dealt from the unseen ones; before any
            # card is up, 'stacked' has the others keep and stack by their policies instead.
            raise WantitError("phase roll with no card turned up and the others' stacks unknown: describe it as "
                              "--phase stacked (the others then keep five of their hands and stack them by their "
                              "policies; in the roll their unknown stack cards would be dealt at random)")
    else:
        limit = size
        mine_size = 5 if kept else size - len(chosen)
        held = f"a hand is {size} cards {where}"
    mine = hole.get(me, [None] * mine_size)
    if len(mine) != mine_size:
        if stage == "pass" and len(mine) == size - count(done):
            raise WantitError(f"hole[{me}]: {len(mine)} cards, a hand between passing and receiving: give the "
                              f"{count(done)} cards you chose for pass {done + 1} as the last packet of passed, or "
                              f"describe the table before pass {done + 1} with them in your hand")
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
    if chosen and None in mine:
        raise WantitError(f"hole[{me}]: give your own cards to describe the packet you chose")

    seen = _Cards()
    for s, cards in up.items():
        for c in cards:
            seen.add(c, f"up card of seat {s}")
    for s, cards in hole.items():
        for c in cards:
            seen.add(c, f"hole card of seat {s}")
    for c in gone:
        seen.add(c, "gone")
    for c in chosen:
        seen.add(c, f"the packet you chose for pass {done + 1}")

    # My passes: my hand read back pass by pass, and where each card I passed is now.
    final = mine + (gone if kept else []) + chosen  # my hand after the passes done
    others_given = [s for s, cards in sorted(hole.items()) if s != me and any(c is not None for c in cards)]
    replayed = bool(done and passed and received and not others_given and stage != "roll")
    place = {s: set() for s in range(n)}
    hand = set(final)
    if passed or received:
        if None in final:
            raise WantitError(f"hole[{me}]: give your own cards to describe what you passed and received")
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
            if replayed:
                seen.add(c, f"the card you passed in pass {e + 1}")
                continue  # the replayed passes take it where it goes
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
                why = (f"with the other seats' cards given, the table is held as it is now and a card only where it "
                       f"is known to be; leave out hole[{_or(others_given)}] (the passes are then replayed)"
                       if others_given else "the passes are replayed only with the packets you received; give "
                                            "received")
                raise WantitError(f"card {card_text(c)} you passed to seat {r} in pass {e + 1} may have been passed on "
                                  f"since (seat {_or(reach)} holds it): {why}, say which seat holds it (hole), or "
                                  f"describe the table before pass {e + 2}")
            place[r].add(c)
            seen.add(c, f"the card you passed to seat {r}")
    observed = [(phases[e], passer(e), _mask(received[e])) for e in range(done)] if replayed else []

    st = new_state(inp, dealer=dealer)
    st[S.my_seat] = me
    if chosen:
        st[S.fixed + C.SEATS * phases[done] + me] = _mask(chosen)
    unknowns = []
    if replayed:
        # The deal as dealt: my hand before the first pass, the cards passed to me dealt to seats they can have
        # come from, everything else of the others' hands unknown.
        original = hand
        roaming = []  # (card, first pass it reached me in)
        for e in range(done):
            st[S.fixed + C.SEATS * phases[e] + me] = _mask(passed[e])
            st[S.fixed + C.SEATS * phases[e] + passer(e)] = _mask(received[e])
            roaming += [(c, e) for c in sorted(received[e]) if c not in original and c not in {x for x, _ in roaming}]
        for c in sorted(original):
            st[S.hand + me] |= np.int64(card_bit(c))
        for c, e in roaming:
            if c not in seen.where:  # (one I passed on since is there already)
                seen.add(c, f"the card you received in pass {e + 1}")
        narrow = _narrow_origins(roaming, passer, count, done, size)
        for k, (c, e) in enumerate(roaming):
            upstream = {passer(e)}
            for j in reversed(range(e)):
                upstream |= {y for y in range(n) if y != me and recipient(y, j) in upstream}
            st[S.roam_card + k] = c
            st[S.roam_seats + k] = sum(1 << s for s in (narrow[k] or upstream))
            st[S.roam_seats_wide + k] = sum(1 << s for s in upstream)
        st[S.n_roam] = len(roaming)
        unknowns = [(-1, S.hand + s) for s in range(n) if s != me for _ in range(size)]
        st[S.replay_to] = phases[done] if stage == "pass" else len(schedule)
        st[S.pass_phase] = 0
        st[C.B.phase] = AN.PH_PASS_PHASE
    elif stage != "roll":
        for e in range(done):
            # received[receiver, passer]: what I passed, what was passed to me (the pass policies' evidence).
            if passed:
                r = recipient(me, e)
                st[S.received + C.SEATS * r + me] |= np.int64(_mask(passed[e]))
            if received:
                st[S.received + C.SEATS * me + passer(e)] |= np.int64(_mask(received[e]))
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
    if not replayed and stage != "roll":
        for s in range(n):
            listed = mine + chosen if s == me else hole.get(s, [])
            known = {c for c in listed if c is not None} | place[s]
            if len(known) > limit:
                raise WantitError(f"hole[{s}]: seat {s} holds the {_n(len(place[s]), 'card')} you passed it and "
                                  f"{len(known) - len(place[s])} more; {held}")
            for c in known:
                st[S.hand + s] |= np.int64(card_bit(c))
            unknowns += [(-1, S.hand + s)] * ((mine_size + len(chosen) if s == me else size) - len(known))
        st[S.pass_phase] = phases[done] if stage == "pass" else len(schedule)
        st[C.B.phase] = AN.PH_PASS_PHASE
    if kept and None not in mine:
        # My five are kept (the kernel skips my keep); stacked, in the order given, the last face down.
        st[S.kept + me] = np.int64(_mask(mine))
        if stacked:
            for k, c in enumerate(mine[:AN.UP]):
                st[S.up + AN.UP * me + k] = c
            st[S.hole + AN.HOLE * me] = mine[AN.UP]
    rolled = stage == "roll" and all(len(up.get(s, [])) == AN.UP for s in range(n))
    hidden = {s: mine if s == me else hole.get(s, []) for s in range(n)}
    _set_declarations(inp, table, st, n, dealer, None if rolled else "the roll" if stage == "roll" else
                      "the keep and the roll",
                      {s for s in range(n) if None in hidden[s] or len(hidden[s]) < limit})
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    free = int(st[C.P.deck + 1] - st[C.P.deck])
    if len(unknowns) - int(st[S.n_roam]) > free:
        raise WantitError(f"the table leaves {free} unseen cards for {len(unknowns) - int(st[S.n_roam])} unknown ones")
    st[C.B.decisions] = 0
    return st, {"observed": observed, "replayed": replayed, "received": bool(done and received),
                "others_given": _or(others_given) if others_given else ""}


def _narrow_origins(roaming, passer, count, done, size):
    """Without ``--condition``, where each card passed to me was dealt: to the seat
    that passed it to me (which then keeps it till then), as long as that seat's
    hand has room for them and for its own choices in the passes between; a card
    that does not fit is left to every seat it can have come from (``None``)."""
    out = [{passer(e)} for _, e in roaming]
    for seat in {passer(e) for _, e in roaming}:
        mine = [k for k, (_, e) in enumerate(roaming) if passer(e) == seat]
        while mine:
            # Before pass j the seat holds every card of its still to come: room for them and its own packet.
            fits = len(mine) <= size and all(
                sum(1 for k in mine if roaming[k][1] > j) + count(j) <= size for j in range(done)
                if passer(j) != seat)
            if fits:
                break
            last = max(mine, key=lambda k: roaming[k][1])
            out[last] = None
            mine.remove(last)
    return out
