"""One deal, replayed with its event log, and told as a narrative.

``play_deal`` runs deal ``deal`` of a run with seed ``seed`` exactly as ``simulate``
does (same stream, same dealer), or a stacked deck given as cards, and returns the
events and the per-seat results; ``narrate`` turns them into text.
"""

from dataclasses import dataclass

import numpy as np

from kernels.games import common as C
from kernels.showdown import SPLIT_HIGH_ONLY

from .cards import format_cards, parse_cards
from .engine import Inputs, new_state, new_stream, play_state
from .errors import WantitError
from .evaluate import _PLURALS, describe_high, describe_low
from .rules import played_by
from .runs import check_seed, flag, whole
from .simulate import seat_policies
from .variants import get_variant, pot_variant

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
    v = pot_variant(variant, "play_deal and replay are")  # Selection: analyzer.selection.play_game, replay
    n = v.default_players if players is None else whole(players, "players")
    v.check_table(n, rules)
    seed, deal = check_seed(seed), check_seed(deal, "deal")
    rules_vec = v.rules_vector(rules)
    pols = np.stack([v.policy_vector(s) for s in seat_policies(v, n, policies)])
    if dealer is None:
        dealer = deal % n if flag(rotate_dealer, "rotate_dealer") else n - 1
    dealer = whole(dealer, "dealer")
    if not 0 <= dealer < n:
        raise WantitError(f"dealer must be a seat 0..{n - 1}")
    stack = None if stacked is None else parse_cards(stacked)
    inp = Inputs(v, n, rules_vec, pols)
    st = new_state(inp, dealer, stack)
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


def replay(variant, players=None, seed=0, deal=0, rules=None, policies=None, stacked=None, rotate_dealer=True,
           dealer=None) -> str:
    """Deal ``deal`` of a run seeded ``seed`` (or a stacked deck), told as text: the
    registry's replay for the pot games (``wantit deal``)."""
    return narrate(play_deal(variant, players=players, seed=seed, deal=deal, rules=rules, policies=policies,
                             stacked=stacked, rotate_dealer=rotate_dealer, dealer=dealer))


def _card(code):
    return format_cards([code]) if 0 <= code < 52 else "?"


def _plural(k, word):
    return f"{k} {word}{'' if k == 1 else 's'}"


def _whose(seat):
    return f"seat {seat}'s" if seat >= 0 else "the"


def _hand_line(d, seat, card, a, b):
    cards = f"{format_cards(d.hole[seat])} | {format_cards(d.up[seat])}"
    low = "" if d.split_mode == SPLIT_HIGH_ONLY else f"; low {describe_low(b)}"
    return f"  seat {seat} [{cards}]: {describe_high(a)}{low}"


# The narration, one entry per event kind: a template over seat, card (as text),
# a and b, or a function (deal, seat, card, a, b) -> text (None: no line). Headings
# that open a group of events (declarations, showdown, rolling) are in HEADINGS.
EVENT_TEXT = {
    C.EV_ANTE: None,
    C.EV_DEAL_DOWN: "  seat {seat} is dealt {card} face down",
    C.EV_DEAL_UP: "  seat {seat} is dealt {card} face up",
    C.EV_ROUND: lambda d, seat, card, a, b: f"Round {a}" + (f" (leader: seat {seat})" if seat >= 0 else ""),
    C.EV_TURN_UP: "  dealer turns up {card}",
    C.EV_OFFER: lambda d, seat, card, a, b: f"    seat {seat} is offered {card} ({_plural(a, 'rejection')} so far)",
    C.EV_TAKE: lambda d, seat, card, a, b: f"    seat {seat} {'must take' if a else 'takes'} {card}",
    C.EV_REJECT: "    seat {seat} rejects {card}",
    C.EV_DEAD: lambda d, seat, card, a, b: f"  {card} is dead" + (f" (refused by seat {seat})" if seat >= 0 else ""),
    C.EV_POOL_TAKE: "    seat {seat} takes {card} from the rejects on the table",
    C.EV_POOL_DECLINE: lambda d, seat, card, a, b: f"    seat {seat} declines the {_plural(a, 'reject')} on the table",
    C.EV_FORCED_NO_STOCK: "    the stock is empty: seat {seat} must take {card} from the table",
    C.EV_RESHUFFLE: "  the dead cards are shuffled into a new stock of {a}",
    C.EV_PASS_PHASE: lambda d, seat, card, a, b: (f"Pass {a}: {_plural(b, 'card')} each, chosen before anyone "
                                                  f"sees theirs"),
    C.EV_PASS_SKIPPED: "Pass {a} is skipped: it would come back to the passer",
    C.EV_PASS: "    seat {seat} passes {card} to seat {a}",
    C.EV_DISCARD: "    seat {seat} discards {card}",
    C.EV_ROLL: "    seat {seat} turns up {card} (card {a} of the stack)",
    C.EV_DECLARE: lambda d, seat, card, a, b: f"  seat {seat} declares {DECLARATIONS[a]}",
    C.EV_HAND: _hand_line,
    C.EV_PAYOUT: lambda d, seat, card, a, b: (f"  seat {seat} wins {a / C.UNITS:g} (net {b / C.UNITS:+g})"
                                              if a or b else None),
    C.EV_CARRY: lambda d, seat, card, a, b: f"  nobody qualifies: {a / C.UNITS:g} is carried over to the next deal",
    C.EV_STREET: lambda d, seat, card, a, b: (f"{_ORDINALS.get(a, str(a))} street"
                                              + (f": refusing the offered card costs {b}" if 4 <= a <= 6 else "")),
    C.EV_PAY_FEE: "    seat {seat} pays {a} into the pot to refuse {card} and is dealt the next card",
    C.EV_ACCEPT: lambda d, seat, card, a, b: (f"    seat {seat} accepts {card}"
                                              + (" (paying is not allowed: no card could replace it)" if a else "")),
    C.EV_BURY: "  {card}, refused by seat {seat}, the last to act, is buried: out of this deal",
    C.EV_SPECIAL: lambda d, seat, card, a, b: (f"    seat {seat} pairs {_PLURALS[b]} on its table cards with {card}: "
                                               f"{_TW_ACTIONS.get(a, a)} due"),
    C.EV_EXTRA_CARD: lambda d, seat, card, a, b: f"  seat {seat} acts on its pair of {_PLURALS[a]}: an extra card face up",
    C.EV_TW_DISCARD: lambda d, seat, card, a, b: (f"  seat {seat} acts on its pair of {_PLURALS[b >> 2]}: seat {a}'s "
                                                  f"{_TW_SOURCES.get(b & 3, '')} {card} is discarded face up"),
    C.EV_STEAL: lambda d, seat, card, a, b: (f"  seat {seat} acts on its pair of {_PLURALS[b >> 2]}: it steals seat "
                                             f"{a}'s {_TW_SOURCES.get(b & 3, '')} {card}"),
    C.EV_SPECIAL_SKIP: lambda d, seat, card, a, b: (f"  seat {seat}'s pair of {_PLURALS[b >> 2]} does nothing: "
                                                    f"{_TW_SKIPS.get(b & 3, '')}"),
    C.EV_COMMUNITY: "  too few cards for everyone's 7th-street card: {card} is a community card for every player",
    C.EV_NO_CARD: lambda d, seat, card, a, b: (f"  no card is left to deal: {_whose(seat)} "
                                               f"{_TW_LOST.get(a, 'card')} is lost"),
}
# A heading before the first event of its kind in a deal.
HEADINGS = {C.EV_DECLARE: "Declarations", C.EV_HAND: "Showdown", C.EV_ROLL: "Rolling the stacks"}


def narrate(d: Deal) -> str:
    """The deal as text, one event a line (``EVENT_TEXT``)."""
    v = get_variant(d.variant)
    lines = [f"{v.title}: {d.players} players, dealer seat {d.dealer}, seed {d.seed}, deal {d.deal}",
             played_by(v)]
    antes = [e for e in d.events if e[0] == C.EV_ANTE]
    if antes:
        lines.append(f"Every seat antes {antes[0][3]}; the pot is {sum(e[3] for e in antes)}.")
    headed = set()
    for kind, seat, card, a, b in (tuple(int(x) for x in e) for e in d.events):
        text = EVENT_TEXT.get(kind, "  event {kind}: seat {seat}, card {card}, {a}, {b}")
        if text is None:
            continue
        if kind in HEADINGS and kind not in headed:
            headed.add(kind)
            lines.append(HEADINGS[kind])
        if callable(text):
            text = text(d, seat, _card(card), a, b)
            if text is not None:
                lines.append(text)
        else:
            lines.append(text.format(kind=kind, seat=seat, card=_card(card), a=a, b=b))
    return "\n".join(lines)
