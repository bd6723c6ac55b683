"""``patience variant check FILE``: whether a variant file (docs/families.md) declares a game."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import click

from patience_core.cli import get_host
from patience_core.errors import BadSave, PatienceError, shown
from patience_core.plugins import checked_variant, read_variant_file


@click.group(invoke_without_command=True)
@click.pass_context
def variant(ctx: click.Context) -> None:
    """Variant files: a TOML file naming a family and its parameters is a game."""
    if ctx.invoked_subcommand is None:
        raise click.UsageError("a command is missing: patience variant check FILE", ctx)


def _declared_name(data: bytes) -> str | None:
    """The ``name`` a variant file declares, when it is TOML with a text there (for the clash
    check of a file with other problems too)."""
    try:
        name = tomllib.loads(data.decode("utf-8")).get("name")
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return name if isinstance(name, str) else None


def _same_file(one: str | None, other: Path, data: bytes) -> bool:
    """Whether the installed game's variant file ``one`` is ``other``, or a copy of it of the
    same file name (the file a distribution installed, checked from its source tree)."""
    try:
        return one is not None and (
            Path(one).resolve() == other.resolve()
            or (Path(one).name == other.name and read_variant_file(Path(one)) == data)
        )
    except (OSError, BadSave):
        return False


@variant.command()
# Not dir_okay=False (click's usage error, exit 2): a folder is a file that cannot be read, told
# in one line, exit 1, as every bad file (docs/cli.md).
@click.argument("file", type=click.Path(path_type=Path))
@click.pass_context
def check(ctx: click.Context, file: Path) -> None:
    """Check the variant file FILE as patience reads it.

    Prints every problem, one line each (the file, the key, what is allowed), and exits 1; or
    one line saying which game it declares, and exits 0. A FILE that cannot be read (missing,
    a folder, not a regular file) is one line and exit 1 too, as every file patience reads;
    exit 2 is for a usage error (FILE not given).
    """
    label = shown(str(file), 200, quote=False)
    try:
        data = read_variant_file(file)
    except BadSave as exc:
        raise PatienceError(f"{label}: {exc}") from None
    host = get_host(ctx, quiet=True)  # only the file asked about is reported
    game, problems = checked_variant(data)
    name = game.name if game is not None else _declared_name(data)
    if name is not None and name in host.games:
        installed = host.games.get(name)
        # The file itself, installed (in the data folder or a distribution), is no rival.
        if not _same_file(getattr(installed, "variant_file", None), file, data):
            provider = shown(host.games.provider(name), 60, quote=False)
            problems.append(
                f"name {name!r} is taken by {provider} ({shown(installed.title, 40, False)}); "
                "allowed: another name"
            )
    for problem in problems:
        click.echo(f"{label}: {problem}")
    if problems:
        sys.exit(1)  # not ctx.exit: the exit code must survive standalone_mode=False
    assert game is not None
    click.echo(f"{label}: a variant of the {game.family} family: {game.name} ({game.title})")
