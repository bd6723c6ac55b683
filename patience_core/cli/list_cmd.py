"""``patience list``: the installed games, with the plugin and version that provides each."""

from __future__ import annotations

import click

from patience_core.cli import get_host
from patience_core.engine import counted


@click.command("list")
@click.pass_context
def list_games(ctx: click.Context) -> None:
    """List the installed games, with the plugin and version that provides each."""
    host = get_host(ctx)
    if not len(host.games):
        held = [
            r.distribution
            for r in host.records
            if r.status != "loaded" and r.name != r.distribution
        ]
        if held:
            are = "is" if len(held) == 1 else "are"
            click.echo(
                f"No games available: {counted(len(held), 'plugin')} {are} blocked, broken or "
                "incompatible (see `patience plugins`)."
            )
        else:
            click.echo("No games installed. Install a game plugin, e.g. patience-escalator.")
        return
    rows = []
    for game in host.games:
        rows.append(
            (game.name, game.title, host.games.provider(game.name), host.version_of(game.name))
        )
    width = max(len(r[0]) for r in rows)
    twidth = max(len(r[1]) for r in rows)
    for name, title, dist, version in rows:
        click.echo(f"{name:<{width}}  {title:<{twidth}}  {dist} {version}")
