"""Starting a game: a new deal (random, given, or a winnable one) or a resumed save, the save
file checked and locked, an unfinished save kept aside, the controller with its search, clock
and statistics row (:func:`open_game`, shared by both front ends); then the line player's loop
(:func:`play_game`).

``patience play`` parses its options and calls :func:`play_game` or the full-screen player;
docs/play.md tells the rules.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import attrs

from patience_core.engine import DealNumber, counted
from patience_core.errors import BadSave, PatienceError, one_line
from patience_core.games import Game, GameSearch, cannot_read
from patience_core.play._clock import PlayClock
from patience_core.play._controller import PlayController
from patience_core.play._failures import (
    HangUp,
    game_kept_line,
    own_exit_by_default,
    raised_by_plugin,
)
from patience_core.play._line import (
    HANG_UP_EXIT,
    TERMINATED_EXIT,
    LinePlayer,
    Terminated,
    end_line,
    hang_up_raises,
    print_traceback,
)
from patience_core.play._loading import read_save, restore_session
from patience_core.play._narrow import echo_fitted
from patience_core.play._render import CardStyle, make_painter
from patience_core.play._savefile import (
    check_save_writable,
    protect_existing,
    resume_command,
    version_note,
)
from patience_core.play._saves import (
    SavedGame,
    SaveLock,
    save_session,
)
from patience_core.play._session import Session
from patience_core.play._tally import new_record
from patience_core.play._winnable import winnable_deal
from patience_core.plugins import PluginHost
from patience_core.solve import DEAD_CHECK_NODES
from patience_core.stats import Statistics

__all__ = ["OpenedGame", "PlayRequest", "check_save_writable", "open_game", "play_game"]
__all__ += ["protect_existing", "resume_command"]


def read_resumed(request: PlayRequest) -> SavedGame:
    """The save ``--resume`` continues, read and checked (not replayed: see
    :func:`~patience_core.play.restore_session`).

    :raises BadSave: ``cannot read FILE: REASON``, the rule of every command (docs/cli.md), for
        a file that cannot be read (a missing one with how to start the game there), or one
        line saying what is wrong with it.
    """
    game, path = request.game, request.path
    try:
        os.lstat(path)
    except FileNotFoundError:
        # How to start the game there when its folder is there (the default one is made when
        # needed).
        start = f"patience play {game}"
        if request.explicit_file:
            if not path.parent.is_dir():
                raise cannot_read(path) from None
            start += f" --file {shlex.quote(str(path))}"
        missing = os.strerror(errno.ENOENT)
        raise BadSave(f"cannot read {path}: {missing}; start one with: {start}") from None
    except OSError:
        pass  # a name too long, a folder in the path that is a file, ...: reading says why
    return read_save(path)


@attrs.frozen
class PlayRequest:
    """What ``patience play`` was asked to do, its options parsed.

    :param game: the game's name (known to the host).
    :param path: the save file.
    :param explicit_file: ``path`` was given (``--file``), not the default place.
    :param resume: continue the save at ``path``.
    :param deal: the deal of a new game.
    :param deal_was_random: ``deal`` was chosen at random (its number is printed).
    :param options: the options of a new game (name to value).
    :param dead_seconds: the dead check's seconds per position (0: never on).
    :param dead_nodes: the dead check's node budget per position.
    :param dead_check: the dead check on or off at the start; ``None``: on only where no card
        is hidden (``--dead-check/--no-dead-check``).
    :param plain: the line player even on a terminal (``--plain``).
    :param winnable: a new game plays a random deal the solver proves winnable (``--winnable``;
        ``deal`` is then ignored).
    :param rng_seed: the seed of ``winnable``'s random deals.
    """

    game: str
    path: Path
    explicit_file: bool
    resume: bool
    deal: DealNumber | None = None
    deal_was_random: bool = False
    options: Mapping[str, str] = attrs.field(factory=dict)
    dead_seconds: float = 0.0
    dead_nodes: int = DEAD_CHECK_NODES
    dead_check: bool | None = None
    plain: bool = False
    winnable: bool = False
    rng_seed: int = 0


def _resume(
    host: PluginHost,
    request: PlayRequest,
    own_exit: Callable[[BaseException], bool],
    show_traceback: Callable[[BaseException], None],
    resume_hint: str,
    notes: list[str],
) -> tuple[Session, str, SavedGame] | None:
    """The session of the save to resume, the plugin's version now, and the save; ``None``
    when the game's plugin failed in replaying the moves (said in one line on stderr). The
    note that a changed variant goes on with its saved rules is printed and added to
    ``notes``."""
    game, path = request.game, request.path
    saved = read_resumed(request)
    if saved.game != game:
        raise BadSave(f"{path} holds a saved {saved.game} game, not {game}")
    try:
        session = restore_session(saved, host.game, path, say=notes.append)
    except (PatienceError, KeyboardInterrupt, BrokenPipeError, HangUp):
        raise
    except BaseException as exc:  # the plugin's code failed in replaying the moves
        if own_exit(exc) or not raised_by_plugin(exc, host.game_class(game).__module__):
            raise
        # The save is only read: it stays as it was.
        if os.environ.get("PATIENCE_DEBUG"):
            show_traceback(exc)
        provider = host.games.provider(game)
        what = f"the {game} plugin ({provider}) failed: {one_line(exc)}"
        echo_fitted(game_kept_line(what, True, resume_hint), err=True)
        return None
    for note in notes:
        echo_fitted(note)
    plugin_version = host.version_of(game)
    echo_fitted(f"Resuming {session.game.title}, deal {session.deal}, from {path}.")
    versions = version_note(game, saved.plugin_version, plugin_version, host.games.provider(game))
    if versions:
        echo_fitted(versions)
    return session, plugin_version, saved


@attrs.define
class OpenedGame:
    """A game opened for a front end (:func:`open_game`): its controller, the save's lock
    held, the statistics open. Call :meth:`release` when the front end is done.

    :param controller: the game in play.
    :param lock: the save's lock, held.
    :param statistics: the statistics database, or ``None``.
    """

    controller: PlayController
    lock: SaveLock
    statistics: Statistics | None = None

    def release(self) -> None:
        """Write the statistics row as the player leaves it (:meth:`PlayController.
        record_stats`), close the statistics and release the save's lock. Idempotent."""
        if self.statistics is not None:
            # A plugin that fails in the score (raising anything, SystemExit too) has been
            # told already: the row keeps what it last held.
            with contextlib.suppress(Exception, SystemExit):
                self.controller.record_stats()
            self.statistics.close()
            self.statistics = None
        self.lock.release()


def open_game(
    host: PluginHost,
    request: PlayRequest,
    *,
    own_exit: Callable[[BaseException], bool] = own_exit_by_default,
    show_traceback: Callable[[BaseException], None] = print_traceback,
    warn: Callable[[str], None] = LinePlayer.warn,
) -> OpenedGame | int:
    """Open the game of ``request`` for a front end: check the save can be written, lock it,
    resume it or start a new deal (a winnable one with ``request.winnable``; an unfinished
    save at the default place is kept aside), and make the controller with the game's search,
    the clock (continued from the save) and the statistics row. Lines for the player (which
    deal, where an old save went) are printed on standard output first.

    :param own_exit: tells patience's own ``SystemExit`` from a failing plugin's.
    :param show_traceback: prints a failing plugin's traceback (``PATIENCE_DEBUG``).
    :param warn: prints a one-line warning (the controller's ``warn``).
    :returns: the game, its lock held; or the exit code 1 when the game's plugin failed in
        replaying the save's moves (said in one line on stderr; nothing is held then).
    :raises PatienceError: one line: a save that cannot be read, written or locked, a file that
        must not be overwritten, an unknown game or option, no winnable deal found, ...
    """
    game, path = request.game, request.path
    resume_hint = resume_command(game, path, request.explicit_file)
    if request.resume:
        # A save that cannot be read is told as such, before whether it could be written.
        read_resumed(request)
    check_save_writable(path)
    # One window per saved game: a second `play` of the same save is refused, so two windows
    # never overwrite each other's moves. The lock goes with the process.
    lock = SaveLock(path)
    lock.acquire()
    try:
        opened = _open_locked(host, request, own_exit, show_traceback, warn, resume_hint, lock)
    except BaseException:
        lock.release()
        raise
    if isinstance(opened, int):
        lock.release()
    return opened


def _open_locked(
    host: PluginHost,
    request: PlayRequest,
    own_exit: Callable[[BaseException], bool],
    show_traceback: Callable[[BaseException], None],
    warn: Callable[[str], None],
    resume_hint: str,
    lock: SaveLock,
) -> OpenedGame | int:
    """:func:`open_game` once the save is locked."""
    game, path = request.game, request.path
    elapsed, stats_id = 0.0, None
    notes: list[str] = []
    versions: list[str] = []
    options: dict[str, str] = {}
    if request.resume:
        resumed = _resume(host, request, own_exit, show_traceback, resume_hint, notes)
        if resumed is None:
            return 1
        session, plugin_version, saved = resumed
        elapsed, stats_id = saved.elapsed, saved.stats_id
        provider = host.games.provider(game)
        note = version_note(game, saved.plugin_version, plugin_version, provider)
        versions = [note] if note else []
        options = dict(saved.options)
    else:
        the_game = host.game(game, request.options)
        deal = request.deal
        found = None
        if request.winnable:
            echo_fitted(f"Looking for a winnable {the_game.title} deal...")
            found = winnable_deal(the_game, host.search(the_game), request.rng_seed)
            deal = found.deal
        assert deal is not None
        session = Session(the_game, deal)
        plugin_version = host.version_of(game)
        protect_existing(path, request.explicit_file, host.game, echo_fitted)
        # The options go with the deal: the same number is another game without them.
        again = f"--deal {deal}" + "".join(
            f" -o {shlex.quote(f'{key}={value}')}" for key, value in request.options.items()
        )
        if found is not None:
            echo_fitted(f"{found.sentence()[:-1]}; play it again with {again}.")
        elif request.deal_was_random:
            echo_fitted(f"Deal {deal} was chosen at random; play it again with {again}.")
        save_session(path, session, plugin_version)
    said: list[PlayController] = []

    def stats_warn(message: str) -> None:
        # The statistics warn with the bare message; the line goes to the controller's warn of
        # the moment (a full-screen front end replaces it while its screen is up).
        (said[0].warn if said else warn)(f"patience: warning: {message}")

    statistics = Statistics.open(warn=stats_warn)
    controller = PlayController(
        session,
        path,
        plugin_version,
        provider=host.games.provider(session.game.name),
        resume_hint=resume_hint,
        dead_seconds=request.dead_seconds,
        dead_nodes=request.dead_nodes,
        dead_check=request.dead_check,
        search=host.search(session.game),
        warn=warn,
        own_exit=own_exit,
        clock=PlayClock(elapsed),
        record=new_record(statistics, session, plugin_version, stats_id),
        new_record=lambda new: new_record(statistics, new, plugin_version),
        # Resumed with the rules its save recorded: a new deal takes the variant file's rules.
        renew=(lambda: _current(host, game, options)) if notes else None,
    )
    # What was said on resuming, for a full-screen player whose screen hides it.
    controller.opening_note = _opening_note([*notes[:1], *versions])
    said.append(controller)
    return OpenedGame(controller, lock, statistics)


def _opening_note(notes: Sequence[str]) -> str | None:
    """The notes printed on resuming (``notes``, whole lines) as one message for a full-screen
    player's message line: the first whole, and how many more follow (the screen shows them
    when it closes) rather than a second one cut mid-word; ``None`` without notes."""
    if len(notes) <= 1:
        return notes[0] if notes else None
    more = len(notes) - 1
    return f"{notes[0]} (and {counted(more, 'more note')} when you quit)"


def _current(
    host: PluginHost, name: str, options: dict[str, str]
) -> tuple[Game, GameSearch | None]:
    """The game ``name`` with ``options`` as installed now, and its search."""
    game = host.game(name, options)
    return game, host.search(game)


def play_game(
    host: PluginHost,
    request: PlayRequest,
    *,
    own_exit: Callable[[BaseException], bool] = own_exit_by_default,
    end_interrupted_line: Callable[[bool], None] = end_line,
    show_traceback: Callable[[BaseException], None] = print_traceback,
    on_close: Callable[[Callable[[], None]], object] | None = None,
) -> int:
    """Start (or resume) the game of ``request`` and play it in the terminal until ``quit`` or
    the end of input.

    The save file is checked (writable) and locked first, so two windows never play the same
    save; the lock is released when the game ends (or by ``on_close``'s callback).

    :param own_exit: tells patience's own ``SystemExit`` from a failing plugin's.
    :param end_interrupted_line: ends the line a Ctrl-C left the cursor in.
    :param show_traceback: prints a failing plugin's traceback (``PATIENCE_DEBUG``).
    :param on_close: registers the lock's release to run when the caller is done (click's
        ``ctx.call_on_close``); ``None``: released when this function returns.
    :returns: the exit code (see :meth:`LinePlayer.run`); 129 when the terminal closed
        (SIGHUP) before the game started.
    :raises PatienceError: one line: a save that cannot be read, written or locked, a file that
        must not be overwritten, an unknown game or option, ...
    """
    # The terminal closing ends the game as the end of input does: saved, its lock released,
    # no temporary file left behind (the default would end the process at once).
    with hang_up_raises():
        try:
            return _play_game(
                host, request, own_exit, end_interrupted_line, show_traceback, on_close
            )
        except HangUp:
            return HANG_UP_EXIT
        except Terminated:
            return TERMINATED_EXIT  # before the game started: nothing to save yet


def _play_game(
    host: PluginHost,
    request: PlayRequest,
    own_exit: Callable[[BaseException], bool],
    end_interrupted_line: Callable[[bool], None],
    show_traceback: Callable[[BaseException], None],
    on_close: Callable[[Callable[[], None]], object] | None,
) -> int:
    """:func:`play_game`, the terminal's closing aside."""
    opened = open_game(host, request, own_exit=own_exit, show_traceback=show_traceback)
    if isinstance(opened, int):
        return opened
    if on_close is not None:
        on_close(opened.release)  # on every way out, errors included
    try:
        style = CardStyle.for_stream(sys.stdout)
        paint = make_painter(style, lambda card: host.card_text(card, style.unicode))
        player = LinePlayer(
            opened.controller,
            paint,
            end_interrupted_line=end_interrupted_line,
            show_traceback=show_traceback,
            symbols=style.unicode,
        )
        return player.run()
    finally:
        if on_close is None:
            opened.release()
