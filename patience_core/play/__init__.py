"""Play: a game in play (session, saves, the line player), for any front end.

:class:`PlayController` applies a typed command or a move and says what it did (no input or
output): hints (:class:`HintAnswer`), the dead check, auto-finish, the clock
(:class:`PlayClock`), the statistics row. :func:`open_game` opens a game for either front end;
:class:`LinePlayer` is the line front end over it and :func:`play_game` runs it for
``patience play`` (docs/play.md). :func:`winnable_deal` picks a deal the solver proves winnable.
"""

from __future__ import annotations

from patience_core.play._budget import (
    DEAD_CHECK_DEFAULT,
    DEAD_CHECK_ENV,
    DEAD_CHECK_PIPED_NODES,
    dead_check_budget,
    dead_check_seconds,
)
from patience_core.play._clock import LINE_CAP_SECONDS, PlayClock
from patience_core.play._commands import COMMANDS_HELP, help_lines
from patience_core.play._controller import PlayController
from patience_core.play._failures import (
    HangUp,
    game_kept_line,
    own_exit_by_default,
    raised_by_plugin,
)
from patience_core.play._finish import finish_moves, smart_choice
from patience_core.play._line import (
    EXIT_IN_PROGRESS,
    EXIT_LOST,
    EXIT_REFUSED,
    EXIT_WON,
    HANG_UP_EXIT,
    LinePlayer,
    hang_up_raises,
    stdin_is_tty,
)
from patience_core.play._loading import (
    MAX_DIGITS,
    load_session,
    read_save,
    restore_session,
    whole_number,
)
from patience_core.play._narrow import echo_fitted, fit_board, fit_text, line_width
from patience_core.play._outcome import Outcome
from patience_core.play._render import (
    CardStyle,
    board_text,
    make_painter,
)
from patience_core.play._saves import (
    MAX_SAVE_BYTES,
    SAVE_FORMAT,
    SAVE_VERSION,
    GameFactory,
    SavedGame,
    SaveLock,
    archive_save,
    default_save_path,
    save_session,
    session_to_dict,
)
from patience_core.play._searching import DEAD_AT_DEAL, DEAD_NOW, HintAnswer, hides_cards
from patience_core.play._session import (
    FINISHED_LOST,
    FINISHED_WON,
    MAX_MOVES,
    Session,
)
from patience_core.play._start import (
    OpenedGame,
    PlayRequest,
    check_save_writable,
    open_game,
    play_game,
    protect_existing,
    resume_command,
)
from patience_core.play._winnable import (
    WINNABLE_NODES,
    WINNABLE_TRIES,
    WinnableDeal,
    winnable_deal,
)

__all__ = [
    "COMMANDS_HELP",
    "DEAD_AT_DEAL",
    "DEAD_CHECK_DEFAULT",
    "DEAD_CHECK_ENV",
    "DEAD_CHECK_PIPED_NODES",
    "DEAD_NOW",
    "EXIT_IN_PROGRESS",
    "EXIT_LOST",
    "EXIT_REFUSED",
    "EXIT_WON",
    "FINISHED_LOST",
    "FINISHED_WON",
    "HANG_UP_EXIT",
    "LINE_CAP_SECONDS",
    "MAX_DIGITS",
    "MAX_MOVES",
    "MAX_SAVE_BYTES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "WINNABLE_NODES",
    "WINNABLE_TRIES",
    "CardStyle",
    "GameFactory",
    "HangUp",
    "HintAnswer",
    "LinePlayer",
    "OpenedGame",
    "Outcome",
    "PlayClock",
    "PlayController",
    "PlayRequest",
    "SaveLock",
    "SavedGame",
    "Session",
    "WinnableDeal",
    "archive_save",
    "board_text",
    "check_save_writable",
    "dead_check_budget",
    "dead_check_seconds",
    "default_save_path",
    "echo_fitted",
    "finish_moves",
    "fit_board",
    "fit_text",
    "game_kept_line",
    "hang_up_raises",
    "help_lines",
    "hides_cards",
    "line_width",
    "load_session",
    "make_painter",
    "open_game",
    "own_exit_by_default",
    "play_game",
    "protect_existing",
    "raised_by_plugin",
    "read_save",
    "restore_session",
    "resume_command",
    "save_session",
    "session_to_dict",
    "smart_choice",
    "stdin_is_tty",
    "whole_number",
    "winnable_deal",
]
