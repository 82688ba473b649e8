"""Lookup tables of the fast evaluators: built once, shipped in ``kernels/data``.

The design is a perfect hash over additive rank keys (as in OMPEval):

* every card has a 64-bit key: its rank's *multiplier* in the low 32 bits and a
  4-bit counter of its suit in the high 32 bits;
* a hand's key is the sum of its cards' keys (plus an initial 3 in every suit
  counter), so adding a card is one addition;
* the multipliers make the rank part unique for every rank multiset of up to seven
  cards, so it indexes the high (non-flush) and low values of the hand;
* a second table at the same slots holds, for every multiset of up to six cards,
  the best high of it plus one wild card (``high_wild``): one wild is then one
  lookup, and two are one lookup per rank the first can become, not one per pair;
* a suit counter reaches 8 (bit 3 set) exactly when that suit holds five cards,
  so one ``&`` detects a flush, and the flush suit's 13-bit rank set indexes the
  flush table.

The sparse rank keys (up to 18.4 million) are compressed by row displacement: key
``k`` lives at ``(k & ROW_MASK) + offsets[k >> ROW_SHIFT]``.

Seven cards, the batch evaluators' common case, have tables of their own
(``seven_*``): the same keys, displaced without the 27,000 multisets of fewer cards,
so a seven-card hand's value lies in 278 KB rather than 483 KB, with 16-bit row
offsets (35 KB rather than 140 KB). That fits the cache better: 7-card batches run
about 1.13x as fast for high, 1.2x for low. Their rows (``2**SEVEN_ROW_SHIFT`` keys
each) are placed at multiples of ``SEVEN_STEP`` and their offsets stored divided by
it, so 16 bits reach the whole table.

Hands of up to five cards, the policies' partial hands, have a table of rows of their
own (``one_more``): for each rank multiset, in one 32-byte row, the hand's high and
straight-draw count with one more card of each rank, and its own. A policy that
weighs every card it might draw (Train Wreck's fresh-card mean) then reads one row
where it looked up thirteen hands, each through the perfect hash.

Hands of up to six cards, the hands a policy weighs before and after one card, have
a table of their own (``short``): for each rank multiset, the hand's high and
straight-draw count in 16 bits, as a one-more entry. It is 128 KB with its offsets,
where the same hands' high values lie scattered through the general tables' 640 KB;
the policies' lookups stay in the cache.

``python -m kernels.tables`` rebuilds ``kernels/data/eval_tables.npz``.
"""

from pathlib import Path

import numpy as np
from numba import njit

from .ranking import flush_from_suit, high_from_rank_sets, longest_runs, low_from_rank_sets, run_index

MAX_HASHED_CARDS = 7

# Found by a greedy search (``search_rank_multipliers``): for each rank in turn, the
# smallest multiplier keeping the sums of all multisets of <= 7 cards, <= 4 per rank,
# distinct. Smaller multipliers mean a smaller offsets table.
RANK_MULTIPLIERS = np.array(
    [1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520],
    dtype=np.uint64,
)
# The sizes of the tables these multipliers build (``python -m kernels.tables``
# prints them): the evaluators address the packed tables at offsets fixed at compile
# time, and ``kernels.evaluate.eval_tables`` checks the shipped file against them.
N_ROWS = 35925  # entries of the perfect hash's row offsets
N_SLOTS = 123633  # entries of the high table, and of the low and high_wild tables
SUIT_COUNTER_SHIFT = 32
INITIAL_KEY = np.uint64(0x3333 << SUIT_COUNTER_SHIFT)
FLUSH_CHECK = np.uint64(0x8888 << SUIT_COUNTER_SHIFT)
RANK_KEY_MASK = np.uint64(0xFFFFFFFF)
ROW_SHIFT = 9
ROW_MASK = (1 << ROW_SHIFT) - 1
# The seven-card tables: slot (k & SEVEN_ROW_MASK) + SEVEN_STEP * seven_offsets[k >> SEVEN_ROW_SHIFT].
N_SEVEN_ROWS = 17963
N_SEVEN_SLOTS = 71171
SEVEN_ROW_SHIFT = 10
SEVEN_ROW_MASK = (1 << SEVEN_ROW_SHIFT) - 1
SEVEN_STEP = 2
# The one-more rows: the row of key k at slot (k & ONE_MORE_ROW_MASK) +
# one_more_offsets[k >> ONE_MORE_ROW_SHIFT], ONE_MORE_WIDTH uint16 entries a row.
# Entry r (a rank, 0..12) is the multiset plus one card of rank r, entry
# ONE_MORE_OWN the multiset itself, each ``S << 2 | D``: S the high strength's bits
# from 12 up (slot and top two ranks, what ``strength_value`` reads; under 2**12),
# D the straight-draw count less two, ``max(0, longest run - 2)`` (0..3). An entry
# of a rank the multiset holds four of is 0 (no such card is left to draw).
ONE_MORE_CARDS = 5
ONE_MORE_WIDTH = 16
ONE_MORE_OWN = 13
ONE_MORE_ROW_SHIFT = 9
ONE_MORE_ROW_MASK = (1 << ONE_MORE_ROW_SHIFT) - 1
N_ONE_MORE_ROWS = 29962
N_ONE_MORE_SLOTS = 11817
# The short table: the entry of key k (a multiset of up to SHORT_CARDS cards) at
# (k & SHORT_ROW_MASK) + short_offsets[k >> SHORT_ROW_SHIFT], a one-more entry
# (``S << 2 | D``) of the multiset itself.
SHORT_CARDS = 6
SHORT_ROW_SHIFT = 10
SHORT_ROW_MASK = (1 << SHORT_ROW_SHIFT) - 1
N_SHORT_ROWS = 16472
N_SHORT_SLOTS = 47406

DATA_FILE = Path(__file__).parent / "data" / "eval_tables.npz"


def card_keys():
    """The 64-bit key of each card code 0..51."""
    keys = np.zeros(52, dtype=np.uint64)
    for code in range(52):
        rank, suit = divmod(code, 4)
        keys[code] = RANK_MULTIPLIERS[rank] + np.uint64(1 << (SUIT_COUNTER_SHIFT + 4 * suit))
    return keys


def rank_multisets(max_cards=MAX_HASHED_CARDS):
    """Every rank-count vector with at most 4 of a rank and ``max_cards`` in all."""
    out = []
    counts = [0] * 13

    def walk(rank, left):
        if rank == 13:
            out.append(tuple(counts))
            return
        for c in range(min(4, left) + 1):
            counts[rank] = c
            walk(rank + 1, left - c)
        counts[rank] = 0

    walk(0, max_cards)
    return np.array(out, dtype=np.int64)


@njit(cache=True, inline="always")
def _rank_sets_of(counts):
    """The 13-bit sets of the ranks a multiset (13 counts) holds at least once,
    twice, three and four times."""
    r1 = r2 = r3 = r4 = 0
    for r in range(13):
        c = counts[r]
        if c >= 1:
            r1 |= 1 << r
        if c >= 2:
            r2 |= 1 << r
        if c >= 3:
            r3 |= 1 << r
        if c >= 4:
            r4 |= 1 << r
    return r1, r2, r3, r4


@njit(cache=True)
def _rank_values(multisets, multipliers):
    n = multisets.shape[0]
    keys = np.zeros(n, np.int64)
    high = np.zeros(n, np.uint32)
    low = np.zeros(n, np.uint32)
    for i in range(n):
        key = 0
        for r in range(13):
            key += multisets[i, r] * np.int64(multipliers[r])
        keys[i] = key
        r1, r2, r3, r4 = _rank_sets_of(multisets[i])
        if r1:
            high[i] = high_from_rank_sets(r1, r2, r3, r4)
        low[i] = low_from_rank_sets(r1, r2, r3, r4)
    return keys, high, low


@njit(cache=True)
def _one_wild_values(multisets, keys, multipliers, offsets, high_table):
    """For each multiset of at most six cards: the best ``high_table`` value of it
    plus one more card of a rank it holds fewer than four of (a fifth would be five
    of a kind, which the evaluators rank apart); 0 for seven cards."""
    out = np.zeros(multisets.shape[0], np.uint32)
    for i in range(multisets.shape[0]):
        if multisets[i].sum() > MAX_HASHED_CARDS - 1:
            continue
        best = np.uint32(0)
        for r in range(13):
            if multisets[i, r] < 4:
                k = keys[i] + np.int64(multipliers[r])
                best = max(best, high_table[(k & ROW_MASK) + offsets[k >> ROW_SHIFT]])
        out[i] = best
    return out


@njit(cache=True, inline="always")
def _one_more_entry(strength, ranks, longest_run):
    return np.uint16(((strength >> 12) << 2) | max(0, np.int64(longest_run[run_index(ranks)]) - 2))


@njit(cache=True)
def _one_more_rows(multisets, keys, multipliers, offsets, high_table, longest_run, slots, size):
    """The ``one_more`` table (``size`` rows of ``ONE_MORE_WIDTH``): multiset ``i``'s
    row at ``slots[i]``; ``multisets`` are those of up to ``ONE_MORE_CARDS`` cards."""
    rows = np.zeros((size, ONE_MORE_WIDTH), np.uint16)
    for i in range(multisets.shape[0]):
        ranks = _rank_sets_of(multisets[i])[0]
        k = keys[i]
        row = rows[slots[i]]
        row[ONE_MORE_OWN] = _one_more_entry(high_table[(k & ROW_MASK) + offsets[k >> ROW_SHIFT]], ranks, longest_run)
        for r in range(13):
            if multisets[i, r] < 4:
                k = keys[i] + np.int64(multipliers[r])
                row[r] = _one_more_entry(high_table[(k & ROW_MASK) + offsets[k >> ROW_SHIFT]], ranks | (1 << r),
                                         longest_run)
    return rows


@njit(cache=True)
def _short_entries(multisets, high, longest_run, slots, size):
    """The ``short`` table (``size`` entries): multiset ``i``'s one-more entry, of its
    high strength ``high[i]``, at ``slots[i]``."""
    entries = np.zeros(size, np.uint16)
    for i in range(multisets.shape[0]):
        entries[slots[i]] = _one_more_entry(high[i], _rank_sets_of(multisets[i])[0], longest_run)
    return entries


@njit(cache=True)
def _displace_rows(row_of, col_of, row_order, n_rows, row_width, step=1):
    """First-fit row displacement, each offset a multiple of ``step``; returns
    per-row offsets and the table size."""
    offsets = np.zeros(n_rows, np.int64)
    used = np.zeros(row_of.shape[0] * 4 + row_width, np.bool_)
    starts = np.zeros(n_rows + 1, np.int64)
    for r in row_of:
        starts[r + 1] += 1
    for r in range(n_rows):
        starts[r + 1] += starts[r]
    cols = np.empty(row_of.shape[0], np.int64)
    fill = starts[:-1].copy()
    for i in range(row_of.shape[0]):
        cols[fill[row_of[i]]] = col_of[i]
        fill[row_of[i]] += 1
    size = 0
    for r in row_order:
        lo, hi = starts[r], starts[r + 1]
        if lo == hi:
            continue
        off = 0
        while True:
            ok = True
            for j in range(lo, hi):
                if used[off + cols[j]]:
                    ok = False
                    break
            if ok:
                break
            off += step
        offsets[r] = off
        for j in range(lo, hi):
            used[off + cols[j]] = True
            size = max(size, off + cols[j] + 1)
    return offsets, size


@njit(cache=True)
def _flush_table():
    table = np.zeros(1 << 13, np.uint32)
    for m in range(1 << 13):
        table[m] = flush_from_suit(m)
    return table


def _perfect_hash(keys, row_shift, step=1):
    """Row displacement of ``keys``, fullest rows first: (per-row offsets, each
    key's slot, table size)."""
    rows = keys >> row_shift
    cols = keys & ((1 << row_shift) - 1)
    n_rows = int(rows.max()) + 1
    per_row = np.bincount(rows, minlength=n_rows)
    order = np.argsort(-per_row, kind="stable")
    offsets, size = _displace_rows(rows, cols, order, n_rows, 1 << row_shift, step)
    return offsets, cols + offsets[rows], size


def build_tables():
    """Compute every table from the ranking rules (a few seconds)."""
    multisets = rank_multisets()
    keys, high, low = _rank_values(multisets, RANK_MULTIPLIERS)
    if len(np.unique(keys)) != len(keys):
        raise AssertionError("rank multipliers do not give unique keys")
    offsets, slot, size = _perfect_hash(keys, ROW_SHIFT)
    high_table = np.zeros(size, np.uint32)
    low_table = np.zeros(size, np.uint32)
    high_table[slot] = high
    low_table[slot] = low
    high_wild_table = np.zeros(size, np.uint32)
    high_wild_table[slot] = _one_wild_values(multisets, keys, RANK_MULTIPLIERS, offsets, high_table)
    seven = multisets.sum(axis=1) == MAX_HASHED_CARDS
    seven_offsets, seven_slot, seven_size = _perfect_hash(keys[seven], SEVEN_ROW_SHIFT, SEVEN_STEP)
    if seven_offsets.max() // SEVEN_STEP > np.iinfo(np.uint16).max:
        raise AssertionError("a seven-card row offset does not fit 16 bits: raise SEVEN_STEP")
    seven_high = np.zeros(seven_size, np.uint32)
    seven_low = np.zeros(seven_size, np.uint32)
    seven_high[seven_slot] = high[seven]
    seven_low[seven_slot] = low[seven]
    few = multisets.sum(axis=1) <= ONE_MORE_CARDS
    one_more_offsets, one_more_slot, one_more_size = _perfect_hash(keys[few], ONE_MORE_ROW_SHIFT)
    if one_more_offsets.max() > np.iinfo(np.uint16).max:
        raise AssertionError("a one-more row offset does not fit 16 bits")
    if (high_table >> 12).max() >= 1 << 12:
        raise AssertionError("a strength's bits from 12 up do not fit a one-more entry")
    one_more = _one_more_rows(multisets[few], keys[few], RANK_MULTIPLIERS, offsets, high_table, longest_runs(),
                              one_more_slot, one_more_size)
    short = multisets.sum(axis=1) <= SHORT_CARDS
    short_offsets, short_slot, short_size = _perfect_hash(keys[short], SHORT_ROW_SHIFT)
    if short_offsets.max() > np.iinfo(np.uint16).max:
        raise AssertionError("a short-table row offset does not fit 16 bits")
    short_entries = _short_entries(multisets[short], high[short], longest_runs(), short_slot, short_size)
    return {
        "card_keys": card_keys(),
        "offsets": offsets.astype(np.uint32),
        "high": high_table,
        "low": low_table,
        "high_wild": high_wild_table,
        "flush": _flush_table(),
        "seven_offsets": (seven_offsets // SEVEN_STEP).astype(np.uint16),
        "seven_high": seven_high,
        "seven_low": seven_low,
        "one_more_offsets": one_more_offsets.astype(np.uint16),
        "one_more": one_more,
        "short_offsets": short_offsets.astype(np.uint16),
        "short": short_entries,
    }


def save_tables(path=DATA_FILE):
    tables = build_tables()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **tables)
    return tables


_LOADED = None


def load_tables():
    """The shipped tables as a dict of arrays (read once per process)."""
    global _LOADED
    if _LOADED is None:
        if DATA_FILE.exists():
            with np.load(DATA_FILE) as data:
                _LOADED = {name: data[name] for name in data.files}
        else:
            _LOADED = build_tables()
    return _LOADED


def search_rank_multipliers(max_cards=MAX_HASHED_CARDS):
    """Re-run the greedy multiplier search (minutes); returns the 13 multipliers."""
    sums = np.array([0], np.int64)
    sizes = np.array([0], np.int64)
    found = []
    for _ in range(13):
        m = _smallest_multiplier(sums, sizes, found[-1] + 1 if found else 1, max_cards)
        found.append(m)
        new_sums, new_sizes = [], []
        for c in range(5):
            keep = sizes + c <= max_cards
            new_sums.append(sums[keep] + c * m)
            new_sizes.append(sizes[keep] + c)
        sums, sizes = np.concatenate(new_sums), np.concatenate(new_sizes)
    return found


@njit(cache=True)
def _smallest_multiplier(sums, sizes, start, max_cards):
    top = sums.max()
    m = start
    stamp = np.zeros(top + 8 * m + 1, np.int64)
    while True:
        if top + 4 * m + 1 > stamp.shape[0]:
            stamp = np.zeros(2 * (top + 4 * m + 1), np.int64)
        ok = True
        for i in range(sums.shape[0]):
            for c in range(min(4, max_cards - sizes[i]) + 1):
                v = sums[i] + c * m
                if stamp[v] == m:
                    ok = False
                    break
                stamp[v] = m
            if not ok:
                break
        if ok:
            return m
        m += 1


if __name__ == "__main__":
    t = save_tables()
    total = sum(a.nbytes for a in t.values())
    print(f"wrote {DATA_FILE}: " + ", ".join(f"{k} {v.shape[0]}" for k, v in t.items()) + f"; {total / 1024:.0f} KiB")
