"""The variant registry: each game's rules options, policy space and kernels.

A variant is data: its options (name, default, allowed values, meaning, the
RULES.md clause), its policy parameters (name, default, range, meaning) and named
presets, and the kernel entry points. ``rules_vector`` and ``policy_vector``
validate user input against it and encode it for the kernels.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from kernels import engine as E
from kernels import policies as P
from kernels import ranking as R
from kernels import showdown as S
from kernels.games import common as C

from .errors import WantitError
from .evaluate import low_threshold
from .game_options import GAME_OPTIONS


@dataclass(frozen=True)
class Option:
    """One rules option: ``choices`` maps accepted names to kernel codes; options
    without choices are integers in ``bounds`` or booleans."""

    name: str
    index: int
    default: Any
    meaning: str
    clause: str
    choices: dict | None = None
    bounds: tuple | None = None
    boolean: bool = False
    # For options that fill several rules slots: writer(value, vector) validates the
    # value and writes it from ``index`` on; ``allowed_text`` describes the values.
    writer: Any = None
    allowed_text: str = ""

    def encode(self, value) -> float:
        if self.choices is not None:
            key = str(value).lower()
            if key not in self.choices:
                allowed = ", ".join(str(c) for c in self.choices)
                raise WantitError(f"rule {self.name}={value!r} is not allowed; choose one of {allowed}")
            return float(self.choices[key])
        from .runs import flag, whole

        if self.boolean:
            return float(flag(value, f"rule {self.name}"))

        try:
            number = int(value) if isinstance(value, str) else whole(value, f"rule {self.name}")
        except (TypeError, ValueError, WantitError):
            raise WantitError(f"rule {self.name}={value!r} must be a whole number") from None
        lo, hi = self.bounds
        if not lo <= number <= hi:
            raise WantitError(f"rule {self.name}={number} is out of range {lo}..{hi}")
        return float(number)

    def allowed(self) -> str:
        if self.allowed_text:
            return self.allowed_text
        if self.choices is not None:
            return " | ".join(str(c) for c in self.choices)
        if self.boolean:
            return "true | false"
        return f"{self.bounds[0]}..{self.bounds[1]}"


@dataclass(frozen=True)
class Param:
    """One policy parameter: a float in ``[low, high]``."""

    name: str
    index: int
    default: float
    low: float
    high: float
    meaning: str
    integer: bool = False  # a whole number: a choice, a count, a card rank or a 0/1 switch


def _resolve(target):
    """``"package.module:function"`` -> the function (imported when first used, so the
    registry never imports the drivers that import it)."""
    import importlib

    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def split_policy_spec(spec: str):
    """``"preset:k=v,k=v"`` -> ``("preset", {"k": "v", ...})`` (the name may be empty:
    the default preset); a setting without ``=`` or given twice is refused."""
    name, _, rest = spec.partition(":")
    overrides = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise WantitError(f"policy setting {item!r} should look like name=value")
        if key.strip() in overrides:
            raise WantitError(f"policy {spec!r} sets {key.strip()} twice")
        overrides[key.strip()] = value.strip()
    return name.strip(), overrides


def spec_text(v, spec, players=None) -> str:
    """A seat's values (``policy_values``) as ``preset:changed=value, ...``, naming only
    the parameters that differ from the preset's (``tuned``: its values at ``players``,
    default the variant's default count). A space after each comma lets a long line
    wrap between settings, not inside one; a policy spec reads the same."""
    if spec["preset"] == "tuned" and players is not None:
        from .presets import resolve

        preset = resolve(v, players, "tuned")
    else:
        preset = v.policy_values(spec["preset"])
    changed = [f"{k}={x:g}" for k, x in spec.items() if k != "preset" and x != preset[k]]
    return spec["preset"] + (":" + ", ".join(changed) if changed else "")


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    clause: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple
    params: tuple
    presets: dict
    default_policy: str
    policy_layout: Any  # the kernel's policy vector Layout
    aliases: tuple = field(default_factory=tuple)
    # check(players, rules dict) raises WantitError for combinations the rules forbid.
    check: Any = None
    game: Any = None  # kernels.engine GAME_* id
    kernel_module: Any = None  # the game's module in kernels/games (its STATE, RESULT and RULES layouts)
    kind: str = "pot"  # "pot": antes and fees into a pot; "scored": points on a board
    unit: str = "deals"  # what a run counts
    game_options: tuple = ()  # analyzer.game_options.GameOption: settings of this game beyond its rules
    notes: tuple = ()  # lines for ``wantit variants``
    driver: str = "analyzer.simulate:simulate"  # simulate(variant, players=..., deals=..., ...)
    replay: str = "analyzer.trace:replay"  # replay(variant, ...) -> narrative text of one deal
    describe_more: str = ""  # a function returning more ``wantit variants`` lines (board, deck)
    make_inputs: str = ""  # a function building the engine inputs, for a game with data beyond rules and policies

    @property
    def state(self):
        """The table state's Layout."""
        return self.kernel_module.STATE

    @property
    def result(self):
        """The result row's Layout."""
        return self.kernel_module.RESULT

    @property
    def rules_layout(self):
        """The rules vector's Layout."""
        return self.kernel_module.RULES

    def simulate(self, **kwargs):
        """Run the game's simulation driver: a result with ``meta``, ``seats``,
        ``to_json()``, ``to_csv()`` and ``format_table()``."""
        return _resolve(self.driver)(self, **kwargs)

    def replay_text(self, **kwargs) -> str:
        """One deal (or game) played exactly as a run plays it, told as text."""
        return _resolve(self.replay)(self, **kwargs)

    def describe(self) -> list:
        """The ``wantit variants`` entry: players, rules options, game settings, policies."""
        lines = [f"{self.name}: {self.title} ({self.clause}: wantit rules {self.name}); "
                 f"{self.min_players}-{self.max_players} players, "
                 f"default {self.default_players}" + ("" if self.kind == "pot" else
                                                      f"; {self.kind}, not a pot game (--deals counts {self.unit})")]
        if self.describe_more:
            lines += _resolve(self.describe_more)()
        lines.append("  rules (--rule KEY=VALUE):")
        for o in self.options:
            lines.append(f"    {o.name} = {o.default}  [{o.allowed()}]  {o.meaning} ({o.clause})")
        lines += [f"    ({note})" for note in self.notes]
        lines.append(f"  policies (--policy SEAT=PRESET[:k=v,...]); presets: {', '.join(self.preset_names)}; "
                     f"default {self.default_preset}")
        for p in self.params:
            lines.append(f"    {p.name} = {p.default:g}  [{p.low:g}..{p.high:g}]  {p.meaning}")
        from .presets import tuned_summary

        lines += tuned_summary(self)
        return lines

    def option(self, name):
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options)
        raise WantitError(f"{self.name} has no rule {name!r}; its rules are: {known}")

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.params)
        raise WantitError(f"{self.name} policies have no parameter {name!r}; they are: {known}")

    def default_rules(self) -> dict:
        return {o.name: o.default for o in self.options}

    def chosen_rules(self, rules=None) -> dict:
        """Every option's value: the defaults with ``rules`` applied (names checked)."""
        chosen = self.default_rules()
        if rules is not None and not isinstance(rules, Mapping):
            raise WantitError(f"rules must be a dict of option = value, not {type(rules).__name__} {rules!r}")
        for name, value in (rules or {}).items():
            self.option(name)
            chosen[name] = value
        return chosen

    def check_table(self, players, rules=None):
        """Raise ``WantitError`` unless ``players`` can play under ``rules``. Every
        rules value is validated (``rules_vector``) before the variant's own check
        combines them, so that check may rely on their types and ranges."""
        if not self.min_players <= players <= self.max_players:
            raise WantitError(f"{self.name} takes {self.min_players} to {self.max_players} players, not {players}")
        if self.check is not None:
            self.rules_vector(rules)
            self.check(players, self.chosen_rules(rules))

    def rules_vector(self, rules=None) -> np.ndarray:
        """Validated kernel rules vector from ``{name: value}`` overrides."""
        chosen = self.chosen_rules(rules)
        vec = np.zeros(self.rules_layout.size, dtype=np.float64)
        for o in self.options:
            if o.writer is not None:
                o.writer(chosen[o.name], vec)
            elif o.name == "low_qualifier":
                q = chosen[o.name]
                q = None if q in (None, "none", "None", 0, "0") else q
                vec[o.index] = low_threshold(q)
            else:
                vec[o.index] = o.encode(chosen[o.name])
        return vec

    @property
    def default_preset(self) -> str:
        """The default field's preset: ``tuned`` where ``wantit tune`` has saved one for
        this variant (``analyzer/data/tuned.json``), else ``default_policy``."""
        from .presets import has_tuned

        return "tuned" if has_tuned(self.name) else self.default_policy

    @property
    def preset_names(self) -> list:
        """The presets, and ``tuned`` where ``wantit tune`` has saved one."""
        from .presets import has_tuned

        return [*self.presets, *(["tuned"] if has_tuned(self.name) else [])]

    def policy_values(self, spec=None) -> dict:
        """Parameter values of a policy spec: a preset name, a dict of overrides
        (on the default preset, or on ``{"preset": name}``), or ``"name:k=v,k=v"``."""
        if spec is None:
            spec = self.default_preset
        if isinstance(spec, str) and not spec.strip():
            raise WantitError(f"an empty policy: name one of {', '.join(self.presets)}")
        if isinstance(spec, str):
            name, overrides = split_policy_spec(spec)
            spec = {"preset": name or self.default_preset, **overrides}
        if not isinstance(spec, Mapping):
            raise WantitError(f"a policy is a preset name, 'name:k=v,...' or a dict of parameter values, not "
                              f"{type(spec).__name__} {spec!r}")
        spec = dict(spec)
        preset = spec.pop("preset", self.default_preset)
        if preset == "tuned":  # the tuned values (at the default player count, unless given)
            from .presets import tuned_values

            values = self.policy_values({**tuned_values(self.name, self.default_players), **spec})
            return {**values, "preset": "tuned"}
        if preset not in self.presets:
            raise WantitError(f"{self.name} has no policy {preset!r}; presets are: {', '.join(self.preset_names)}")
        values = {p.name: p.default for p in self.params}
        values.update(self.presets[preset])
        for key, value in spec.items():
            p = self.param(key)
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise WantitError(f"policy parameter {key}={value!r} must be a number") from None
            if not p.low <= number <= p.high:
                raise WantitError(f"policy parameter {key}={number:g} is out of range {p.low:g}..{p.high:g}")
            if p.integer and not number.is_integer():
                raise WantitError(f"policy parameter {key}={number:g} must be a whole number")
            values[key] = number
        values["preset"] = preset
        return values

    def inputs(self, players, policies=None, rules=None, **game_settings):
        """The engine inputs (``analyzer.engine.Inputs``) for ``players`` seats with
        ``policies`` (see ``analyzer.simulate.seat_policies``) under ``rules``, and the
        game's settings (``game_options``: Selection's board and deck)."""
        from .engine import Inputs
        from .simulate import seat_policies

        if self.make_inputs:
            return _resolve(self.make_inputs)(players=players, policies=policies, rules=rules, **game_settings)
        if game_settings:
            raise WantitError(f"{self.name} takes no game settings ({', '.join(game_settings)})")
        from .runs import whole

        players = whole(players, "players")
        self.check_table(players, rules)
        params = np.stack([self.policy_vector(spec) for spec in seat_policies(self, players, policies)])
        return Inputs(self, players, self.rules_vector(rules), params)

    def policy_vector(self, spec=None) -> np.ndarray:
        values = self.policy_values(spec)
        vec = np.zeros(self.policy_layout.size, dtype=np.float64)
        for p in self.params:
            vec[p.index] = values[p.name]
        return vec


def _showdown_options(split_default, split_choices, extra_natural=False):
    opts = [
        Option("split_mode", C.R_SPLIT_MODE, split_default, "how the pot is divided", "§0.8",
               choices=split_choices),
        Option("low_qualifier", C.R_LOW_QUALIFIER, "none", "low qualifier (8 = eight-or-better)",
               "§0.5", choices=None, bounds=(5, 13)),
        Option("declare_mode", C.R_DECLARE_MODE, "simultaneous", "declarations at once or in turn",
               "§0.8", choices={"simultaneous": C.DECLARE_SIMULTANEOUS, "sequential": C.DECLARE_SEQUENTIAL}),
        Option("both_must_win_outright", C.R_BOTH_OUTRIGHT, False,
               "a BOTH declarer fails on a tie", "§0.8.3", boolean=True),
        Option("all_failed_rule", C.R_ALL_FAILED, "cards_speak",
               "when every declarer failed BOTH: divide by cards, or carry the pot over", "§0.8.8",
               choices={"cards_speak": S.ALL_FAILED_CARDS_SPEAK, "carry_over": S.ALL_FAILED_CARRY_OVER}),
        Option("chip_mode", C.R_CHIP_MODE, "fractional", "shares in real numbers or whole chips", "§0.8.9",
               choices={"fractional": S.CHIPS_FRACTIONAL, "integer": S.CHIPS_INTEGER}),
        Option("odd_chip", C.R_ODD_CHIP, "position", "who gets odd chips in integer mode", "§0.8.9",
               choices={"position": S.ODD_CHIP_POSITION, "suit": S.ODD_CHIP_SUIT}),
        Option("ante", C.R_ANTE, 1, "chips each player antes", "§0.6", bounds=(1, 100)),
    ]
    if extra_natural:
        opts.append(Option("natural_beats_wild_on_tie", C.R_NATURAL_BEATS_WILD, False,
                           "a natural hand beats a wild one of equal value", "§0.4.4, DY-A8", boolean=True))
    return opts


HILO_SPLITS = {"declare": S.SPLIT_DECLARE, "cards_speak": S.SPLIT_CARDS_SPEAK, "high_only": S.SPLIT_HIGH_ONLY}

OFFER_PARAMS = (
    Param("aim", P.AIM, 2, 0, 2, "0 aim high, 1 aim low, 2 adaptive (low when holding enough low cards)", integer=True),
    Param("take_threshold", P.TAKE_THRESHOLD, 0.1, -1e6, 1e6,
          "take an offered card when it raises my hand estimate by at least this (1 = a category)"),
    Param("low_max", P.LOW_MAX, 8, 5, 13, "highest low card (ace 1 .. king 13) worth collecting for low", integer=True),
    Param("deny_weight", P.DENY_WEIGHT, 0.5, 0, 5,
          "weight of what a refused card would do for the next player, who gets it"),
    Param("adaptive_low_count", P.ADAPTIVE_LOW_COUNT, 3, 0, 7,
          "adaptive aim goes low when I hold at least this many different low cards", integer=True),
    Param("draw_weight", P.DRAW_WEIGHT, 1.0, 0, 5, "weight of flush and straight draws in the high estimate"),
    Param("declare_low_top", P.DECLARE_LOW_TOP, 8, 0, 14,
          "declare low with an unpaired low topped by at most this (0 never, 14 any)", integer=True),
    Param("declare_both_category", P.DECLARE_BOTH_CATEGORY, 6, 1, 13,
          "declare both when going low with a high of at least this slot (6 flush, 7 full house, 13 never)", integer=True),
    Param("fear_visible_low", P.FEAR_VISIBLE_LOW, 1, 0, 1,
          "do not go low when an opponent shows four different cards below my top low card", integer=True),
    Param("sequential_grab", P.SEQUENTIAL_GRAB, 1, 0, 1,
          "in sequential declaring, the last declarer takes an uncontested low with any low", integer=True),
    Param("pool_threshold", P.POOL_THRESHOLD, 0.1, -1e6, 1e6,
          "Do Ya: take the best reject on the table when it raises my estimate by at least this"),
)

OFFER_PRESETS = {
    "heuristic": {},
    "always_take": {"take_threshold": -1e6, "pool_threshold": -1e6},
    "never_take": {"take_threshold": 1e6, "pool_threshold": 1e6},
    "high": {"aim": 0, "declare_low_top": 0},
    "low": {"aim": 1, "declare_low_top": 14},
}


def _selection_rejection():
    from kernels.games import selection_rejection

    return Variant(
        name="selection_rejection",
        title="Selection/Rejection (Want it? Want it? Got it!)",
        clause="RULES.md §1",
        min_players=2,
        max_players=selection_rejection.MAX_PLAYERS,
        default_players=5,
        options=tuple(_showdown_options("declare", HILO_SPLITS) + [
            Option("max_rejections", selection_rejection.R_MAX_REJECTIONS, 2,
                   "rejections a card may have before the next player must take it", "SR-A1", bounds=(1, 2)),
            Option("last_player_rule", selection_rejection.R_LAST_PLAYER_RULE, "forced",
                   "the last player needing a card must take it, or may refuse fresh cards", "SR-A2",
                   choices={"forced": selection_rejection.LAST_PLAYER_FORCED,
                            "fresh_card": selection_rejection.LAST_PLAYER_FRESH_CARD}),
            Option("first_upcard_offered", selection_rejection.R_FIRST_UPCARD_OFFERED, True,
                   "the first up-card is offered too (false: dealt normally)", "SR-A9", boolean=True),
        ]),
        params=OFFER_PARAMS,
        presets=OFFER_PRESETS,
        default_policy="heuristic",
        policy_layout=P.OFFER_POLICY,
        aliases=ALIASES["selection_rejection"],
        game=E.GAME_SELECTION_REJECTION,
        kernel_module=selection_rejection,
    )


def _do_ya():
    from kernels.games import do_ya

    return Variant(
        name="do_ya",
        title="Do Ya (hole card wild)",
        clause="RULES.md §3",
        min_players=2,
        max_players=do_ya.MAX_PLAYERS,
        default_players=5,
        options=tuple(_showdown_options("high_only", HILO_SPLITS, extra_natural=True) + [
            Option("max_rejections", do_ya.R_MAX_REJECTIONS, 2, "rejections before a card must be taken",
                   "§3.2", bounds=(1, 2)),
            Option("wild_mode", do_ya.R_WILD_MODE, "hole_card_only",
                   "the hole card is wild, or every card of its rank", "DY-A2",
                   choices={"hole_card_only": do_ya.WILD_HOLE_CARD, "rank": do_ya.WILD_RANK}),
            Option("five_kind_position", do_ya.R_FIVE_KIND, "above_straight_flush",
                   "where five of a kind ranks", "DY-A1",
                   choices={"above_straight_flush": R.FK_ABOVE_STRAIGHT_FLUSH,
                            "below_straight_flush": R.FK_BELOW_STRAIGHT_FLUSH,
                            "above_sf_below_natural_royal": R.FK_ABOVE_SF_BELOW_NATURAL_ROYAL}),
            Option("wild_may_duplicate_card", do_ya.R_WILD_DUPLICATE, False,
                   "the wild may copy a held card (double-ace flush)", "DY-A3", boolean=True),
        ]),
        params=OFFER_PARAMS,
        presets={**OFFER_PRESETS, "heuristic": {"aim": 0, "declare_low_top": 7}},
        default_policy="heuristic",
        policy_layout=P.OFFER_POLICY,
        aliases=ALIASES["do_ya"],
        game=E.GAME_DO_YA,
        kernel_module=do_ya,
    )


PASS_SCHEDULES = {
    "3-2-1-left": ((3, 1), (2, 1), (1, 1)),
    "3-2-1-spread": ((3, 1), (2, 2), (1, 3)),
    "left-right-left": ((3, 1), (2, -1), (1, 1)),
    "one-pass": ((3, 1),),
}


MAX_PASS_OFFSET = 100  # seats; beyond the table an offset wraps (AN-A3), so larger ones add nothing


def parse_pass_schedule(value):
    """A schedule by name (``PASS_SCHEDULES``) or as ``cards:offset,...`` with the
    offset in seats to the left (negative: to the right), e.g. ``3:1,2:-1,1:1``."""
    from kernels.games import anaconda

    if isinstance(value, (list, tuple)):
        phases = [tuple(int(x) for x in p) for p in value]
    elif str(value).lower() in PASS_SCHEDULES:
        phases = list(PASS_SCHEDULES[str(value).lower()])
    else:
        phases = []
        for item in filter(None, (x.strip() for x in str(value).split(","))):
            cards, colon, offset = item.partition(":")
            try:
                phases.append((int(cards), int(offset) if colon else 1))
            except ValueError:
                raise WantitError(
                    f"pass_schedule {value!r}: write phases as cards:offset (e.g. 3:1,2:-1,1:1) "
                    f"or name one of {', '.join(PASS_SCHEDULES)}"
                ) from None
    if not 1 <= len(phases) <= anaconda.MAX_PASSES:
        raise WantitError(f"pass_schedule needs 1 to {anaconda.MAX_PASSES} phases, got {len(phases)}")
    for cards, offset in phases:
        if not 1 <= cards <= 5:
            raise WantitError(f"pass_schedule: a packet holds 1 to 5 cards, not {cards}")
        if offset == 0:
            raise WantitError("pass_schedule: an offset of 0 would pass to oneself")
        if abs(offset) > MAX_PASS_OFFSET:
            raise WantitError(f"pass_schedule: an offset is 1 to {MAX_PASS_OFFSET} seats to the left (negative: "
                              f"to the right), not {offset}")
    return phases


def _write_pass_schedule(value, vec):
    from kernels.games import anaconda

    phases = parse_pass_schedule(value)
    vec[anaconda.R_N_PASSES] = len(phases)
    for i, (cards, offset) in enumerate(phases):
        vec[anaconda.R_PASSES + 2 * i] = cards
        vec[anaconda.R_PASSES + 2 * i + 1] = offset


def _check_anaconda(players, rules):
    hand_size = int(rules["hand_size"])
    if players * hand_size > 52:
        raise WantitError(f"{players} players with {hand_size} cards each need {players * hand_size} cards; "
                          f"the deck has 52 (at most {52 // hand_size} players)")
    for cards, _ in parse_pass_schedule(rules["pass_schedule"]):
        if cards >= hand_size:
            raise WantitError(f"pass_schedule passes {cards} cards from a hand of {hand_size}")


def _anaconda_param(p):
    """Anaconda mixes its adaptive count: a fraction is a mixed threshold."""
    if p.name != "adaptive_low_count":
        return p
    return replace(p, integer=False, meaning=p.meaning + "; a fraction mixes (3.4: 4 in 40% of hands, 3 in the "
                   "rest, fixed by a hash of the hand)")


def _anaconda_params(PP):
    """Anaconda's policy parameters: the offer games' that a pass game reads, and its own."""
    return tuple(_anaconda_param(p) for p in OFFER_PARAMS
                 if p.name not in ("take_threshold", "deny_weight", "pool_threshold")) + (
        Param("spite_weight", PP.SPITE_WEIGHT, 0.3, 0, 5,
              "avoid passing a card the recipient seems to collect (judged from what they, or else my "
              "right neighbour, passed me)"),
        Param("hide_rule", PP.HIDE_RULE, 0, 0, 1, "the face-down fifth card: 0 my strongest card, 1 my weakest; between: "
              "the weakest in that share of the hands (a mixed rule, fixed by a hash of the hand)"),
        Param("random_pass", PP.RANDOM_PASS, 0, 0, 1, "1: pass uniformly random cards (a baseline)", integer=True),
    )


def _anaconda():
    from kernels import pass_policies as PP
    from kernels.games import anaconda

    params = _anaconda_params(PP)
    return Variant(
        name="anaconda",
        title="Anaconda (Pass the Trash)",
        clause="RULES.md §2",
        min_players=3,
        max_players=anaconda.MAX_PLAYERS,
        default_players=5,
        options=tuple(_showdown_options("declare", {**HILO_SPLITS, "high_and_right_neighbour":
                                                    S.SPLIT_HIGH_AND_RIGHT_NEIGHBOUR}, extra_natural=True) + [
            Option("pass_schedule", anaconda.R_N_PASSES, "3-2-1-left",
                   "the passes: a name or cards:offset,... (offset seats to the left, negative right)", "AN-A2",
                   writer=_write_pass_schedule,
                   allowed_text=" | ".join(PASS_SCHEDULES) + " | e.g. 3:1,2:-1,1:1"),
            Option("pass_to_self_rule", anaconda.R_PASS_TO_SELF, "wrap",
                   "an offset reaching back to the passer wraps past them, or skips the phase", "AN-A3",
                   choices={"wrap": anaconda.PASS_WRAP, "skip": anaconda.PASS_SKIP}),
            Option("hand_size", anaconda.R_HAND_SIZE, 7, "cards dealt (7 discard two, 6 discard one)", "AN-A7",
                   bounds=(6, 7)),
            Option("wild", anaconda.R_WILD, "none", "Howdy Doody: 3s wild for high, kings wild for low", "§2.5",
                   choices={"none": anaconda.WILD_NONE, "howdy_doody": anaconda.WILD_HOWDY_DOODY}),
            Option("five_kind_position", anaconda.R_FIVE_KIND, "above_straight_flush",
                   "where five of a kind ranks (Howdy Doody)", "§0.4.2",
                   choices={"above_straight_flush": R.FK_ABOVE_STRAIGHT_FLUSH,
                            "below_straight_flush": R.FK_BELOW_STRAIGHT_FLUSH,
                            "above_sf_below_natural_royal": R.FK_ABOVE_SF_BELOW_NATURAL_ROYAL}),
        ]),
        params=params,
        presets={
            "heuristic": {},
            "high": {"aim": 0, "declare_low_top": 0},
            "low": {"aim": 1, "declare_low_top": 14},
            "random_pass_best_high": {"random_pass": 1, "aim": 0, "declare_low_top": 0},
        },
        default_policy="heuristic",
        policy_layout=PP.PASS_POLICY,
        aliases=ALIASES["anaconda"],
        check=_check_anaconda,
        game=E.GAME_ANACONDA,
        kernel_module=anaconda,
    )


def _tw_actions():
    """Train Wreck's special-pair actions by name (``parse_special_pairs``)."""
    from kernels.games import train_wreck

    return {"none": train_wreck.ACTION_NONE, "extra_card": train_wreck.ACTION_EXTRA_CARD,
            "discard_opp": train_wreck.ACTION_DISCARD, "steal_opp": train_wreck.ACTION_STEAL}


TW_DEFAULT_SPECIAL_PAIRS = "2=extra_card,3=discard_opp,4=discard_opp,5=steal_opp"


def parse_fee_multipliers(value):
    """Three whole non-negative multipliers of ``fee_unit`` for streets 4, 5, 6:
    ``"1,2,4"`` or a sequence."""
    items = str(value).split(",") if isinstance(value, str) else list(value)
    texts = [str(x).strip() for x in items]
    if len(texts) != 3 or not all(x.isdecimal() and int(x) <= 1000 for x in texts):
        raise WantitError(f"fee_multipliers={value!r}: give three whole numbers 0..1000 for streets 4, 5 "
                          f"and 6, e.g. 1,2,4")
    return [int(x) for x in texts]


def _write_fee_multipliers(value, vec):
    from kernels.games import train_wreck

    for i, x in enumerate(parse_fee_multipliers(value)):
        vec[train_wreck.R_FEE_MULTIPLIERS + i] = x


ONE_RANK = {"2", "3", "4", "5", "6", "7", "8", "9", "T", "10", "J", "Q", "K", "A"}


def parse_special_pairs(value):
    """``{rank index 0..12: action code}`` from ``"2=extra_card,3=discard_opp,..."``
    (ranks 2-9, T or 10, J, Q, K, A; actions ``_tw_actions``), a dict, or ``"none"``."""
    from .cards import parse_ranks

    if isinstance(value, dict):
        items = [(str(k), str(v)) for k, v in value.items()]
    elif str(value).strip().lower() in ("none", ""):
        items = []
    else:
        items = []
        for item in filter(None, (x.strip() for x in str(value).split(","))):
            rank, eq, action = item.partition("=")
            if not eq:
                raise WantitError(f"special_pairs item {item!r} should look like rank=action, e.g. 5=steal_opp")
            items.append((rank.strip(), action.strip()))
    table = {}
    for rank, action in items:
        try:
            ranks = parse_ranks(rank) if rank.upper() in ONE_RANK else []
        except WantitError:
            ranks = []
        if len(ranks) != 1:
            raise WantitError(f"special_pairs: {rank!r} is not one rank (2-9, T, J, Q, K, A)")
        actions = _tw_actions()
        if action.lower() not in actions:
            raise WantitError(f"special_pairs: action {action!r} is not one of {', '.join(actions)}")
        if ranks[0] in table:
            raise WantitError(f"special_pairs: rank {rank} is given twice")
        table[ranks[0]] = actions[action.lower()]
    return table


def _write_special_pairs(value, vec):
    from kernels.games import train_wreck

    table = parse_special_pairs(value)
    for r in range(13):
        vec[train_wreck.R_SPECIAL_PAIRS + r] = table.get(r, train_wreck.ACTION_NONE)


TRAIN_WRECK_PARAMS = (
    Param("pay_threshold", P.TW_PAY_THRESHOLD, 0.0, -1e6, 1e6,
          "pay to refuse the offered card when a fresh card's mean gain minus the offered card's gain "
          "(1 = a category) reaches this plus fee_weight x fee"),
    Param("fee_weight", P.TW_FEE_WEIGHT, 0.25, 0, 10, "cost of each chip of fee, in hand-estimate units"),
    Param("deny_weight", P.TW_DENY_WEIGHT, 0.5, 0, 5,
          "weight of how much more a paid-away card would give the next player (who is offered it) "
          "than a fresh card"),
    Param("draw_weight", P.TW_DRAW_WEIGHT, 1.0, 0, 5, "weight of flush and straight draws in the hand estimate"),
    Param("steal_aim", P.TW_STEAL_AIM, 1.0, 0, 1,
          "5s: 0 take the card that most hurts the best hand showing, 1 the card that most improves "
          "my hand, between: a mix (3s/4s discards always hurt the best hand showing)"),
    Param("act_threshold", P.TW_ACT_THRESHOLD, -1e6, -1e6, 1e6,
          "with actions_optional: carry out an action when its estimated value reaches this"),
)


def _train_wreck():
    from kernels.games import train_wreck

    return Variant(
        name="train_wreck",
        title="Train Wreck (stud with buyable table cards and special pairs)",
        clause="RULES.md §4",
        min_players=2,
        max_players=train_wreck.MAX_PLAYERS,
        default_players=5,
        options=tuple([o for o in _showdown_options("high_only", {"high_only": S.SPLIT_HIGH_ONLY})
                       if o.name in ("split_mode", "chip_mode", "odd_chip", "ante")] + [
            Option("fee_unit", train_wreck.R_FEE_UNIT, 4, "fee unit in chips (the maximum bet: big_bet = 4)",
                   "§4.2, TW-A1", bounds=(0, 1000)),
            Option("fee_multipliers", train_wreck.R_FEE_MULTIPLIERS, "1,2,4",
                   "fee_unit multiples to refuse the offered card on streets 4, 5, 6", "§4.2, TW-A1",
                   writer=_write_fee_multipliers, allowed_text="three whole numbers, e.g. 1,2,4"),
            Option("special_pairs", train_wreck.R_SPECIAL_PAIRS, TW_DEFAULT_SPECIAL_PAIRS,
                   "the action of a pair among the table cards, by rank", "§4.2, §4.4.3, TW-A2",
                   writer=_write_special_pairs,
                   allowed_text="none | rank=action,... with actions " + " / ".join(_tw_actions())),
            Option("targets", train_wreck.R_TARGETS, "table_cards",
                   "cards 3s/4s and 5s may take: opponents' table cards, all their face-up cards, "
                   "or those and a random hole card taken blind", "TW-A3",
                   choices={"table_cards": train_wreck.TARGETS_TABLE, "any_face_up": train_wreck.TARGETS_FACE_UP,
                            "any": train_wreck.TARGETS_ANY}),
            Option("include_folded", train_wreck.R_INCLUDE_FOLDED, False,
                   "folded players' cards are targets too (no effect yet: nobody folds in equity mode)", "TW-A3",
                   boolean=True),
            Option("special_timing", train_wreck.R_SPECIAL_TIMING, "end_of_street",
                   "special pairs act after the street's table cards, in dealing order, or at once", "§4.4.2, TW-A4",
                   choices={"end_of_street": train_wreck.TIMING_END_OF_STREET,
                            "immediate": train_wreck.TIMING_IMMEDIATE}),
            Option("retrigger", train_wreck.R_RETRIGGER, False,
                   "a pair broken and completed again acts again (default: each rank once a deal)", "TW-A5",
                   boolean=True),
            Option("actions_optional", train_wreck.R_ACTIONS_OPTIONAL, False,
                   "a player may decline a special action (default: mandatory when a target exists)", "TW-A7",
                   boolean=True),
            Option("pairs_count_extras", train_wreck.R_PAIRS_COUNT_EXTRAS, False,
                   "extra and stolen cards count toward special pairs (hole cards never do)", "TW-A11",
                   boolean=True),
            Option("reshuffle_includes_buried", train_wreck.R_RESHUFFLE_BURIED, False,
                   "buried cards go into a reshuffled stock with the dead cards", "TW-A9",
                   boolean=True),
            Option("community_card", train_wreck.R_COMMUNITY_CARD, True,
                   "one community card when the stock is short for 7th street (false: deal while cards last)",
                   "TW-A9", boolean=True),
        ]),
        params=TRAIN_WRECK_PARAMS,
        presets={
            "heuristic": {},
            "always_accept": {"pay_threshold": 1e6},
            "always_pay": {"pay_threshold": -1e6},
            "never_act": {"pay_threshold": 1e6, "act_threshold": 1e6},
        },
        default_policy="heuristic",
        policy_layout=P.TRAIN_WRECK_POLICY,
        aliases=ALIASES["train_wreck"],
        game=E.GAME_TRAIN_WRECK,
        kernel_module=train_wreck,
    )


def _selection():
    from kernels.games import selection as selection_kernel

    return Variant(
        name="selection",
        title="Selection (RulesPal board-scoring game)",
        clause="RULES.md §5",
        min_players=selection_kernel.MIN_PLAYERS,
        max_players=selection_kernel.MAX_PLAYERS,
        default_players=4,
        options=(
            Option("ace_is_numerical_one", selection_kernel.R_ACE_ONE, False,
                   "an ace may be used in Low / High as a numerical 1 (scoring 11)", "SE-A3", boolean=True),
            Option("low_high_strict_with_zero", selection_kernel.R_STRICT_ZERO, False,
                   "once High is 0, Low can only be 0 (default: the High > Low rule ignores zero entries)",
                   "SE-A4", boolean=True),
            Option("allow_voluntary_scratch", selection_kernel.R_VOLUNTARY_SCRATCH, False,
                   "a player may write 0 even when an open slot could be filled (after the opening)", "SE-A5",
                   boolean=True),
            Option("declare_target_before_draws", selection_kernel.R_DECLARE_TARGET, False,
                   "the target slot is declared before the draws; only it can take points", "SE-A6", boolean=True),
            Option("carry_hand", selection_kernel.R_CARRY_HAND, False,
                   "hands carry over to the next round (default: a fresh shuffle and deal every round)", "SE-A7",
                   boolean=True),
            Option("reshuffle", selection_kernel.R_RESHUFFLE, "shuffle",
                   "an empty stock is rebuilt from the discards shuffled, or in discard order", "SE-A8",
                   choices={"shuffle": selection_kernel.RESHUFFLE_SHUFFLE, "in_order": selection_kernel.RESHUFFLE_IN_ORDER}),
            Option("low_high_min_cards", selection_kernel.R_LOW_HIGH_MIN, 1, "fewest cards in a Low or High hand",
                   "SE-A11", bounds=(1, 5)),
        ),
        params=(
            Param("par_weight", selection_kernel.P_PAR_WEIGHT, 1.0, 0, 3,
                  "aim at (and fill) the slot whose expected (made) score minus this x the slot's par is largest; "
                  "par = the slot's mean score in a round aimed at it alone; 0 = the best expected score"),
            Param("keep_min", selection_kernel.P_KEEP_MIN, 16, 11, 25,
                  "Low / High: keep numerical cards worth at least this many points while draws remain (16 = a 6)", integer=True),
            Param("low_cap", selection_kernel.P_LOW_CAP, 80, 11, 125,
                  "a Low filled while High is open scores at most this (leaving room for High above it)", integer=True),
            Param("never_draw", selection_kernel.P_NEVER_DRAW, 0, 0, 1, "1: stand pat at every draw (a baseline)", integer=True),
            Param("reaim", selection_kernel.P_REAIM, 0, 0, 1,
                  "1: re-estimate every open slot at every draw; 0: at a round's first draw only, later switching "
                  "only to a slot whose made hand beats the aim", integer=True),
        ),
        presets={
            "heuristic": {},
            "best_score": {"par_weight": 0},
            "reaim": {"reaim": 1},
            "stand_pat": {"never_draw": 1},
        },
        default_policy="heuristic",
        policy_layout=selection_kernel.POLICY,
        aliases=ALIASES["selection"],
        game=E.GAME_SELECTION,
        kernel_module=selection_kernel,
        kind="scored",
        unit="games",
        game_options=GAME_OPTIONS["selection"],
        notes=("1 to 6 players; the dealer rotates left every round (SE-A9); a Cosmopolitan never made scores 0 "
               "(SE-A10)",),
        driver="analyzer.selection:simulate_variant",
        replay="analyzer.selection:replay",
        describe_more="analyzer.selection:describe_board",
        make_inputs="analyzer.selection:selection_inputs",
    )


# Each variant is built, and its game's kernels module imported, when it is first
# used: a query about one game does not make the other games' numba dispatchers
# (about 20 ms of its start-up). The names and aliases are known without building.
ALIASES = {
    "selection_rejection": ("sr", "selection-rejection", "want_it", "polish"),
    "do_ya": ("doya", "do-ya"),
    "anaconda": ("pass_the_trash", "3-2-1"),
    "train_wreck": ("tw", "train-wreck", "trainwreck"),
    "selection": ("rulespal", "selection_rulespal", "selection_scoring"),
}
# Names of a variant played under a rule, not other names of it: the alias alone
# would play the plain game. Each is refused with the rule to give.
RULE_NAMES = {"howdy_doody": ("anaconda", "wild=howdy_doody", "threes wild for high, kings wild for low")}
_BUILDERS = {"selection_rejection": _selection_rejection, "do_ya": _do_ya, "anaconda": _anaconda,
             "train_wreck": _train_wreck, "selection": _selection}


class _Registry(Mapping):
    """``{name: Variant}`` in the registry's order, each variant built on first use."""

    def __init__(self, builders):
        self._builders = builders
        self._built = {}

    def __getitem__(self, name):
        if name not in self._built:
            self._built[name] = self._builders[name]()
        return self._built[name]

    def __iter__(self):
        return iter(self._builders)

    def __len__(self):
        return len(self._builders)


VARIANTS = _Registry(_BUILDERS)


def __getattr__(name):
    """``variants.SELECTION`` and the like: the built variant (PEP 562)."""
    if name.isupper() and name.lower() in _BUILDERS:
        return VARIANTS[name.lower()]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _variant_key(name) -> str:
    return str(name).lower().replace("-", "_").replace(" ", "_").replace("/", "_")


def pot_variant(name, what) -> Variant:
    """``get_variant(name)``, refused when it is not a pot game: ``what`` (a phrase
    with a plural verb, "winning hands are") is the pot games' alone; Selection,
    scored on a board, has its own functions in ``analyzer.selection``."""
    v = get_variant(name)
    if v.kind != "pot":
        raise WantitError(f"{what} the pot games' (selection_rejection, do_ya, anaconda, train_wreck); "
                          f"{v.name} is scored on a board: see analyzer.selection")
    return v


def get_variant(name) -> Variant:
    """A variant by name or alias, written with - / spaces or _ alike (``3-2-1``,
    ``train wreck``)."""
    if isinstance(name, Variant):
        return name
    key = _variant_key(name)
    for variant_name, aliases in ALIASES.items():
        if key == variant_name or key in (_variant_key(a) for a in aliases):
            return VARIANTS[variant_name]
    for rule_name, (variant_name, rule, meaning) in RULE_NAMES.items():
        if key == _variant_key(rule_name):
            raise WantitError(f"{name} is {variant_name} with --rule {rule} ({meaning}): give the variant "
                              f"{variant_name} and that rule")
    raise WantitError(f"unknown variant {name!r}; variants are: {', '.join(VARIANTS)}")
