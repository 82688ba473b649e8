"""The ``wantit`` command line. Data on stdout, errors as one line on stderr."""

import json
import sys
from functools import partial

import click

from .cards import card_text, format_cards, parse_cards
from .errors import WantitError
from .evaluate import (
    FIVE_KIND_POSITIONS,
    best_high_five,
    best_low_five,
    describe_high,
    describe_low,
    format_used,
    hand_category,
    low_threshold,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="wantit")
def cli():
    """wantit: odds and strategy for offer / reject / pass poker games."""


def _used_json(used):
    return [
        {"card": card_text(c), **({"wild_as": card_text(s)} if s is not None else {})}
        for c, s in used
    ]


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--wild", default=None, help="Cards of the hand that are wild, e.g. '3h'.")
@click.option("--wild-ranks", default=None, help="Ranks whose every card is wild, e.g. '3' or '3,K'.")
@click.option("--qualifier", type=int, default=None, help="Low qualifier, e.g. 8 for eight-or-better.")
@click.option("--five-kind", type=click.Choice(list(FIVE_KIND_POSITIONS)), default="above_straight_flush",
              show_default=True, help="Where five of a kind ranks.")
@click.option("--wild-may-duplicate", is_flag=True, help="Let a wild copy a held card (double-ace flush).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def hand(cards, wild, wild_ranks, qualifier, five_kind, wild_may_duplicate, fmt):
    """Best high and best ace-to-five low of CARDS (5 to 10 cards), e.g. "As Ks Qs Js Ts 9s 2c"."""
    from .progress import compile_notice

    codes = parse_cards(" ".join(cards))
    if not 5 <= len(codes) <= 10:
        raise WantitError(f"a hand has 5 to 10 cards; got {len(codes)}")
    low_threshold(qualifier)  # a bad qualifier is refused before any evaluation
    if wild is not None:
        # A wild card counts only for its holder: one the hand lacks would do nothing,
        # silently (most likely a mistyped card).
        missing = [c for c in parse_cards(wild, allow_empty=True) if c not in codes]
        if missing:
            raise WantitError(f"--wild {format_cards(missing)}: not in the hand ({format_cards(codes)}); "
                              "a wild card counts only when held")
    with compile_notice("the hand evaluators"):
        high, high_used = best_high_five(codes, wild=wild, wild_ranks=wild_ranks, five_kind=five_kind,
                                         wild_may_duplicate=wild_may_duplicate)
        low, low_used = best_low_five(codes, qualifier=qualifier, wild=wild, wild_ranks=wild_ranks)
    if fmt == "json":
        click.echo(json.dumps({
            "cards": format_cards(codes),
            "high": {"strength": high, "category": hand_category(high).label,
                     "description": describe_high(high), "cards": _used_json(high_used)},
            "low": {"strength": low, "qualifier": qualifier, "description": describe_low(low),
                    "cards": _used_json(low_used)},
        }, indent=2))
        return
    rows = [("hand", format_cards(codes), ""),
            ("high", describe_high(high), format_used(high_used)),
            ("low" + (f" ({qualifier} or better)" if qualifier else ""), describe_low(low), format_used(low_used))]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    for a, b, c in rows:
        click.echo(f"{a:<{w0}}  {b:<{w1}}  {c}".rstrip())


def _key_values(items, what):
    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise WantitError(f"{what} {item!r} should look like name=value")
        if key.strip() in out:
            raise WantitError(f"{what} {key.strip()} is given twice")
        out[key.strip()] = value.strip()
    return out


def _policy_specs(items):
    """``--policy all=heuristic --policy 2=low:take_threshold=0.3`` -> {seat: spec}."""
    specs = {}
    for item in items:
        seat, eq, spec = item.partition("=")
        if not eq:
            raise WantitError(f"--policy {item!r} should look like SEAT=PRESET[:param=value,...] (SEAT a number or all)")
        seat = seat.strip()
        if seat != "all" and not seat.isdecimal():
            raise WantitError(f"--policy {item!r}: the seat must be a number or 'all'")
        seat = seat if seat == "all" else int(seat)
        if seat in specs:
            raise WantitError(f"--policy: seat {seat} is given twice")
        specs[seat] = spec.strip()
    return specs or None


def _game_option_flags(command):
    """Add one option per game setting any game takes (Selection's ``--board`` and
    ``--deck``): the flags come from ``analyzer.game_options``, not the registry,
    whose kernels a command that plays no game should not load."""
    from .game_options import GAME_OPTIONS

    seen = {}
    for name, options in GAME_OPTIONS.items():
        for g in options:
            seen.setdefault(g.flag, (g, []))[1].append(name)
    for flag, (g, names) in reversed(list(seen.items())):
        command = click.option(flag, f"game_{g.name}", default=None,
                               type=click.Path(dir_okay=False) if g.path else str,
                               help=f"{', '.join(names)} only: {g.help}.")(command)
    return command


def _game_settings(v, given):
    """The game settings given on the command line, checked against the variant's."""
    allowed = {g.name for g in v.game_options}
    settings = {}
    for key, value in given.items():
        name = key[len("game_"):]
        if value is None:
            continue
        if name not in allowed:
            from .variants import VARIANTS

            flag = next(g.flag for w in VARIANTS.values() for g in w.game_options if g.name == name)
            takers = [w.name for w in VARIANTS.values() if any(g.name == name for g in w.game_options)]
            raise WantitError(f"{flag} applies to {', '.join(takers)} only, not {v.name}")
        settings[name] = value
    return settings


@cli.command()
@click.argument("variant")
@click.option("--players", "-n", type=int, default=None, help="Number of players (default: the variant's).")
@click.option("--deals", "-d", type=int, default=100_000, show_default=True,
              help="Deals to play (games, for a scored game such as Selection).")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--policy", "policy_items", multiple=True, metavar="SEAT=PRESET[:k=v,...]",
              help="Policy for a seat (or 'all'); repeatable. See 'wantit variants'.")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="A rules option; repeatable.")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all).")
@click.option("--chunk", type=int, default=100_000, show_default=True, help="Deals per kernel call.")
@click.option("--fixed-dealer", is_flag=True, help="Keep the dealer on the last seat instead of rotating.")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="Save running totals here after every chunk; rerunning resumes from them.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@click.option("--target-se", type=float, default=None,
              help="Stop once every seat's standard error is below this (ev_se in antes; p_win_se for a "
                   "scored game); --deals is then the most played.")
@_game_option_flags
def simulate(variant, players, deals, seed, policy_items, rule_items, threads, chunk, fixed_dealer,
             checkpoint, fmt, target_se, **game_settings):
    """Simulate DEALS deals of VARIANT and report each seat's results (for Selection, DEALS games).

    \b
    Columns of a pot game, one row per seat (nets in antes, not chips):
      seat        0..players-1; the dealer rotates (deal i: seat i % players)
      policy      the preset, then one column per policy parameter value
      ev          mean net per deal in antes (payout minus ante and fees)
      ev_se       standard error of ev; 95% interval: ev +/- 1.96 ev_se
      p_high      fraction of deals the seat won (a share of) the high half
      p_low       the same for the low half
      p_scoop     fraction of deals the seat took the whole pot
      declare_*   fraction of deals declared high / low / both (declare split)
    Then the final high hands per seat, and the hands that won, each half's shares of
    the deals summing to 1: the category of the winning high hand (or high half not
    won), the top card of the winning low (or no qualifying low, or low half not won,
    a low held: a qualifying low held, but no low declarer won the half).

    \b
    Columns of Selection (scored), one row per seat:
      p_win, p_win_se    share of games won (ties shared) and its standard error
      p_tie              fraction of games won jointly
      mean_total, total_se, total_sd, median_total   final points
      p_opening_round_1, mean_opening_round, p_never_opened   the opening slot
    Then each slot's fill rate and mean score, and the distribution of totals.
    """
    from .variants import get_variant

    from .progress import ProgressBar

    v = get_variant(variant)
    settings = _game_settings(v, game_settings)
    with ProgressBar(deals, v.unit) as progress:
        result = v.simulate(players=players, policies=_policy_specs(policy_items),
                            rules=_key_values(rule_items, "--rule"), deals=deals, seed=seed, chunk=chunk,
                            threads=threads, rotate_dealer=not fixed_dealer, checkpoint=checkpoint,
                            progress=progress, target_se=target_se, **settings)
    meta = result.meta
    done = meta.get("deals", meta.get("games"))
    if meta["interrupted"]:
        click.echo(f"wantit: interrupted after {done:,} {v.unit}; these are their results", err=True)
    if fmt == "json":
        click.echo(json.dumps(result.to_json(), indent=2))
    elif fmt == "csv":
        if meta["interrupted"]:
            click.echo(f"# partial: interrupted after {done} of {meta.get('requested_deals', meta.get('requested_games'))}"
                       f" {v.unit}")
        click.echo(result.to_csv(), nl=False)
    else:
        click.echo(result.format_table())
    if meta["interrupted"]:
        sys.exit(130)  # the results above are partial


@cli.command()
@click.argument("name", required=False)
def variants(name):
    """List the variants (or the variant NAME), their rules options, game settings and
    policy parameters."""
    from .text import wrap_text
    from .variants import VARIANTS, get_variant

    chosen = [get_variant(name)] if name else VARIANTS.values()
    click.echo(wrap_text("\n\n".join("\n".join(v.describe()) for v in chosen)))


@cli.command()
@click.argument("name", required=False)
@click.option("--markdown", is_flag=True, help="Print the Markdown source instead of formatted text.")
def rules(name, markdown):
    """How the game NAME is played, clause by clause (ids as 'variants' and traces cite
    them); 'shared' for the definitions every game uses. No NAME: what there is."""
    from .rules import rules_for
    from .variants import VARIANTS

    if name is None:
        click.echo("wantit rules NAME, NAME one of:")
        for v in VARIANTS.values():
            click.echo(f"  {v.name:<20} {v.title} ({v.clause})")
        click.echo(f"  {'shared':<20} the definitions every game uses (RULES.md §0)")
        return
    click.echo(rules_for(name, markdown=markdown))


@cli.command()
@click.argument("variant")
@click.option("--players", "-n", type=int, default=None)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--deal", "deal_index", type=int, default=0, show_default=True, help="Which deal (game) of the run.")
@click.option("--policy", "policy_items", multiple=True, metavar="SEAT=PRESET[:k=v,...]")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE")
@click.option("--stacked", default=None, help="Deal these cards in this order instead of shuffling.")
@click.option("--fixed-dealer", is_flag=True, help="The dealer is the last seat (as with simulate --fixed-dealer).")
@click.option("--trace", is_flag=True, help="Narrate every offer, refusal, take, pass, draw, declaration and payout.")
@_game_option_flags
def deal(variant, players, seed, deal_index, policy_items, rule_items, stacked, fixed_dealer, trace,
         **game_settings):
    """Play one deal of VARIANT (the same deal 'simulate' plays with this seed) and show it."""
    from .variants import get_variant

    v = get_variant(variant)
    text = v.replay_text(players=players, seed=seed, deal=deal_index, rules=_key_values(rule_items, "--rule"),
                         policies=_policy_specs(policy_items), stacked=stacked, rotate_dealer=not fixed_dealer,
                         **_game_settings(v, game_settings))
    if not trace:
        text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    from .text import wrap_text

    click.echo(wrap_text(text))


def _query_options(command):
    """The flags of a query at a described table (``analyzer.table``): the table,
    then the policies, rules, seed, threads, --condition and the output format."""
    for decorator in reversed([
        click.option("--players", "-n", type=int, default=None, help="Number of players (default: the variant's)."),
        click.option("--dealer", type=int, default=None, help="The dealer's seat (default: the last seat)."),
        click.option("--me", type=int, default=0, show_default=True, help="My seat."),
        click.option("--hole", "hole_items", multiple=True, metavar="SEAT=CARDS",
                     help="A seat's face-down cards, '??' for an unknown one (missing: all unknown; Selection: "
                          "a seat's 7 cards); repeatable."),
        click.option("--up", "up_items", multiple=True, metavar="SEAT=CARDS",
                     help="A seat's face-up cards in the order taken (Anaconda: rolled); repeatable."),
        click.option("--gone", default="", metavar="CARDS",
                     help="Cards out of play and seen: refused, dead (Anaconda: my discards)."),
        click.option("--offer", default=None, metavar="CARD", help="The card on offer now."),
        click.option("--to", "offer_to", type=int, default=None,
                     help="The seat it is offered to (without --offer: the seat the next card goes to; "
                          "Selection: the seat to act, default --me)."),
        click.option("--refusals", type=int, default=0, show_default=True,
                     help="Refusals of the card on offer (Do Ya: the fresh cards the seat to act refused this turn)."),
        click.option("--pool", default="", metavar="CARDS",
                     help="Do Ya: the rejects lying face up on the table this round, in the order refused."),
        click.option("--declined", is_flag=True,
                     help="Do Ya: the seat to act has passed over the pool; its fresh card is not turned up yet."),
        click.option("--history", default="", metavar="'SEAT takes|refuses CARD; ...'",
                     help="The choices seen, in order from the deal's first offer (used by --condition). Do Ya "
                          "also 'SEAT takes pool CARD', 'SEAT declines pool'; Train Wreck: 'SEAT takes CARD', 'SEAT "
                          "pays CARD [for CARD]', 'SEAT gets CARD', 'SEAT discards|steals CARD [from SEAT] [blind]', "
                          "'SEAT declines'."),
        click.option("--street", type=int, default=None,
                     help="Train Wreck: the street under way, 3-7, or 8 after the 7th-street card (default: from "
                          "the table and hole cards)."),
        click.option("--extra", "extra_items", multiple=True, metavar="SEAT=CARDS",
                     help="Train Wreck: a seat's extra cards (pairs of 2s); repeatable."),
        click.option("--stolen", "stolen_items", multiple=True, metavar="SEAT=CARDS",
                     help="Train Wreck: the cards a seat stole (pairs of 5s); repeatable."),
        click.option("--discarded", default="", metavar="CARDS",
                     help="Train Wreck: the cards discarded by pairs of 3s and 4s (--gone: the buried ones)."),
        click.option("--fee", "fee_items", multiple=True, metavar="SEAT=CHIPS",
                     help="Train Wreck: the chips a seat has paid in fees this deal; repeatable."),
        click.option("--acted", "acted_items", multiple=True, metavar="SEAT=RANKS",
                     help="Train Wreck: ranks whose pair has acted for a seat and was broken since; repeatable."),
        click.option("--to-act", "to_act_items", multiple=True, metavar="SEAT=RANKS",
                     help="Train Wreck: ranks whose pair is still to act for a seat this street (the first in "
                          "dealing order acts now); repeatable."),
        click.option("--hole-taken", "hole_taken_items", multiple=True, metavar="SEAT=CARDS",
                     help="Train Wreck (targets=any): a seat's hole cards taken blind by a discard or steal; "
                          "repeatable."),
        click.option("--community", default="", metavar="CARD",
                     help="Train Wreck: the 7th-street community card (turned when the stock is short)."),
        click.option("--phase", default=None, metavar="STAGE",
                     help="Anaconda: 'pass N' (before the N-th pass), 'keep', 'stacked' or 'roll' (default: inferred)."),
        click.option("--passed", "passed_items", multiple=True, metavar="CARDS",
                     help="Anaconda: the packet I passed, one per pass so far, in order (one more: the packet chosen "
                          "for the pass under way); repeatable."),
        click.option("--received", "received_items", multiple=True, metavar="CARDS",
                     help="Anaconda: the packet passed to me, one per pass so far, in order; repeatable."),
        click.option("--declared", "declared_items", multiple=True, metavar="SEAT=high|low|both",
                     help="A declaration already made (split_mode = declare, every card dealt); repeatable."),
        click.option("--round", "round_", type=int, default=None,
                     help="Selection: the round under way, 1-11 (default 1)."),
        click.option("--draw", default=None, metavar="N|score|target",
                     help="Selection: the draw under way (1-3), 'score' after the last draw, 'target' for the "
                          "declarations (declare_target_before_draws); default 1."),
        click.option("--scores", "score_items", multiple=True, metavar="SEAT=SLOT:POINTS,...",
                     help="Selection: a seat's board, the slots filled and their points (0: scratched); "
                          "repeatable."),
        click.option("--discards", default="", metavar="CARDS",
                     help="Selection: my discards lying in the discard pile."),
        click.option("--stock", type=int, default=None,
                     help="Selection: cards left in the stock (default: every unseen card not in a hand)."),
        click.option("--target", "target_items", multiple=True, metavar="SEAT=SLOT",
                     help="Selection (declare_target_before_draws): the slot a seat declared this round; "
                          "repeatable."),
        click.option("--measure", type=click.Choice(["share", "total"]), default=None,
                     help="Selection: what to estimate, my share of the win (default with opponents) or my "
                          "final total in points (default in solitaire)."),
        click.option("--state", "state_file", type=click.Path(dir_okay=False), default=None,
                     help="A table described in a TOML or JSON file (examples/); flags given too override it."),
        click.option("--policy", "policy_items", multiple=True, metavar="SEAT=PRESET[:k=v,...]",
                     help="Policy for a seat (or 'all'), for every decision still to come; repeatable "
                          "(default: the variant's default field)."),
        click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="A rules option; repeatable."),
        click.option("--seed", "-s", type=int, default=0, show_default=True),
        click.option("--threads", type=int, default=None, help="Numba threads (default: all)."),
        click.option("--condition", is_flag=True,
                     help="Keep only deals whose unknown hole cards agree with the choices seen under the seats' "
                          "policies (--history, --declared; Anaconda: the packets I received)."),
        click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True),
    ]):
        command = decorator(command)
    return command


def _table(variant, state_file, players, dealer, me, hole_items, up_items, gone, offer, offer_to, refusals, pool,
           declined, history, street, extra_items, stolen_items, discarded, fee_items, acted_items, phase,
           passed_items, received_items, declared_items, round_=None, draw=None, score_items=(), discards="",
           stock=None, target_items=(), to_act_items=(), hole_taken_items=(), community="", **game_settings):
    """The table the flags describe; with ``--state``, the file's table with the
    flags given on top (a seat's cards given by flag replace the file's).
    ``game_settings``: Selection's --board and --deck."""
    from dataclasses import fields, replace

    from .table import Table, load_table, table_from_flags
    from .variants import get_variant

    settings = _game_settings(get_variant(variant), game_settings)
    flags = table_from_flags(variant, players, dealer, me, hole_items, up_items, gone, offer, offer_to, refusals,
                             history=history, pool=pool, declined=declined, street=street, extra=extra_items,
                             stolen=stolen_items, discarded=discarded, fees=fee_items, acted=acted_items, phase=phase,
                             passed=passed_items, received=received_items, declared=declared_items, round=round_,
                             draw=draw, scores=score_items, discards=discards, stock=stock, targets=target_items,
                             board=settings.get("board"), deck=settings.get("deck"), to_act=to_act_items,
                             hole_taken=hole_taken_items, community=community)
    if state_file is None:
        return flags
    table = load_table(state_file, variant)
    given = {}
    for f in fields(Table):
        value = getattr(flags, f.name)
        if f.name == "variant" or value == getattr(Table(variant), f.name):
            continue
        given[f.name] = {**getattr(table, f.name), **value} if isinstance(value, dict) else value
    return replace(table, **given)


@cli.command()
@click.argument("variant")
@_query_options
@click.option("--precision", type=float, default=None,
              help="Stop when the 95% interval on my share of the pot is this narrow on either side (default "
                   "0.005; Selection: 0.005 of the win, or 1 point with --measure total).")
@click.option("--max-deals", type=int, default=1_000_000, show_default=True,
              help="The most deals (Selection: games) to play.")
@click.option("--all", "all_seats", is_flag=True, help="Show every seat, not only mine.")
@click.option("--no-exact", "no_exact", is_flag=True,
              help="Sample even where the unknown cards are few enough to enumerate with no choice left.")
@_game_option_flags
def equity(variant, state_file, policy_items, rule_items, precision, max_deals, seed, threads, all_seats, no_exact,
           condition, fmt, measure, **table_flags):
    """My chances from a described table of VARIANT: each seat's expected share of
    the pot and net, and how often it wins high, low and the whole pot, from deals
    played on with the unknown cards dealt at random and every seat on its policy.

    \b
    e.g. wantit equity sr -n 4 --hole 0="As Ks" --up 0="Ah" --up 1="7c" --up 2="Td" --to 3
         wantit equity anaconda --hole 0="As Ks Qs 9s 4s 8d 8h" --passed "2c 3d 7h"
         wantit equity selection -n 1 --hole 0="As Kh Qd 2c 3c 4c 5c"
         wantit equity selection --state examples/selection.toml --all
    \b
    Columns (table; JSON "seats" has share, share_se, ev, ev_se, p_high, p_low, p_scoop):
      share      expected fraction of the pot, with its 95% interval
      ev         expected net in antes, with its 95% interval
      p_high, p_low, p_scoop   how often the seat wins (a share of) high, low, the whole pot
    Selection (JSON "seats": share, share_se, ev, ev_se, p_win, p_win_se, p_tie):
      share      expected fraction of the win (ties shared; 1 in solitaire)
      total      expected final total in points (JSON: ev, ev_se)
      p_win, p_tie   how often the seat has the top total (alone or tied), and shares it
    """
    from .equity import equity as run_equity
    from .progress import ProgressBar

    table = _table(variant, state_file, **table_flags)
    with ProgressBar(max_deals, "deals") as progress:
        result = run_equity(table, policies=_policy_specs(policy_items), rules=_key_values(rule_items, "--rule"),
                            precision=precision, max_deals=max_deals, seed=seed, threads=threads, progress=progress,
                            condition=condition, exact=not no_exact, measure=measure)
    if fmt == "json":
        click.echo(json.dumps(result.to_json(), indent=2))
    else:
        click.echo(result.format_table(all_seats=all_seats))
    if result.meta["interrupted"]:
        sys.exit(130)


@cli.command()
@click.argument("variant")
@_query_options
@click.option("--precision", type=float, default=None,
              help="Stop when the best action's edge is known to this many antes (95% half-width; default 0.01; "
                   "Selection: 0.01 of the win, or 1 point with --measure total), or earlier once the best "
                   "action is clear (its edge above twice its half-width); the output says which.")
@click.option("--max-deals", type=int, default=200_000, show_default=True,
              help="The most deals (Selection: games) played after each action.")
@click.option("--race/--no-race", default=True, show_default=True,
              help="With more than two actions, stop playing an action once it is clearly worse than the best "
                   "(its EV then stands on the deals it was played on); --no-race plays every action on every deal.")
@_game_option_flags
def decide(variant, state_file, policy_items, rule_items, precision, max_deals, race, seed, threads, condition, fmt,
           measure, **table_flags):
    """Should I take it? Every legal action of my decision at a described table of
    VARIANT, each played on over the same deals (the same unknown cards), every
    later decision by the policies: each action's EV in antes with its 95%
    interval, the best action and its edge over the runner-up.

    \b
    e.g. wantit decide sr --state examples/selection_rejection.toml
         wantit decide selection --state examples/selection.toml
    Selection: the keep at a draw (every set of 2 to 7 cards kept), the slot and cards
    at scoring (or the scratch), the declared target (SE-A6); the EV is my final total
    in points in solitaire, my share of the win otherwise (--measure picks).
    """
    from .decide import decide as run_decide
    from .progress import ProgressBar

    table = _table(variant, state_file, **table_flags)
    with ProgressBar(max_deals, "deals") as progress:
        result = run_decide(table, policies=_policy_specs(policy_items), rules=_key_values(rule_items, "--rule"),
                            precision=precision, max_deals=max_deals, seed=seed, threads=threads, progress=progress,
                            condition=condition, measure=measure, race=race)
    click.echo(json.dumps(result.to_json(), indent=2) if fmt == "json" else result.format_table())
    if result.meta["interrupted"]:
        sys.exit(130)


def _sweep_options(command, all_seats=True):
    """The flags a sweep and a best response share: the table, the field, the
    deals, and where and how the work runs (``all_seats``: --seat may be 'all')."""
    seat = (click.option("--seat", default="0", show_default=True, metavar="SEAT|all",
                         help="The seat whose parameters change (the others play the field), or 'all' alike.")
            if all_seats else
            click.option("--seat", default="0", show_default=True, metavar="SEAT",
                         help="The seat whose parameters change (the others play the field)."))
    for decorator in reversed([
        click.option("--players", "-n", type=int, default=None, help="Number of players (default: the variant's)."),
        seat,
        click.option("--policy", "policy_items", multiple=True, metavar="SEAT=PRESET[:k=v,...]",
                     help="The field: a seat's policy (or 'all'); repeatable. The swept seat starts from its own."),
        click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="A rules option; repeatable."),
        click.option("--seed", "-s", type=int, default=0, show_default=True),
        click.option("--threads", type=int, default=None, help="Numba threads in-process (default: all)."),
        click.option("--workers", type=int, default=None, help="Run on a local Dask cluster of N processes."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Run on the Dask cluster at ADDRESS (tcp://host:8786)."),
        click.option("--results", "results_root", default="results", show_default=True, type=click.Path(),
                     help="Folder the run goes under (RESULTS/VARIANT/RUN-ID/)."),
        click.option("--run-id", default=None, help="The run's folder name (default: the kind and the time)."),
        click.option("--no-charts", is_flag=True, help="Write the tables and run.json only."),
        click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
                     show_default=True),
        _game_option_flags,
    ]):
        command = decorator(command)
    return command


def _seat_arg(seat):
    seat = str(seat).strip()
    if seat == "all":
        return seat
    if not seat.isdecimal():
        raise WantitError(f"--seat {seat!r} must be a seat number or 'all'")
    return int(seat)


def _command_line():
    return " ".join(["wantit", *sys.argv[1:]])


@cli.command()
@click.argument("variant", required=False)
@click.option("--param", "param_items", multiple=True, metavar="NAME=LOW:HIGH:STEP|a,b,c",
              help="A policy parameter and its values (LOW, LOW+STEP, ... up to HIGH, HIGH included when "
                   "the steps reach it); repeatable: the grid is every combination.")
@click.option("--deals", "-d", type=int, default=20_000, show_default=True,
              help="Deals played at every point (games, for Selection).")
@click.option("--chunk", type=int, default=None,
              help="Deals a chunk (the unit that is saved, resumed and sent to a worker; default 20,000, "
                   "Selection 1,000).")
@click.option("--reference", default=None, metavar="NAME=VALUE,...|INDEX",
              help="The point the others are compared with (default: the field's own values when they are a "
                   "point, else point 0).")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted run: the one at --run-id, or the latest made with these settings.")
@click.option("--from", "from_run", default=None, type=click.Path(dir_okay=False),
              help="Play again the sweep a run.json describes (a new run folder, the same table).")
@_sweep_options
def sweep(variant, param_items, deals, chunk, reference, resume, from_run, players, seat, policy_items, rule_items,
          seed, threads, workers, scheduler, results_root, run_id, no_charts, fmt, **game_settings):
    """Sweep policy parameters of one seat (or every seat alike) of VARIANT against a
    field, every point on the same deals, and write the table and charts.

    \b
    e.g. wantit sweep sr --param take_threshold=0:1:0.1 -n 5
         wantit sweep do_ya --param take_threshold=0:0.6:0.2 --param pool_threshold=0,0.2,0.4 --seat 2
         wantit sweep anaconda --param spite_weight=0:1:0.5 --seat all --workers 2
         wantit sweep sr --param take_threshold=0:1:0.1 --resume      # after Ctrl-C
    \b
    Table: one row per point for the swept seat (seat 0 with --seat all):
      ev (antes a deal; Selection: p_win, its share of the games won, or in solitaire
                 total, the final total in points) with its 95% interval
      diff       ev minus the reference point's (*), measured deal by deal on the same
                 deals, with its 95% interval (much narrower than either ev's)
    Files under RESULTS/VARIANT/RUN-ID/: table.parquet and table.csv (long format: point,
    parameters, seat, role, metric, value, se, diff, diff_se, deals, reference), run.json
    (everything needed to play it again: --from), the charts, and sums.json (the exact sums,
    saved after every chunk: an interrupted run resumes from them).
    """
    from .progress import ProgressBar
    from .sweep import chunk_count, rerun, sweep as run_sweep

    how = {"threads": threads, "workers": workers, "scheduler": scheduler, "charts": not no_charts}
    if from_run is not None:
        if variant is not None or param_items:
            raise WantitError("--from plays the run.json's own sweep: give no VARIANT or --param with it")
        with ProgressBar(1, "deals") as progress:
            result = rerun(from_run, results=results_root, run_id=run_id, progress=progress, **how)
    else:
        if variant is None:
            raise WantitError("give a VARIANT (or --from RUN.JSON)")
        from .variants import get_variant

        v = get_variant(variant)
        args = dict(players=players, seat=_seat_arg(seat), field=_policy_specs(policy_items),
                    rules=_key_values(rule_items, "--rule"), deals=deals, seed=seed, chunk=chunk,
                    reference=int(reference) if reference is not None and reference.strip().isdecimal() else reference,
                    game_settings=_game_settings(v, game_settings))
        with ProgressBar(1, v.unit) as progress:  # the sweep gives the total with its first chunk
            result = run_sweep(variant, list(param_items), results=results_root, run_id=run_id, resume=resume,
                               progress=progress, command=_command_line(), **args, **how)
    meta = result.meta
    if fmt == "json":
        click.echo(json.dumps({"settings": result.settings, "meta": meta, "folder": str(result.folder),
                               "summary": result.summary.to_dict(orient="records")}, indent=2))
    elif fmt == "csv":
        click.echo(result.table.to_csv(index=False), nl=False)
    else:
        click.echo(result.format_table())
    if meta["interrupted"]:
        click.echo(f"wantit: interrupted after {meta['chunks_done']} of {chunk_count(result.settings)} chunks; "
                   f"their sums are kept in {result.folder}: rerun with --resume to finish", err=True)
        sys.exit(130)


@cli.command("best-response")
@click.argument("variant")
@click.option("--param", "param_items", multiple=True, metavar="NAME=LOW:HIGH|LOW:HIGH:STEP|a,b,c",
              help="A policy parameter to search: a range (drawn at random) or values; repeatable (default: "
                   "every parameter that shapes play, as wantit tune).")
@click.option("--deals", "-d", type=int, default=2_000, show_default=True,
              help="Deals each candidate plays in the first round (each later round doubles them).")
@click.option("--candidates", type=int, default=32, show_default=True,
              help="Candidates drawn (every combination, when the values given have no more).")
@click.option("--validate", type=int, default=50_000, show_default=True,
              help="Fresh deals the winner and the seat's own parameters are measured on.")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted race: the one at --run-id, or the latest made with these settings.")
@partial(_sweep_options, all_seats=False)
def best_response(variant, param_items, deals, candidates, validate, resume, players, seat, policy_items, rule_items,
                  seed, threads, workers, scheduler, results_root, run_id, no_charts, fmt, **game_settings):
    """Find the parameters that maximise one seat's net (Selection: its share of the
    wins, or its final total in solitaire) against a field: candidates race on the
    same deals, the better half going on to twice the deals each round, until one is
    left, and the winner is measured afresh against the seat's own parameters, on
    deals no round used.

    \b
    e.g. wantit best-response anaconda --param aim=0,1,2 --param spite_weight=0:2 -n 5
         wantit best-response sr --param take_threshold=0:1 --param deny_weight=0:1 --candidates 64
    \b
    Files under RESULTS/VARIANT/RUN-ID/: candidates.parquet and candidates.csv (each
    candidate's parameters, the last round it raced, its deals, ev, ev_se, and diff,
    diff_se from the seat's own parameters on the same deals), race.png (not with
    --no-charts), run.json, and race.json, the race saved after every round: after
    Ctrl-C, --resume goes on from it.
    """
    from .best_response import best_response as run
    from .best_response import dumps
    from .progress import ProgressBar
    from .variants import get_variant

    v = get_variant(variant)
    seat = _seat_arg(seat)
    if seat == "all":
        raise WantitError("a best response is one seat's: give --seat N (wantit tune answers for every seat)")
    with ProgressBar(1, "rounds") as progress:
        result = run(variant, list(param_items), players=players, seat=seat, field=_policy_specs(policy_items),
                     rules=_key_values(rule_items, "--rule"), seed=seed, deals=deals, candidates=candidates,
                     validate=validate, game_settings=_game_settings(v, game_settings), threads=threads,
                     workers=workers, scheduler=scheduler, results=results_root, run_id=run_id, resume=resume,
                     progress=progress, command=_command_line(), charts=not no_charts)
    if fmt == "json":
        click.echo(dumps(result.to_json()))
    elif fmt == "csv":
        click.echo(result.candidates.to_csv(index=False), nl=False)
    else:
        click.echo(result.format_table())


@cli.command()
@click.argument("variant")
@click.option("--param", "param_items", multiple=True, metavar="NAME=LOW:HIGH|LOW:HIGH:STEP|a,b,c",
              help="A parameter to tune; repeatable (default: every parameter that shapes play).")
@click.option("--players", "-n", type=int, default=None, help="Number of players (default: the variant's).")
@click.option("--start", default=None, metavar="PRESET[:k=v,...]", help="The field tuning starts from.")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE", help="A rules option; repeatable.")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--deals", "-d", type=int, default=2_000, show_default=True,
              help="First-round deals of each best response's race.")
@click.option("--candidates", type=int, default=32, show_default=True, help="Candidates each best response races.")
@click.option("--validate", type=int, default=50_000, show_default=True,
              help="Fresh deals each answer's gain is measured on.")
@click.option("--tolerance", type=float, default=0.01, show_default=True,
              help="A gain counts when its 95% interval lies above this (antes a deal; Selection: share of wins, "
                   "points of the final total in solitaire).")
@click.option("--iterations", type=int, default=12, show_default=True,
              help="At most this many answers (unconverged: the least exploitable field visited is kept).")
@click.option("--polish", type=int, default=8, show_default=True,
              help="Unconverged, measure this many fields near the least exploitable one found.")
@click.option("--save", is_flag=True, help="Save the result as the variant's tuned preset for this player count.")
@click.option("--resume", is_flag=True,
              help="Continue an interrupted tuning: the one at --run-id, or the latest made with these settings.")
@click.option("--threads", type=int, default=None, help="Numba threads in-process (default: all).")
@click.option("--workers", type=int, default=None, help="Run on a local Dask cluster of N processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Run on the Dask cluster at ADDRESS.")
@click.option("--results", "results_root", default="results", show_default=True, type=click.Path())
@click.option("--run-id", default=None, help="The run's folder name (default: the kind and the time).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@_game_option_flags
def tune(variant, param_items, players, start, rule_items, seed, deals, candidates, validate, tolerance, iterations,
         polish, save, resume, threads, workers, scheduler, results_root, run_id, fmt, **game_settings):
    """Iterated best response: every seat alike answers a field of the current
    parameters until no answer gains beyond the noise; prints what a seat could
    still gain by deviating (exploitability) and, with --save, makes the result
    the variant's tuned preset (--policy all=tuned) for this player count.

    \b
    e.g. wantit tune do_ya -n 5
         wantit tune anaconda -n 7 --param aim=0,1,2 --param spite_weight=0:3 --save
    \b
    The iterations so far are saved after each (tune.json in the run folder): after
    Ctrl-C the same command with --resume goes on from the last one finished.
    """
    from .best_response import dumps, tune as run
    from .progress import ProgressBar
    from .variants import get_variant

    v = get_variant(variant)
    with ProgressBar(iterations + polish, "iterations") as progress:
        result = run(variant, list(param_items), players=players, start=start, rules=_key_values(rule_items, "--rule"),
                     seed=seed, deals=deals, candidates=candidates, validate=validate, tolerance=tolerance,
                     iterations=iterations, polish=polish, game_settings=_game_settings(v, game_settings), threads=threads,
                     workers=workers, scheduler=scheduler, results=results_root, run_id=run_id, save=save,
                     resume=resume, progress=progress, command=_command_line())
    click.echo(dumps(result.to_json()) if fmt == "json" else result.format_table())


@cli.command()
@click.option("--results", "results_root", default="results", show_default=True, type=click.Path(),
              help="Folder the tour writes under (RESULTS/VARIANT/tour/).")
@click.option("--variant", "variant_items", multiple=True, help="Only this variant; repeatable (default: all five).")
@click.option("--scale", type=float, default=1.0, show_default=True, help="Multiply every run's deals by this.")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all).")
def tour(results_root, variant_items, scale, threads):
    """The main job on built-in settings, about ten seconds once the kernels are
    compiled (the first run compiles them, a few minutes): for every variant, a sweep
    of one seat's deciding parameter against the default field (table, chart,
    run.json) and, for the pot games, how often each hand wins high by the number
    of players (3, 5, 7); each written under RESULTS/VARIANT/tour/ and summed up here.
    """
    from .progress import ProgressBar
    from .text import wrap_line
    from .tour import tour as run

    click.echo("\n".join(wrap_line("wantit tour: a sweep per variant against the default field, and the winning "
                                   "hands by number of players")), err=True)
    with ProgressBar(1, "deals") as progress:
        run(results_root, variants=list(variant_items) or None, scale=scale, threads=threads, progress=progress,
            say=click.echo)
    for line in wrap_line(f"every table is Parquet and CSV, every run.json plays its sweep again (wantit sweep "
                          f"--from); the charts are {results_root}/*/tour/*.png"):
        click.echo(line)


@cli.command()
@click.option("--results", "results_root", default="results", show_default=True, type=click.Path(),
              help="Folder the report writes under (RESULTS/report/).")
@click.option("--variant", "variant_items", multiple=True, help="Only this variant; repeatable (default: all five).")
@click.option("--scale", type=float, default=1.0, show_default=True,
              help="Multiply every run's deals by this (the committed report is scale 1).")
@click.option("--seed", type=int, default=None, help="Random seed (default: the report's own, 2026).")
@click.option("--resume", is_flag=True, help="Keep the parts an interrupted report (same scale and seed) finished.")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all).")
def report(results_root, variant_items, scale, seed, resume, threads):
    """Regenerate the headline results under RESULTS/report/: per variant the
    winning hands by number of players, the value of position, the variant's own
    questions, a sweep of its deciding parameter against the tuned field, and a
    one-page strategy card (strategy.md) whose every claim carries its number and
    interval; and the tuned presets with their exploitability (tuned.csv). Under a
    minute at scale 1 on two cores; every part is saved as it finishes."""
    from .progress import ProgressBar
    from .report import SEED, check_report
    from .report import report as run
    from .text import wrap_line

    seed = SEED if seed is None else seed
    check_report(results_root, list(variant_items) or None, scale, seed, threads, resume)
    click.echo("\n".join(wrap_line(f"wantit report: the headline tables, charts and strategy cards under "
                                   f"{results_root}/report/")), err=True)
    try:
        with ProgressBar(1, "deals") as progress:
            r = run(results_root, variants=list(variant_items) or None, scale=scale, seed=seed, threads=threads,
                    resume=resume, progress=progress, say=lambda line: click.echo(line, err=True))
    except KeyboardInterrupt:
        click.echo(f"wantit: interrupted; the finished parts are kept in {results_root}/report/: rerun with "
                   "--resume to finish", err=True)
        sys.exit(130)
    if r.resumed:
        click.echo(f"kept {len(r.resumed)} finished parts of the interrupted report", err=True)
    for name, card in r.cards.items():
        click.echo(f"{r.folder / name / 'strategy.md'}:")
        for line in card.splitlines():
            if line.startswith("- "):
                click.echo("\n".join(wrap_line(f"  {line}", more="  ")))
    click.echo(f"index of every table and chart: {r.folder / 'README.md'}")


@cli.command()
def warmup():
    """Compile every kernel once so later commands start fast (numba's cache)."""
    import numpy as np

    from .evaluate import evaluate_high, evaluate_low

    rng = np.random.default_rng(0)
    for k in (5, 7, 9):
        hands = np.argsort(rng.random((64, 52)), axis=1)[:, :k].astype(np.uint8)
        evaluate_high(hands)
        evaluate_low(hands, qualifier=8)
        evaluate_high(hands, wild_ranks="3")
        evaluate_low(hands, wild_ranks="K")
    from .variants import VARIANTS

    for v in VARIANTS.values():
        v.simulate(players=v.min_players if v.kind == "scored" else None, deals=10, seed=0)
        v.replay_text(players=v.min_players if v.kind == "scored" else None, seed=0)
    click.echo("kernels compiled and cached", err=True)


def main(argv=None):
    """Console entry point: bad input ends with one clear line, never a traceback.
    Run as the process's command line (``argv`` None), it ends the process itself
    once the command is done (``_leave``)."""
    if argv is not None:
        return _main(list(argv))
    try:
        _main(sys.argv[1:])
        code = 0
    except SystemExit as e:
        code = e.code
    _leave(code)


def _leave(code):
    """End the process now, as ``sys.exit(code)`` would but without the interpreter's
    teardown: freeing numba's compiled code and every module's objects took 0.2-0.35 s
    of a 0.8 s query here, for nothing. Output is flushed and the exit handlers run
    first (``atexit``: anything a library registered to close or clean up), so only
    the freeing of memory is skipped."""
    import atexit
    import contextlib
    import os

    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): print it, status 1
        sys.stderr.write(f"{code}\n")
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more can be written
            stream.flush()
    os._exit(code)


def _main(args):
    if not args:  # the usage, as --help gives it, not an error
        args = ["--help"]
    try:
        # Not cli.main(): it turns a Ctrl-C into an Abort after printing an empty line.
        with cli.make_context("wantit", args) as ctx:
            cli.invoke(ctx)
    except click.exceptions.Exit as e:  # --help, --version
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("wantit: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        # One line, as for every other error (click's usage block would add three).
        hint = " (see wantit --help)" if isinstance(e, click.UsageError) else ""
        click.echo(f"wantit: error: {e.format_message()}{hint}", err=True)
        sys.exit(e.exit_code)
    except WantitError as e:
        click.echo(f"wantit: error: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("wantit: interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
