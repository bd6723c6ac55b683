"""Files: where patience keeps its data, and how every file is written (atomically).

Below every layer that writes files (play, simulate); it imports only :mod:`patience_core.errors`.
"""

from __future__ import annotations

from patience_core.files._store import DATA_DIR_ENV, data_dir, move_aside, write_json_atomic

__all__ = ["DATA_DIR_ENV", "data_dir", "move_aside", "write_json_atomic"]
