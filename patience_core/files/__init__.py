"""Files: where patience keeps its data, how every file is written (atomically), and the lock
that keeps one writer per file.

Below every layer that writes files (play, simulate); it imports only :mod:`patience_core.errors`.
"""

from __future__ import annotations

from patience_core.files._atomic import (
    STALE_AFTER,
    atomic_writer,
    check_writable,
    protected,
    remove_stale_temporaries,
    write_bytes_atomic,
    write_text_atomic,
)
from patience_core.files._lock import WriterLock
from patience_core.files._store import DATA_DIR_ENV, data_dir, move_aside, write_json_atomic
from patience_core.files._streams import silence_output

__all__ = [
    "DATA_DIR_ENV",
    "STALE_AFTER",
    "WriterLock",
    "atomic_writer",
    "check_writable",
    "data_dir",
    "move_aside",
    "protected",
    "remove_stale_temporaries",
    "silence_output",
    "write_bytes_atomic",
    "write_json_atomic",
    "write_text_atomic",
]
