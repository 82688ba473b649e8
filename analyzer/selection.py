"""Selection (RulesPal), the board-scoring game of RULES.md §5: registry entry,
simulation driver, one traced game and its narrative.

Selection is scored, not played for a pot: its registry entry
(``analyzer.variants.SELECTION``) has rules options and a policy space validated like
the pot games', a board and a deck as game settings, and points to the driver and
replay here. Game ``i`` of a run seeded ``s`` always uses the random stream
``(s, i)`` and every total is kept as an exact integer, so the results do not depend
on threads or chunk size; Ctrl-C returns what is finished and ``checkpoint=``
resumes. The board and deck are configuration
(``analyzer.selection_config``); the built-in board is PROVISIONAL.

The games are played by the engine (``analyzer.engine``): ``selection_inputs`` (or
``setup_inputs`` of a ``setup``) builds its ``Inputs``, the registry entry carries
the game id and the ``STATE`` / ``RESULT`` layouts of ``kernels.games.selection``,
and ``result_arrays`` reads result rows back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from kernels.games import selection as G
from kernels.games import selection_hands as H

from . import engine
from .errors import WantitError
from .rules import played_by
from .runs import (
    check_checkpoint_path,
    check_run,
    check_seed,
    check_target_se,
    flag,
    resume,
    run_chunks,
    whole,
)
from .selection_config import KIND_MEANING, PROVISIONAL_NOTE, Board, Deck, resolve
from .text import count_of, fit_frame, wrap_line
from .variants import SELECTION

if TYPE_CHECKING:  # pandas is imported where a table is made (0.25 s of an equity query's start-up)
    import pandas as pd

NAMES = ("selection", "rulespal", "selection_rulespal", "selection_scoring")
WIN_UNITS = 60  # a shared win of k <= 6 players is a whole number of 1/60
MAX_TOTAL = G.MAX_SLOT_SCORE * 11  # eleven slots of five aces
PAR_SEED = 20240517
PAR_TRIALS = 2000
BATCH = 20_000  # games per engine call (a result row is RESULT.size floats)


def is_selection(name) -> bool:
    key = str(name).lower().replace("-", "_").replace(" ", "_").replace("(", "").replace(")", "")
    return key in NAMES


# ---------------------------------------------------------------- set-up


@dataclass(frozen=True)
class Setup:
    """Everything a kernel call needs, validated."""

    board: Board
    deck: Deck
    players: int
    rules: dict
    rules_vec: np.ndarray
    values: list
    policy_matrix: np.ndarray
    deck_matrix: np.ndarray
    profile: np.ndarray
    board_matrix: np.ndarray
    par: np.ndarray  # [seat, slot]; None until ``with_par``


def _seat_specs(players, policies):
    from .simulate import seat_policies

    return seat_policies(SELECTION, players, policies)


@lru_cache(maxsize=64)
def _par_cached(deck_bytes, deck_shape, prof_bytes, board_bytes, board_shape, rules_bytes, policy_bytes):
    # Writable copies: numba compiles read-only arrays as other types.
    deck = np.frombuffer(deck_bytes, np.int64).reshape(deck_shape).copy()
    prof = np.frombuffer(prof_bytes, np.int64).reshape(H.PROFILE_ROWS, H.PROFILE_COLS).copy()
    board = np.frombuffer(board_bytes, np.int64).reshape(board_shape).copy()
    rules = np.frombuffer(rules_bytes, np.float64).copy()
    policy = np.frombuffer(policy_bytes, np.float64).copy()
    out = np.zeros(board.shape[0])
    G.par_batch(deck, prof, board, rules, policy, PAR_SEED, PAR_TRIALS, out)
    return tuple(out)


def slot_par(deck_matrix, profile, board_matrix, rules_vec, policy_vec) -> np.ndarray:
    """Each slot's par for one policy: its mean score over 2,000 fixed single rounds
    aimed at it alone (cached per deck, board, rules and policy)."""
    return np.array(_par_cached(deck_matrix.tobytes(), deck_matrix.shape, profile.tobytes(),
                                board_matrix.tobytes(), board_matrix.shape, rules_vec.tobytes(),
                                policy_vec.tobytes()))


def setup(players=None, policies=None, rules=None, board=None, deck=None, par=True) -> Setup:
    """The validated set-up; ``par=False`` leaves the slots' par (a kernel run) to
    ``with_par``, so that everything else can be refused before any kernel runs."""
    b, d = resolve(board, deck)
    n = SELECTION.default_players if players is None else whole(players, "players")
    SELECTION.check_table(n, rules)
    if d.size < 7 * n:
        raise WantitError(f"deck {d.name} has {d.size} cards; {count_of(n, 'player')} need{'s' if n == 1 else ''} "
                          f"at least {7 * n} (7 each)")
    rules_vec = SELECTION.rules_vector(rules)
    values = [SELECTION.policy_values(spec) for spec in _seat_specs(n, policies)]
    policy_matrix = np.stack([SELECTION.policy_vector(v) for v in values])
    deck_matrix, profile, board_matrix = d.matrix(), d.profile(), b.matrix()
    chosen = {k: v for k, v in SELECTION.chosen_rules(rules).items()}
    st = Setup(b, d, n, chosen, rules_vec, values, policy_matrix, deck_matrix, profile, board_matrix, None)
    return with_par(st) if par else st


def with_par(st: Setup) -> Setup:
    """The set-up with each seat's slot par (``slot_par``) filled in."""
    if st.par is not None:
        return st
    par = np.stack([slot_par(st.deck_matrix, st.profile, st.board_matrix, st.rules_vec, st.policy_matrix[s])
                    for s in range(st.players)])
    return replace(st, par=par)


def setup_inputs(st: Setup, stacked=None) -> engine.Inputs:
    """The engine inputs (``analyzer.engine.Inputs``) of a validated set-up: the
    rules vector, the policy rows, and Selection's data packed into ``idata`` (deck
    matrix, profile, board, ``stacked`` rounds) and ``fdata`` (each seat's parameter
    row with its par, the tail table)."""
    st = with_par(st)
    sp = G.seat_params(st.deck_matrix, st.profile, st.rules_vec, st.policy_matrix, st.par, st.players)
    tt = G.make_tail_table(st.profile)
    idata, fdata = G.pack_data(st.deck_matrix, st.profile, st.board_matrix, sp, tt, _stacked_rows(stacked, st.deck))
    return engine.Inputs(SELECTION, st.players, st.rules_vec, st.policy_matrix, idata, fdata)


def selection_inputs(players=None, policies=None, rules=None, board=None, deck=None, stacked=None) -> engine.Inputs:
    """``analyzer.engine.Inputs`` for Selection with ``players`` seats playing
    ``policies`` under ``rules`` on ``board`` with ``deck`` (as ``simulate_selection``
    takes them); ``stacked`` as for ``play_game``. Start states: ``engine.new_state(inp,
    dealer=first_dealer)``; deal ``g`` of a run rotates the first dealer to ``g %
    players`` (``engine.play_batch``), else seat 0."""
    return setup_inputs(setup(players, policies, rules, board, deck), stacked)


def result_arrays(out, players, slots):
    """``(score, scratched, open_round, total, reshuffles)`` of result rows ``out``
    (``G.RESULT``, one row per game) as integer arrays by game (and seat, slot)."""
    R = G.RESULT
    score = R.view(out, "score")[..., :players, :slots].astype(np.int64)
    scratched = R.view(out, "scratched")[..., :players, :slots].astype(np.int64)
    open_round = R.view(out, "open_round")[..., :players].astype(np.int64)
    total = R.view(out, "total")[..., :players].astype(np.int64)
    reshuffles = R.view(out, "reshuffles")[..., 0].astype(np.int64)
    return score, scratched, open_round, total, reshuffles


# ---------------------------------------------------------------- the driver


@dataclass
class SelectionTotals:
    """Exact running sums over games, per seat."""

    SIGNED = ()  # totals that may be negative
    UNIT = "games"

    players: int
    slots: int
    games: int = 0
    total_sum: np.ndarray = None
    total_sq: np.ndarray = None
    win_units: np.ndarray = None  # sum of win shares, 1/WIN_UNITS
    win_sq: np.ndarray = None
    ties: np.ndarray = None  # games the seat shared the top total with others
    hist: np.ndarray = None  # [seat, total]
    filled: np.ndarray = None  # [seat, slot] games the slot took points
    slot_sum: np.ndarray = None  # [seat, slot]
    opened: np.ndarray = None  # [seat, round]: round 0 = never (or no opening slot)
    reshuffles: int = 0

    def __post_init__(self):
        n, k = self.players, self.slots
        shapes = {"total_sum": n, "total_sq": n, "win_units": n, "win_sq": n, "ties": n,
                  "hist": (n, MAX_TOTAL + 1), "filled": (n, k), "slot_sum": (n, k), "opened": (n, k + 1)}
        for name, shape in shapes.items():
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(shape, np.int64))

    @property
    def done(self):
        return self.games

    def add(self, score, scratched, open_round, total, reshuffles):
        """Add a batch of games, every sum at once: an interrupt lands before or after
        the one ``update`` call, never between two sums."""
        total = total.astype(np.int64)
        top = total.max(axis=1, keepdims=True)
        at_top = total == top
        sharing = at_top.sum(axis=1, keepdims=True)
        units = np.where(at_top, WIN_UNITS // sharing, 0)
        hist, opened = self.hist.copy(), self.opened.copy()
        for s in range(self.players):
            hist[s] += np.bincount(total[:, s], minlength=MAX_TOTAL + 1)
            opened[s] += np.bincount(open_round[:, s].astype(np.int64), minlength=self.slots + 1)
        self.__dict__.update({
            "games": self.games + total.shape[0],
            "total_sum": self.total_sum + total.sum(axis=0),
            "total_sq": self.total_sq + (total * total).sum(axis=0),
            "win_units": self.win_units + units.sum(axis=0),
            "win_sq": self.win_sq + (units * units).sum(axis=0),
            "ties": self.ties + (at_top & (sharing > 1)).sum(axis=0),
            "hist": hist,
            "opened": opened,
            "filled": self.filled + (scratched == 0).sum(axis=0),
            "slot_sum": self.slot_sum + score.astype(np.int64).sum(axis=0),
            "reshuffles": self.reshuffles + int(reshuffles.sum()),
        })

    def to_dict(self):
        return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self.__dict__.items()}

    def inconsistency(self):
        """What makes these totals impossible (a damaged checkpoint), or None."""
        g = self.games
        if any(int(c) != g for c in self.hist.sum(axis=1)) or any(int(c) != g for c in self.opened.sum(axis=1)):
            return f"a seat's totals or opening rounds do not add up to the {g} games"
        if (self.filled > g).any() or (self.ties > g).any() or (self.win_units > WIN_UNITS * g).any():
            return f"fills, ties or wins exceed the {g} games"
        if (self.total_sum != (self.hist * np.arange(self.hist.shape[1])).sum(axis=1)).any():
            return "the sum of totals does not match their distribution"
        return None

    @classmethod
    def from_dict(cls, d):
        return cls(**{k: (np.array(v, dtype=np.int64) if isinstance(v, list) else v) for k, v in d.items()})


@dataclass
class SelectionResult:
    """``seats``: seat, policy, p_win (ties shared), p_win_se, p_tie, mean_total,
    total_se, total_sd, median_total, p_opening_round_1, mean_opening_round, p_never_opened.
    ``totals``: the distribution of final totals (seat, total, count, probability).
    ``slots``: per seat and slot: fill_rate, scratch_rate, mean_score, mean_when_filled.
    ``opening``: rounds needed to make the opening (seat, round or "never", probability).
    ``meta``: the settings (board, deck, rules, policies, games, seed, threads, ...)."""

    seats: pd.DataFrame
    totals: pd.DataFrame
    slots: pd.DataFrame
    opening: pd.DataFrame
    meta: dict = field(default_factory=dict)

    def to_json_records(self):
        out = []
        for _, row in self.seats.iterrows():
            rec = {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            s = rec["seat"]
            rec["slots"] = {
                r.id: {"slot": int(r.slot), "kind": r.kind, "fill_rate": float(r.fill_rate),
                       "mean_score": float(r.mean_score), "mean_when_filled": float(r.mean_when_filled)}
                for r in self.slots[self.slots.seat == s].itertuples()
            }
            rec["opening_rounds"] = {str(r.round): float(r.probability)
                                     for r in self.opening[self.opening.seat == s].itertuples()}
            rec["totals"] = {str(int(r.total)): float(r.probability)
                             for r in self.totals[self.totals.seat == s].itertuples()}
            out.append(rec)
        return out

    def to_json(self):
        """What ``wantit simulate selection --format json`` prints."""
        return {"meta": self.meta, "seats": self.to_json_records()}

    def to_csv(self):
        return self.seats.to_csv(index=False)

    def format_table(self):
        return format_table(self)


def win_se(totals: SelectionTotals) -> np.ndarray:
    """Each seat's standard error of its win share (ties shared)."""
    g = max(totals.games, 1)
    win = totals.win_units / g / WIN_UNITS
    win_var = np.maximum(totals.win_sq / g / WIN_UNITS**2 - win**2, 0.0)
    return np.sqrt(win_var / max(totals.games - 1, 1))


def _frames(st: Setup, totals: SelectionTotals):
    import pandas as pd

    n, g = st.players, max(totals.games, 1)
    mean = totals.total_sum / g
    var = np.maximum(totals.total_sq / g - mean**2, 0.0)
    win = totals.win_units / g / WIN_UNITS
    p_win_se = win_se(totals)
    dof = max(totals.games - 1, 1)
    opening = st.board.opening
    rows = []
    for s in range(n):
        cum = np.cumsum(totals.hist[s])
        median = int(np.searchsorted(cum, (totals.games + 1) // 2)) if totals.games else 0
        made = totals.opened[s, 1:]
        row = {
            "seat": s,
            "policy": st.values[s]["preset"],
            **{p.name: float(st.values[s][p.name]) for p in SELECTION.params},
            "p_win": float(win[s]),
            "p_win_se": float(p_win_se[s]),
            "p_tie": float(totals.ties[s] / g),
            "mean_total": float(mean[s]),
            "total_se": float(np.sqrt(var[s] / dof)),
            "total_sd": float(np.sqrt(var[s])),
            "median_total": median,
        }
        if opening is not None:
            row["p_opening_round_1"] = float(made[0] / g)
            row["mean_opening_round"] = (float((made * np.arange(1, len(made) + 1)).sum() / made.sum())
                                         if made.sum() else float("nan"))
            row["p_never_opened"] = float(totals.opened[s, 0] / g)
        rows.append(row)
    seats = pd.DataFrame(rows)
    hist_rows = [{"seat": s, "total": t, "count": int(c), "probability": float(c / g)}
                 for s in range(n) for t in np.flatnonzero(totals.hist[s]) for c in [totals.hist[s, t]]]
    totals_frame = pd.DataFrame(hist_rows, columns=["seat", "total", "count", "probability"])
    slot_rows = []
    for s in range(n):
        for k, slot in enumerate(st.board.slots):
            filled = totals.filled[s, k]
            slot_rows.append({
                "seat": s, "slot": k + 1, "id": slot.id, "label": slot.title, "kind": slot.kind,
                "placeholder": slot.placeholder,
                "fill_rate": float(filled / g), "scratch_rate": float(1 - filled / g) if totals.games else 0.0,
                "mean_score": float(totals.slot_sum[s, k] / g),
                "mean_when_filled": float(totals.slot_sum[s, k] / filled) if filled else 0.0,
            })
    slots = pd.DataFrame(slot_rows)
    open_rows = []
    if opening is not None:
        for s in range(n):
            for r in range(1, len(st.board.slots) + 1):
                open_rows.append({"seat": s, "round": str(r), "probability": float(totals.opened[s, r] / g)})
            open_rows.append({"seat": s, "round": "never", "probability": float(totals.opened[s, 0] / g)})
    opening_frame = pd.DataFrame(open_rows, columns=["seat", "round", "probability"])
    return seats, totals_frame, slots, opening_frame


def run_settings(st: Setup, seed, rotate_dealer=True) -> dict:
    """What a run's results depend on, as saved in (and compared with) its checkpoint."""
    return {
        "variant": SELECTION.name, "players": st.players, "seed": int(seed),
        "rules": {k: str(v) for k, v in st.rules.items()},
        "policies": [{k: val[k] for k in sorted(val)} for val in st.values],
        "rotate_dealer": bool(rotate_dealer),
        "board": st.board.label(), "board_slots": [[s.id, s.kind, s.used, s.opening] for s in st.board.slots],
        "deck": st.deck.name,
    }


def simulate_selection(players=None, policies=None, rules=None, games=10_000, seed=0, board=None, deck=None,
                       threads=None, chunk=100_000, rotate_dealer=True, checkpoint=None,
                       progress=None, target_se=None) -> SelectionResult:
    """Simulate ``games`` complete games of Selection and return a ``SelectionResult``.

    ``board``: a path to a board file or a ``Board`` (default: the PROVISIONAL board
    of RULES.md §5.4); ``deck``: ``"standard52"`` (default), ``"colours"``,
    ``"colours(K, RANKS, COPIES)"`` or a ``Deck`` (default: the board file's deck, if
    any). ``policies`` and ``rules`` as for ``analyzer.simulate.simulate``.
    ``rotate_dealer``: game ``g`` starts with dealer seat ``g % players`` (else seat
    0); the dealer then moves one seat left every round. ``target_se``: stop early,
    after the first chunk where every seat's ``p_win_se`` is below it (``games`` is
    then the most played).
    """
    # Everything is checked, and a checkpoint read, before the slots' par is computed
    # (the first kernel run).
    check_run(games, seed, chunk, threads, what="games", least=2)
    games, seed, rotate_dealer = int(games), int(seed), flag(rotate_dealer, "rotate_dealer")
    target_se = check_target_se(target_se, "a standard error of p_win")
    check_checkpoint_path(checkpoint)
    st = setup(players, policies, rules, board, deck, par=False)
    n = st.players
    settings = run_settings(st, seed, rotate_dealer)
    k = len(st.board.slots)
    totals = resume(checkpoint, settings, SelectionTotals, SelectionTotals(n, k), target=games)

    st = with_par(st)
    inp = setup_inputs(st)
    start = engine.new_state(inp, dealer=0)

    def play_chunk(first, count):
        for a in range(first, first + count, BATCH):
            out = engine.play_batch(inp, start, int(seed), a, min(BATCH, first + count - a), bool(rotate_dealer))
            totals.add(*result_arrays(out, n, k))

    def precise_enough(t):
        return target_se is not None and t.games > 1 and win_se(t).max() < float(target_se)

    interrupted, used_threads, seconds = run_chunks(totals, games, chunk, threads, play_chunk,
                                                    checkpoint, settings, progress, until=precise_enough)
    seats, totals_frame, slots, opening = _frames(st, totals)
    seats.insert(2 + len(SELECTION.params), "board", "PROVISIONAL" if st.board.provisional else st.board.name)
    meta = {**settings, "title": SELECTION.title, "games": totals.games, "requested_games": games,
            "interrupted": interrupted, "target_se": target_se, "reached_target_se": bool(precise_enough(totals)), "board_provisional": st.board.provisional,
            "board_note": st.board.note,
            "deck_note": st.deck.describe(), "par": {s: [round(float(x), 2) for x in st.par[s]] for s in range(n)},
            "reshuffles_per_game": totals.reshuffles / max(totals.games, 1),
            "threads": used_threads, "seconds": seconds}
    return SelectionResult(seats, totals_frame, slots, opening, meta)


def format_table(r: SelectionResult) -> str:
    """The text report of ``wantit simulate selection``."""
    import pandas as pd

    m = r.meta
    stopped = (f" (every p_win_se below {m['target_se']:g})" if m.get("reached_target_se")
               and m["games"] < m["requested_games"] else "")
    if m.get("target_se") is not None and not m.get("reached_target_se") and not m["interrupted"]:
        stopped = f" (--target-se {m['target_se']:g} not reached: some p_win_se is above it)"
    if m["interrupted"]:
        stopped += f" (interrupted: partial, {m['requested_games']:,} asked)"
    from .simulate import compact_policies

    four = {"float_format": lambda x: f"{x:.4f}"}
    lines = [*wrap_line(f"{m['title']}: {count_of(m['players'], 'player')}, {m['games']:,} games{stopped}, "
                        f"seed {m['seed']}"),
             f"board: {m['board']}"]
    if m["board_provisional"]:
        lines.append(f"  {m['board_note']}")
    lines.append(f"deck: {m['deck_note']}")
    lines = [part for line in lines for part in wrap_line(line)]
    lines.append("")
    seats = compact_policies("selection", r.seats.drop(columns=["board"]))
    lines.append(fit_frame(seats, ["seat"], **four))
    lines.append("\nslots (fill rate, mean score; scratched slots score 0):")
    fill = r.slots.pivot(index="slot", columns="seat", values="fill_rate")
    mean = r.slots.pivot(index="slot", columns="seat", values="mean_score")
    labels = r.slots[r.slots.seat == 0].set_index("slot").label
    table = pd.DataFrame({"slot": labels})
    for s in fill.columns:
        table[f"fill s{s}"] = fill[s].map(lambda x: f"{x:.4f}")
        table[f"mean s{s}"] = mean[s].map(lambda x: f"{x:.1f}")
    lines.append(fit_frame(table, ["slot"]))
    if len(r.opening):
        lines.append("\nrounds needed to make the opening (probability):")
        piv = r.opening.pivot(index="round", columns="seat", values="probability")
        order = [str(i) for i in range(1, len(r.slots[r.slots.seat == 0]) + 1)] + ["never"]
        piv = piv.reindex(order)
        piv = piv[(piv.max(axis=1) >= 0.0005) | (piv.index == "never")]
        piv.columns = [f"seat {s}" for s in piv.columns]
        lines.append(fit_frame(piv.rename_axis("round").reset_index(), ["round"], **four))
    lines.append("\nfinal totals (probability by band of 100 points):")
    t = r.totals.copy()
    t["band"] = (t.total // 100) * 100
    band = t.groupby(["band", "seat"]).probability.sum().unstack("seat").fillna(0.0)
    band.index = [f"{b}-{b + 99}" for b in band.index]
    band.columns = [f"seat {s}" for s in band.columns]
    lines.append(fit_frame(band.rename_axis("points").reset_index(), ["points"], **four))
    return "\n".join(lines)


def describe_board() -> list:
    """The board and deck lines of Selection's ``wantit variants`` entry."""
    from .selection_config import PROVISIONAL_BOARD

    lines = ["  board (--board FILE.toml): default PROVISIONAL; " + PROVISIONAL_NOTE]
    lines += [f"    {line}" for line in PROVISIONAL_BOARD.describe()]
    lines.append("    slot kinds: " + "; ".join(f"{k} ({m})" for k, m in KIND_MEANING.items()))
    lines.append("  deck (--deck): standard52 (default; Cosmopolitan = all four suits among its 5 cards, a "
                 "provisional fallback) | colours | colours(K, RANKS, COPIES), default colours(5, 1-10/J/Q/K/A, 1)")
    return lines


def simulate_variant(variant=None, deals=10_000, target_se=None, **kwargs) -> SelectionResult:
    """The registry's driver for Selection: ``deals`` counts games (see
    ``simulate_selection`` for the other arguments)."""
    if target_se is not None:
        kwargs["target_se"] = target_se
    return simulate_selection(games=deals, **kwargs)


def replay(variant=None, deal=0, dealer=None, **kwargs) -> str:
    """Game ``deal`` of a run (``play_game``), told as text: the registry's replay."""
    return narrate_game(play_game(game=deal, first_dealer=dealer, **kwargs))


def score_hand(cards, board=None, deck=None, rules=None, policy=None, filled=None) -> pd.DataFrame:
    """What a 7-card hand scores in each open slot, by the rules the game applies:
    one row per slot with ``slot, id, kind, points`` (0: cannot be filled now) and
    ``cards`` (those used). ``filled`` maps slot ids to scores already written
    (e.g. ``{"high": 85}``: the Low must then score below 85); those slots are
    left out. ``policy`` matters only for a Low filled while High is open
    (``low_cap``). The opening rule is not applied here: every open slot is shown."""
    import pandas as pd

    b, d = resolve(board, deck)
    codes = d.parse(cards) if isinstance(cards, str) else [int(c) for c in cards]
    if len(codes) != H.HAND:
        raise WantitError(f"a Selection hand has {H.HAND} cards; got {len(codes)}")
    if any(not 0 <= c < d.size for c in codes):
        raise WantitError(f"card indices are 0..{d.size - 1}")
    twice = sorted({c for c in codes if codes.count(c) > 1})
    if twice:  # a deck's index names one physical card (each copy has its own)
        raise WantitError(f"card {d.card_text(twice[0])} (index {twice[0]}) is given twice; a hand holds "
                          f"{H.HAND} different cards of the deck")
    ids = [s.id for s in b.slots]
    score_row = np.full(len(ids), -1, np.int32)
    for key, value in (filled or {}).items():
        if key not in ids:
            raise WantitError(f"filled: no slot {key!r} on the board; slots are {', '.join(ids)}")
        if int(value) < 0:
            raise WantitError(f"filled: {key}={value} must be a score >= 0")
        score_row[ids.index(key)] = int(value)
    rules_vec = SELECTION.rules_vector(rules)
    pol = SELECTION.policy_vector(policy)
    sp = G.seat_params(d.matrix(), d.profile(), rules_vec, pol[None, :], np.zeros((1, len(ids))), 1)
    scores = np.zeros(len(ids), np.int64)
    masks = np.zeros(len(ids), np.int64)
    hand = np.array(codes, np.int64)
    G.hand_fills(hand, d.matrix(), d.profile(), b.matrix(), sp[0], score_row, scores, masks)
    rows = []
    for k, slot in enumerate(b.slots):
        if score_row[k] >= 0:
            continue
        used = [int(hand[j]) for j in range(H.HAND) if (masks[k] >> j) & 1]
        rows.append({"slot": k + 1, "id": slot.id, "kind": slot.kind, "points": int(scores[k]),
                     "cards": d.format(used)})
    return pd.DataFrame(rows, columns=["slot", "id", "kind", "points", "cards"])


# ---------------------------------------------------------------- one game, narrated


@dataclass
class SelectionGame:
    players: int
    first_dealer: int
    seed: int
    game: int
    board: Board
    deck: Deck
    events: np.ndarray  # rows [kind, seat, card, a, b]
    score: np.ndarray  # [seat, slot]
    scratched: np.ndarray
    open_round: np.ndarray
    total: np.ndarray
    hands: np.ndarray  # each seat's last hand
    policies: list
    reshuffles: int

    @property
    def winners(self):
        return [int(s) for s in np.flatnonzero(self.total == self.total.max())]


def _stacked_rows(stacked, deck: Deck):
    """``stacked``: cards for round 1 (text or indices) or a list of such, one per round."""
    if stacked is None:
        return np.zeros((0, 1), np.int64)
    if isinstance(stacked, str) or (len(stacked) and isinstance(stacked[0], (int, np.integer))):
        stacked = [stacked]
    rows = []
    for i, r in enumerate(stacked):
        cards = deck.parse(r) if isinstance(r, str) else [int(c) for c in r]
        if any(not 0 <= c < deck.size for c in cards):
            raise WantitError(f"stacked round {i + 1}: card indices are 0..{deck.size - 1}")
        if len(set(cards)) != len(cards):
            raise WantitError(f"stacked round {i + 1}: a card is given twice")
        rows.append(cards)
    width = max(1, max(len(r) for r in rows))
    out = np.full((len(rows), width), -1, np.int64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def play_game(players=None, seed=0, game=0, rules=None, policies=None, board=None, deck=None, stacked=None,
              rotate_dealer=True, first_dealer=None) -> SelectionGame:
    """Play one game with tracing, exactly as ``simulate_selection`` plays game
    ``game`` of seed ``seed``. ``stacked``: the first cards of round 1's stock (or a
    list, one entry per round), in order; the rest follow in deck order and
    reshuffles keep discard order (tests, replays)."""
    seed, game = check_seed(seed), check_seed(game, "game")
    b, d = resolve(board, deck)
    _stacked_rows(stacked, d)  # bad stacked cards are refused before the par (a kernel run)
    st = setup(players, policies, rules, b, d)
    n = st.players
    if first_dealer is None:
        first_dealer = game % n if flag(rotate_dealer, "rotate_dealer") else 0
    first_dealer = whole(first_dealer, "first_dealer")
    if not 0 <= first_dealer < n:
        raise WantitError(f"first_dealer must be a seat 0..{n - 1}")
    k = len(st.board.slots)
    inp = setup_inputs(st, stacked)
    state = engine.new_state(inp, dealer=int(first_dealer))
    played = engine.play_state(inp, state, engine.new_stream(seed, game))
    score, scratched, open_round, total, reshuffles = result_arrays(played.result, n, k)
    hands = G.STATE.view(state, "hands")[:n].copy()
    return SelectionGame(n, int(first_dealer), int(seed), int(game), st.board, st.deck, played.events,
                         score, scratched, open_round, total, hands, st.values, int(reshuffles))


class _Story:
    """What the narration of one game keeps between events: the lines so far, each
    seat's hand, the cards being dealt, and the draw being told."""

    def __init__(self, g: SelectionGame):
        self.g = g
        self.deck = g.deck
        self.slot = [s.title for s in g.board.slots]
        self.lines = [f"{SELECTION.title}: {g.players} player{'s' if g.players != 1 else ''}, seed {g.seed}, "
                      f"game {g.game}", played_by(SELECTION), f"board: {g.board.label()}"]
        if g.board.provisional:
            self.lines.append(f"  {g.board.note}")
        self.lines.append(f"deck: {g.deck.describe()}")
        self.hands = [[] for _ in range(g.players)]
        self.dealt = [[] for _ in range(g.players)]
        self.draw = None  # [seat, draw, aimed, kept, discards, drawn] of the draw being told
        self.notes = []  # lines told after that draw's line

    def close_draw(self):
        if self.draw is None:
            return
        seat, number, aimed, kept, discards, drawn = self.draw
        aim = f"aims at {self.slot[aimed]}" if aimed >= 0 else "aims at nothing"
        if not discards:
            self.lines.append(f"    seat {seat}, draw {number}: {aim}; stands pat on {self.deck.format(kept)}")
        else:
            self.lines.append(f"    seat {seat}, draw {number}: {aim}; keeps {self.deck.format(kept) or '-'}, "
                              f"discards {self.deck.format(discards)}, draws {self.deck.format(drawn)}")
        self.lines.extend(self.notes)
        self.notes.clear()
        self.draw = None

    def close_deal(self):
        for s in range(self.g.players):
            if self.dealt[s]:
                self.lines.append(f"    seat {s} is dealt {self.deck.format(self.dealt[s])}")
                self.dealt[s] = []


def _told_deal(t, seat, card, a, b):
    if not t.dealt[seat] and len(t.hands[seat]) == H.HAND:
        t.hands[seat] = []
    t.hands[seat].append(card)
    t.dealt[seat].append(card)


def _told_aim(t, seat, card, a, b):
    t.draw = [seat, a, b, list(t.hands[seat]), [], []]


def _told_discard(t, seat, card, a, b):
    t.hands[seat].remove(card)
    t.draw[3].remove(card)
    t.draw[4].append(card)


def _told_drawn(t, seat, card, a, b):
    t.hands[seat].append(card)
    t.draw[5].append(card)


def _told_reshuffle(t, seat, card, a, b):
    how = "shuffled into" if b else "turned over, in discard order, as"
    (t.notes if t.draw is not None else t.lines).append(f"    the stock is empty: the {a} discards are {how} a new stock")


def _told_used(t, seat, card, a, b):
    t.lines[-1] += f" {t.deck.card_text(card)}"


def _told_total(t, seat, card, a, b):
    if seat != 0:
        return
    g = t.g
    width = max(len(s) for s in t.slot)
    t.lines += ["Final board", " " * (width + 2) + "".join(f"{'seat ' + str(s):>9}" for s in range(g.players))]
    for k, name in enumerate(t.slot):
        cells = "".join(f"{('x' if g.scratched[s, k] else '') + str(int(g.score[s, k])):>9}" for s in range(g.players))
        t.lines.append(f"  {name:<{width}}{cells}")
    t.lines += [f"  {'total':<{width}}" + "".join(f"{int(x):>9}" for x in g.total), "  (x: scratched)"]


def _line(make):
    """A handler that appends the line ``make(story, seat, card, a, b)``."""
    return lambda t, seat, card, a, b: t.lines.append(make(t, seat, card, a, b))


# The narration, one entry per event kind: a handler (story, seat, card, a, b).
# Lines indented by four spaces are details shown only with ``--trace``.
GAME_EVENT_TEXT = {
    G.EV_SEL_ROUND: _line(lambda t, seat, card, a, b: f"Round {a} (dealer seat {seat}, {b} draws)"),
    G.EV_SEL_DEAL: _told_deal,
    G.EV_SEL_TARGET: _line(lambda t, seat, card, a, b: f"  seat {seat} declares {t.slot[a]} as its target"),
    G.EV_SEL_AIM: _told_aim,
    G.EV_SEL_DISCARD: _told_discard,
    G.EV_SEL_DRAWN: _told_drawn,
    G.EV_SEL_NO_CARD: lambda t, seat, card, a, b: t.notes.append(
        f"    no card left anywhere: seat {seat} keeps a discard"),
    G.EV_SEL_RESHUFFLE: _told_reshuffle,
    G.EV_SEL_FILL: _line(lambda t, seat, card, a, b: f"  seat {seat} fills {t.slot[a]}: {b} points with"),
    G.EV_SEL_USED: _told_used,
    G.EV_SEL_SCRATCH: _line(lambda t, seat, card, a, b: (
        f"  seat {seat} scratches {t.slot[a]}: 0 "
        f"({'by choice' if b else 'no open slot it may fill can be made'})")),
    G.EV_SEL_OPENED: _line(lambda t, seat, card, a, b: (
        f"  seat {seat} has made the opening ({t.slot[t.g.board.opening]}) in round {a}")),
    G.EV_SEL_TOTAL: _told_total,
    G.EV_SEL_WIN: _line(lambda t, seat, card, a, b: (
        f"seat {seat} wins with {int(t.g.total[seat])}" + (f" (shared by {a})" if a > 1 else ""))),
}
# Events told as part of the draw before them (they do not close its line).
DRAW_DETAILS = {G.EV_SEL_DISCARD, G.EV_SEL_DRAWN, G.EV_SEL_RESHUFFLE, G.EV_SEL_NO_CARD}


def narrate_game(g: SelectionGame) -> str:
    """The game as text, one handler per event kind (``GAME_EVENT_TEXT``). Lines
    indented by four spaces are the details (deals and draws) that ``wantit deal
    selection`` shows only with ``--trace``."""
    story = _Story(g)
    for kind, seat, card, a, b in (tuple(int(v) for v in e) for e in g.events):
        if kind not in DRAW_DETAILS:
            story.close_draw()
        if kind != G.EV_SEL_DEAL:
            story.close_deal()
        GAME_EVENT_TEXT[kind](story, seat, card, a, b)
    story.close_draw()
    return "\n".join(story.lines)
