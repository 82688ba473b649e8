"""The rules as wantit plays them: ``wantit rules VARIANT``.

The project's rules specification ships with the package (``analyzer/data/RULES.md``):
each game as an exact procedure, with the decision taken wherever the source
documents are silent (the ambiguity tables, ids like ``SR-A2``) and the option that
covers the alternative. The clause ids that ``wantit variants`` and the traces cite
are its section numbers (``§1.3``, ``§0.8.3`` = item 3 of §0.8) and ambiguity ids.
"""

import re
from functools import lru_cache
from importlib import resources

from .errors import WantitError

SHARED = "shared"  # the name of §0, the definitions every game uses

_HEADING = re.compile(r"^(#{2,3}) (\d+)(?:\.(\d+))?\.? ")
_ID_ROW = re.compile(r"^\|\s*([A-Z]{2}-A\d+[a-z]?|F\d+[a-z]?)\s*\|")


@lru_cache(maxsize=1)
def rules_text() -> str:
    """The whole rules specification (Markdown)."""
    return resources.files("analyzer").joinpath("data/RULES.md").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def sections() -> dict:
    """``{"1": text of §1, "1.3": text of §1.3, ...}`` (each with its heading)."""
    lines = rules_text().splitlines()
    starts = []
    for i, line in enumerate(lines):
        m = _HEADING.match(line)
        if m:
            number = m.group(2) + (f".{m.group(3)}" if m.group(3) else "")
            starts.append((i, len(m.group(1)), number))
    out = {}
    for k, (i, level, number) in enumerate(starts):
        end = next((j for j, lv, _ in starts[k + 1:] if lv <= level), len(lines))
        out[number] = "\n".join(lines[i:end]).rstrip().removesuffix("---").rstrip()
    return out


@lru_cache(maxsize=1)
def ambiguity_ids() -> frozenset:
    """Every id of an ambiguity-table or facts-table row (``SR-A1``, ``F7a``, ...)."""
    return frozenset(m.group(1) for line in rules_text().splitlines() if (m := _ID_ROW.match(line)))


def clause_exists(clause: str) -> bool:
    """Whether one cited clause is in the specification: ``§1.3``, ``§0.8.3`` (item 3
    of §0.8's numbered list), ``§5.3-§5.5`` or ``§4.3-4.4`` (a range), or an id
    such as ``SR-A2``."""
    clause = clause.strip()
    if clause in ambiguity_ids():
        return True
    m = re.fullmatch(r"§(\d+(?:\.\d+)*)(?:-§?(\d+(?:\.\d+)*))?", clause)
    if not m:
        return False
    for number in filter(None, m.groups()):
        parts = number.split(".")
        section = sections().get(".".join(parts[:2]))
        if section is None:
            return False
        if len(parts) == 3 and not re.search(rf"^\s*{parts[2]}\. ", section, re.MULTILINE):
            return False
        if len(parts) > 3:
            return False
    return True


def cited_clauses(text: str) -> list:
    """The clause ids cited in ``text`` (``§1.3``, ``§5.3-§5.5``, ``SR-A2``, ...)."""
    return re.findall(r"§\d+(?:\.\d+)*(?:-§?\d+(?:\.\d+)*)?|\b[A-Z]{2}-A\d+[a-z]?\b", text)


def section_of(variant) -> str:
    """The number of a variant's section: ``RULES.md §1`` -> ``"1"``."""
    m = re.search(r"§(\d+)", variant.clause)
    return m.group(1)


def played_by(variant) -> str:
    """The line a trace opens with after its title: the procedure clause it follows."""
    return f"Played by RULES.md §{section_of(variant)}.3 (wantit rules {variant.name})."


def _tables_as_lists(markdown: str) -> str:
    """Markdown tables as nested lists, which a 100-column terminal shows whole (a
    table squeezed to fit would cut its long cells short)."""
    out, header, in_table = [], None, False
    for line in markdown.splitlines():
        if not line.startswith("|"):
            out.append(line)
            header, in_table = None, False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            in_table = True
            continue
        if not in_table:
            continue
        label = f"* **{cells[0]}**" + (f" {cells[1]}" if len(cells) > 1 else "")
        out.append(label)
        out += [f"  * {name}: {cell}" for name, cell in zip(header[2:], cells[2:]) if cell not in ("", "—")]
    return "\n".join(out)


def _with_section_signs(markdown: str) -> str:
    """``### 1.3 Procedure`` -> ``### §1.3 Procedure``: the headings show the ids cited."""
    return re.sub(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? ", r"\1 §\2 ", markdown, flags=re.MULTILINE)


def how_wantit_plays(variant) -> str:
    """What wantit models of the game, before the specification's text."""
    lines = [f"## {variant.title}", "",
             f"wantit plays {variant.name} as RULES.md §{section_of(variant)} below describes it, for "
             f"{variant.min_players} to {variant.max_players} players."]
    if variant.kind == "pot":
        lines.append("Betting is not modelled yet (equity mode): every player antes, nobody folds, and every "
                     "hand goes to the showdown, so the betting rounds of the procedure are skipped.")
    else:
        lines.append("The board and the deck are configuration: the built-in board is PROVISIONAL (§5.4).")
    lines += ["Each ambiguity below (its id, e.g. " + _first_id(variant) + ") names the choice wantit makes by "
              "default; the alternatives it lists are rules options: `wantit variants " + variant.name + "` "
              "gives each option with its default, allowed values and id, and a trace (`wantit deal "
              + variant.name + " --trace`) names the procedure clause it follows.",
              "The definitions every game shares (table, cards, rankings, wild cards, declaration and pot "
              "division) are §0: `wantit rules shared`.", ""]
    return "\n".join(lines)


def _first_id(variant) -> str:
    prefix = {"1": "SR", "2": "AN", "3": "DY", "4": "TW", "5": "SE"}[section_of(variant)]
    return f"{prefix}-A1"


def rules_markdown(name) -> str:
    """The Markdown shown by ``wantit rules NAME`` (a variant, or ``shared`` for §0)."""
    if str(name).lower() in (SHARED, "0", "§0"):
        return sections()["0"]
    from .variants import get_variant

    v = get_variant(name)
    return how_wantit_plays(v) + "\n" + sections()[section_of(v)]


def render(markdown: str, width: int) -> str:
    """Markdown as plain terminal text at most ``width`` columns wide (rich)."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(width=width, no_color=True, force_terminal=False, color_system=None, highlight=False,
                      soft_wrap=False)
    with console.capture() as capture:
        console.print(Markdown(_tables_as_lists(_with_section_signs(markdown)), hyperlinks=False))
    return "\n".join(line.rstrip() for line in capture.get().splitlines()).strip("\n")


def rules_for(name, width=100, markdown=False) -> str:
    """``wantit rules NAME``: the rules of one variant (or ``shared``), as text."""
    if name is None:
        raise WantitError("name a variant or 'shared'")
    text = rules_markdown(name)
    return text if markdown else render(text, width)
