"""``patience plugins``: every plugin found, with its distribution, version, games and status."""

from __future__ import annotations

import click

from patience_core.cli import get_host


@click.command()
@click.pass_context
def plugins(ctx: click.Context) -> None:
    """List the plugins: distribution, version, games, status (loaded, broken, blocked)."""
    host = get_host(ctx)
    host.add_commands(click.Group())  # to tell whose commands fail (shown below)
    for r in host.records:
        games = ", ".join(r.games) or "-"
        entry = (
            ""
            if r.name in (r.distribution, r.distribution.removeprefix("patience-"))
            else f" ({r.name})"
        )
        line = f"{r.distribution}{entry} {r.version}  [{r.status}]  games: {games}"
        if r.error:
            line += f"  error: {r.error}"
        if r.distribution in host.command_problems:
            line += f"  its commands failed: {host.command_problems[r.distribution]}"
        click.echo(line)
