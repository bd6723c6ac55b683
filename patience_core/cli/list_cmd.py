"""``patience list``: the installed games, with the plugin and version that provides each."""

from __future__ import annotations

import json

import click

from patience_core.cli import get_host
from patience_core.engine import counted


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of games instead.")
@click.pass_context
def list_games(ctx: click.Context, as_json: bool) -> None:
    """List the installed games, with the plugin and version that provides each.

    With --json: a list of objects with the fields name, title, distribution and version.
    """
    host = get_host(ctx)
    rows = [
        {
            "name": game.name,
            "title": game.title,
            "distribution": host.games.provider(game.name),
            "version": host.version_of(game.name),
        }
        for game in host.games
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
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
    width = max(len(r["name"]) for r in rows)
    twidth = max(len(r["title"]) for r in rows)
    for r in rows:
        click.echo(
            f"{r['name']:<{width}}  {r['title']:<{twidth}}  {r['distribution']} {r['version']}"
        )
