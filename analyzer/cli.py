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
