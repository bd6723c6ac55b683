"""``patience stats``: played, won, win rate, streaks, times and scores of the recorded games;
``--reset GAME`` and ``--export FILE`` (docs/stats.md)."""

from __future__ import annotations

import json

import click

from patience_core.cli import get_host
from patience_core.errors import PatienceError, shown


def warn(message: str) -> None:
    """A warning of the statistics database, on standard error."""
    click.echo(f"patience: warning: {message}", err=True)


@click.command("stats")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead.")
@click.option("--since", metavar="DATE", help="Only the games started on or after DATE (UTC).")
@click.option("--reset", "reset_game", metavar="GAME", help="Delete the recorded games of GAME.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before --reset deletes.")
@click.option(
    "--export",
    "export_to",
    metavar="FILE",
    help="Write every recorded game to FILE.csv or FILE.jsonl.",
)
@click.pass_context
def stats(
    ctx: click.Context,
    game: str | None,
    as_json: bool,
    since: str | None,
    reset_game: str | None,
    yes: bool,
    export_to: str | None,
) -> None:
    """Statistics of the games played: per game and option set, played, won, win rate, current
    and best winning streak, best and mean time of a win, best score and mean moves; all games
    together. The database and its tables: docs/stats.md.

    With --json: an object with "total", "games" and "option_sets", each summary with the fields
    game, options, played, won, win_rate, streak, best_streak, best_seconds, mean_win_seconds,
    best_score and mean_moves.
    """
    from patience_core.stats import Report, opened, parse_since, report_lines

    _refuse_mixed(game, as_json, since, reset_game, export_to)
    if reset_game is not None:
        _reset(ctx, reset_game, yes)
        return
    after = None if since is None else parse_since(since)
    if export_to is not None:
        _export(ctx, export_to, game, after)
        return
    with opened(warn) as db:
        name = None if game is None else game_name(ctx, game, [] if db is None else db.games())
        report = Report.empty() if db is None else db.report(game=name, since=after)
    if as_json:
        # A line at a time, so a closed pipe is told by exit status 141 as the table's is.
        for line in json.dumps(report.as_dict(), indent=2, ensure_ascii=False).splitlines():
            click.echo(line)
    elif not report.games:
        of = "" if name is None else f" of {shown(name, 23, quote=False)}"
        when = (" yet." if not of else ".") if since is None else f" since {since}."
        click.echo(f"No games{of} recorded{when}")
    else:
        for line in report_lines(report, total=game is None):
            click.echo(line)


def _refuse_mixed(
    game: str | None,
    as_json: bool,
    since: str | None,
    reset_game: str | None,
    export_to: str | None,
) -> None:
    """Refuse options that would be ignored in the combination given.

    :raises click.UsageError: (exit status 2) for such a combination.
    """
    if reset_game is not None and export_to is not None:
        raise click.UsageError("give --reset or --export, not both")
    if reset_game is not None and (game is not None or since is not None or as_json):
        raise click.UsageError("--reset GAME takes no other GAME, --since or --json")
    if export_to is not None and as_json:
        raise click.UsageError("--export writes a file: give --json or --export, not both")


def _export(ctx: click.Context, text: str, game: str | None, since: str | None) -> None:
    from patience_core.cli.options import file_path
    from patience_core.stats import opened

    if not text:
        raise PatienceError("--export needs a file name, not an empty name")
    path = file_path(text, "--export")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise PatienceError(f"cannot write {shown(text)}: directory {shown(str(folder))} {what}")
    with opened(warn, writing=True) as db:
        assert db is not None  # made when missing
        name = None if game is None else game_name(ctx, game, db.games())
        count = db.export(path, game=name, since=since)
    click.echo(f"Exported {count} game{'s' * (count != 1)} to {path}.")


def game_name(ctx: click.Context, game: str, recorded: list[str]) -> str:
    """The name GAME is recorded under: as typed when recorded, else the installed game's name
    (``Escalator`` is ``escalator``).

    :raises UnknownGame: neither recorded nor installed (naming the installed games).
    """
    if game in recorded:
        return game
    name: str = get_host(ctx).game_class(game).name
    return name


def _reset(ctx: click.Context, typed: str, yes: bool) -> None:
    from patience_core.stats import opened

    with opened(warn, writing=True) as db:
        assert db is not None  # made when missing
        game = game_name(ctx, typed, db.games())
        count = sum(s.played for s in db.report(game=game).games)
        name = shown(game, 23, quote=False)
        if count == 0:
            click.echo(f"No games of {name} recorded.")
            return
        games = f"{count} recorded game{'s' * (count != 1)}"
        if not yes:
            try:
                agreed = click.confirm(f"Delete the {games} of {name}?", default=False)
            except click.exceptions.Abort as exc:
                if isinstance(exc.__context__, KeyboardInterrupt):
                    raise  # Ctrl-C: "patience: interrupted", exit 130, as everywhere
                click.echo()  # no answer (end of input)
                agreed = False
            if not agreed:
                raise PatienceError(f"nothing deleted (answer y, or give --yes): {games} kept")
        db.reset(game)
        click.echo(f"Deleted the {games} of {name}.")
