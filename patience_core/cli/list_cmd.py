"""``patience list``: the installed games, with where each comes from: the plugin and version
that provides it, or the variant file of the data folder that declares it."""

from __future__ import annotations

import json

import click

from patience_core.cli import get_host
from patience_core.engine import counted
from patience_core.plugins import VARIANT_FILE


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of games instead.")
@click.pass_context
def list_games(ctx: click.Context, as_json: bool) -> None:
    """List the installed games, with where each comes from: the plugin and version that
    provides it, or the variant file (docs/families.md) that declares it.

    With --json: a list of objects with the fields name, title, distribution and version (both
    null for a variant file of the data folder), family (null for a game of no family) and file
    (the variant file, or null).
    """
    host = get_host(ctx)
    files = {r.distribution for r in host.records if r.kind == VARIANT_FILE}
    rows = []
    for game in host.games:
        provider = host.games.provider(game.name)
        own_file = provider in files
        rows.append(
            {
                "name": game.name,
                "title": game.title,
                "distribution": None if own_file else provider,
                "version": None if own_file else host.version_of(game.name),
                "family": getattr(game, "family", None),
                "file": getattr(game, "variant_file", None),
            }
        )
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
        source = r["file"] if r["distribution"] is None else f"{r['distribution']} {r['version']}"
        click.echo(f"{r['name']:<{width}}  {r['title']:<{twidth}}  {source}")
