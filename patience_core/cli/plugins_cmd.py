"""``patience plugins``: every plugin found, with its distribution, version, games and status."""

from __future__ import annotations

import json

import click

from patience_core.cli import get_host


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of plugins instead.")
@click.pass_context
def plugins(ctx: click.Context, as_json: bool) -> None:
    """List the plugins: distribution, version, games, status (loaded, broken, blocked), and the
    commands each adds.

    Variant files of the data folder (docs/families.md) are listed too, each as one line.

    With --json: a list of objects with the fields name, distribution, version, status, error,
    games, commands, commands_error and kind ("plugin", or "variant file": then distribution is
    the file's path, name its stem and version empty).
    """
    host = get_host(ctx)
    host.add_commands(click.Group())  # to tell whose commands there are, and whose fail
    rows = [
        {
            "name": r.name,
            "distribution": r.distribution,
            "version": r.version,
            "status": r.status,
            "error": r.error,
            "games": list(r.games),
            "commands": host.commands_of.get(r.distribution, []),
            "commands_error": host.command_problems.get(r.distribution, ""),
            "kind": r.kind,
        }
        for r in host.records
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        name, dist = row["name"], row["distribution"]
        entry = "" if name in (dist, dist.removeprefix("patience-")) else f" ({name})"
        line = f"{dist}{entry} {row['version']}  [{row['status']}]  games: "
        if row["kind"] != "plugin":
            line = f"{row['kind']} {dist}  [{row['status']}]  games: "
        line += ", ".join(row["games"]) or "-"
        if row["commands"]:
            line += f"  commands: {', '.join(row['commands'])}"
        if row["error"]:
            line += f"  error: {row['error']}"
        if row["commands_error"]:
            line += f"  its commands failed: {row['commands_error']}"
        click.echo(line)
