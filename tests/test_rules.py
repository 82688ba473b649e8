"""The rules shipped with the package: every clause the registry, the listings and
the traces cite is in them, and ``wantit rules`` shows each game's whole section."""

import re
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.rules import ambiguity_ids, cited_clauses, clause_exists, rules_for, sections
from analyzer.variants import VARIANTS

GOLDEN = Path(__file__).parent / "golden"


def registry_citations():
    for v in VARIANTS.values():
        yield v.name, v.clause
        for o in v.options:
            yield f"{v.name}.{o.name}", o.clause
        for note in v.notes:
            yield f"{v.name} note", note


@pytest.mark.parametrize("where,text", list(registry_citations()))
def test_every_clause_the_registry_cites_is_in_the_rules(where, text):
    clauses = cited_clauses(text)
    assert clauses or "(" not in text, f"{where}: no clause id in {text!r}"
    for clause in clauses:
        assert clause_exists(clause), f"{where} cites {clause}, which RULES.md does not have"


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.txt")), ids=lambda p: p.stem)
def test_every_clause_a_trace_cites_is_in_the_rules(path):
    clauses = cited_clauses(path.read_text())
    assert any(re.fullmatch(r"§\d\.3", c) for c in clauses)  # the procedure it follows
    assert all(clause_exists(c) for c in clauses), clauses


def test_clause_lookup_refuses_what_is_not_there():
    assert clause_exists("§1.3") and clause_exists("§0.8.3") and clause_exists("SR-A2") and clause_exists("F7b")
    assert clause_exists("§5.3-§5.5") and clause_exists("§4.3-4.4")
    for missing in ("§9", "§1.9", "§0.8.30", "§0.1.9", "SR-A99", "XX-A1", "§1.3.4.5"):
        assert not clause_exists(missing), missing


SECTION_OF = {"selection_rejection": "1", "anaconda": "2", "do_ya": "3", "train_wreck": "4", "selection": "5"}
PREFIX = {"1": "SR", "2": "AN", "3": "DY", "4": "TW", "5": "SE"}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_rules_show_the_whole_section_of_a_game_within_100_columns(name, capsys):
    number = SECTION_OF[name]
    main(["rules", name])
    out = capsys.readouterr().out
    assert all(len(line) <= 100 for line in out.splitlines())
    headings = [re.match(r"### (\d\.\d) (.*)", line) for line in sections()[number].splitlines()]
    for h in filter(None, headings):
        assert f"§{h.group(1)} {h.group(2).replace('**', '')}" in out
    ids = sorted(i for i in ambiguity_ids() if i.startswith(PREFIX[number] + "-"))
    assert len(ids) >= 6
    for i in ids:
        assert re.search(rf"^ +• {i} ", out, re.MULTILINE), f"{i} missing from wantit rules {name}"
    assert out.count("…") == sections()[number].count("…")  # nothing cut short to fit
    if VARIANTS[name].kind == "pot":
        assert "Betting is not modelled yet" in " ".join(out.split())


def test_an_ambiguity_shows_its_default_and_its_alternative_in_full():
    text = " ".join(rules_for("sr").split())
    assert "• SR-A2 Only one player still needs a card: can they refuse it? • default: No. A rejected card" in text
    assert ('• alternatives (config): last_player_rule="fresh_card": a card rejected by the lone player '
            'becomes dead (face up)') in text


def test_shared_definitions_and_the_markdown_source():
    shared = rules_for("shared")
    assert "§0.8 Declaration and pot division" in shared
    assert rules_for("anaconda", markdown=True).count("### 2.") == 6

