"""``patience rules GAME``: the rules text of a game, with its options."""

from __future__ import annotations

import click

from patience_core.cli import get_host


@click.command()
@click.argument("game")
@click.pass_context
def rules(ctx: click.Context, game: str) -> None:
    """Show the rules of GAME."""
    host = get_host(ctx)
    cls = host.game_class(game)
    click.echo(cls.rules.rstrip())
    if cls.options:
        click.echo("\nOptions (--option NAME=VALUE):")
        for opt in cls.options:
            click.echo(f"  {opt.name}={'|'.join(opt.choices)}  (default {opt.default}) {opt.help}")
