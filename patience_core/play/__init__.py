"""Play: a game in play (session, saves, the line player), for any front end.

:class:`PlayController` applies a typed command and says what it did (no input or output);
:class:`LinePlayer` is the terminal front end over it; :func:`play_game` starts or resumes a game
for ``patience play`` (docs/play.md).
"""

from __future__ import annotations

from patience_core.play._commands import COMMANDS_HELP, help_lines
from patience_core.play._controller import (
    HangUp,
    Outcome,
    PlayController,
    own_exit_by_default,
    raised_by_plugin,
)
from patience_core.play._line import HANG_UP_EXIT, LinePlayer, hang_up_raises, stdin_is_tty
from patience_core.play._loading import (
    MAX_DIGITS,
    load_session,
    read_save,
    restore_session,
    whole_number,
)
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
from patience_core.play._session import (
    FINISHED_LOST,
    FINISHED_WON,
    MAX_MOVES,
    Session,
)
from patience_core.play._start import (
    PlayRequest,
    check_save_writable,
    play_game,
    protect_existing,
    resume_command,
)

__all__ = [
    "COMMANDS_HELP",
    "FINISHED_LOST",
    "FINISHED_WON",
    "HANG_UP_EXIT",
    "MAX_DIGITS",
    "MAX_MOVES",
    "MAX_SAVE_BYTES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "CardStyle",
    "GameFactory",
    "HangUp",
    "LinePlayer",
    "Outcome",
    "PlayController",
    "PlayRequest",
    "SaveLock",
    "SavedGame",
    "Session",
    "archive_save",
    "board_text",
    "check_save_writable",
    "default_save_path",
    "hang_up_raises",
    "help_lines",
    "load_session",
    "make_painter",
    "own_exit_by_default",
    "play_game",
    "protect_existing",
    "raised_by_plugin",
    "read_save",
    "restore_session",
    "resume_command",
    "save_session",
    "session_to_dict",
    "stdin_is_tty",
    "whole_number",
]
