"""An Anaconda table from my chair (RULES.md §2.3)."""

import re

import numpy as np

from kernels.cards import card_bit
from kernels.games import anaconda as AN
from kernels.games import common as C

from ..cards import card_text
from ..errors import WantitError
from ..runs import whole
from .parse import (
    _Cards,
    _cards,
    _common,
    _given,
    _n,
    _or,
    _seat_cards,
    _set_declarations,
    _set_unknowns,
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
    rolled = stage == "roll" and all(len(up.get(s, [])) == AN.UP for s in range(n))
    hidden = {s: mine if s == me else hole.get(s, []) for s in range(n)}
    _set_declarations(inp, table, st, n, dealer, None if rolled else "the roll" if stage == "roll" else
                      "the keep and the roll",
                      {s for s in range(n) if None in hidden[s] or len(hidden[s]) < limit})
    _set_unknowns(st, unknowns)
    C.fill_stock(st, seen.mask())
    if len(unknowns) > int(st[C.P.deck + 1] - st[C.P.deck]):
        raise WantitError(f"the table leaves {int(st[C.P.deck + 1] - st[C.P.deck])} unseen cards for "
                          f"{len(unknowns)} unknown ones")
    st[C.B.decisions] = 0
    return st

