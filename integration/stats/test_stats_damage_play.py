"""Nothing in a statistics file stops a game: ``patience play`` with a database of an unknown
schema version, a database missing its table, or a data folder that is a file, plays on with
one warning and saves the game."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]


def play_on(run_patience: Run, save: Path) -> list[str]:
    """Play a move of Escalator deal 12 and quit: the game is saved; the warnings given."""
    result = run_patience(
        "play", "escalator", "--file", str(save), "--deal", "12", input="deal\nquit\n"
    )
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    assert save.exists() and "Moves: 1" in result.out
    return result.err.splitlines()


@pytest.mark.parametrize("change", ["UPDATE schema_version SET version = 0", "DROP TABLE games"])
def test_a_damaged_database_is_moved_aside_and_play_records(
    run_patience: Run, patience_data_dir: Path, tmp_path: Path, change: str
) -> None:
    play_on(run_patience, tmp_path / "a.json")
    with sqlite3.connect(patience_data_dir / "stats.db") as conn:
        conn.execute(change)
    conn.close()
    (warning,) = play_on(run_patience, tmp_path / "b.json")
    assert warning.startswith("patience: warning: the statistics ") and "moved to" in warning
    assert len(list(patience_data_dir.glob("stats-*-corrupt.db"))) == 1
    assert play_on(run_patience, tmp_path / "c.json") == []  # repaired once, for good


def test_a_data_folder_that_is_a_file_plays_on(
    run_patience: Run,
    patience_data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    patience_data_dir.write_text("")
    (warning,) = play_on(run_patience, tmp_path / "a.json")
    assert warning.endswith(f"the data folder {patience_data_dir} is a file, not a folder")
