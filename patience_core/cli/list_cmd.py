"""``patience list``: the installed games, with where each comes from: the plugin and version
that provides it, or the variant file of the data folder that declares it."""

from __future__ import annotations

import json

import click

from patience_core.cli import get_host
from patience_core.engine import counted
from patience_core.plugins import BLOCKED, BROKEN, INCOMPATIBLE, VARIANT_FILE, PluginRecord


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of games instead.")
@click.pass_context
def list_games(ctx: click.Context, as_json: bool) -> None:
    """List the installed games, with where each comes from: the plugin and version that
    provides it, or the variant file (docs/families.md) that declares it. When plugins or
    variant files are broken, incompatible or blocked, a line on stderr after the list says how
    many (their games are not listed; `patience plugins` says why); the exit status is 0.

    With --json: a list of objects with the fields name, title, distribution and version (both
    null for a variant file of the data folder), family (null for a game of no family) and file
    (the variant file, or null); the line on stderr is the same.
    """
    host = get_host(ctx)
    files = {r.distribution for r in host.records if r.kind == VARIANT_FILE}
    held = [r for r in host.records if r.status in (BROKEN, INCOMPATIBLE, BLOCKED)]
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
    elif not rows:
        click.echo(
            f"No games available: {_not_loaded(held)} (see `patience plugins`)."
            if held
            else "No games installed. Install a game plugin, e.g. patience-escalator."
        )
        return
    else:
        width = max(len(r["name"]) for r in rows)
        twidth = max(len(r["title"]) for r in rows)
        for r in rows:
            source = (
                r["file"] if r["distribution"] is None else f"{r['distribution']} {r['version']}"
            )
            click.echo(f"{r['name']:<{width}}  {r['title']:<{twidth}}  {source}")
    if held:  # after the list, on stderr: the list itself stays what a script reads
        click.echo(
            f"patience: {_not_loaded(held)}: {'its' if len(held) == 1 else 'their'} games are "
            "not listed (see `patience plugins`)",
            err=True,
        )


def _not_loaded(held: list[PluginRecord]) -> str:
    """``1 plugin and 2 variant files are blocked, broken or incompatible``."""
    files = sum(1 for r in held if r.kind == VARIANT_FILE)
    parts = [
        counted(n, what)
        for n, what in ((len(held) - files, "plugin"), (files, "variant file"))
        if n
    ]
    are = "is" if len(held) == 1 else "are"
    return f"{' and '.join(parts)} {are} blocked, broken or incompatible"
