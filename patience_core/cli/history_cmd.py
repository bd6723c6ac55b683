"""``patience history``: the last games played, newest first, each with the command that plays
its deal again (docs/stats.md)."""

from __future__ import annotations

import json

import click

from patience_core.cli.options import WholeNumberType
from patience_core.cli.stats_cmd import game_name, warn

#: ``-n``: 1 to a billion (SQLite takes no integer past 2**63 - 1).
HISTORY_COUNT = WholeNumberType(min=1, max=10**9)


@click.command("history")
@click.argument("game", required=False)
@click.option(
    "-n",
    "limit",
    type=HISTORY_COUNT,
    metavar="N",
    default=20,
    show_default=True,
    help="How many games to show.",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead.")
@click.option("--won", is_flag=True, help="Only the games won.")
@click.option("--lost", is_flag=True, help="Only the games lost (lost, dead or abandoned).")
@click.pass_context
def history(
    ctx: click.Context, game: str | None, limit: int, as_json: bool, won: bool, lost: bool
) -> None:
    """The last games played (of GAME only, when given), newest first, each with its deal
    number and a ready command to play that deal again.

    With --json: a list of objects with the columns of the games table (docs/stats.md) and
    "command".
    """
    from patience_core.stats import Which, history_lines, opened

    if won and lost:
        raise click.UsageError("give --won or --lost, not both")
    with opened(warn) as db:
        kind: Which = "won" if won else "lost" if lost else "all"
        name = None if game is None else game_name(ctx, game, [] if db is None else db.games())
        rows = [] if db is None else db.history(game=name, limit=limit, which=kind)
    if as_json:
        # A line at a time, so a closed pipe is told by exit status 141 as the table's is.
        text = json.dumps([row.as_dict() for row in rows], indent=2, ensure_ascii=False)
        for line in text.splitlines():
            click.echo(line)
    elif not rows:
        click.echo("No games recorded yet.")
    else:
        for line in history_lines(rows):
            click.echo(line)
