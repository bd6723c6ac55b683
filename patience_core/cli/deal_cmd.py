"""``patience deal GAME [--deal N] [--json]``: the layout of a deal."""

from __future__ import annotations

import json
import sys

import click

from patience_core.cli import get_host
from patience_core.cli.options import DEAL, option_flag, random_deal
from patience_core.engine.deal import DealNumber
from patience_core.formats import position_to_dict
from patience_core.games import parse_options
from patience_core.render import CardStyle, board_text, make_painter


@click.command()
@click.argument("game")
@click.option("--deal", "-d", "deal_number", type=DEAL, help="Deal number N (or ms:N); random if omitted.")
@click.option("--json", "as_json", is_flag=True, help="Print the position as JSON (docs/cli.md).")
@option_flag
@click.pass_context
def deal(
    ctx: click.Context,
    game: str,
    deal_number: DealNumber | None,
    as_json: bool,
    options: tuple[str, ...],
) -> None:
    """Show the layout of a deal of GAME. Without --deal a random deal is chosen; its number is
    always printed so it can be replayed."""
    host = get_host(ctx)
    the_game = host.game(game, parse_options(options))
    number = deal_number if deal_number is not None else random_deal()
    position = the_game.deal(number)
    if as_json:
        click.echo(json.dumps(position_to_dict(the_game, position, str(number)), indent=2))
        return
    style = CardStyle.for_stream(sys.stdout)
    paint = make_painter(style, lambda c: host.card_text(c, style.unicode))
    click.echo(f"{the_game.title}, deal {number}")
    click.echo(board_text(the_game, position, paint))
    status = the_game.status(position)
    if status:
        click.echo(status)
