"""The ``wantit`` command line. Data on stdout, errors as one line on stderr."""

import json
import sys

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
@click.option("--wild", default=None, help="Cards that are wild for this hand, e.g. '3h'.")
@click.option("--wild-ranks", default=None, help="Ranks whose every card is wild, e.g. '3' or '3,K'.")
@click.option("--qualifier", type=int, default=None, help="Low qualifier, e.g. 8 for eight-or-better.")
@click.option("--five-kind", type=click.Choice(list(FIVE_KIND_POSITIONS)), default="above_straight_flush",
              show_default=True, help="Where five of a kind ranks.")
@click.option("--wild-may-duplicate", is_flag=True, help="Let a wild copy a held card (double-ace flush).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def hand(cards, wild, wild_ranks, qualifier, five_kind, wild_may_duplicate, fmt):
    """Best high and best ace-to-five low of CARDS (5 to 10 cards), e.g. "As Ks Qs Js Ts 9s 2c"."""
    codes = parse_cards(" ".join(cards))
    if not 5 <= len(codes) <= 10:
        raise WantitError(f"a hand has 5 to 10 cards; got {len(codes)}")
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
        if seat != "all" and not seat.isdigit():
            raise WantitError(f"--policy {item!r}: the seat must be a number or 'all'")
        specs[seat if seat == "all" else int(seat)] = spec.strip()
    return specs or None


@cli.command()
@click.argument("variant")
@click.option("--players", "-n", type=int, default=None, help="Number of players (default: the variant's).")
@click.option("--deals", "-d", type=int, default=100_000, show_default=True)
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
              help="Stop once every seat's ev_se is below this (antes); --deals is then the most played.")
@click.option("--board", "board_file", type=click.Path(dir_okay=False), default=None,
              help="Selection only: a board file (TOML); default: the PROVISIONAL board.")
@click.option("--deck", "deck_spec", default=None,
              help="Selection only: standard52 (default), colours, or colours(K, RANKS, COPIES).")
def simulate(variant, players, deals, seed, policy_items, rule_items, threads, chunk, fixed_dealer,
             checkpoint, fmt, target_se, board_file, deck_spec):
    """Simulate DEALS deals of VARIANT and report each seat's results (for Selection, DEALS games).

    \b
    Columns, one row per seat (nets in antes, not chips):
      seat        0..players-1; the dealer rotates (deal i: seat i % players)
      policy      the preset, then one column per policy parameter value
      ev          mean net per deal in antes (payout minus ante and fees)
      ev_se       standard error of ev; 95% interval: ev +/- 1.96 ev_se
      p_high      fraction of deals the seat won (a share of) the high half
      p_low       the same for the low half
      p_scoop     fraction of deals the seat took the whole pot
      declare_*   fraction of deals declared high / low / both (declare split)
    Then the final high hands per seat, and the hands that won: the category of the
    winning high hand and the top card of the winning low (or no qualifying low).
    """
    from .selection import is_selection

    if is_selection(variant):
        return _simulate_selection(players, deals, seed, policy_items, rule_items, threads, chunk, fixed_dealer,
                                   checkpoint, fmt, board_file, deck_spec)
    if board_file is not None or deck_spec is not None:
        raise WantitError("--board and --deck apply to selection only")
    from .simulate import simulate as run

    shown = []

    def progress(done, total):
        if total > chunk:
            click.echo(f"\r{done:,}/{total:,} deals", err=True, nl=False)
            shown.append(done)

    result = run(variant, players=players, policies=_policy_specs(policy_items),
                 rules=_key_values(rule_items, "--rule"), deals=deals, seed=seed, chunk=chunk,
                 threads=threads, rotate_dealer=not fixed_dealer, checkpoint=checkpoint, progress=progress,
                 target_se=target_se)
    if shown:
        click.echo("", err=True)
    meta = result.meta
    if meta["interrupted"]:
        click.echo(f"wantit: interrupted after {meta['deals']:,} deals; these are their results", err=True)
    if fmt == "json":
        click.echo(json.dumps({"meta": meta, "seats": result.to_json_records(),
                               "winning_hands": result.winning_json()}, indent=2))
        return
    if fmt == "csv":
        click.echo(result.seats.to_csv(index=False), nl=False)
        return
    stopped = (f" (every ev_se below {meta['target_se']:g} antes)" if meta["reached_target_se"]
               and meta["deals"] < meta["requested_deals"] else "")
    click.echo(f"{meta['variant']}, {meta['players']} players, {meta['deals']:,} deals{stopped}, seed {meta['seed']}; "
               f"nets in antes" + (f", pot carried over {meta['carried_over']:g} chips" if meta["carried_over"] else ""))
    table = _compact_policies(meta["variant"], result.seats)
    pivot = result.categories.pivot(index="seat", columns="category", values="probability")
    from .evaluate import Category

    top = [c.label for c in Category if c.label in pivot.columns and pivot[c.label].max() >= 0.0005]
    click.echo(table.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    click.echo("\nfinal high hands (probability):")
    click.echo(pivot[top].to_string(float_format=lambda x: f"{x:.4f}"))
    win = result.winning[result.winning.probability > 0]
    for half, title in (("high", "winning high hand"), ("low", "winning low (top card)")):
        part = win[win.half == half]
        if len(part):
            click.echo(f"\n{title} (probability per deal):")
            click.echo("  " + "   ".join(f"{h} {p:.4f}" for h, p in zip(part.hand, part.probability)))


def _simulate_selection(players, games, seed, policy_items, rule_items, threads, chunk, fixed_dealer, checkpoint,
                        fmt, board_file, deck_spec):
    from .selection import format_table, simulate_selection

    def progress(done, total):
        if total > chunk:
            click.echo(f"\r{done:,}/{total:,} games", err=True, nl=done >= total)

    result = simulate_selection(players=players, policies=_policy_specs(policy_items),
                                rules=_key_values(rule_items, "--rule"), games=games, seed=seed, board=board_file,
                                deck=deck_spec, threads=threads, chunk=chunk, rotate_dealer=not fixed_dealer,
                                checkpoint=checkpoint, progress=progress)
    if result.meta["interrupted"]:
        click.echo(f"wantit: interrupted after {result.meta['games']:,} games; these are their results", err=True)
    if fmt == "json":
        click.echo(json.dumps({"meta": result.meta, "seats": result.to_json_records()}, indent=2))
    elif fmt == "csv":
        click.echo(result.seats.to_csv(index=False), nl=False)
    else:
        click.echo(format_table(result))


def _compact_policies(variant, seats):
    """The seats table for reading: the policy as ``preset:param=value,...`` (only the
    parameters that differ from the preset) instead of one column per parameter."""
    from .variants import get_variant

    v = get_variant(variant)
    names = [p.name for p in v.params]
    labels = []
    for _, row in seats.iterrows():
        preset = v.policy_values(row.policy)
        changed = [f"{k}={row[k]:g}" for k in names if row[k] != preset[k]]
        labels.append(row.policy + (":" + ",".join(changed) if changed else ""))
    table = seats.drop(columns=names)
    table["policy"] = labels
    return table


@cli.command()
def variants():
    """List the variants, their rules options and policy parameters."""
    from .variants import VARIANTS

    for v in VARIANTS.values():
        click.echo(f"{v.name}: {v.title} ({v.clause}); {v.min_players}-{v.max_players} players, "
                   f"default {v.default_players}")
        click.echo("  rules (--rule KEY=VALUE):")
        for o in v.options:
            click.echo(f"    {o.name} = {o.default}  [{o.allowed()}]  {o.meaning} ({o.clause})")
        click.echo(f"  policies (--policy SEAT=PRESET[:k=v,...]); presets: {', '.join(v.presets)}; "
                   f"default {v.default_policy}")
        for p in v.params:
            click.echo(f"    {p.name} = {p.default:g}  [{p.low:g}..{p.high:g}]  {p.meaning}")
        click.echo("")
    from .selection import describe_variant

    click.echo(describe_variant())


@cli.command()
@click.argument("variant")
@click.option("--players", "-n", type=int, default=None)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--deal", "deal_index", type=int, default=0, show_default=True, help="Which deal of the run.")
@click.option("--policy", "policy_items", multiple=True, metavar="SEAT=PRESET[:k=v,...]")
@click.option("--rule", "rule_items", multiple=True, metavar="KEY=VALUE")
@click.option("--stacked", default=None, help="Deal these cards in this order instead of shuffling.")
@click.option("--fixed-dealer", is_flag=True, help="The dealer is the last seat (as with simulate --fixed-dealer).")
@click.option("--trace", is_flag=True, help="Narrate every offer, refusal, take, declaration and payout.")
@click.option("--board", "board_file", type=click.Path(dir_okay=False), default=None,
              help="Selection only: a board file (TOML); default: the PROVISIONAL board.")
@click.option("--deck", "deck_spec", default=None,
              help="Selection only: standard52 (default), colours, or colours(K, RANKS, COPIES).")
def deal(variant, players, seed, deal_index, policy_items, rule_items, stacked, fixed_dealer, trace, board_file,
         deck_spec):
    """Play one deal of VARIANT (the same deal 'simulate' plays with this seed) and show it."""
    from .selection import is_selection

    if is_selection(variant):
        from .selection import narrate_game, play_game

        g = play_game(players=players, seed=seed, game=deal_index, rules=_key_values(rule_items, "--rule"),
                      policies=_policy_specs(policy_items), board=board_file, deck=deck_spec, stacked=stacked,
                      rotate_dealer=not fixed_dealer)
        text = narrate_game(g)
        if not trace:
            text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
        click.echo(text)
        return
    if board_file is not None or deck_spec is not None:
        raise WantitError("--board and --deck apply to selection only")
    from .trace import narrate, play_deal

    d = play_deal(variant, players=players, seed=seed, deal=deal_index, rules=_key_values(rule_items, "--rule"),
                  policies=_policy_specs(policy_items), stacked=stacked, rotate_dealer=not fixed_dealer)
    text = narrate(d)
    if not trace:
        text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    click.echo(text)


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
    from .simulate import simulate as run
    from .variants import VARIANTS

    for name in VARIANTS:
        run(name, deals=10, seed=0)
    from .selection import play_game, simulate_selection

    simulate_selection(players=2, games=10, seed=0)
    play_game(players=2, seed=0)
    click.echo("kernels compiled and cached", err=True)


def main(argv=None):
    """Console entry point: bad input ends with one clear line, never a traceback."""
    try:
        cli.main(args=argv, prog_name="wantit", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("wantit: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except WantitError as e:
        click.echo(f"wantit: error: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("wantit: interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
