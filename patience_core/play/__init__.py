"""The play package."""

from __future__ import annotations

from patience_core.play._render import (
    CardStyle,
    board_text,
    make_painter,
)
from patience_core.play._saves import (
    MAX_DIGITS,
    MAX_SAVE_BYTES,
    SAVE_FORMAT,
    SAVE_VERSION,
    GameFactory,
    SavedGame,
    SaveLock,
    archive_save,
    default_save_path,
    load_session,
    read_save,
    restore_session,
    save_session,
    session_to_dict,
    whole_number,
)
from patience_core.play._session import (
    FINISHED_LOST,
    FINISHED_WON,
    MAX_MOVES,
    Session,
)

__all__ = [
    "FINISHED_LOST",
    "FINISHED_WON",
    "MAX_DIGITS",
    "MAX_MOVES",
    "MAX_SAVE_BYTES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "CardStyle",
    "GameFactory",
    "SaveLock",
    "SavedGame",
    "Session",
    "archive_save",
    "board_text",
    "default_save_path",
    "load_session",
    "make_painter",
    "read_save",
    "restore_session",
    "save_session",
    "session_to_dict",
    "whole_number",
]
