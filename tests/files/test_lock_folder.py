"""Where the writer lock goes when the data folder's ``locks/`` cannot be made: a private
folder in the temporary folder, so the file can still be written; a message naming the folder
when even that fails."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from patience_core.errors import PatienceError
from patience_core.files import WriterLock


def test_a_data_folder_that_is_a_file_locks_in_the_spare_folder(
    tmp_path: Path, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    patience_data_dir.write_text("")
    with WriterLock(tmp_path / "game.json", "busy!") as held:
        assert held.lock_path.parent.parent == tmp_path / "tmp"
        assert held.lock_path.parent.name.startswith("patience-locks-")
        assert held.lock_path.exists()
        # A second holder finds the same spare lock taken.
        with pytest.raises(PatienceError, match=r"^busy!$"):
            WriterLock(tmp_path / "game.json", "busy!").acquire()
    assert list(held.lock_path.parent.iterdir()) == []


def test_no_folder_for_the_lock_names_the_folder(
    tmp_path: Path, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tmp").write_text("")  # the temporary folder is no folder either
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    patience_data_dir.write_text("")
    with pytest.raises(PatienceError) as caught:
        WriterLock(tmp_path / "game.json", "busy!").acquire()
    message = str(caught.value)
    assert f"cannot make the lock folder {patience_data_dir / 'locks'}" in message
    assert "game.json" not in message and "\n" not in message


def test_a_lock_folder_given_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(PatienceError, match=r"^cannot make the lock folder .*file/locks: "):
        WriterLock(tmp_path / "game.json", "busy!", tmp_path / "file" / "locks").acquire()
