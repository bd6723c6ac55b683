"""``patience play GAME``: play a game in the terminal, one command per line (docs/play.md).

Every change (a move, undo, redo, restart) is saved at once, atomically, so a killed process loses
nothing; ``--resume`` continues the saved game. Commands come from standard input, so a pipe can
script a whole game; end of input saves and exits 0.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import sys
from pathlib import Path

import click

from patience_core.cli import end_interrupted_line, get_host, own_exit, show_traceback
from patience_core.cli.options import DEAL, file_path, number_problem, option_flag, random_deal
from patience_core.engine import KIND_LETTERS, DealNumber, counted, shown
from patience_core.errors import (
    BadMoveText,
    BadSave,
    IllegalMove,
    PatienceError,
    PluginError,
    one_line,
)
from patience_core.games import Game, Painter, parse_options
from patience_core.model import MoveKind, PileKind, Position
from patience_core.play import (
    FINISHED_WON,
    CardStyle,
    GameFactory,
    SavedGame,
    SaveLock,
    Session,
    archive_save,
    board_text,
    default_save_path,
    make_painter,
    read_save,
    restore_session,
    save_session,
)
from patience_core.solve import DEAD_CHECK_NODES, HONEST, THOUGHTFUL, Solution, Verdict, hint
from patience_core.solve import dead_check as run_dead_check

_COMMANDS_HELP = (
    "Commands: hint [honest|thoughtful], undo/u [N|all], redo [N|all], restart, moves, "
    "board/b, save, help/?, quit/q"
)

#: Commands that take no argument ("deal 5" is a mistake, not a move).
_NO_ARGUMENT = frozenset(
    {"quit", "q", "exit", "help", "?", "board", "b", "moves", "save", "restart", "deal", "d"}
)

#: The environment variable that sets the dead check's seconds (0 turns it off).
DEAD_CHECK_ENV = "PATIENCE_DEAD_CHECK"
#: The dead check's default seconds.
DEAD_CHECK_DEFAULT = 0.3
#: The dead check's node budget when the commands come from a pipe: no time limit, so a piped
#: transcript is the same on every machine, and small, so piped games stay fast.
DEAD_CHECK_PIPED_NODES = 3_000


def dead_check_seconds(enabled: bool, environ: dict[str, str] | None = None) -> float:
    """The dead check's time per move: 0 when ``--no-dead-check`` is given, else
    ``$PATIENCE_DEAD_CHECK`` seconds (0 turns it off), else :data:`DEAD_CHECK_DEFAULT`.

    :raises PatienceError: for a value that is not a number >= 0.
    """
    if not enabled:
        return 0.0
    text = (os.environ if environ is None else environ).get(DEAD_CHECK_ENV, "").strip()
    if not text:
        return DEAD_CHECK_DEFAULT
    try:
        value = -1.0 if number_problem(text) else float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise PatienceError(
            f"{DEAD_CHECK_ENV} must be a number of seconds >= 0, not {shown(text, 23)}"
        )
    return value


def _resume_command(game: str, path: Path, explicit_file: bool) -> str:
    command = f"patience play {game} --resume"
    return f"{command} --file {shlex.quote(str(path))}" if explicit_file else command


def _pile_summary(game: Game) -> str:
    """``"s stock, w waste, p1..p28 tableau"``: pile names grouped by kind, numbered runs
    shortened."""
    groups: list[tuple[PileKind, list[str]]] = []
    for spec in game.piles:
        if groups and groups[-1][0] is spec.kind:
            groups[-1][1].append(spec.name)
        else:
            groups.append((spec.kind, [spec.name]))
    parts = []
    for kind, names in groups:
        if len(names) > 2:
            prefix = names[0].rstrip("0123456789")
            numbers = [name[len(prefix) :] for name in names]
            if all(
                n.isdigit() and name.startswith(prefix)
                for n, name in zip(numbers, names, strict=True)
            ):
                ints = [int(n) for n in numbers]
                if ints == list(range(ints[0], ints[0] + len(ints))):
                    names = [f"{names[0]}..{names[-1]}"]
        parts.append(f"{' '.join(names)} {kind.value}")
    return ", ".join(parts)


def _help_lines(session: Session) -> list[str]:
    """The notation, with pile names and examples taken from the current game and position."""
    game, position = session.game, session.position
    kinds = {spec.kind for spec in game.piles}
    lines = ["Type one move or command per line. Moves:"]
    if PileKind.STOCK in kinds:
        lines.append("  deal, d        deal from the stock")
    lines += [
        "  SRC DST        move the top card of pile SRC to pile DST (pile names below)",
        "  SRC DST N      move N cards (a run) from SRC to DST, where the game moves runs",
        "  CARD [DST]     move that card (and any cards on it), e.g. 9h, 10s or Qd f",
        "  SRC            the only move that leaves pile SRC",
    ]
    letters = [f"{letter}" for letter, kind in KIND_LETTERS.items() if kind in kinds]
    if letters:
        lines.append(f"  A pile kind's letter ({', '.join(letters)}) means any pile of that kind.")
    lines.append(f"Piles: {_pile_summary(game)}.")
    examples: list[str] = []
    legal = session.legal_moves()
    seen: set[tuple[int, PileKind | None]] = set()
    for move in legal:
        text = game.move_text(position, move)
        if move.kind is not MoveKind.TRANSFER or move.target is None:
            examples.append(text)
            continue
        kind = game.piles[move.target].kind
        if (move.source, kind) in seen:
            continue  # one example per source pile and kind of destination
        seen.add((move.source, kind))
        pile = position[move.source]
        card = pile[len(pile) - move.count].code
        same_card = [m for m in legal if m.kind is MoveKind.TRANSFER and m.source == move.source]
        short = card if len(same_card) == 1 else f"{card} {game.piles[move.target].name}"
        examples.append(f"{short} ({text})" if move.count == 1 else text)
    examples = examples[:4]
    if examples:
        lines.append(f"Legal now, for example: {', '.join(examples)}.")
    lines.append(_COMMANDS_HELP)
    lines.append(f"The rules: patience rules {game.name}")
    return lines


def _count_arg(words: list[str], available: int) -> int | None:
    """The count of ``undo``/``redo``: none means 1, ``all`` means everything."""
    if len(words) == 1:
        return 1
    if len(words) == 2 and words[1] == "all":
        return available
    if len(words) == 2 and words[1].isascii() and words[1].isdigit():
        digits = words[1].lstrip("0")
        if digits:
            # More than all is all: no game holds a billion moves (nor is such a count read).
            return int(digits) if len(digits) <= 9 else 10**9
    return None


def _stdin_is_tty() -> bool:
    """Whether standard input is a terminal (``False`` when it is closed or missing)."""
    try:
        return (
            sys.stdin is not None and not getattr(sys.stdin, "closed", False) and sys.stdin.isatty()
        )
    except (ValueError, OSError):
        return False


class _Player:
    """The read-eval-print loop of one game."""

    def __init__(
        self,
        session: Session,
        path: Path,
        plugin_version: str,
        paint: Painter,
        resume_hint: str,
        dead_seconds: float = 0.0,
    ) -> None:
        self.session = session
        self.path = path
        self.plugin_version = plugin_version
        self.paint = paint
        self.resume_hint = resume_hint
        self.saved = True
        #: The distribution that provides the game, for messages.
        self.provider = "its plugin"
        self.dead_seconds = dead_seconds
        self.dead_nodes = DEAD_CHECK_NODES
        #: Search results by position, shared by the dead check and hints.
        self.known: dict[Position, Solution] = {}
        #: The prompt is shown and the line it starts is not ended yet.
        self.at_prompt = False

    # -- output ------------------------------------------------------------------------------

    def save(self) -> bool:
        """Save now; on failure warn (one line) and go on playing."""
        try:
            save_session(self.path, self.session, self.plugin_version)
        except PatienceError as exc:
            click.echo(f"patience: warning: {exc}", err=True)
            self.saved = False
            return False
        self.saved = True
        return True

    def score_text(self) -> str:
        return f"Score {self.session.score()}/{self.session.game.max_score}"

    def show(self) -> None:
        session = self.session
        click.echo(f"{session.game.title}, deal {session.deal}")
        click.echo(board_text(session.game, session.position, self.paint))
        parts = [self.score_text()]
        status = session.game.status(session.position)
        if status:
            parts.append(status)
        parts.append(f"Moves: {len(session.moves)}")
        click.echo("   ".join(parts))
        self.show_outcome()

    def show_outcome(self) -> None:
        finished = self.session.finished
        if finished == FINISHED_WON:
            click.echo(f"You won! {self.score_text()}.")
        elif finished is not None:
            back = "Type 'undo' to take moves back, or 'quit'." if self.session.can_undo else ""
            click.echo(f"No moves left: game lost. {self.score_text()}. {back}".rstrip())
        elif self.is_dead():
            if self.session.can_undo:
                click.echo("No winning line remains (undo to go back).")
            else:
                # At the deal there is nothing to undo: the deal itself cannot be won.
                click.echo("No winning line exists: this deal cannot be won.")

    def is_dead(self) -> bool:
        """The dead check (RULES.md Part A: the player is told when a solver proves that no line
        wins): a short thoughtful search of the current position; off when its time is 0."""
        if self.dead_seconds <= 0:
            return False
        session = self.session
        try:
            solution = run_dead_check(
                session.game, session.position, self.dead_seconds, self.dead_nodes, self.known
            )
        except (PatienceError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # SystemExit too, when the plugin raised it
            if own_exit(exc):
                raise
            # The game's plugin failed inside the search: the game goes on without the check.
            self.dead_seconds = 0.0
            click.echo(
                f"patience: warning: the dead check is off: the {session.game.name} plugin "
                f"({self.provider}) failed in a search: {one_line(exc)}",
                err=True,
            )
            return False
        return solution.verdict is Verdict.DEAD

    def hint(self, words: list[str]) -> None:
        try:
            self._hint(words)
        except (PatienceError, KeyboardInterrupt, BrokenPipeError):
            raise
        except BaseException as exc:  # SystemExit too, when the plugin raised it
            if own_exit(exc):
                raise
            click.echo(
                f"No hint: the {self.session.game.name} plugin ({self.provider}) failed in a "
                f"search: {one_line(exc)}"
            )

    def _hint(self, words: list[str]) -> None:
        session = self.session
        if len(words) > 2 or (len(words) == 2 and words[1] not in (HONEST, THOUGHTFUL)):
            click.echo("usage: hint [honest|thoughtful]")
            return
        mode = words[1] if len(words) == 2 else None
        positions = session.positions
        found = hint(session.game, positions[-1], positions[:-1], mode=mode, known=self.known)
        click.echo(f"Hint ({found.mode}): {found.sentence()}")

    def changed(self) -> None:
        self.save()
        self.show()

    # -- commands ----------------------------------------------------------------------------

    def list_moves(self) -> None:
        session = self.session
        legal = session.legal_moves()
        if not legal:
            click.echo("No legal moves.")
            return
        click.echo(f"Legal moves ({len(legal)}):")
        for move in legal:
            text = session.game.move_text(session.position, move)
            click.echo(f"  {text:<10} {session.game.describe_move(session.position, move)}")

    def command(self, line: str) -> bool:
        """Run one line. :returns: False when the player quits."""
        session = self.session
        words = line.strip().lower().split()
        if not words:
            return True
        verb = words[0]
        if verb in _NO_ARGUMENT and len(words) > 1:
            click.echo(f"'{verb}' takes no argument; type 'help' for the commands.")
            return True
        if verb in ("quit", "q", "exit"):
            return False
        if verb in ("help", "?") and len(words) == 1:
            for text in _help_lines(session):
                click.echo(text)
        elif verb in ("board", "b") and len(words) == 1:
            self.show()
        elif verb == "moves" and len(words) == 1:
            self.list_moves()
        elif verb == "hint":
            self.hint(words)
        elif verb == "save" and len(words) == 1:
            if self.save():
                click.echo(f"Saved to {self.path}.")
        elif verb == "restart" and len(words) == 1:
            if session.restart():
                count = len(session.redo_texts)
                click.echo(
                    f"Back to the deal; 'redo all' plays the {counted(count, 'move')} again."
                )
                self.changed()
            else:
                click.echo("Already at the deal.")
        elif verb in ("undo", "u", "redo"):
            undo = verb != "redo"
            steps = _count_arg(words, len(session.moves) if undo else len(session.redo_texts))
            if steps is None:
                click.echo(f"usage: {verb} [N|all]")
            elif (session.undo(steps) if undo else session.redo(steps)) == 0:
                click.echo("Nothing to undo." if undo else "Nothing to redo.")
            else:
                self.changed()
        else:
            self.move(line)
        return True

    def move(self, text: str) -> None:
        session = self.session
        if session.finished is not None:
            outcome = "you won" if session.finished == FINISHED_WON else "no moves left"
            click.echo(f"The game is over ({outcome}); type 'undo', 'restart' or 'quit'.")
            return
        try:
            session.play_text(text)
        except IllegalMove as exc:
            click.echo(f"{exc}; type 'moves' for the legal moves.")
            return
        except BadMoveText as exc:
            click.echo(str(exc))
            return
        self.changed()

    # -- the loop ----------------------------------------------------------------------------

    def read_line(self, interactive: bool) -> str | None:
        if sys.stdin is None or getattr(sys.stdin, "closed", False):
            return None  # no standard input at all: as the end of input
        if interactive:
            self.at_prompt = True  # until a line is read (a Ctrl-C leaves it so)
            try:
                typed = input("> ")
            except EOFError:
                self.at_prompt = False
                click.echo()
                return None
            self.at_prompt = False
            return typed
        self.at_prompt = True  # before the prompt: a Ctrl-C may come as soon as it shows
        click.echo("> ", nl=False)
        sys.stdout.flush()
        line = sys.stdin.readline()
        self.at_prompt = False
        if not line:
            click.echo()
            return None
        # Echo piped commands so that a transcript reads like a session at the terminal.
        shown = line.rstrip("\r\n")
        shown = "".join(ch if ch.isprintable() else "?" for ch in shown[:200])
        click.echo(shown + ("..." if len(line.rstrip("\r\n")) > 200 else ""))
        return line

    def run(self) -> int:
        """Show the board, then play until ``quit`` or end of input. A failure of the game's
        plugin anywhere (drawing the board, a move, the score, a hint...) ends the game with
        one line that says it is saved and how to resume it.

        :returns: the exit code.
        """
        interactive = _stdin_is_tty()
        if sys.stdin is not None and isinstance(sys.stdin, io.TextIOWrapper):
            # Bytes the locale cannot decode become U+FFFD, so such a line is refused as a
            # move like any other garbled text instead of ending the game.
            with contextlib.suppress(ValueError, OSError):
                sys.stdin.reconfigure(errors="replace")
        if interactive:
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (line editing and history for input())
        try:
            self.show()
            click.echo("Type 'help' for the notation and the commands.")
            while True:
                line = self.read_line(interactive)
                if line is None or not self.command(line):
                    break
        except KeyboardInterrupt:
            end_interrupted_line(self.at_prompt)
            self.save()
            state = "saved" if self.saved else "NOT saved"
            click.echo(f"Interrupted: game {state}; resume with: {self.resume_hint}", err=True)
            return 130
        except BrokenPipeError:
            # The reader of the output went away (`| head`): the game is kept, the command
            # ends quietly (patience_core.cli.main).
            self.save()
            raise
        except PluginError as exc:
            # An answer of the wrong kind from the game's plugin (a score that is no number):
            # it failed as surely as by raising, and the game is saved the same way.
            return _game_kept(str(exc), self.save(), self.resume_hint)
        except PatienceError:
            raise
        except BaseException as exc:  # Ctrl-C and a broken pipe are handled above
            if own_exit(exc):
                raise  # not the plugin's: an exit of patience's own
            # The game's plugin failed inside a hook (raising any exception, SystemExit too).
            # The position before the failing action is already saved (a failure while asking
            # whether the game is over saves it as in progress); save it again and say so.
            saved = self.save()
            return plugin_failed(
                exc, self.session.game.name, self.provider, saved, self.resume_hint
            )
        if not self.saved and not self.save():
            return 1
        click.echo(f"Game saved to {self.path}; resume with: {self.resume_hint}")
        return 0


def plugin_failed(exc: BaseException, game: str, provider: str, saved: bool, resume: str) -> int:
    """Report that the plugin of the game being played failed with ``exc``: one line on stderr
    that names it and says whether the game is saved and how to resume it (after the traceback,
    when ``PATIENCE_DEBUG`` is set).

    :param provider: the plugin's distribution.
    :param saved: whether the game is saved.
    :param resume: the command that resumes it.
    :returns: the exit code, 1.
    """
    if os.environ.get("PATIENCE_DEBUG"):
        show_traceback(exc)
    return _game_kept(f"the {game} plugin ({provider}) failed: {one_line(exc)}", saved, resume)


def _game_kept(what: str, saved: bool, resume: str) -> int:
    """Print the one line that ends a game its plugin broke: ``what`` went wrong, whether the
    game is saved, and how to resume it. :returns: the exit code, 1."""
    state = "is saved" if saved else "could NOT be saved"
    click.echo(f"patience: error: {what}; your game {state}; resume with: {resume}", err=True)
    return 1


def _protect_existing(path: Path, explicit_file: bool, make_game: GameFactory) -> None:
    """Make sure starting a new game at ``path`` loses nothing.

    A finished save is replaced. With ``--file``, anything else there is refused. At the default
    location an unfinished or unreadable save is moved aside to a timestamped name.

    :raises PatienceError: when ``--file`` names a file that must not be overwritten.
    """
    if not (path.exists() or path.is_symlink()):
        return
    saved: SavedGame | None = None
    try:
        saved = read_save(path)
        finished = restore_session(saved, make_game, path).finished
    except BadSave:
        saved = None
    if saved is not None and (finished is not None or not (saved.moves or saved.redo)):
        return  # a finished game, or one with no move played: nothing to lose
    if explicit_file:
        if saved is not None:
            raise PatienceError(
                f"{path} holds a game in progress; continue it with --resume, "
                "or choose another --file"
            )
        raise PatienceError(f"{path} exists and is not a finished saved game; not overwriting it")
    if saved is None:
        moved = archive_save(path, "unreadable")
        click.echo(f"The saved game at {path} could not be read; it was moved to {moved}.")
        return
    moved = archive_save(path)
    played = counted(len(saved.moves), "move")
    click.echo(
        f"Your unfinished {saved.game} game (deal {saved.deal}, {played}) was "
        f"kept as {moved}; resume it with: "
        f"{_resume_command(saved.game, moved, explicit_file=True)}"
    )


@click.command()
@click.argument("game")
@click.option(
    "--deal", "-d", "deal_number", type=DEAL, help="Deal number N (or ms:N); random if omitted."
)
@option_flag
@click.option(
    "--resume", "-r", is_flag=True, help="Continue the saved game of GAME (or of --file)."
)
@click.option(
    "--file",
    "-f",
    "file",
    type=click.Path(),
    help="The save file (default: <data dir>/saves/GAME.json; see docs/play.md).",
)
@click.option(
    "--dead-check/--no-dead-check",
    default=True,
    show_default=True,
    help="After each move, search briefly (0.3 s, or $PATIENCE_DEAD_CHECK seconds) and say "
    "when no winning line remains.",
)
@click.pass_context
def play(
    ctx: click.Context,
    game: str,
    deal_number: DealNumber | None,
    options: tuple[str, ...],
    resume: bool,
    file: str | None,
    dead_check: bool,
) -> None:
    """Play GAME in the terminal. Type moves (e.g. 9h, deal, t1 f, t3 t5 2) and commands (help,
    hint, undo, redo, restart, moves, board, save, quit), one per line. The game is saved after
    every move; --resume continues it. Without --deal a random deal is chosen and its number
    printed. 'hint' gives the best move and why (docs/solver.md)."""
    host = get_host(ctx)
    dead_seconds = dead_check_seconds(dead_check)
    host.games.get(game)  # UnknownGame, before anything else
    path = file_path(file, "--file", "save file") if file is not None else default_save_path(game)
    explicit_file = file is not None
    if explicit_file and not resume and not path.parent.is_dir():
        # A typo in a path must not make folders (the default place is made when needed).
        what = "is not a folder" if path.parent.exists() else "does not exist"
        raise PatienceError(f"cannot save the game to {path}: the folder {path.parent} {what}")
    resume_hint = _resume_command(game, path, explicit_file)
    # One window per saved game: a second `play` of the same save is refused, so two windows
    # never overwrite each other's moves. The lock goes with the process.
    lock = SaveLock(path)
    lock.acquire()
    ctx.call_on_close(lock.release)  # on every way out, errors included
    if resume:
        if deal_number is not None or options:
            raise click.UsageError("--deal and --option cannot be used with --resume")
        if not (path.exists() or path.is_symlink()):
            raise BadSave(f"no saved {game} game at {path}; start one with: patience play {game}")
        saved = read_save(path)
        if saved.game != game:
            raise BadSave(f"{path} holds a saved {saved.game} game, not {game}")
        try:
            session = restore_session(saved, host.game, path)
        except (PatienceError, KeyboardInterrupt, BrokenPipeError):
            raise
        except BaseException as exc:  # the plugin's code failed in replaying the moves
            if own_exit(exc):
                raise
            # The save is only read: it stays as it was.
            sys.exit(plugin_failed(exc, game, host.games.provider(game), True, resume_hint))
        plugin_version = host.version_of(game)
        click.echo(f"Resuming {session.game.title}, deal {session.deal}, from {path}.")
        if saved.plugin_version != plugin_version:
            click.echo(
                f"Note: saved with {game} plugin version {saved.plugin_version}; "
                f"now {plugin_version}."
            )
    else:
        the_game = host.game(game, parse_options(options))
        number = deal_number if deal_number is not None else random_deal()
        session = Session(the_game, number)
        plugin_version = host.version_of(game)
        _protect_existing(path, explicit_file, host.game)
        if deal_number is None:
            click.echo(f"Deal {number} was chosen at random; play it again with --deal {number}.")
        save_session(path, session, plugin_version)
    style = CardStyle.for_stream(sys.stdout)
    paint = make_painter(style, lambda card: host.card_text(card, style.unicode))
    player = _Player(session, path, plugin_version, paint, resume_hint, dead_seconds)
    if not _stdin_is_tty() and not os.environ.get(DEAD_CHECK_ENV, "").strip():
        player.dead_seconds = 3600.0 if dead_seconds > 0 else 0.0
        player.dead_nodes = DEAD_CHECK_PIPED_NODES
    player.provider = host.games.provider(session.game.name)
    code = player.run()
    if code:
        sys.exit(code)  # not ctx.exit: the exit code must survive standalone_mode=False
