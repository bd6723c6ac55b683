"""``patience new-plugin NAME``: create a working game plugin distribution from the template."""

from __future__ import annotations

from pathlib import Path

import click

from patience_core.cli import get_host
from patience_core.errors import PatienceError
from patience_core.scaffold import create_plugin


@click.command("new-plugin")
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    # No click checks (they exit 2): create_plugin refuses a missing folder or a file, exit 1.
    type=click.Path(path_type=Path),
    default=Path("."),
    show_default=True,
    help="The existing folder in which to create the patience-NAME folder.",
)
@click.pass_context
def new_plugin(ctx: click.Context, name: str, parent: Path) -> None:
    """Create patience-NAME/, a game plugin distribution with one small example game, its
    entry point, and a first test. See docs/writing-a-plugin.md."""
    host = get_host(ctx)
    if name.strip().lower() in host.games:
        taken = host.games.provider(name.strip().lower())
        raise PatienceError(
            f"{name} is the name of an installed game (from {taken}); installing a plugin of "
            "that name would replace it: choose another name"
        )
    if _installed(f"patience-{name}"):
        raise PatienceError(
            f"patience-{name} is the name of an installed distribution; installing a plugin of "
            "that name would replace it: choose another name"
        )
    target = create_plugin(name, parent)
    click.echo(f"Created {target}")
    game_file = next(target.glob("*/game.py"), target)
    click.echo(f"Its game is an example, a small Golf: change {game_file} into yours.")
    click.echo("Next:")
    click.echo(f"  cd {target}")
    click.echo("  pip install -e '.[test]'")
    click.echo(f"  patience list            # {name} is there")
    click.echo("  pytest                   # discovery test and the conformance kit")


def _installed(distribution: str) -> bool:
    """Whether a distribution of that name is installed (``patience-core`` itself included)."""
    from importlib import metadata

    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True
