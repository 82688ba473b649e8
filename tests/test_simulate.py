"""The simulation driver over every registered variant: zero-sum nets, determinism,
statistics against exact answers, information sets, interruption and resumption."""

import json
from math import comb, sqrt

import numpy as np
import pandas as pd
import pytest
from numba import njit

from analyzer import Category, WantitError, hand_category
from analyzer.engine import Inputs, new_state
from analyzer.engine import play_batch as engine_batch
from analyzer.simulate import seat_policies, simulate
from analyzer.trace import play_deal
from analyzer.variants import VARIANTS, get_variant
from kernels.evaluate import eval_tables, high_mask
from kernels.games import common as C
from kernels.ranking import CAT_SHIFT

ALL = sorted(name for name, v in VARIANTS.items() if v.kind == "pot")  # Selection: test_registry.py
F2 = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584]


def largest_table(v, rules=None):
    """The most players the variant's rules allow (e.g. 7 for seven-card Anaconda)."""
    for n in range(v.max_players, v.min_players - 1, -1):
        try:
            v.check_table(n, rules)
            return n
        except WantitError:
            continue
    raise AssertionError(f"{v.name}: no valid table")


def _offered(variant, rules):
    """Whether a variant offers these rules (Train Wreck, say, is high-only)."""
    try:
        get_variant(variant).rules_vector(rules)
        return True
    except WantitError:
        return False


SHOWDOWNS = [None, {"split_mode": "declare", "chip_mode": "integer"},
             {"split_mode": "cards_speak", "low_qualifier": 8}, {"chip_mode": "integer", "odd_chip": "suit"}]


def batch_rows(v, n, seed, count, rules=None):
    """``(payout, high_share, low_share, declared, high, low, paid, carry)`` by deal
    row, from the engine's batch driver with the default policy at every seat."""
    inp = Inputs(v, n, v.rules_vector(rules), np.stack([v.policy_vector(s) for s in seat_policies(v, n, None)]))
    out = engine_batch(inp, new_state(inp), seed, 0, count)
    cols = [v.result.view(out, name)[:, :n] for name in ("payout", "high_share", "low_share", "declared", "high",
                                                          "low", "paid")]
    return (*cols, v.result.view(out, "carry")[:, 0])


@pytest.mark.parametrize("variant,rules", [(v, r) for v in ALL for r in SHOWDOWNS if _offered(v, r)])
def test_nets_sum_to_zero_in_every_deal(variant, rules):
    v = get_variant(variant)
    n = largest_table(v, rules)
    count = 3000
    *arrays, paid, carry = batch_rows(v, n, 11, count, rules)
    payout = arrays[0]
    assert (paid >= 1).all()
    assert np.abs((payout - paid).sum(axis=1) + carry).max() < 1e-9
    assert (payout >= 0).all()
    shares = arrays[1] + arrays[2]
    assert np.allclose(shares.sum(axis=1)[carry == 0], 1.0)


@pytest.mark.parametrize("variant", ALL)
def test_same_numbers_whatever_the_threads_and_chunks(variant):
    runs = [simulate(variant, deals=3000, seed=5, threads=th, chunk=ch)
            for th, ch in ((1, 3000), (2, 3000), (2, 700))]
    for other in runs[1:]:
        pd.testing.assert_frame_equal(runs[0].seats, other.seats)
        pd.testing.assert_frame_equal(runs[0].categories, other.categories)


@pytest.mark.parametrize("variant", ALL)
def test_a_simulated_deal_is_the_traced_deal(variant):
    """Deal i of a run is replayable alone: its traced payouts equal the batch row."""
    v = get_variant(variant)
    n = 4
    count = 50
    arrays = batch_rows(v, n, 9, count)
    for i in (0, 17, 49):
        d = play_deal(variant, players=n, seed=9, deal=i)
        assert d.payout.tolist() == arrays[0][i].tolist()
        assert d.high.tolist() == arrays[4][i].tolist()


def _z_scores(observed, probabilities, total):
    return [(o - total * p) / sqrt(total * p * (1 - p)) for o, p in zip(observed, probabilities)]


def test_selection_rejection_always_take_gives_random_seven_card_hands():
    """Everyone taking every card: each hand is a random 7-card hand, so category
    frequencies follow F2. |z| <= 4.5 per category: false-failure rate below 1e-4
    for the nine cells (binomial variance; seats of one deal are negatively
    correlated, which only lowers the true variance)."""
    deals, n = 30_000, 7
    r = simulate("selection_rejection", players=n, deals=deals, seed=2024, policies="always_take")
    total = deals * n
    observed = [r.categories[r.categories.category == c.label].probability.sum() * deals for c in Category][:9]
    probs = [f / comb(52, 7) for f in F2]
    for cat, z in zip(Category, _z_scores(observed, probs, total)):
        assert abs(z) <= 4.5, f"{cat.label}: z = {z:.2f}"


@njit(cache=True)
def _do_ya_exact_counts(t):
    """Categories of every 4-card natural hand plus one wild card: C(52, 4) hands."""
    counts = np.zeros(16, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    m = np.uint64(0)
                    for x in (a, b, c, d):
                        m |= np.uint64(1) << np.uint64(16 * (x & 3) + (x >> 2))
                    counts[high_mask(t, m, 1, 0, False) >> CAT_SHIFT] += 1
    return counts


def test_do_ya_always_take_gives_four_random_cards_plus_a_wild():
    """Four random up-cards and a wild hole card: frequencies against the exact count
    over all C(52, 4) natural hands (the hole card's identity does not matter). Same
    |z| <= 4.5 rule as above."""
    counts = _do_ya_exact_counts(eval_tables())
    assert counts.sum() == comb(52, 4)
    by_category = np.zeros(10)
    from analyzer import hand_category

    for slot in range(1, 13):
        if counts[slot]:
            by_category[hand_category(slot << CAT_SHIFT)] += counts[slot]
    assert by_category[Category.HIGH_CARD] == by_category[Category.TWO_PAIR] == 0  # §0.4.5
    deals, n = 30_000, 8
    r = simulate("do_ya", players=n, deals=deals, seed=77, policies="always_take")
    observed = [r.categories[r.categories.category == c.label].probability.sum() * deals for c in Category]
    probs = by_category / comb(52, 4)
    for cat, o, p in zip(Category, observed, probs):
        if p == 0:
            assert o == 0, cat.label
            continue
        z = (o - deals * n * p) / sqrt(deals * n * p * (1 - p))
        assert abs(z) <= 4.5, f"{cat.label}: z = {z:.2f}"


def _decisions(d):
    keep = (C.EV_OFFER, C.EV_TAKE, C.EV_REJECT, C.EV_POOL_TAKE, C.EV_POOL_DECLINE, C.EV_DEAD, C.EV_DECLARE)
    rows = [tuple(int(x) for x in e) for e in d.events if e[0] in keep]
    return rows


def _dealt_order(d):
    """The cards in the order the deal drew them (hole cards, turned-up cards, ...)."""
    draws = (C.EV_DEAL_DOWN, C.EV_DEAL_UP, C.EV_TURN_UP)
    return [int(e[2]) for e in d.events if e[0] in draws]


@pytest.mark.parametrize("seed", range(8))
def test_information_sets_hidden_cards_of_others_do_not_change_decisions(seed):
    """Swap seat 1's hole cards for other unseen cards: every other seat's offer
    decisions are unchanged (seat 1 always takes, so its own play cannot differ)."""
    n = 5
    policies = {"all": "heuristic", 1: "always_take"}
    d = play_deal("selection_rejection", players=n, seed=seed, deal=seed, policies=policies, dealer=4)
    order = _dealt_order(d)
    rest = [c for c in range(52) if c not in order]
    stacked = list(order) + rest
    # Seat 1's hole cards are draws 1 and 6 (deal order from the dealer's left);
    # swap them with two cards nobody ever sees.
    swapped = list(stacked)
    swapped[1], swapped[len(order)] = swapped[len(order)], swapped[1]
    swapped[6], swapped[len(order) + 1] = swapped[len(order) + 1], swapped[6]
    a = play_deal("selection_rejection", players=n, policies=policies, dealer=4, stacked=stacked)
    b = play_deal("selection_rejection", players=n, policies=policies, dealer=4, stacked=swapped)
    others_a = [e for e in _decisions(a) if e[1] != 1]
    others_b = [e for e in _decisions(b) if e[1] != 1]
    assert others_a == others_b
    assert set(a.hole[1, :2].tolist()).isdisjoint(b.hole[1, :2].tolist())  # the swap did happen


@pytest.mark.parametrize("variant", ALL)
@pytest.mark.parametrize("seed", range(6))
def test_information_sets_undealt_order_does_not_change_earlier_decisions(variant, seed):
    """Shuffle every card after the k-th draw: all decisions made before the k-th
    card is revealed are the same."""
    d = play_deal(variant, players=4, seed=seed, deal=seed, dealer=3)
    order = _dealt_order(d)
    rest = [c for c in range(52) if c not in order]
    k = len(order) // 2
    rng = np.random.default_rng(seed)
    tail = order[k:] + rest
    reshuffled = order[:k] + [int(x) for x in rng.permutation(tail)]
    a = play_deal(variant, players=4, dealer=3, stacked=order + rest)
    b = play_deal(variant, players=4, dealer=3, stacked=reshuffled)

    def until_kth_draw(deal):
        out, draws = [], 0
        for e in deal.events:
            if e[0] in (C.EV_DEAL_DOWN, C.EV_DEAL_UP, C.EV_TURN_UP):
                draws += 1
                if draws > k:
                    break
            out.append(tuple(int(x) for x in e))
        return out

    assert until_kth_draw(a) == until_kth_draw(b)


def test_interrupted_run_returns_what_it_finished(monkeypatch):
    import analyzer.simulate as S

    calls = {"n": 0}

    def progress(done, total):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt

    r = S.simulate("do_ya", deals=5000, seed=1, chunk=1000, progress=progress)
    assert r.meta["interrupted"] and r.meta["deals"] == 3000
    full = S.simulate("do_ya", deals=3000, seed=1, chunk=1000)
    pd.testing.assert_frame_equal(r.seats, full.seats)


def test_checkpoint_resumes_to_the_same_result(tmp_path):
    path = tmp_path / "run.json"

    def stop_after_two(done, total):
        if done == 2000:
            raise KeyboardInterrupt

    part = simulate("selection_rejection", deals=4000, seed=3, chunk=1000, checkpoint=path,
                    progress=stop_after_two)
    assert part.meta["deals"] == 2000
    assert json.loads(path.read_text())["totals"]["deals"] == 2000
    resumed = simulate("selection_rejection", deals=4000, seed=3, chunk=1000, checkpoint=path)
    straight = simulate("selection_rejection", deals=4000, seed=3, chunk=1000)
    pd.testing.assert_frame_equal(resumed.seats, straight.seats)
    with pytest.raises(WantitError, match="other settings"):
        simulate("selection_rejection", deals=4000, seed=4, chunk=1000, checkpoint=path)


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 9}, "2 to 7 players"),
    ({"deals": 0}, "at least 2"),
    ({"rules": {"max_rejections": 3}}, "out of range 1..2"),
    ({"rules": {"split_mode": "lowball"}}, "not allowed"),
    ({"rules": {"nonsense": 1}}, "has no rule 'nonsense'"),
    ({"policies": "reckless"}, "no policy 'reckless'"),
    ({"policies": "heuristic:take_threshold=abc"}, "must be a number"),
    ({"policies": "heuristic:low_max=20"}, "out of range"),
    ({"policies": {9: "heuristic"}}, "seats are 0..4"),
])
def test_bad_input_is_a_clear_error(kwargs, message):
    with pytest.raises(WantitError, match=message):
        simulate("selection_rejection", **{"players": 5, "deals": 10, **kwargs})


def test_result_frames_and_json_schema():
    r = simulate("selection_rejection", players=3, deals=2000, seed=1,
                 policies={"all": "heuristic", 2: "low"})
    assert list(r.seats.seat) == [0, 1, 2] and list(r.seats.policy) == ["heuristic", "heuristic", "low"]
    assert abs(r.seats.ev.sum() + r.meta["carried_over"] / 2000) < 1e-12
    for rec in r.to_json_records():
        assert {"seat", "ev", "ev_se", "p_high", "p_low", "p_scoop", "high_categories"} <= set(rec)
        assert abs(sum(rec["high_categories"].values()) - 1) < 1e-12
        assert 0 < rec["ev_se"] < 0.1
    assert (r.seats.declare_high + r.seats.declare_low + r.seats.declare_both).round(12).eq(1).all()


@pytest.mark.parametrize("seed", range(8))
def test_information_sets_do_ya_hole_cards_of_others_do_not_change_decisions(seed):
    """Swap seat 1's wild hole card for a card nobody sees: every other seat's pool,
    take and reject decisions are unchanged (seat 1 always takes)."""
    n = 4
    policies = {"all": "heuristic", 1: "always_take"}
    d = play_deal("do_ya", players=n, seed=seed, deal=seed, policies=policies, dealer=3)
    order = _dealt_order(d)
    rest = [c for c in range(52) if c not in order]
    swapped = list(order) + rest
    swapped[1], swapped[len(order)] = swapped[len(order)], swapped[1]  # draw 1 is seat 1's hole card
    a = play_deal("do_ya", players=n, policies=policies, dealer=3, stacked=list(order) + rest)
    b = play_deal("do_ya", players=n, policies=policies, dealer=3, stacked=swapped)
    assert int(a.hole[1, 0]) != int(b.hole[1, 0])
    assert [e for e in _decisions(a) if e[1] != 1] == [e for e in _decisions(b) if e[1] != 1]


@pytest.mark.parametrize("rules,deals", [({"split_mode": "cards_speak"}, 120), ({"split_mode": "declare"}, 400)])
def test_winning_hands_count_the_traced_deals(rules, deals):
    """The winning-hand table of a run equals a count made deal by deal from the
    traced replays of the same deals (their payouts and shown hands), and each half's
    rows share out every deal (declaring, a half may go unwon)."""
    n = 4
    r = simulate("selection_rejection", players=n, deals=deals, seed=21, rules=rules)
    high, low, no_low = {}, {}, 0
    for i in range(deals):
        d = play_deal("selection_rejection", players=n, seed=21, deal=i, rules=rules)
        winners = [d.high[s] for s in range(n) if d.high_share[s] > 0]
        label = Category(hand_category(max(winners))).label if winners else "high half not won"
        high[label] = high.get(label, 0) + 1
        lows = [d.low[s] for s in range(n) if d.low_share[s] > 0 and d.low[s] > 0]
        if lows:
            top = 14 - ((max(lows) >> 16) & 0xF)
            key = {10: "T", 11: "J", 12: "Q", 13: "K"}.get(top, str(top)) + "-low"
            low[key] = low.get(key, 0) + 1
        no_low += max(d.low) == 0
    w = r.winning
    got_high = {h: round(p * deals) for h, p in zip(w[w.half == "high"].hand, w[w.half == "high"].probability) if p}
    got_low = {h: round(p * deals) for h, p in zip(w[w.half == "low"].hand, w[w.half == "low"].probability)
               if p and h not in ("no qualifying low", "low half not won, a low held")}
    assert got_high == high and got_low == low
    assert round(w[w.hand == "no qualifying low"].probability.iloc[0] * deals) == no_low
    assert round(w[w.hand == "low half not won, a low held"].probability.iloc[0] * deals) == (
        deals - sum(low.values()) - no_low)
    for half in ("high", "low"):
        assert round(w[w.half == half].probability.sum() * deals) == deals
    if rules["split_mode"] == "declare":
        assert high.get("high half not won", 0) > 0  # the case is exercised
    assert set(r.winning_json()) == {"high", "low"}


def test_high_only_runs_report_no_low_half():
    r = simulate("selection_rejection", players=3, deals=200, seed=2, rules={"split_mode": "high_only"})
    assert set(r.winning.half) == {"high"}
    assert abs(r.winning.probability.sum() - 1) < 1e-12


def test_target_se_stops_when_every_seat_is_precise_enough():
    r = simulate("selection_rejection", players=3, deals=40_000, seed=4, chunk=1000, target_se=0.02)
    assert r.meta["reached_target_se"] and r.meta["deals"] < 40_000
    assert (r.seats.ev_se < 0.02).all() and r.meta["deals"] > 1000
    fewer = simulate("selection_rejection", players=3, deals=r.meta["deals"] - 1000, seed=4, chunk=1000)
    assert (fewer.seats.ev_se >= 0.02).any()  # it stopped at the first chunk that got there
    never = simulate("selection_rejection", players=3, deals=2000, seed=4, chunk=1000, target_se=1e-6)
    assert never.meta["deals"] == 2000 and not never.meta["reached_target_se"]
    assert "(--target-se 1e-06 not reached: some ev_se is above it)" in " ".join(never.format_table().split())
    assert "not reached" not in r.format_table()
    with pytest.raises(WantitError, match="target_se"):
        simulate("selection_rejection", players=3, deals=10, target_se=0)


def test_one_deal_is_refused_since_its_standard_error_is_unknown():
    # A standard error from one deal is not 0 (the ev_se column printed 0.0000).
    from analyzer.selection import simulate_selection

    with pytest.raises(WantitError, match="deals must be at least 2 \\(a standard error needs two"):
        simulate("selection_rejection", players=3, deals=1)
    with pytest.raises(WantitError, match="games must be at least 2"):
        simulate_selection(players=1, games=1)
    r = simulate("selection_rejection", players=3, deals=2, seed=1)
    assert r.meta["deals"] == 2 and (r.seats.ev_se >= 0).all()


def test_policy_parameters_are_columns_and_nets_are_in_antes():
    v = get_variant("selection_rejection")
    r = simulate("selection_rejection", players=3, deals=500, seed=8, policies={"all": "heuristic",
                                                                                 1: "low:take_threshold=0.4"})
    assert {p.name for p in v.params} <= set(r.seats.columns)
    assert r.seats.take_threshold.tolist() == [0.1, 0.4, 0.1] and r.seats.aim.tolist() == [2, 1, 2]
    doubled = simulate("selection_rejection", players=3, deals=500, seed=8, rules={"ante": 2},
                       policies={"all": "heuristic", 1: "low:take_threshold=0.4"})
    pd.testing.assert_series_equal(doubled.seats.ev, r.seats.ev)  # the same deals at twice the stakes


def test_ev_se_is_exact_at_the_largest_legal_stakes():
    """Train Wreck at the largest legal fees (fee_unit 1000 x multipliers 1000, ante
    100) with every seat paying: nets reach about 2**35 of the 1/1680 units, so their
    squares overflow int64. ev and ev_se agree with a float computation over the
    same deals' nets."""
    rules = {"fee_unit": 1000, "fee_multipliers": "1000,1000,1000", "ante": 100}
    r = simulate("train_wreck", players=7, deals=3000, seed=2, rules=rules, policies="always_pay", chunk=1000)
    v = get_variant("train_wreck")
    inp = Inputs(v, 7, v.rules_vector(rules), np.stack([v.policy_vector("always_pay")] * 7))
    out = engine_batch(inp, new_state(inp, dealer=6), 2, 0, 3000)
    nets = (v.result.view(out, "payout")[:, :7] - v.result.view(out, "paid")[:, :7]) / 100
    assert (np.abs(nets).max() * 100 * C.UNITS) ** 2 > 2**63  # one deal's square overflows int64
    np.testing.assert_allclose(r.seats.ev, nets.mean(axis=0), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(r.seats.ev_se, nets.std(axis=0, ddof=0) / np.sqrt(3000 - 1), rtol=1e-9)
    assert (r.seats.ev_se > 0).all()


@pytest.mark.parametrize("variant, rules, rotate", [
    ("selection_rejection", None, True),
    ("do_ya", {"split_mode": "cards_speak", "low_qualifier": 8}, True),
    ("anaconda", None, False),
    ("train_wreck", None, True),
])
def test_simulation_totals_are_the_sums_of_the_deals_result_rows(variant, rules, rotate):
    """A simulation adds up the deals in the kernel (``simulation_totals``), keeping
    no result rows: its totals are those of the same deals' rows (``play_batch``)
    added up here deal by deal, in Python integers. 700 deals: two whole blocks of
    the kernel's and a part of one."""
    from analyzer.engine import simulation_totals
    from analyzer.simulate import Totals

    v = get_variant(variant)
    n, deals, seed = 5, 700, 12
    inp = Inputs(v, n, v.rules_vector(rules), np.stack([v.policy_vector("heuristic")] * n))
    start = new_state(inp, dealer=n - 1)
    has_low = int(inp.rules[C.R_SPLIT_MODE]) in (0, 1)  # declare, cards speak
    got = Totals(n)
    got.add_blocks(simulation_totals(inp, start, seed, 0, deals, rotate, has_low), deals, has_low)
    rows = engine_batch(inp, start, seed, 0, deals, rotate_dealer=rotate)
    want = Totals(n)
    want.deals = deals
    for row in rows:
        col = {name: v.result.view(row[None], name)[0, :n] for name in
               ("payout", "paid", "high_share", "low_share", "declared", "high", "low")}
        units = [int(round(x * C.UNITS)) for x in col["payout"]]
        paid = [int(round(x * C.UNITS)) for x in col["paid"]]
        for s in range(n):
            net = units[s] - paid[s]
            want.net[s] += net
            want.net_sq[s] += net * net
            want.wins_high[s] += col["high_share"][s] > 0
            want.wins_low[s] += col["low_share"][s] > 0
            want.scoops[s] += units[s] == sum(paid)
            if col["declared"][s] in (0, 1, 2):
                want.declared[s, int(col["declared"][s])] += 1
            want.categories[s, hand_category(int(col["high"][s]))] += 1
        want.carry += int(round(v.result.view(row[None], "carry")[0, 0] * C.UNITS))
        sharing = [int(h) for h, share in zip(col["high"], col["high_share"]) if share > 0]
        if sharing:
            want.winning_high[hand_category(max(sharing))] += 1
        if has_low:
            lows = [int(lo) for lo, share in zip(col["low"], col["low_share"]) if share > 0]
            if lows and max(lows) > 0:
                want.winning_low[14 - ((max(lows) >> 16) & 0xF)] += 1
            want.no_low += max(col["low"]) == 0
    assert got.to_dict() == want.to_dict()
    assert got.categories.sum() == n * deals and (got.winning_low.sum() > 0) == has_low
    assert got.categories.shape[1] == len(Category)  # the kernel's categories are analyzer.Category


def test_an_interrupt_inside_the_totals_update_loses_the_chunk_whole(monkeypatch):
    """Ctrl-C landing while a chunk's totals are being added: the run keeps the
    chunks before it, entire, and its tables are those of an uninterrupted run of
    that many deals."""
    import analyzer.simulate as S

    real = S._counts
    calls = {"n": 0}

    def interrupting(*args):
        calls["n"] += 1
        if calls["n"] == 10:  # the third chunk's add (four count groups each), between its sums
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(S, "_counts", interrupting)
    r = S.simulate("selection_rejection", deals=5000, seed=3, chunk=1000)
    monkeypatch.setattr(S, "_counts", real)
    assert r.meta["interrupted"] and r.meta["deals"] == 2000
    full = S.simulate("selection_rejection", deals=2000, seed=3, chunk=1000)
    pd.testing.assert_frame_equal(r.seats, full.seats)
    pd.testing.assert_frame_equal(r.categories, full.categories)
    assert r.categories.groupby("seat").probability.sum().round(12).eq(1).all()


def _checkpoint(tmp_path, variant="selection_rejection", deals=2000):
    path = tmp_path / "run.json"
    simulate(variant, players=4, deals=deals, seed=3, chunk=1000, checkpoint=path)
    return path, json.loads(path.read_text())


@pytest.mark.parametrize("tamper,message", [
    (lambda t: t.update(deals=-5), "bad or missing totals deals"),
    (lambda t: t.update(deals=0), "do not add up"),
    (lambda t: t.update(deals=2000.5), "bad or missing totals deals"),
    (lambda t: t["wins_high"].__setitem__(1, -3), "bad or missing totals wins_high"),
    (lambda t: t["wins_high"].__setitem__(1, 9999), "wins_high exceeds"),
    (lambda t: t["net"].pop(), "bad or missing totals net"),
    (lambda t: t.update(net_sq=[0, 0, 0, 0]), "contradict"),
    (lambda t: t["net"].__setitem__(0, t["net"][0] + 1680), "nets and the pot carried over do not sum to zero"),
    (lambda t: t.update(carry=1680), "nets and the pot carried over do not sum to zero"),
    (lambda t: t["categories"][0].__setitem__(0, 7.5), "bad or missing totals categories"),
    (lambda t: t.pop("scoops"), "bad or missing totals scoops"),
    (lambda t: t.update(extra=1), "bad or missing totals extra"),
])
def test_a_damaged_checkpoint_is_refused_with_one_line(tmp_path, tamper, message):
    # The nets' tampering keeps their squares' sums possible: only the zero sum tells.
    path, saved = _checkpoint(tmp_path)
    tamper(saved["totals"])
    path.write_text(json.dumps(saved))
    with pytest.raises(WantitError, match=message):
        simulate("selection_rejection", players=4, deals=4000, seed=3, chunk=1000, checkpoint=path)


def test_a_checkpoint_with_a_pot_carried_over_resumes(tmp_path):
    """Every seat declaring both and failing carries the pot over: the nets then sum
    to minus the carry, which the checkpoint check allows (and nothing else)."""
    args = dict(players=3, seed=1, chunk=1000, rules={"split_mode": "declare", "all_failed_rule": "carry_over"},
                policies="heuristic:declare_both_category=1,declare_low_top=14")
    path = tmp_path / "run.json"
    simulate("selection_rejection", deals=1000, checkpoint=path, **args)
    saved = json.loads(path.read_text())["totals"]
    assert saved["carry"] > 0 and sum(saved["net"]) == -saved["carry"]
    resumed = simulate("selection_rejection", deals=2000, checkpoint=path, **args)
    whole = simulate("selection_rejection", deals=2000, **args)
    pd.testing.assert_frame_equal(resumed.seats, whole.seats)
    assert resumed.meta["carried_over"] == whole.meta["carried_over"] > 0


def test_checkpoints_that_are_not_checkpoints_or_hold_too_much_are_refused(tmp_path):
    path, saved = _checkpoint(tmp_path)
    with pytest.raises(WantitError, match="already holds 2,000 deals, more than the 1,000 asked"):
        simulate("selection_rejection", players=4, deals=1000, seed=3, chunk=1000, checkpoint=path)
    path.write_text("not json {")
    with pytest.raises(WantitError, match="cannot be read as a wantit checkpoint"):
        simulate("selection_rejection", players=4, deals=1000, seed=3, checkpoint=path)
    path.write_text("[1, 2]")
    with pytest.raises(WantitError, match="is not a wantit checkpoint"):
        simulate("selection_rejection", players=4, deals=1000, seed=3, checkpoint=path)


def test_an_unwritable_checkpoint_is_refused_before_any_deal(tmp_path):
    played = []
    for bad, message in ((tmp_path / "missing" / "run.json", "does not exist"), ("", "not a file path"),
                         (tmp_path, "not a file path")):
        with pytest.raises(WantitError, match=message):
            simulate("do_ya", deals=2000, chunk=1000, checkpoint=bad, progress=lambda d, t: played.append(d))
    assert played == []


def test_simulate_plays_selection_through_its_own_driver():
    """analyzer.simulate.simulate("selection") had read a pot game's rules vector and
    ended in an IndexError: it is Selection's driver, deals counting games."""
    from analyzer.selection import simulate_selection

    r = simulate("selection", players=3, deals=200, seed=4, chunk=100)
    assert r.meta["games"] == 200
    assert r.seats.p_win.sum() == pytest.approx(1.0, abs=1e-12)  # each game's win is shared out in full
    assert r.seats.equals(simulate_selection(players=3, games=200, seed=4, chunk=100).seats)


def test_a_damaged_selection_checkpoint_is_refused(tmp_path):
    from analyzer.selection import simulate_selection

    path = tmp_path / "sel.json"
    simulate_selection(players=2, games=40, seed=1, chunk=20, checkpoint=path)
    saved = json.loads(path.read_text())
    saved["totals"]["total_sum"][0] += 1
    path.write_text(json.dumps(saved))
    with pytest.raises(WantitError, match="does not match their distribution"):
        simulate_selection(players=2, games=80, seed=1, chunk=20, checkpoint=path)


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 2.9}, "players must be a whole number"),
    ({"deals": 1000.5}, "deals must be a whole number"),
    ({"seed": 1.5}, "seed must be a whole number"),
    ({"chunk": True}, "chunk must be a whole number"),
    ({"policies": "heuristic:aim=0.5"}, "aim=0.5 must be a whole number"),
    ({"policies": "heuristic:low_max=7.5"}, "must be a whole number"),
    ({"policies": "heuristic:adaptive_low_count=3.7"}, "must be a whole number"),
    ({"policies": ""}, "an empty policy"),
    ({"rules": {"low_qualifier": 8.9}}, "low qualifier must be a whole number"),
    ({"rules": {"max_rejections": 1.5}}, "must be a whole number"),
    ({"rules": {"first_upcard_offered": 2}}, "rule first_upcard_offered must be true or false, not 2"),
    ({"rules": {"first_upcard_offered": "maybe"}}, "must be true or false, not 'maybe'"),
    ({"rotate_dealer": "sometimes"}, "rotate_dealer must be true or false"),
    ({"rotate_dealer": 2}, "rotate_dealer must be true or false"),
    ({"policies": {True: "heuristic"}}, "a seat is a number 0..4 or 'all'"),
])
def test_fractional_and_empty_values_are_refused(kwargs, message):
    with pytest.raises(WantitError, match=message):
        simulate("selection_rejection", **{"deals": 100, **kwargs})


def test_a_switch_is_read_as_its_word_says_not_as_python_truth():
    """rotate_dealer="no" had rotated the dealer (any non-empty string is true in
    Python); the words, 0/1 and bools all mean what they say."""
    fixed = simulate("selection_rejection", players=4, deals=400, seed=2, rotate_dealer=False).seats
    for word in ("no", "off", "false", 0, "0.0"):
        pd.testing.assert_frame_equal(simulate("selection_rejection", players=4, deals=400, seed=2,
                                               rotate_dealer=word).seats, fixed)
    plain = simulate("selection_rejection", players=4, deals=400, seed=2, rules={"first_upcard_offered": False})
    for word in ("no", 0, 0.0, np.False_):
        again = simulate("selection_rejection", players=4, deals=400, seed=2, rules={"first_upcard_offered": word})
        pd.testing.assert_frame_equal(again.seats, plain.seats)
    assert not simulate("selection_rejection", players=4, deals=400, seed=2).seats.equals(fixed)


def test_whole_numbers_given_as_floats_are_accepted():
    a = simulate("selection_rejection", players=4.0, deals=500.0, seed=2.0, policies="heuristic:low_max=7.0")
    b = simulate("selection_rejection", players=4, deals=500, seed=2, policies="heuristic:low_max=7")
    pd.testing.assert_frame_equal(a.seats, b.seats)


def test_special_pairs_name_one_rank_each_and_seeds_stay_in_range():
    with pytest.raises(WantitError, match="'22' is not one rank"):
        get_variant("train_wreck").rules_vector({"special_pairs": "22=steal_opp"})
    assert get_variant("train_wreck").rules_vector({"special_pairs": "10=steal_opp"}) is not None
    with pytest.raises(WantitError, match="seed must be a non-negative integer below 2\\*\\*63"):
        play_deal("do_ya", seed=2**63)
    with pytest.raises(WantitError, match="deal must be a non-negative integer below 2\\*\\*63"):
        play_deal("do_ya", deal=2**63)
