"""Complete deals per second of every game variant, next to a plain stud floor.

Run from the repository root:

    python benchmarks/bench_games.py                      # 200,000 deals per measurement
    python benchmarks/bench_games.py --quick              # 20,000 deals: smoke run
    python benchmarks/bench_games.py --deals 500000 --out results/x.csv

Every pot game of ``analyzer.variants.VARIANTS`` (so a game added to the registry
is picked up with no change here; the scored Selection has bench_selection.py) plays complete deals at 2, 3, 4, 5 and 7 players,
with the same policy preset at every seat (``always_take``, the baseline,
``heuristic``, and ``tuned``: the default field, the saved tuning nearest the
player count), at one numba thread and at all of them. The kernel entry point
``analyzer.simulate`` plays through (``kernels.engine.simulation_totals``'s batch
driver, which adds the deals up as it plays them) is called directly, from a fresh
deal's table state into preallocated totals, on each variant's default rules.

The "decisions" column is the mean number of decisions a deal takes (every choice
a policy makes, declarations included; counted on the first 2,000 deals), and a last
table divides a heuristic deal's time over its baseline's by them, beside what
issue 11's target rate would leave each decision.

The "stud floor" is plain seven-card stud hi-lo with no decisions: the same
random streams and lazy deck deal 7 cards to each player, every hand's high and
A-5 low is evaluated and the antes are divided cards-speak by the same
``settle``. It is what dealing and evaluating the same cards costs, and each
game's rate is also given as a ratio to it at the same players and threads.
The numbers are for information: no test depends on them.
"""

import argparse
import datetime
import os
import platform
import time

import numba
import numpy as np
from numba import njit, prange

from _common import REPEATS, add_output_options, best_times, on_threads, table_lines, write_results
from analyzer.evaluate import _tables
from analyzer.engine import new_state
from analyzer.errors import WantitError
from analyzer.variants import VARIANTS
from kernels.engine import BLOCK, SCRATCH, _totals_runner, copy_state, game_play, totals_layout
from kernels.evaluate import high_hashed, low_hashed
from kernels.games.common import R_ANTE, R_SPLIT_MODE, TRACE_WIDTH, B
from kernels.rng import draw, fill_deck, seed_stream
from kernels.showdown import (
    ALL_FAILED_CARDS_SPEAK,
    CHIPS_FRACTIONAL,
    DECLARE_BOTH,
    ODD_CHIP_POSITION,
    SPLIT_CARDS_SPEAK,
    SPLIT_DECLARE,
    settle,
)

SEED = 20240607
PLAYERS = (2, 3, 4, 5, 7)  # issue 3 asks 2, 4, 7 for the offer games; issue 4 asks 3, 5, 7
POLICIES = ("baseline", "heuristic", "tuned")  # each variant's baseline, the hand-set heuristic, the default field
BASELINES = ("always_take", "always_accept", "random_pass_best_high")


def presets_of(v):
    """The presets measured for a variant: its baseline (take / accept everything, or
    pass at random), then ``heuristic``, then ``tuned`` (the default field: the
    heuristic with the parameters tuned at the nearest player count)."""
    baseline = next(p for p in BASELINES if p in v.presets)
    return (baseline, "heuristic", "tuned")
WARMUP_DEALS = 1_000
ROTATE_DEALER = True
STUD_CARDS = 7
FLOOR = "stud floor"
FLOOR_POLICY = "none"
TARGET_PLAYERS = 7
# Complete 7-player deals per second per thread with heuristic policies (issue 11);
# a game not named here has no target.
TARGET_RATES = {"selection_rejection": 1_000_000, "do_ya": 1_000_000, "anaconda": 500_000, "train_wreck": 500_000}
TARGET_SCALING = 1.8  # the most threads over one, same game and policy
# The issue sets its rates "with the default field" and gives heuristic rates; the
# default field has been the tuned preset since the tunings were saved. Both are shown.
TARGET_POLICIES = {"heuristic": "heuristic", "tuned": "tuned (the default field)"}
TARGET = ("target: >= 1,000,000 complete 7-player deals per second per thread with the default field for "
          "Selection/Rejection and Do Ya, >= 500,000 for Anaconda and Train Wreck; all threads >= 1.8x one")
DECISION_DEALS = 2_000  # deals whose decisions are counted, per variant and policy
COLUMNS = ["variant", "players", "policy", "threads", "deals", "seconds",
           "deals_per_s", "ratio_vs_floor", "decisions_per_deal"]


# ---------------------------------------------------------------- the stud floor


@njit(parallel=True, cache=True)
def stud_floor_batch(t, n, seed, first, count, ante, payout, high_share, low_share, high, low):
    """Deals ``first .. first + count - 1`` of seven-card stud hi-lo, no decisions.

    Each deal keys its stream ``(seed, deal)`` as the games do, deals 7 cards to
    each of ``n`` seats a round at a time from the dealer's left, evaluates every
    hand's best high and A-5 low (any low qualifies) and divides the ``n * ante``
    pot cards-speak in fractional chips. Results by deal row, as ``play_batch``.
    """
    for i in prange(count):
        deal = first + i
        dealer = deal % n
        deck = np.empty(55, np.int64)  # the 52 cards, then the deck state, as in a table state
        stream = np.zeros(2, np.uint64)
        seed_stream(stream, seed, deal)
        fill_deck(deck[:52], deck[52:], np.uint64(0))
        cards = np.empty((n, STUD_CARDS), np.uint8)
        for r in range(STUD_CARDS):
            for k in range(1, n + 1):
                cards[(dealer + k) % n, r] = draw(deck, 0, 52, stream)
        for s in range(n):
            high[i, s] = high_hashed(t, cards[s], STUD_CARDS)
            low[i, s] = low_hashed(t, cards[s], STUD_CARDS)
        active = np.ones(n, np.bool_)
        declared = np.full(n, DECLARE_BOTH, np.int64)  # not read in cards-speak
        high_natural = np.ones(n, np.bool_)  # not read: no wild cards
        odd_cards = np.zeros(n, np.int64)  # not read: position odd chips, fractional
        settle(active, high[i], low[i], declared, ante * n, dealer,
               SPLIT_CARDS_SPEAK, False, ALL_FAILED_CARDS_SPEAK, CHIPS_FRACTIONAL,
               ODD_CHIP_POSITION, False, high_natural, odd_cards, odd_cards,
               payout[i], high_share[i], low_share[i])


# ---------------------------------------------------------------- measuring


class Outputs:
    """Preallocated result arrays for ``deals`` deals of ``n`` players, reused by
    every measurement so that page faults stay out of the timings."""

    def __init__(self, deals, n):
        self.payout = np.zeros((deals, n))
        self.high_share = np.zeros((deals, n))
        self.low_share = np.zeros((deals, n))
        self.declared = np.zeros((deals, n), np.int64)
        self.high = np.zeros((deals, n), np.int64)
        self.low = np.zeros((deals, n), np.int64)
        self.paid = np.zeros((deals, n))
        self.carry = np.zeros(deals)
        self.deals = deals
        self.n = n
        self._totals = None

    def totals(self):
        """The simulation totals' blocks (``kernels.engine.simulation_totals``)."""
        if self._totals is None:
            self._totals = np.zeros(((self.deals + BLOCK - 1) // BLOCK, totals_layout(self.n)[-1]), np.int64)
        return self._totals


def game_runner(t, v, preset, n, count, out):
    """A no-argument call of the batch driver ``analyzer.simulate`` plays through,
    for ``count`` deals of ``v``, every seat ``preset``, from a fresh deal's table
    state."""
    inp = v.inputs(n, policies=preset)
    start = new_state(inp)
    totals = out.totals()
    has_low = int(inp.rules[R_SPLIT_MODE]) in (SPLIT_DECLARE, SPLIT_CARDS_SPEAK)
    play, runner = game_play(inp.game), _totals_runner()

    def run():
        runner(play, t, inp.rules, inp.params, inp.idata, inp.fdata, start, SEED, 0, count, ROTATE_DEALER,
               has_low, v.result.size, totals)

    return run


def floor_runner(t, n, count, out):
    def run():
        stud_floor_batch(t, n, SEED, 0, count, 1.0, out.payout, out.high_share,
                         out.low_share, out.high, out.low)

    return run




@njit(cache=True)
def count_decisions(play, t, rules, params, idata, fdata, start, seed, count, width):
    """Decisions taken in deals ``0 .. count - 1`` (every choice a policy made, the
    declarations included), played as the timed runs play them."""
    n = start[B.players]
    st = np.empty_like(start)
    stream = np.zeros(2, np.uint64)
    scratch = np.zeros(SCRATCH, np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), np.int64)
    row = np.zeros(width)
    total = 0
    for deal in range(count):
        copy_state(st, start)
        if ROTATE_DEALER:
            st[B.dealer] = deal % n
        row[:] = 0.0
        seed_stream(stream, seed, deal)
        play(t, rules, params, idata, fdata, st, stream, no_trace, scratch, row, np.int64(-1), np.int64(-1))
        total += st[B.decisions]
    return total


def decisions_per_deal(t, v, preset, n):
    """The mean number of decisions in a deal of ``v``, every seat ``preset``."""
    inp = v.inputs(n, policies=preset)
    total = count_decisions(game_play(inp.game), t, inp.rules, inp.params, inp.idata, inp.fdata, new_state(inp),
                            SEED, DECISION_DEALS, v.result.size)
    return total / DECISION_DEALS


def row(variant, players, policy, threads, deals, seconds, decisions):
    return {"variant": variant, "players": players, "policy": policy, "threads": threads,
            "deals": deals, "seconds": seconds, "deals_per_s": deals / seconds, "decisions_per_deal": decisions}


def player_counts(v):
    """The benchmark's player counts this variant allows."""
    counts = []
    for n in PLAYERS:
        try:
            v.check_table(n)
        except WantitError:
            continue
        counts.append(n)
    return counts


def compile_all(t, variants):
    """JIT-compile (or load from numba's cache) every kernel and start the thread
    pool, on a few deals per player count: none of it is timed."""
    start = time.perf_counter()
    for n in PLAYERS:
        out = Outputs(WARMUP_DEALS, n)
        floor_runner(t, n, WARMUP_DEALS, out)()
        for v in variants:
            if n in player_counts(v):
                game_runner(t, v, presets_of(v)[0], n, WARMUP_DEALS, out)()
    return time.perf_counter() - start


def measure(t, variants, deals, thread_counts, repeats=REPEATS):
    """Every row of a player count: the stud floor and each game's presets, at each
    thread count, taking turns (``best_times``), so that the ratios to the floor,
    of a heuristic deal to its baseline and of two threads to one compare times
    taken over the same stretch of a host whose speed drifts."""
    decisions = {(v.name, n, preset): decisions_per_deal(t, v, preset, n)
                 for n in PLAYERS for v in variants if n in player_counts(v) for preset in presets_of(v)}
    rows = []
    for n in PLAYERS:
        out = Outputs(deals, n)
        cells = []  # (variant, preset, threads, run)
        for threads in thread_counts:
            cells.append((FLOOR, FLOOR_POLICY, threads, floor_runner(t, n, deals, out)))
            for v in variants:
                if n in player_counts(v):
                    cells += [(v.name, preset, threads, game_runner(t, v, preset, n, deals, out))
                              for preset in presets_of(v)]
        times = best_times([on_threads(threads, run) for _, _, threads, run in cells], repeats)
        for (name, preset, threads, _), seconds in zip(cells, times):
            rows.append(row(name, n, preset, threads, deals, seconds, decisions.get((name, n, preset), 0.0)))
    return rows


def add_ratios(rows):
    """Each row's rate over the stud floor's at the same players and threads."""
    floor = {(r["players"], r["threads"]): r["deals_per_s"] for r in rows if r["variant"] == FLOOR}
    for r in rows:
        base = floor.get((r["players"], r["threads"]))
        if base:
            r["ratio_vs_floor"] = r["deals_per_s"] / base


def ordered(rows, variants):
    """Table order: players, then the floor and the variants in registry order,
    then policy, then threads."""
    rank = {FLOOR: -1, **{v.name: i for i, v in enumerate(variants)}}
    def policy_rank(p):
        return -1 if p == FLOOR_POLICY else 1 if p == "heuristic" else 2 if p == "tuned" else 0

    return sorted(rows, key=lambda r: (r["players"], rank[r["variant"]],
                                       policy_rank(r["policy"]), r["threads"]))


# ---------------------------------------------------------------- reporting


def cell(r, key):
    value = r.get(key)
    if value is None:
        return "n/a"
    if key == "seconds":
        return f"{value:.4f}"
    if key == "deals_per_s":
        return f"{value:,.0f}"
    if key == "ratio_vs_floor":
        return f"{value:.3f}"
    if key == "deals":
        return f"{value:,}"
    if key == "decisions_per_deal":
        return f"{value:.1f}"
    return str(value)


def print_table(rows, thread_counts):
    headers = ["variant", "players", "policy", "threads", "deals", "seconds", "deals/s",
               "x floor", "decisions"]
    lines = [[cell(r, key) for key in COLUMNS] for r in rows]
    text = table_lines(headers, lines, text_columns=(0, 2))  # variant and policy left-aligned
    print("\n".join(text[:2]))
    previous = None
    for r, line in zip(rows, text[2:]):
        if previous is not None and r["players"] != previous:
            print()  # a blank line between player counts
        previous = r["players"]
        print(line)
    print_target(rows, thread_counts)
    print_decision_budget(rows)


def print_decision_budget(rows):
    """What a heuristic decision costs, and what the target leaves it: 7 players,
    one thread, each variant with a target. A heuristic deal's time over its
    baseline preset's, per heuristic decision; and the target's time a deal less
    the baseline's, per heuristic decision (negative: the baseline alone takes
    longer than the target allows). The baselines estimate nothing when they take
    or accept every card; Anaconda's passes at random but keeps its best high five."""
    one = {(r["variant"], r["policy"]): r for r in rows
           if r["players"] == TARGET_PLAYERS and r["threads"] == 1}
    lines = []
    for variant, target in TARGET_RATES.items():
        heuristic = one.get((variant, "heuristic"))
        baseline = next((r for (name, policy), r in one.items() if name == variant and policy in BASELINES), None)
        if heuristic is None or baseline is None or heuristic["decisions_per_deal"] == 0:
            continue
        decisions = heuristic["decisions_per_deal"]
        ns_heuristic, ns_baseline, ns_target = (1e9 / r for r in (heuristic["deals_per_s"], baseline["deals_per_s"],
                                                                     target))
        lines.append([variant, f"{decisions:.1f}", f"{ns_heuristic:,.0f}", f"{ns_baseline:,.0f}",
                      f"{(ns_heuristic - ns_baseline) / decisions:.1f}", f"{ns_target:,.0f}",
                      f"{(ns_target - ns_baseline) / decisions:.1f}"])
    if not lines:
        return
    print()
    print(f"a heuristic decision's cost, {TARGET_PLAYERS} players, 1 thread, in ns (over the baseline preset: "
          f"{', '.join(BASELINES)}; decisions counted on {DECISION_DEALS:,} deals):")
    headers = ["variant", "decisions/deal", "ns/deal", "baseline ns/deal", "ns/decision over baseline",
               "target ns/deal", "ns/decision the target leaves"]
    print("\n".join(table_lines(headers, lines)))


def print_target(rows, thread_counts):
    """Issue 11's 7-player targets, under the 7-player rows (the table's last
    block): each variant's heuristic and tuned (default field) rates per thread
    next to its target, then how its rate on all threads compares with one."""
    print()
    print(TARGET)
    rate = {}
    for r in rows:
        if (r["players"] != TARGET_PLAYERS or r["policy"] not in TARGET_POLICIES
                or r["variant"] not in TARGET_RATES):
            continue
        rate[(r["variant"], r["policy"], r["threads"])] = r["deals_per_s"]
        per_thread = r["deals_per_s"] / r["threads"]
        target = TARGET_RATES[r["variant"]]
        verdict = "meets" if per_thread >= target else "below"
        threads = "1 thread" if r["threads"] == 1 else f"{r['threads']} threads"
        print(f"measured: {r['variant']}, {TARGET_PLAYERS} players, {TARGET_POLICIES[r['policy']]}, {threads}: "
              f"{per_thread:,.0f} deals/s per thread ({verdict} target {target:,})")
    most = max(thread_counts)
    if most == 1:
        print("measured: thread scaling not measured (numba has one thread here)")
        return
    for variant in TARGET_RATES:
        for policy, label in TARGET_POLICIES.items():
            if (variant, policy, 1) in rate and (variant, policy, most) in rate:
                scaling = rate[(variant, policy, most)] / rate[(variant, policy, 1)]
                verdict = "meets" if scaling >= TARGET_SCALING else "below"
                print(f"measured: {variant}, {TARGET_PLAYERS} players, {label}, {most} threads / 1 thread: "
                      f"{scaling:.2f}x ({verdict} target {TARGET_SCALING}x)")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000,
                        help="deals per measurement (default 200,000)")
    parser.add_argument("--repeats", type=int, default=REPEATS,
                        help=f"timings of each cell, taken in turns; the best counts (default {REPEATS}). On a noisy "
                             "host, more and shorter timings (--deals 100000 --repeats 6) give each cell more chances "
                             "of a quiet stretch in the same time")
    parser.add_argument("--quick", action="store_true", help="smoke run: 20,000 deals")
    add_output_options(parser, "results/bench_games.csv")
    args = parser.parse_args()
    if args.quick:
        args.deals = 20_000
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


def main():
    args = parse_args()
    all_threads = numba.config.NUMBA_NUM_THREADS
    thread_counts = sorted({1, all_threads})
    variants = [v for v in VARIANTS.values() if v.kind == "pot"]  # Selection: bench_selection.py

    t = _tables()
    seconds = compile_all(t, variants)
    print(f"compiled the stud floor and {len(variants)} variants "
          f"({', '.join(v.name for v in variants)}) in {seconds:.1f} s (untimed)")

    rows = measure(t, variants, args.deals, thread_counts, args.repeats)
    add_ratios(rows)
    rows = ordered(rows, variants)

    print()
    print_table(rows, thread_counts)

    write_results(rows, args, COLUMNS, {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "deals": args.deals,
        "seed": SEED,
        "first_deal": 0,
        "rotate_dealer": ROTATE_DEALER,
        "repeats": args.repeats,
        "players": list(PLAYERS),
        "policies": list(POLICIES),
        "thread_counts": thread_counts,
        "variants": {v.name: {"rules": "defaults",
                              "split_mode": str(v.default_rules()["split_mode"]),
                              "ante": float(v.rules_vector()[R_ANTE])}
                     for v in variants},
        "stud_floor": "7 cards each, high + A-5 low (any low), cards-speak, fractional chips, ante 1",
        "target": TARGET,
        "compile_seconds": round(seconds, 3),
        "cpu_count": os.cpu_count(),
        "numba_threads": all_threads,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "numpy": np.__version__,
        "numba": numba.__version__,
    })


if __name__ == "__main__":
    main()
