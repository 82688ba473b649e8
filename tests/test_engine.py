"""The engine over every registered game: layouts agree between Python and the
compiled kernels, a deal stopped anywhere and copied plays on identically, the
policy's choice is always among the listed legal actions, and a table described by
hand never deals a card it already places."""

import numpy as np
import pytest

from analyzer.engine import (
    Inputs,
    _first_decisions,
    decision,
    forced_batches,
    new_state,
    new_stream,
    play_batch,
    play_state,
)
from analyzer.errors import WantitError
from analyzer.variants import VARIANTS, get_variant
from kernels import engine as E
from kernels.cards import card_bit
from kernels.games import common as C
from kernels.games import selection_rejection as SR
from kernels.layout import Layout

GAMES = sorted(VARIANTS)


def _inputs(name, n=None, policies=None, rules=None):
    v = get_variant(name)
    return v.inputs(v.default_players if n is None else n, policies=policies, rules=rules)


def test_layout_offsets_are_computed_in_declaration_order():
    lay = Layout("t", [("a", 1), ("b", (3, 2)), ("c", 4)])
    assert lay.at == (0, 1, 7) and lay.size == 11
    arr = np.arange(11)
    assert lay.view(arr, "b").tolist() == [[1, 2], [3, 4], [5, 6]]
    assert lay.get(arr, "a") == 0
    ext = lay.extend("u", [("d", 2)])
    assert ext.at.d == 11 and ext.at.b == 1
    with pytest.raises(ValueError, match="twice"):
        Layout("t", [("a", 1), ("a", 2)])


def test_seats_walked_by_comparison_agree_with_python_modulo():
    """``seat_after`` / ``seat_before`` (one comparison, where the games had numba's
    signed ``%``) against Python's ``%`` for every seat and step they accept."""
    for n in range(1, C.SEATS + 1):
        for seat in range(n):
            for k in range(n + 1):
                assert C.seat_after(seat, k, n) == (seat + k) % n
                assert C.seat_before(seat, k, n) == (seat - k) % n


@pytest.mark.parametrize("name", GAMES)
def test_compiled_kernel_uses_the_layouts_offsets(name):
    """A stale compiled kernel would keep old offsets: the kernel reports its own."""
    v = get_variant(name)
    assert tuple(v.kernel_module.state_slots()) == tuple(v.state.at)
    assert v.state.fields[:len(C.BASE_STATE.fields)] == C.BASE_STATE.fields


@pytest.mark.parametrize("name", GAMES)
def test_state_after_a_deal_reads_back_through_the_layout(name):
    v = get_variant(name)
    inp = _inputs(name)
    st = new_state(inp, dealer=1)
    assert v.state.get(st, "players") == inp.players and v.state.get(st, "dealer") == 1
    played = play_state(inp, st, new_stream(3, 0))
    assert played.finished and v.state.get(st, "phase") == C.PH_DONE
    assert v.state.get(st, "events") == len(played.events) > 0


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(12))
def test_a_deal_stopped_anywhere_and_copied_plays_on_identically(name, seed):
    inp = _inputs(name)
    rng = np.random.default_rng(seed)
    start = new_state(inp, dealer=seed % inp.players)
    full = play_state(inp, start.copy(), new_stream(seed, seed))
    decisions = int(full.state[C.B.decisions])
    assert decisions > 0
    k = int(rng.integers(0, decisions + 1))
    st, stream = start.copy(), new_stream(seed, seed)
    first = play_state(inp, st, stream, stop=k)
    assert first.finished == (k == decisions)
    assert int(st[C.B.decisions]) == k
    saved_state, saved_stream = st.copy(), stream.copy()
    rest = play_state(inp, saved_state, saved_stream)
    assert rest.finished
    # Stopped after the last decision (k == decisions), the first part played to the end.
    np.testing.assert_array_equal((first if first.finished else rest).result, full.result)
    np.testing.assert_array_equal(np.concatenate([first.events, rest.events]), full.events)
    np.testing.assert_array_equal(rest.state, full.state)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_the_policys_choice_is_a_listed_legal_action(name, seed):
    """At a random decision point: the action the policy takes is one of the legal
    actions, and forcing each legal action is accepted and leads somewhere else."""
    inp = _inputs(name)
    start = new_state(inp, dealer=0)
    full = play_state(inp, start.copy(), new_stream(seed, 1))
    k = int(np.random.default_rng(seed).integers(0, int(full.state[C.B.decisions])))
    st, stream = start.copy(), new_stream(seed, 1)
    play_state(inp, st, stream, stop=k)
    kind, seat, actions = decision(inp, st)
    assert kind != "none" and 0 <= seat < inp.players and actions
    assert len(set(actions)) == len(actions)
    by_policy = play_state(inp, st.copy(), stream.copy(), stop=k + 1)
    matches = []
    for a in actions:
        forced = play_state(inp, st.copy(), stream.copy(), stop=k + 1, forced=a)
        assert int(forced.state[C.B.decisions]) == k + 1 or forced.finished
        if np.array_equal(forced.state, by_policy.state):
            matches.append(a)
    assert len(matches) >= 1


def _forced_rows(inp, start, seed, deals, action):
    """Each deal's result row with ``action`` forced at its first decision, played
    one at a time by ``play_state`` (which checks the action itself)."""
    return np.array([play_state(inp, start.copy(), new_stream(seed, d), forced=action, trace=False).result
                     for d in deals])


def _first_decision(inp, start, seed, deal):
    """``(kind, seat, legal actions)`` of deal ``deal``'s first decision from ``start``."""
    st = start.copy()
    play_state(inp, st, new_stream(seed, deal), stop=int(st[C.B.decisions]), trace=False)
    return decision(inp, st)


@pytest.mark.parametrize("name", GAMES)
def test_a_forced_batch_plays_each_deal_as_play_state_forces_it(name):
    """Each action forced in a batch gives, deal by deal, the rows of ``play_state``
    forcing it: from a state stopped at a decision (every deal reaches the same one,
    checked once), and from a fresh deal (the deciding seat's cards dealt at random,
    checked in each deal: play to the decision, list its actions, play on) with the
    actions every deal's first decision lists; and so do ``forced_batches``' rows of
    the same actions together."""
    inp = _inputs(name)
    fresh = new_state(inp, dealer=0)
    stopped = fresh.copy()
    full = play_state(inp, stopped.copy(), new_stream(5, 0))
    play_state(inp, stopped, new_stream(5, 0), stop=int(full.state[C.B.decisions]) // 2)
    assert list(_first_decisions(inp, stopped, 7, 0, 12, False)) == [0]
    assert _first_decisions(inp, fresh, 7, 0, 12, False) is None
    actions = _first_decision(inp, stopped, 7, 0)[2]
    common = set.intersection(*(set(_first_decision(inp, fresh, 7, d)[2]) for d in range(12)))
    cases = [(stopped, a) for a in {actions[0], actions[len(actions) // 2], actions[-1]}]
    cases += [(fresh, a) for a in sorted(common)[:2]]
    assert len(cases) >= (2 if name in ("anaconda", "selection") else 3)
    for start, a in cases:
        rows = play_batch(inp, start, 7, 0, 12, rotate_dealer=False, forced=a)
        np.testing.assert_array_equal(rows, _forced_rows(inp, start, 7, range(12), a))
    # forced_batches plays each deal to the decision once and every action from a copy.
    for start in (stopped, fresh):
        actions = [a for s, a in cases if s is start]
        got = list(forced_batches(inp, start, 7, 0, 12, actions, rotate_dealer=False))
        assert [a for a, _ in got] == actions
        for a, rows in got:
            np.testing.assert_array_equal(rows, _forced_rows(inp, start, 7, range(12), a))


def test_forced_batches_play_each_action_as_play_state_forces_it_on_the_same_deals():
    """With the start's dealer, and with the dealer turning a seat a deal (deal ``d``
    dealt by seat ``d % players``)."""
    inp = _inputs("selection_rejection", n=4)
    start = new_state(inp, dealer=1)
    got = list(forced_batches(inp, start, 3, 5, 20, [C.TAKE, C.REFUSE], rotate_dealer=False))
    assert [a for a, _ in got] == [C.TAKE, C.REFUSE]
    for a, rows in got:
        np.testing.assert_array_equal(rows, _forced_rows(inp, start, 3, range(5, 25), a))
    turning = dict(forced_batches(inp, start, 3, 5, 8, [C.TAKE, C.REFUSE]))
    for a, rows in turning.items():
        for i, d in enumerate(range(5, 13)):
            dealt_by = new_state(inp, dealer=d % 4)
            np.testing.assert_array_equal(rows[i], _forced_rows(inp, dealt_by, 3, [d], a)[0])


def test_a_forced_batch_refuses_an_action_that_a_later_deal_cannot_take():
    """From a fresh Anaconda table the first pass's packets are of the cards dealt,
    which differ in every deal: a packet of deal 0's cards is refused at the first
    deal whose passing seat lacks it, where the batch had passed cards that seat did
    not hold. ``forced_batches`` refuses a later action in its first batch."""
    inp = _inputs("anaconda", n=4)
    start = new_state(inp, dealer=0)
    actions = _first_decision(inp, start, 1, 0)[2]
    kind, seat_1, actions_1 = _first_decision(inp, start, 1, 1)
    assert kind == "pass" and actions[0] not in actions_1
    assert play_batch(inp, start, 1, 0, 1, rotate_dealer=False, forced=actions[0]).shape[0] == 1
    message = f"action {{}} is not legal at seat {seat_1}'s pass decision \\(deal 1's first\\); "
    with pytest.raises(WantitError, match=message.format(actions[0]) + ".*the deals before it could take it"):
        play_batch(inp, start, 1, 0, 40, rotate_dealer=False, forced=actions[0])
    # The first of the batches already checks every action.
    batches = forced_batches(_inputs("selection_rejection", n=3), new_state(_inputs("selection_rejection", n=3)), 1,
                             0, 40, [C.TAKE, 7])
    with pytest.raises(WantitError, match="action 7 is not legal at seat .'s offer decision \\(deal 0's first\\)"):
        next(batches)


def _sr_state_by_hand(inp):
    """Selection/Rejection, 4 players, dealer seat 3, round 3 about to start: two
    cards down and two up each, two dead cards (refused by a lone player)."""
    lay = SR.STATE
    st = new_state(inp, dealer=3)
    hole = {0: "As Kd", 1: "2c 3c", 2: "9h 9s", 3: "Td Jd"}
    up = {0: "Ah Ac", 1: "4c 5d", 2: "Qs 8h", 3: "Qd Kh"}
    from analyzer.cards import parse_cards

    placed = np.uint64(0)
    for s in range(4):
        h, u = parse_cards(hole[s]), parse_cards(up[s])
        lay.view(st, "hole")[s, :2] = h
        lay.view(st, "up")[s, :2] = u
        lay.view(st, "n_up")[s] = 2
        for c in h:
            lay.view(st, "hole_mask")[s] |= int(card_bit(int(c)))
            placed |= card_bit(int(c))
        for c in u:
            lay.view(st, "up_mask")[s] |= int(card_bit(int(c)))
            placed |= card_bit(int(c))
    dead = parse_cards("7c 7d")
    lay.view(st, "dead")[:2] = dead
    lay.put(st, "n_dead", 2)
    for c in dead:
        placed |= card_bit(int(c))
    lay.put(st, "round", 2)
    lay.put(st, "leader", 1)
    lay.put(st, "phase", SR.PH_ROUND)
    C.fill_stock(st, placed)
    return st, placed


@pytest.mark.parametrize("seed", range(40))
def test_a_table_described_by_hand_never_deals_a_card_it_places(seed):
    inp = _inputs("selection_rejection", n=4)
    st, placed = _sr_state_by_hand(inp)
    assert int(st[SR.S.deck + 1]) == 52 - 18  # the stock holds exactly the unplaced cards
    played = play_state(inp, st, new_stream(seed, 0))
    assert played.finished
    dealt = [int(e[2]) for e in played.events if e[0] in (C.EV_TURN_UP, C.EV_DEAL_DOWN, C.EV_DEAL_UP)]
    assert len(dealt) == len(set(dealt))
    assert not any(card_bit(c) & placed for c in dealt)
    cards = np.concatenate([SR.STATE.view(st, "hole")[:4].ravel(), SR.STATE.view(st, "up")[:4].ravel()])
    assert len(set(cards.tolist())) == 28  # seven distinct cards each, the described ones kept
    assert SR.STATE.view(st, "hole")[2, :2].tolist() == [4 * 7 + 2, 4 * 7 + 3]


def test_decision_points_of_selection_rejection_follow_the_rules():
    """§1.3: the card on offer may be refused until it has max_rejections refusals;
    the lone last player must take it (SR-A2 forced)."""
    inp = _inputs("selection_rejection", n=3, policies="never_take")
    st = new_state(inp, dealer=2, stacked=np.arange(52))  # 2c 2d 2h 2s 3c ...: six cards down first
    play_state(inp, st, new_stream(0, 0), stop=0)
    assert decision(inp, st) == ("offer", 0, [C.TAKE, C.REFUSE])
    assert SR.STATE.get(st, "offer") == 6  # 3h, the first card turned up
    play_state(inp, st, new_stream(0, 0), stop=2)  # seat 0 and seat 1 refuse
    # Two refusals: seat 2 must take it (not a decision); seat 0 is next offered a card.
    assert SR.STATE.view(st, "up")[2, 0] == 6
    kind, seat, _ = decision(inp, st)
    assert (kind, seat) == ("offer", 0)


def test_engine_ids_are_distinct_and_every_game_is_registered():
    ids = [get_variant(n).game for n in GAMES]
    assert len(set(ids)) == len(ids)
    assert set(ids) <= {E.GAME_SELECTION_REJECTION, E.GAME_DO_YA, E.GAME_ANACONDA, E.GAME_TRAIN_WRECK,
                        E.GAME_SELECTION}
    assert isinstance(_inputs(GAMES[0]), Inputs)


def test_forcing_an_illegal_action_or_after_the_end_is_a_clear_error():
    inp = _inputs("selection_rejection", n=3)
    st = new_state(inp, dealer=2)
    with pytest.raises(WantitError, match="not legal at seat 0's offer decision; legal: 0, 1"):
        play_state(inp, st, new_stream(0, 0), forced=7)
    play_state(inp, st, new_stream(0, 0))
    with pytest.raises(WantitError, match="deal is over"):
        play_state(inp, st, new_stream(0, 0), forced=0)


def test_a_state_of_another_game_size_or_shape_is_a_clear_error():
    """The kernels index a state by the game's layout without checks: a short array
    was read out of bounds (play_state crashed the process), another game's state or
    another table size played on as if it fitted."""
    inp = _inputs("do_ya", n=4)
    st = new_state(inp, dealer=3)
    cases = [
        (lambda: play_state(inp, st[:10].copy(), new_stream(0, 0)), "state holds 10 values; a do_ya table state "
                                                                    "holds"),
        (lambda: play_batch(inp, st[:10].copy(), 1, 0, 3), "start holds 10 values"),
        (lambda: decision(inp, st[:10].copy()), "state holds 10 values"),
        (lambda: play_state(_inputs("selection_rejection", n=4), st.copy(), new_stream(0, 0)),
         "a selection_rejection table state holds"),
        (lambda: play_state(_inputs("do_ya", n=5), st.copy(), new_stream(0, 0)), "state is a 4-player table; these "
                                                                                 "inputs are for 5"),
        (lambda: play_state(inp, list(st), new_stream(0, 0)), "must be a table state"),
        (lambda: play_state(inp, st.astype(np.float64), new_stream(0, 0)), "must be a table state"),
        (lambda: play_batch(inp, st, 1, 0, -1), "count must be 0 or more"),
        (lambda: play_batch(inp, st, 1, 0, 1.5), "count must be a whole number"),
        (lambda: play_state(inp, st.copy(), new_stream(0, 0), stop=None), "stop must be a whole number"),
        (lambda: new_state(inp, dealer=1.5), "dealer must be a whole number, not 1.5"),
        (lambda: new_stream(-1, 0), "seed must be a non-negative integer"),
        (lambda: new_stream(0, 2.5), "deal must be a whole number"),
        (lambda: play_batch(inp, st, -1, 0, 3), "seed must be a non-negative integer"),
        (lambda: play_batch(inp, st, 1, 0.5, 3), "first must be a whole number"),
        (lambda: play_batch(inp, st, 1, 2**63 - 2, 3), "first \\+ count below 2\\*\\*63"),
        (lambda: play_batch(inp, st, 1, 0, 3, rotate_dealer="sometimes"), "rotate_dealer must be true or false"),
        (lambda: play_batch(inp, st, 1, 0, 3, forced=99), "action 99 is not legal at seat 1's offer decision"),
        (lambda: play_batch(inp, st, 1, 0, 3, forced=2**63), "forced must be an action code below 2\\*\\*63"),
        (lambda: play_batch(inp, st, 1, 0, 3, forced=2**60), "action 1152921504606846976 is not legal"),
        # An Anaconda pass of cards beyond the deck crashed the process (a segmentation fault).
        (lambda: play_batch(_inputs("anaconda", n=4), new_state(_inputs("anaconda", n=4)), 1, 0, 3, forced=10**9),
         "action 1000000000 is not legal at seat 0's pass decision"),
        (lambda: new_state(inp, stacked=[0] * 10), "duplicate card '2c'"),
        (lambda: new_state(inp, stacked=[52]), "unknown card code 52"),
        (lambda: new_state(inp, stacked=[0, -1]), "unknown card code -1"),
    ]
    read_only = st.copy()
    read_only.flags.writeable = False
    cases.append((lambda: play_state(inp, read_only, new_stream(0, 0)), "state must be writeable"))
    for call, message in cases:
        with pytest.raises(WantitError, match=message.replace("(", r"\(")):
            call()
    from kernels.rng import DECK_SIZE

    assert new_state(inp, stacked=["2c", "3c"])[C.P.deck + DECK_SIZE] == 2  # card strings stack too


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_rules_and_policy_vectors_follow_the_kernels_layouts(name):
    """Every policy parameter sits at the slot of its own name in the kernel's policy
    layout; every rules option at the start of a distinct field of the rules layout,
    and every field of the game's own is written by an option (a multi-slot writer
    covers the fields after its own, as the pass schedule does; a showdown option a
    game has no use for, such as natural_beats_wild without wild cards, stays 0)."""
    v = get_variant(name)
    pol = v.policy_layout
    for p in v.params:
        assert pol.offsets[p.name] == p.index
    starts = {off: f for f, off in v.rules_layout.offsets.items()}
    indices = [o.index for o in v.options]
    assert len(set(indices)) == len(indices) and set(indices) <= set(starts)
    written_by = None
    shared = set(C.SHOWDOWN_RULES.offsets) if v.kind == "pot" else set()
    for f in v.rules_layout.offsets:
        option = next((o for o in v.options if o.index == v.rules_layout.offsets[f]), None)
        if option is not None:
            written_by = option
        elif f in shared:
            written_by = None
        else:
            assert written_by is not None and written_by.writer is not None, f"{name}: rules field {f} has no option"
    assert v.rules_vector().shape == (v.rules_layout.size,) and v.policy_vector().shape == (pol.size,)


@pytest.mark.parametrize("name", sorted(n for n in VARIANTS if get_variant(n).kind == "pot"))
def test_a_pot_carried_into_the_deal_is_paid_out_with_the_antes(name):
    """§0.8.8: chips carried over from an earlier deal sit in the state's pot; the
    winners take them with this deal's antes and fees, so the nets sum to them."""
    v = get_variant(name)
    inp = _inputs(name)
    for seed in range(5):
        st = new_state(inp, dealer=0)
        v.state.put(st, "carried_in", 3 * C.UNITS)
        out = play_state(inp, st, new_stream(seed, 0)).result
        payout = v.result.view(out, "payout")[:inp.players]
        paid = v.result.view(out, "paid")[:inp.players]
        assert payout.sum() == pytest.approx(paid.sum() + 3 - out[v.result.at.carry], abs=1e-12)
        assert (payout - paid).sum() + out[v.result.at.carry] == pytest.approx(3, abs=1e-12)
