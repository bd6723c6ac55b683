"""``patience rules GAME``: the rules text of a game, with its options."""

from __future__ import annotations

import json

import click

from patience_core.cli import get_host


@click.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print the rules as a JSON object instead.")
@click.pass_context
def rules(ctx: click.Context, game: str, as_json: bool) -> None:
    """Show the rules of GAME.

    With --json: an object with the fields name, title, rules and options (each option with
    name, choices, default and help).
    """
    host = get_host(ctx)
    cls = host.game_class(game)
    if as_json:
        options = [
            {"name": o.name, "choices": list(o.choices), "default": o.default, "help": o.help}
            for o in cls.options
        ]
        data = {"name": cls.name, "title": cls.title, "rules": cls.rules, "options": options}
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo(cls.rules.rstrip())
    if cls.options:
        click.echo("\nOptions (--option NAME=VALUE):")
        for opt in cls.options:
            click.echo(f"  {opt.name}={'|'.join(opt.choices)}  (default {opt.default}) {opt.help}")
