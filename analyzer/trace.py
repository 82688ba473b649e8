"""One deal, replayed with its event log, and told as a narrative.

``play_deal`` runs deal ``deal`` of a run with seed ``seed`` exactly as ``simulate``
does (same stream, same dealer), or a stacked deck given as cards, and returns the
events and the per-seat results; ``narrate`` turns them into text.
"""

from dataclasses import dataclass

import numpy as np

from kernels.cards import NO_CARD
from kernels.games import common as C
from kernels.showdown import SPLIT_HIGH_ONLY

from .cards import format_cards, parse_cards
from .engine import Inputs, new_state, new_stream, play_state
from .errors import WantitError
from .evaluate import _PLURALS, _tables, describe_high, describe_low
from .simulate import seat_policies
from .variants import get_variant

MAX_EVENTS = 4096
DECLARATIONS = {0: "HIGH", 1: "LOW", 2: "BOTH"}
# Train Wreck.
_ORDINALS = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}
_TW_ACTIONS = {1: "an extra card", 2: "a discard from an opponent", 3: "a steal from an opponent"}
_TW_SOURCES = {0: "table card", 1: "face-up card", 2: "hole card (taken blind)"}
_TW_SKIPS = {0: "no opponent has a card it may take", 1: "the player declines", 2: "no room for more cards"}
_TW_LOST = {0: "table card for this street", 1: "7th-street card", 2: "extra card"}


@dataclass
class Deal:
    variant: str
    players: int
    dealer: int
    seed: int
    deal: int
    events: np.ndarray  # rows [kind, seat, card, a, b]
    payout: np.ndarray
    high: np.ndarray
    low: np.ndarray
    declared: np.ndarray
    high_share: np.ndarray
    low_share: np.ndarray
    carry: float
    split_mode: int
    hole: np.ndarray  # [seat, k] face-down cards (255 = none)
    up: np.ndarray  # [seat, k] face-up cards
    paid: np.ndarray  # what each seat put in the pot (ante and fees)

    @property
    def nets(self):
        return self.payout - self.paid


def play_deal(variant, players=None, seed=0, deal=0, rules=None, policies=None, stacked=None,
              rotate_dealer=True, dealer=None):
    """Play one deal with tracing on. ``stacked``: cards to deal in this order instead
    of the random stream (a string or codes; the deck must hold enough cards)."""
    v = get_variant(variant)
    n = v.default_players if players is None else int(players)
    v.check_table(n, rules)
    if deal < 0 or seed < 0:
        raise WantitError("seed and deal must be non-negative")
    rules_vec = v.rules_vector(rules)
    pols = np.stack([v.policy_vector(s) for s in seat_policies(v, n, policies)])
    if dealer is None:
        dealer = deal % n if rotate_dealer else n - 1
    if not 0 <= dealer < n:
        raise WantitError(f"dealer must be a seat 0..{n - 1}")
    stack = np.zeros(0, np.uint8) if stacked is None else parse_cards(stacked)
    if v.game is not None:
        inp = Inputs(v, n, rules_vec, pols)
        st = new_state(inp, dealer, stack if stacked is not None else None)
        played = play_state(inp, st, new_stream(seed, deal))
        if st[C.B.void]:
            raise WantitError(f"the stacked deck of {len(stack)} cards ran out before the deal was complete")
        res = v.result
        row = played.result
        hole = v.state.view(st, "hole")[:n].astype(np.uint8)
        up = v.state.view(st, "up")[:n].astype(np.uint8)
        return Deal(v.name, n, dealer, int(seed), int(deal), played.events, res.view(row, "payout")[:n].copy(),
                    res.view(row, "high")[:n].astype(np.int64), res.view(row, "low")[:n].astype(np.int64),
                    res.view(row, "declared")[:n].astype(np.int64), res.view(row, "high_share")[:n].copy(),
                    res.view(row, "low_share")[:n].copy(), float(row[res.at.carry]),
                    int(rules_vec[C.R_SPLIT_MODE]), hole, up, res.view(row, "paid")[:n].copy())
    trace = np.zeros((MAX_EVENTS, C.TRACE_WIDTH), np.int64)
    payout, hs, ls = np.zeros(n), np.zeros(n), np.zeros(n)
    declared, high, low = (np.zeros(n, np.int64) for _ in range(3))
    paid = np.zeros(n)
    hole = np.full((n, v.hole_width), NO_CARD, np.uint8)
    up = np.full((n, v.up_width), NO_CARD, np.uint8)
    carry, n_events = v.play_seeded(_tables(), rules_vec, pols, n, dealer, int(seed), int(deal), stack, trace,
                                    payout, hs, ls, declared, high, low, paid, hole, up)
    if carry == C.EXHAUSTED:
        raise WantitError(f"the stacked deck of {len(stack)} cards ran out before the deal was complete")
    return Deal(v.name, n, dealer, int(seed), int(deal), trace[:n_events].copy(), payout, high, low, declared,
                hs, ls, float(carry), int(rules_vec[C.R_SPLIT_MODE]), hole, up, paid)


def _card(code):
    return format_cards([code]) if 0 <= code < 52 else "?"


def narrate(d: Deal) -> str:
    """The deal as text, one event a line."""
    v = get_variant(d.variant)
    lines = [f"{v.title}: {d.players} players, dealer seat {d.dealer}, seed {d.seed}, deal {d.deal}"]
    antes = [e for e in d.events if e[0] == C.EV_ANTE]
    if antes:
        lines.append(f"Every seat antes {antes[0][3]}; the pot is {sum(e[3] for e in antes)}.")
    for kind, seat, card, a, b in d.events:
        if kind == C.EV_ANTE:
            continue
        if kind == C.EV_DEAL_DOWN:
            lines.append(f"  seat {seat} is dealt {_card(card)} face down")
        elif kind == C.EV_DEAL_UP:
            lines.append(f"  seat {seat} is dealt {_card(card)} face up")
        elif kind == C.EV_ROUND:
            lead = f" (leader: seat {seat})" if seat >= 0 else ""
            lines.append(f"Round {a}{lead}")
        elif kind == C.EV_TURN_UP:
            lines.append(f"  dealer turns up {_card(card)}")
        elif kind == C.EV_OFFER:
            lines.append(f"    seat {seat} is offered {_card(card)} ({a} rejection{'s' if a != 1 else ''} so far)")
        elif kind == C.EV_TAKE:
            lines.append(f"    seat {seat} {'must take' if a else 'takes'} {_card(card)}")
        elif kind == C.EV_REJECT:
            lines.append(f"    seat {seat} rejects {_card(card)}")
        elif kind == C.EV_DEAD:
            who = f" (refused by seat {seat})" if seat >= 0 else ""
            lines.append(f"  {_card(card)} is dead{who}")
        elif kind == C.EV_POOL_TAKE:
            lines.append(f"    seat {seat} takes {_card(card)} from the rejects on the table")
        elif kind == C.EV_POOL_DECLINE:
            lines.append(f"    seat {seat} declines the {a} reject{'s' if a != 1 else ''} on the table")
        elif kind == C.EV_FORCED_NO_STOCK:
            lines.append(f"    the stock is empty: seat {seat} must take {_card(card)} from the table")
        elif kind == C.EV_RESHUFFLE:
            lines.append(f"  the dead cards are shuffled into a new stock of {a}")
        elif kind == C.EV_PASS_PHASE:
            lines.append(f"Pass {a}: {b} card{'s' if b != 1 else ''} each, chosen before anyone sees theirs")
        elif kind == C.EV_PASS_SKIPPED:
            lines.append(f"Pass {a} is skipped: it would come back to the passer")
        elif kind == C.EV_PASS:
            lines.append(f"    seat {seat} passes {_card(card)} to seat {a}")
        elif kind == C.EV_DISCARD:
            lines.append(f"    seat {seat} discards {_card(card)}")
        elif kind == C.EV_ROLL:
            if a == 1 and seat == _first_roller(d):
                lines.append("Rolling the stacks")
            lines.append(f"    seat {seat} turns up {_card(card)} (card {a} of the stack)")
        elif kind == C.EV_DECLARE:
            if seat == _first_declarer(d):
                lines.append("Declarations")
            lines.append(f"  seat {seat} declares {DECLARATIONS[a]}")
        elif kind == C.EV_HAND:
            if seat == _first_hand(d):
                lines.append("Showdown")
            cards = f"{format_cards(d.hole[seat])} | {format_cards(d.up[seat])}"
            low = "" if d.split_mode == SPLIT_HIGH_ONLY else f"; low {describe_low(b)}"
            lines.append(f"  seat {seat} [{cards}]: {describe_high(a)}{low}")
        elif kind == C.EV_PAYOUT:
            if a or b:
                lines.append(f"  seat {seat} wins {a / C.UNITS:g} (net {b / C.UNITS:+g})")
        elif kind == C.EV_CARRY:
            lines.append(f"  nobody qualifies: {a / C.UNITS:g} is carried over to the next deal")
        elif kind == C.EV_STREET:
            fee = f": refusing the offered card costs {b}" if 4 <= a <= 6 else ""
            lines.append(f"{_ORDINALS.get(a, str(a))} street{fee}")
        elif kind == C.EV_PAY_FEE:
            lines.append(f"    seat {seat} pays {a} into the pot to refuse {_card(card)} and is dealt the next card")
        elif kind == C.EV_ACCEPT:
            why = " (paying is not allowed: no card could replace it)" if a else ""
            lines.append(f"    seat {seat} accepts {_card(card)}{why}")
        elif kind == C.EV_BURY:
            lines.append(f"  {_card(card)}, refused by seat {seat}, the last to act, is buried: out of this deal")
        elif kind == C.EV_SPECIAL:
            lines.append(f"    seat {seat} pairs {_PLURALS[b]} on its table cards with {_card(card)}: "
                         f"{_TW_ACTIONS.get(a, a)} due")
        elif kind == C.EV_EXTRA_CARD:
            lines.append(f"  seat {seat} acts on its pair of {_PLURALS[a]}: an extra card face up")
        elif kind == C.EV_TW_DISCARD:
            lines.append(f"  seat {seat} acts on its pair of {_PLURALS[b >> 2]}: "
                         f"seat {a}'s {_TW_SOURCES.get(b & 3, '')} {_card(card)} is discarded face up")
        elif kind == C.EV_STEAL:
            lines.append(f"  seat {seat} acts on its pair of {_PLURALS[b >> 2]}: "
                         f"it steals seat {a}'s {_TW_SOURCES.get(b & 3, '')} {_card(card)}")
        elif kind == C.EV_SPECIAL_SKIP:
            lines.append(f"  seat {seat}'s pair of {_PLURALS[b >> 2]} does nothing: {_TW_SKIPS.get(b & 3, '')}")
        elif kind == C.EV_COMMUNITY:
            lines.append(f"  too few cards for everyone's 7th-street card: {_card(card)} is a community card "
                         f"for every player")
        elif kind == C.EV_NO_CARD:
            who = f"seat {seat}'s" if seat >= 0 else "the"
            lines.append(f"  no card is left to deal: {who} {_TW_LOST.get(a, 'card')} is lost")
    return "\n".join(lines)


def _first_declarer(d):
    return next((e[1] for e in d.events if e[0] == C.EV_DECLARE), None)


def _first_hand(d):
    return next((e[1] for e in d.events if e[0] == C.EV_HAND), None)


def _first_roller(d):
    return next((e[1] for e in d.events if e[0] == C.EV_ROLL), None)
