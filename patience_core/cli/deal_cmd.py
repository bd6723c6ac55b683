"""``patience deal GAME [--deal N | --from FILE] [--format text|json|NAME]``: the layout of a deal.

``--format`` picks the output: ``text`` (the board, the default), ``json`` (docs/cli.md, "Position
JSON"; ``--json`` is the same) or a text format the game declares in
:attr:`~patience_core.games.Game.formats` (e.g. ``fcs``, Freecell Solver's board text, for Baker's
Game). Like the board, the JSON shows what a player sees (face-down cards as ``null``) unless
``--all-cards`` asks for every card. ``--from FILE`` shows a position read from a file instead of
a deal (:func:`~patience_core.cli.options.position_from_file`).
"""

from __future__ import annotations

import json
import sys

import click

from patience_core.cli import get_host
from patience_core.cli.options import (
    DEAL,
    from_option,
    option_flag,
    position_from_file,
    random_deal,
)
from patience_core.engine import DealNumber
from patience_core.games import CORE_FORMATS, parse_options, position_to_dict
from patience_core.play import CardStyle, board_text, make_painter

__all__ = ["deal"]


@click.command()
@click.argument("game", is_eager=True)  # read first: --deal checks its schemes
@click.option(
    "--deal", "-d", "deal_number", type=DEAL, help="Deal number N (or ms:N); random if omitted."
)
@from_option(
    "Show the position in FILE: a saved game (its current position), position JSON or a "
    "format of the game, e.g. fcs (- = stdin)."
)
@click.option(
    "--format",
    "-f",
    "output_format",
    metavar="[text|json|fcs]",
    help="Output: text (default), json, or a format of the game (fcs for Baker's Game).",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option(
    "--all-cards",
    is_flag=True,
    help="Show every card, face-down ones too, in the JSON or game format (for studies, and for "
    "files to read back with --from); without it they are unknown (null), as a player sees them.",
)
@option_flag
@click.pass_context
def deal(
    ctx: click.Context,
    game: str,
    deal_number: DealNumber | None,
    from_file: str | None,
    output_format: str | None,
    as_json: bool,
    all_cards: bool,
    options: tuple[str, ...],
) -> None:
    """Show the layout of a deal of GAME. Without --deal a random deal is chosen; its number is
    always printed so it can be replayed."""
    host = get_host(ctx)
    chosen = parse_options(options)
    if from_file is not None and deal_number is not None:
        raise click.UsageError("give --deal or --from, not both")
    fmt = (output_format if output_format is not None else ("json" if as_json else "text")).lower()
    if as_json and fmt != "json":
        raise click.UsageError("--json and --format disagree")
    if all_cards and fmt == "text":
        raise click.UsageError("--all-cards is for --json and the game's formats, not the board")
    if from_file is not None:
        the_game, position, where = position_from_file(host, game, chosen, from_file)
    else:
        the_game = host.game(game, chosen)
    if fmt not in CORE_FORMATS and the_game.position_format(fmt) is None:
        names = ", ".join([*CORE_FORMATS, *(f.name for f in the_game.formats)])
        raise click.BadParameter(
            f"{the_game.name} has no position format {fmt!r} (formats: {names})",
            param_hint="'--format'",
        )
    label: str | None
    if from_file is not None:
        label = None
        heading = f"{the_game.title}, position from {where}"
    else:
        number = deal_number if deal_number is not None else random_deal()
        position = the_game.deal(number)
        label = str(number)
        heading = f"{the_game.title}, deal {number}"
    if deal_number is None and from_file is None and fmt != "text":
        # The board text names the deal; machine formats do not, so say it on stderr.
        click.echo(f"{the_game.name} deal {label}", err=True)
    if fmt == "json":
        shown = position_to_dict(the_game, position, label, all_cards=all_cards)
        click.echo(json.dumps(shown, indent=2))
        return
    extra = the_game.position_format(fmt)
    if extra is not None:
        # A game's own format writes every card: a face-down one only when asked for.
        if not all_cards and any(not card.face_up for card in position.cards()):
            raise click.UsageError(
                f"the {fmt} format shows face-down cards: add --all-cards to write them"
            )
        click.echo(extra.write(the_game, position), nl=False)
        return
    style = CardStyle.for_stream(sys.stdout)
    paint = make_painter(style, lambda c: host.card_text(c, style.unicode))
    click.echo(heading)
    click.echo(board_text(the_game, position, paint))
    status = the_game.status(position)
    if status:
        click.echo(status)
