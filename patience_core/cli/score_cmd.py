"""``patience score FILE [--json]``: the score of a saved game (docs/play.md)."""

from __future__ import annotations

import json

import click

from patience_core.cli import get_host
from patience_core.cli.options import file_path
from patience_core.engine import counted
from patience_core.play import load_session


@click.command()
# Not readable=True (click's exit 2): a file that cannot be read is told by the reading, in one
# line, exit 1, as every bad file (docs/cli.md).
@click.argument("file", type=click.Path(readable=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.pass_context
def score(ctx: click.Context, file: str, as_json: bool) -> None:
    """Print the score of the saved game FILE: the game, the deal, the score out of the maximum,
    whether it is won, lost or in progress, and the number of moves. The moves are replayed from
    the deal, so the score is that of the position they reach; a bad file is reported in one line
    (exit 1) and never changed."""
    host = get_host(ctx)
    saved, session = load_session(
        file_path(file, "FILE", "save file", reading=True), host.saved_game
    )
    state = session.finished or "in progress"
    if as_json:
        result = {
            "game": session.game.name,
            "deal": str(session.deal),
            "options": session.options,
            "score": session.score(),
            "max_score": session.game.max_score,
            "status": state,
            "won": session.is_won(),
            "lost": session.is_lost(),
            "moves": len(session.moves),
            "redo": len(session.redo_texts),
            "plugin_version": saved.plugin_version,
            "saved_at": saved.saved_at,
        }
        click.echo(json.dumps(result, indent=2, sort_keys=True))
        return
    click.echo(
        f"{session.game.name} deal {session.deal}: score {session.score()}/"
        f"{session.game.max_score}, {state}, {counted(len(session.moves), 'move')}"
    )
