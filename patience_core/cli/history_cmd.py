"""``patience history``: the last games played, newest first, each with the command that plays
its deal again (docs/stats.md)."""

from __future__ import annotations

import json

import click

from patience_core.cli.options import COUNT
from patience_core.cli.stats_cmd import game_name, warn


@click.command("history")
@click.argument("game", required=False)
@click.option(
    "-n",
    "limit",
    type=COUNT,
    metavar="N",
    default=20,
    show_default=True,
    help="How many games to show.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead.")
@click.option("--won", "which", flag_value="won", help="Only the games won.")
@click.option(
    "--lost", "which", flag_value="lost", help="Only the games lost (lost, dead or abandoned)."
)
@click.pass_context
def history(
    ctx: click.Context, game: str | None, limit: int, as_json: bool, which: str | None
) -> None:
    """The last games played (of GAME only, when given), newest first, each with its deal
    number and a ready command to play that deal again.

    With --json: a list of objects with the columns of the games table (docs/stats.md) and
    "command".
    """
    from patience_core.stats import Which, history_lines, opened

    with opened(warn) as db:
        kind: Which = "won" if which == "won" else "lost" if which == "lost" else "all"
        name = None if game is None else game_name(ctx, game, [] if db is None else db.games())
        rows = [] if db is None else db.history(game=name, limit=limit, which=kind)
    if as_json:
        click.echo(json.dumps([row.as_dict() for row in rows], indent=2, ensure_ascii=False))
    elif not rows:
        click.echo("No games recorded yet.")
    else:
        for line in history_lines(rows):
            click.echo(line)
