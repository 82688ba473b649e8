"""Selection's board and deck as configuration (RULES.md §5.4, §5.5).

Only three of the eleven board hands are known (Cosmopolitan, Low, High), and the
deck is probably a special one with five colours. So both are data here:

* ``PROVISIONAL_BOARD``: the board of §5.4. Slots 4-11 are placeholders taken
  from no source, and the board says so wherever it is shown.
* deck presets (§5.5): ``standard52`` (the default, Cosmopolitan falls back to
  "all four suits among the five cards") and ``colours(k, ranks, copies)``
  (default ``colours(5, 1-10/J/Q/K/A, 1)``: Cosmopolitan = five colours).
* ``load_board(path)`` reads a board (and optionally a deck) from a TOML file
  (YAML too when PyYAML is installed); a bad file raises ``BoardError`` naming
  the field, e.g. ``board[4].predicate: unknown kind 'pairr'``.

File format (TOML)::

    name = "my board"              # optional
    provisional = true             # optional: label the board as a guess
    [deck]                         # optional; --deck overrides it
    preset = "colours"             # standard52 | colours
    colours = 5                    # colours only: 1..8
    ranks = "1-10,J,Q,K,A"         # colours only
    copies = 1                     # colours only: 1..4
    [[board]]                      # exactly 11 slots, one filled per round
    id = "cosmopolitan"
    predicate = "cosmopolitan"     # one of KINDS
    opening = true                 # at most one slot: the opening rule (§5.3 a)
    [[board]]
    id = "pair"
    predicate = "pair"
    used = "matched"               # matched (the paired cards) | all (plus kickers to 5)
    label = "A pair"               # optional display name
"""

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kernels.games import selection as G
from kernels.games import selection_hands as H

from .errors import WantitError

ROUNDS = 11

KINDS = {
    "cosmopolitan": H.K_COSMOPOLITAN,
    "low": H.K_LOW,
    "high": H.K_HIGH,
    "pair": H.K_PAIR,
    "two_pair": H.K_TWO_PAIR,
    "three_of_a_kind": H.K_THREE,
    "straight": H.K_STRAIGHT,
    "flush": H.K_FLUSH,
    "full_house": H.K_FULL_HOUSE,
    "four_of_a_kind": H.K_FOUR,
    "straight_flush": H.K_STRAIGHT_FLUSH,
}
KIND_NAMES = {code: name for name, code in KINDS.items()}
KIND_ALIASES = {
    "trips": "three_of_a_kind",
    "quads": "four_of_a_kind",
    "five_same_colour_or_suit": "flush",
    "distinct_colours": "cosmopolitan",
}
KIND_MEANING = {
    "cosmopolitan": "5 cards of 5 different colours (standard52: all four suits among the 5)",
    "low": "1 to 5 numerical cards; must score below High when both are non-zero",
    "high": "1 to 5 numerical cards; must score above Low when both are non-zero",
    "pair": "two cards of one rank",
    "two_pair": "two cards of one rank and two of another",
    "three_of_a_kind": "three cards of one rank",
    "straight": "five consecutive ranks",
    "flush": "five cards of one colour (suit)",
    "full_house": "three of one rank and two of another",
    "four_of_a_kind": "four cards of one rank",
    "straight_flush": "five consecutive ranks of one colour",
}
GROUP_KINDS = ("pair", "two_pair", "three_of_a_kind", "four_of_a_kind")
USED = {"matched": H.USED_MATCHED, "all": H.USED_ALL}

PROVISIONAL_NOTE = ("PROVISIONAL board (RULES.md §5.4): only Cosmopolitan, Low and High are from the seed; "
                    "slots 4-11 are placeholders from no source")



class BoardError(WantitError):
    """A board or deck configuration that cannot be used; the message names the field."""


# ---------------------------------------------------------------- decks

RANK_TEXT = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T",
             11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_PARSE = {**{v: k for k, v in RANK_TEXT.items()}, "10": 10}
SUITS = (("clubs", "c"), ("diamonds", "d"), ("hearts", "h"), ("spades", "s"))
COLOURS = (("red", "r"), ("blue", "b"), ("green", "g"), ("yellow", "y"), ("black", "k"),
           ("white", "w"), ("purple", "p"), ("orange", "o"))
DEFAULT_COLOUR_RANKS = tuple(range(1, 15))


def card_points(rank):
    """§5.2.9: 10 base, plus the pip value (numerical), 10 (J, Q, K) or 15 (A)."""
    if rank <= 10:
        return 10 + rank
    return 20 if rank <= 13 else 25


def card_kind(rank):
    if rank <= 10:
        return H.NUMERICAL
    return H.FACE if rank <= 13 else H.ACE_KIND


@dataclass(frozen=True)
class Deck:
    """A configured deck: ``cards[i] = (rank value, colour)`` for card index ``i``."""

    name: str
    cards: tuple
    colour_names: tuple
    colour_letters: tuple
    ace_low: bool
    note: str = ""

    @property
    def size(self):
        return len(self.cards)

    @property
    def n_colours(self):
        return len(self.colour_names)

    def matrix(self) -> np.ndarray:
        m = np.zeros((self.size, H.CARD_WIDTH), np.int64)
        for i, (rank, colour) in enumerate(self.cards):
            m[i] = (rank, colour, card_kind(rank), card_points(rank))
        return m

    def profile(self) -> np.ndarray:
        p = np.zeros((H.PROFILE_ROWS, H.PROFILE_COLS), np.int64)
        bits = 0
        for rank, colour in self.cards:
            p[H.P_RANK_TOTAL, rank] += 1
            p[H.P_COLOUR_TOTAL, colour] += 1
            p[H.P_RC_TOTAL + colour, rank] += 1
            bits |= 1 << rank
            if self.ace_low and rank == H.ACE:
                bits |= 2
        for rank in range(1, H.ACE + 1):
            p[H.P_RANK_POINTS, rank] = card_points(rank)
        for start in range(1, 11):
            window = [H.ACE if (r == 1 and self.ace_low) else r for r in range(start, start + 5)]
            if all(bits >> r & 1 for r in range(start, start + 5)):
                p[H.P_WINDOW_POINTS, start] = sum(card_points(r) for r in window)
        s = p[H.P_SCALARS]
        s[H.S_N_CARDS] = self.size
        s[H.S_N_COLOURS] = self.n_colours
        s[H.S_ACE_LOW] = int(self.ace_low)
        s[H.S_COSMO_COLOURS] = min(5, self.n_colours)
        s[H.S_MEAN_POINTS_X1000] = round(1000 * sum(card_points(r) for r, _ in self.cards) / self.size)
        s[H.S_RANK_BITS] = bits
        return p

    def card_text(self, index) -> str:
        if not 0 <= index < self.size:
            return "?"
        rank, colour = self.cards[index]
        return RANK_TEXT[rank] + self.colour_letters[colour]

    def format(self, indices) -> str:
        return " ".join(self.card_text(int(i)) for i in indices)

    def parse(self, text) -> list:
        """Card indices from text such as ``"As Td 2c"`` (standard52) or ``"1r Tb Qk"``
        (colours: rank then colour letter). With several copies of a card, each
        mention takes the next copy; too many mentions is an error."""
        out = []
        taken = set()
        for token in re.split(r"[\s,]+", str(text).strip()):
            if not token:
                continue
            rank = RANK_PARSE.get(token[:-1].upper())
            letter = token[-1].lower()
            if rank is None or letter not in self.colour_letters or len(token) < 2:
                raise WantitError(f"unknown card {token!r} for deck {self.name} (cards look like "
                                  f"{self.card_text(0)}, {self.card_text(self.size - 1)})")
            colour = self.colour_letters.index(letter)
            for i, card in enumerate(self.cards):
                if card == (rank, colour) and i not in taken:
                    taken.add(i)
                    out.append(i)
                    break
            else:
                if (rank, colour) in self.cards:
                    raise WantitError(f"card {token!r} is given more times than deck {self.name} holds it")
                raise WantitError(f"card {token!r} is not in deck {self.name}")
        return out

    def describe(self) -> str:
        cosmo = ("Cosmopolitan = 5 different colours" if self.n_colours >= 5 else
                 f"Cosmopolitan = all {self.n_colours} colours among the 5 cards (provisional fallback)")
        return f"{self.name}: {self.size} cards, {self.n_colours} colours; {cosmo}"


def standard52() -> Deck:
    """Four suits x 2..A; card index ``4 * (rank - 2) + suit`` (the project's card codes)."""
    cards = tuple((rank, suit) for rank in range(2, 15) for suit in range(4))
    return Deck("standard52", cards, tuple(n for n, _ in SUITS), tuple(c for _, c in SUITS), True,
                "the default: Cosmopolitan falls back to all four suits among the five cards (§5.4)")


def _parse_ranks(value, where):
    if isinstance(value, (list, tuple)):
        tokens = list(value)
    else:
        tokens = [x.strip() for x in re.split(r"[,/;\s]+", str(value)) if x.strip()]
    ranks = []
    for tok in tokens:
        if isinstance(tok, int) and not isinstance(tok, bool):
            if not 1 <= tok <= H.ACE:
                raise BoardError(f"{where}: rank {tok} must be 1..14 (J 11, Q 12, K 13, A 14)")
            ranks.append(tok)
            continue
        tok = str(tok).strip()
        m = re.fullmatch(r"(\d+)-(\d+)", tok)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if not 1 <= a <= b <= 10:
                raise BoardError(f"{where}: range {tok!r} must lie within 1-10")
            ranks.extend(range(a, b + 1))
            continue
        r = RANK_PARSE.get(tok.upper())
        if r is None:
            raise BoardError(f"{where}: unknown rank {tok!r} (ranks are 1-10, J, Q, K, A)")
        ranks.append(r)
    if not ranks:
        raise BoardError(f"{where}: no ranks given")
    if len(set(ranks)) != len(ranks):
        raise BoardError(f"{where}: a rank is given twice")
    return tuple(sorted(ranks))


def format_ranks(ranks) -> str:
    """``1-10/J/Q/K/A`` style: runs of three or more numerals as a range."""
    parts = []
    nums = [r for r in ranks if r <= 10]
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{nums[i]}-{nums[j]}")
        else:
            parts.extend(str(n) for n in nums[i:j + 1])
        i = j + 1
    parts.extend(RANK_TEXT[r] for r in ranks if r > 10)
    return "/".join(parts)


def colours_deck(k=5, ranks=DEFAULT_COLOUR_RANKS, copies=1, colour_names=None, ace_low=None,
                 where="deck") -> Deck:
    """``k`` colours x ``ranks`` x ``copies`` (§5.5). An ace is low in straights only
    when the deck has no "1" card (unless ``ace_low`` says otherwise)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= H.MAX_COLOURS:
        raise BoardError(f"{where}.colours: {k!r} must be a whole number 1..{H.MAX_COLOURS}")
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= 4:
        raise BoardError(f"{where}.copies: {copies!r} must be a whole number 1..4")
    ranks = _parse_ranks(ranks, f"{where}.ranks")
    names = list(COLOURS[:k]) if colour_names is None else None
    if colour_names is not None:
        if not isinstance(colour_names, (list, tuple)) or len(colour_names) != k:
            raise BoardError(f"{where}.colour_names: give {k} names, one per colour")
        letters = [str(x).strip().lower()[:1] for x in colour_names]
        if len(set(letters)) != k or not all(letters) or any(x in "0123456789tjqka" for x in letters):
            raise BoardError(f"{where}.colour_names: first letters must differ and not be a rank "
                             f"letter (T, J, Q, K, A) or digit")
        names = list(zip([str(x) for x in colour_names], letters))
    if ace_low is None:
        ace_low = 1 not in ranks
    if ace_low and 1 in ranks:
        raise BoardError(f"{where}.ace_low_in_straights: not possible in a deck with a 1 card")
    cards = tuple((r, c) for _ in range(copies) for r in ranks for c in range(k))
    if len(cards) > H.MAX_CARDS:
        raise BoardError(f"{where}: {len(cards)} cards; at most {H.MAX_CARDS}")
    name = f"colours({k}, {format_ranks(ranks)}, {copies})"
    return Deck(name, cards, tuple(n for n, _ in names), tuple(c for _, c in names), bool(ace_low),
                "provisional guess at the RulesPal deck (§5.5): only '5 colours' is from a source")


def parse_deck(spec=None, where="deck") -> Deck:
    """A deck from ``None`` / ``"standard52"``, ``"colours"``, ``"colours(5)"``,
    ``"colours(5, 1-10/J/Q/K/A, 2)"``, a TOML-style dict, or a ``Deck``."""
    if isinstance(spec, Deck):
        return spec
    if spec is None:
        return standard52()
    if isinstance(spec, dict):
        known = {"preset", "colours", "colors", "ranks", "copies", "colour_names", "ace_low_in_straights"}
        for key in spec:
            if key not in known:
                raise BoardError(f"{where}: unknown field {key!r} (fields: {', '.join(sorted(known))})")
        preset = str(spec.get("preset", "standard52")).lower()
        if preset == "standard52":
            extra = sorted(set(spec) - {"preset"})
            if extra:
                raise BoardError(f"{where}.{extra[0]}: standard52 takes no {extra[0]}")
            return standard52()
        if preset not in ("colours", "colors"):
            raise BoardError(f"{where}.preset: unknown deck {preset!r} (presets: standard52, colours)")
        ace_low = spec.get("ace_low_in_straights")
        if ace_low is not None and not isinstance(ace_low, bool):
            raise BoardError(f"{where}.ace_low_in_straights: must be true or false")
        return colours_deck(spec.get("colours", spec.get("colors", 5)), spec.get("ranks", DEFAULT_COLOUR_RANKS),
                            spec.get("copies", 1), spec.get("colour_names"), ace_low, where)
    text = str(spec).strip().lower().replace(" ", "")
    if text in ("standard52", "standard", "52"):
        return standard52()
    m = re.fullmatch(r"colou?rs(?:\((.*)\))?", text)
    if not m:
        raise WantitError(f"unknown deck {spec!r}; decks: standard52, colours, colours(K[, RANKS[, COPIES]]) "
                          f"e.g. colours(5, 1-10/J/Q/K/A, 1)")
    args = m.group(1).split(",") if m.group(1) else []  # "colours" and "colours()": the defaults
    if "" in args:
        raise WantitError(f"deck {spec!r}: an argument is empty; give colours(K[, RANKS[, COPIES]]) without gaps, "
                          f"e.g. colours(5, 1-10/J/Q/K/A, 1)")
    if len(args) > 3:
        raise WantitError(f"deck {spec!r}: colours takes at most 3 arguments (K, RANKS, COPIES)")
    try:
        k = int(args[0]) if args else 5
        copies = int(args[2]) if len(args) > 2 else 1
    except ValueError:
        raise WantitError(f"deck {spec!r}: K and COPIES must be whole numbers") from None
    ranks = args[1] if len(args) > 1 else DEFAULT_COLOUR_RANKS
    return colours_deck(k, ranks, copies, where=f"deck {spec!r}")


# ---------------------------------------------------------------- boards


@dataclass(frozen=True)
class Slot:
    id: str
    kind: str
    used: str = "matched"
    opening: bool = False
    label: str = ""
    placeholder: bool = False

    @property
    def title(self):
        return self.label or self.id


@dataclass(frozen=True)
class Board:
    name: str
    slots: tuple
    provisional: bool
    source: str = "built in"
    deck: dict | str | None = field(default=None, compare=False)

    def matrix(self) -> np.ndarray:
        """The kernel's board matrix: one ``kernels.games.selection.BOARD_ROW`` per slot."""
        m = np.zeros((len(self.slots), G.BOARD_WIDTH), np.int64)
        for i, s in enumerate(self.slots):
            m[i, G.BOARD_KIND] = KINDS[s.kind]
            m[i, G.BOARD_USED] = USED[s.used]
            m[i, G.BOARD_OPENING] = int(s.opening)
        return m

    @property
    def opening(self):
        return next((i for i, s in enumerate(self.slots) if s.opening), None)

    @property
    def note(self) -> str:
        """Why the board is provisional ("" when it is not)."""
        if not self.provisional:
            return ""
        if self is PROVISIONAL_BOARD or self.source == "built in":
            return PROVISIONAL_NOTE
        return "PROVISIONAL board: marked provisional in its file"

    def label(self) -> str:
        text = f"{self.name} ({self.source})"
        if self.provisional:
            text += " [PROVISIONAL]"
        return text

    def describe(self) -> list:
        lines = []
        for i, s in enumerate(self.slots, 1):
            extra = []
            if s.opening:
                extra.append("opening")
            if s.kind in GROUP_KINDS and s.used == "all":
                extra.append("kickers score")
            if s.placeholder:
                extra.append("PLACEHOLDER")
            tail = f" ({', '.join(extra)})" if extra else ""
            lines.append(f"{i:>2}. {s.title}: {s.kind}{tail}")
        return lines


def _placeholder(slot_id, kind, label):
    return Slot(slot_id, kind, "matched", False, f"{label} (placeholder)", True)


PROVISIONAL_BOARD = Board(
    name="RULES.md §5.4 provisional board",
    slots=(
        Slot("cosmopolitan", "cosmopolitan", opening=True, label="Cosmopolitan"),
        Slot("low", "low", label="Low"),
        Slot("high", "high", label="High"),
        _placeholder("p_pair", "pair", "Pair"),
        _placeholder("p_two_pair", "two_pair", "Two pair"),
        _placeholder("p_three_kind", "three_of_a_kind", "Three of a kind"),
        _placeholder("p_straight", "straight", "Straight"),
        _placeholder("p_flush", "flush", "Flush"),
        _placeholder("p_full_house", "full_house", "Full house"),
        _placeholder("p_four_kind", "four_of_a_kind", "Four of a kind"),
        _placeholder("p_straight_flush", "straight_flush", "Straight flush"),
    ),
    provisional=True,
)

SLOT_FIELDS = {"id", "predicate", "kind", "used", "opening", "label", "placeholder"}
TOP_FIELDS = {"name", "provisional", "board", "deck"}


def _slot_from(entry, i, where):
    here = f"{where}board[{i}]"
    if not isinstance(entry, dict):
        raise BoardError(f"{here}: each slot must be a table with id and predicate")
    for key in entry:
        if key not in SLOT_FIELDS:
            raise BoardError(f"{here}: unknown field {key!r} (fields: {', '.join(sorted(SLOT_FIELDS))})")
    slot_id = entry.get("id")
    if not isinstance(slot_id, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_\-]*", slot_id):
        raise BoardError(f"{here}.id: {slot_id!r} must be a name (letters, digits, _ or -)")
    if "predicate" in entry and "kind" in entry:
        raise BoardError(f"{here}: give predicate or kind, not both")
    key = "predicate" if "predicate" in entry or "kind" not in entry else "kind"
    kind = entry.get(key)
    if kind is None:
        raise BoardError(f"{here}.predicate: missing (kinds: {', '.join(KINDS)})")
    if not isinstance(kind, str):
        raise BoardError(f"{here}.{key}: {kind!r} must be a kind name")
    kind = KIND_ALIASES.get(kind.strip().lower(), kind.strip().lower())
    if kind not in KINDS:
        raise BoardError(f"{here}.{key}: unknown kind {entry.get(key)!r} (kinds: {', '.join(KINDS)})")
    used = entry.get("used", "matched")
    if not isinstance(used, str) or used not in USED:
        raise BoardError(f"{here}.used: {used!r} must be matched or all")
    opening = entry.get("opening", False)
    if not isinstance(opening, bool):
        raise BoardError(f"{here}.opening: {opening!r} must be true or false")
    placeholder = entry.get("placeholder", False)
    if not isinstance(placeholder, bool):
        raise BoardError(f"{here}.placeholder: {placeholder!r} must be true or false")
    label = entry.get("label", "")
    if not isinstance(label, str):
        raise BoardError(f"{here}.label: must be text")
    return Slot(slot_id, kind, used, opening, label, placeholder)


def board_from_dict(data, source="a dict", where="") -> Board:
    """A validated board from parsed TOML/YAML data (see the module docstring)."""
    if not isinstance(data, dict):
        raise BoardError(f"{where}the file must hold a table with a 'board' list")
    for key in data:
        if key not in TOP_FIELDS:
            raise BoardError(f"{where}{key}: unknown field (fields: {', '.join(sorted(TOP_FIELDS))})")
    entries = data.get("board")
    if not isinstance(entries, list):
        raise BoardError(f"{where}board: missing; give {ROUNDS} [[board]] slots")
    if len(entries) != ROUNDS:
        raise BoardError(f"{where}board: {len(entries)} slots given; the board has {ROUNDS} "
                         f"(one filled per round, §5.2.8)")
    slots = tuple(_slot_from(e, i, where) for i, e in enumerate(entries))
    seen = {}
    for i, s in enumerate(slots):
        if s.id in seen:
            raise BoardError(f"{where}board[{i}].id: {s.id!r} is already board[{seen[s.id]}]")
        seen[s.id] = i
    openings = [i for i, s in enumerate(slots) if s.opening]
    if len(openings) > 1:
        raise BoardError(f"{where}board[{openings[1]}].opening: only one slot can be the opening "
                         f"(board[{openings[0]}] is)")
    for kind in ("low", "high"):
        idx = [i for i, s in enumerate(slots) if s.kind == kind]
        if len(idx) > 1:
            raise BoardError(f"{where}board[{idx[1]}].predicate: only one {kind} slot is allowed "
                             f"(board[{idx[0]}] is one)")
    provisional = data.get("provisional", any(s.placeholder for s in slots))
    if not isinstance(provisional, bool):
        raise BoardError(f"{where}provisional: must be true or false")
    name = data.get("name", "user board")
    if not isinstance(name, str):
        raise BoardError(f"{where}name: must be text")
    deck = data.get("deck")
    if deck is not None:
        if not isinstance(deck, (dict, str)):
            raise BoardError(f"{where}deck: must be a table or a preset name")
        parse_deck(deck, where=f"{where}deck")  # validate now, naming the field
    return Board(name, slots, provisional, source, deck)


def load_board(path) -> Board:
    """Read and validate a board file (``.toml``; ``.yaml``/``.yml`` with PyYAML)."""
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise BoardError(f"board file {str(path)!r} is not a file path (give a .toml board file)")
    p = Path(path)
    where = f"{p}: "
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise BoardError(f"board file {p} not found") from None
    except OSError as e:
        raise BoardError(f"board file {p}: {e.strerror}") from None
    if p.suffix.lower() in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            raise BoardError(f"{where}reading YAML needs PyYAML (pip install pyyaml); or write the board "
                             f"in TOML") from None
        try:
            data = yaml.safe_load(raw)
        except yaml.YAMLError as e:
            raise BoardError(f"{where}not valid YAML: {' '.join(str(e).split())}") from None
        except RecursionError:
            raise BoardError(f"{where}nested too deeply to be a board") from None
    else:
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise BoardError(f"{where}not valid TOML: {e}") from None
        except RecursionError:
            raise BoardError(f"{where}nested too deeply to be a board") from None
    return board_from_dict(data, source=str(p), where=where)


def resolve(board=None, deck=None):
    """``(Board, Deck)`` from a ``Board``, a path or ``None`` (the provisional board),
    and a deck spec; an explicit ``deck`` wins over the board file's own."""
    if board is None:
        b = PROVISIONAL_BOARD
    elif isinstance(board, Board):
        b = board
    else:
        b = load_board(board)
    d = parse_deck(deck if deck is not None else b.deck)
    return b, d


def board_to_toml(board: Board, deck: Deck | None = None) -> str:
    """A board as a TOML file that ``load_board`` reads back (a start for your own)."""
    lines = [f'name = "{board.name}"', f"provisional = {'true' if board.provisional else 'false'}", ""]
    if deck is not None and deck.name != "standard52":
        ranks = sorted({r for r, _ in deck.cards})
        copies = deck.size // (len(ranks) * deck.n_colours)
        lines += ["[deck]", 'preset = "colours"', f"colours = {deck.n_colours}",
                  'ranks = "' + ",".join(RANK_TEXT[r] if r != 10 else "10" for r in ranks) + '"',
                  f"copies = {copies}", ""]
    for s in board.slots:
        lines += ["[[board]]", f'id = "{s.id}"', f'predicate = "{s.kind}"']
        if s.used != "matched":
            lines.append(f'used = "{s.used}"')
        if s.opening:
            lines.append("opening = true")
        if s.label:
            lines.append(f'label = "{s.label}"')
        if s.placeholder:
            lines.append("placeholder = true")
        lines.append("")
    return "\n".join(lines)
