"""The files of ``patience play`` (outside cases 2026-12, "files and messages"): a save the user
may not write is refused before the game starts; a file that cannot be read is one rule for
every command (exit 1, ``cannot read FILE: REASON``); no litter (stale temporaries, lock files)
is left in the data folder."""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from patience_core.files import STALE_AFTER

Run = Callable[..., Any]


def _no_access(monkeypatch: pytest.MonkeyPatch, path: Path, denied: int) -> None:
    """Make ``os.access`` deny ``denied`` (``os.R_OK``, ``os.W_OK``) on ``path``: as root (the
    tests' user) every file may be read and written."""
    access = os.access

    def answer(name: Any, mode: int, *args: Any, **kw: Any) -> bool:
        if Path(name) == path and mode & denied:
            return False
        return access(name, mode, *args, **kw)

    monkeypatch.setattr(os, "access", answer)


def _unreadable(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Make ``path`` a file nobody may read, as a mode-000 file is for a user: ``os.access``
    says so (click asks it) and opening it fails with EACCES."""
    _no_access(monkeypatch, path, os.R_OK | os.W_OK)
    real_open = io.open

    def refusing_open(file: Any, *args: Any, **kw: Any) -> Any:
        if isinstance(file, (str, os.PathLike)) and Path(file) == path:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kw)

    monkeypatch.setattr(io, "open", refusing_open)
    monkeypatch.setattr("builtins.open", refusing_open)


def _a_save(run_patience: Run, path: Path) -> Path:
    done = run_patience("play", "escalator", "--deal", "3", "--file", str(path), input="deal\n")
    assert done.code == 3, done
    return path


def test_a_read_only_save_is_refused_before_the_game_starts(
    run_patience: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """chmod 444 ro.json; patience play escalator --resume --file ro.json, then a move: the file
    must not change (it did: the save was renamed over it)."""
    save = _a_save(run_patience, tmp_path / "ro.json")
    save.chmod(0o444)
    before = save.read_bytes()
    _no_access(monkeypatch, save, os.W_OK)
    for args in (("--resume",), ("--deal", "4")):
        done = run_patience("play", "escalator", *args, "--file", str(save), input="deal\n")
        assert (done.code, done.out) == (1, ""), done
        assert done.err == (
            f"patience: error: cannot save the game to {save}: the file is read-only\n"
        )
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["patience-data", "ro.json"]


def test_a_read_only_default_save_is_refused_too(
    run_patience: Run, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_patience("play", "escalator", "--deal", "3", input="deal\n").code == 3
    save = patience_data_dir / "saves" / "escalator.json"
    before = save.read_bytes()
    _no_access(monkeypatch, save, os.W_OK)
    done = run_patience("play", "escalator", "--resume", input="deal\n")
    assert done.code == 1 and done.err.endswith(": the file is read-only\n")
    assert len(done.err.splitlines()) == 1 and save.read_bytes() == before


def test_a_save_in_a_read_only_folder_is_refused_before_the_game_starts(
    run_patience: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    _no_access(monkeypatch, folder, os.W_OK)
    done = run_patience("play", "escalator", "--deal", "3", "--file", str(folder / "g.json"))
    assert (done.code, done.out) == (1, "")
    assert done.err == (
        f"patience: error: cannot save the game to {folder / 'g.json'}: its folder is read-only\n"
    )
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ("score", "{}"),
        ("score", "--json", "{}"),
        ("hint", "{}"),
        ("play", "escalator", "--resume", "--file", "{}"),
        ("play", "escalator", "--deal", "4", "--file", "{}"),
        ("deal", "escalator", "--from", "{}"),
        ("solve", "escalator", "--from", "{}"),
    ],
    ids=lambda args: " ".join(args),
)
def test_a_file_that_cannot_be_read_is_one_rule_for_every_command(
    run_patience: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    """Exit 1 and one line, as docs/cli.md says of a bad file (score, hint and play --file
    exited 2 with click's "Path ... is not readable")."""
    save = _a_save(run_patience, tmp_path / "noperm.json")
    before = save.read_bytes()
    _unreadable(monkeypatch, save)
    done = run_patience(*(arg.format(save) for arg in args), input="deal\nquit\n")
    assert (done.code, done.out) == (1, ""), done
    assert done.err == f"patience: error: cannot read {save}: Permission denied\n"
    monkeypatch.undo()
    assert save.read_bytes() == before


def test_play_leaves_no_lock_file_and_no_stale_temporary(
    run_patience: Run, patience_data_dir: Path
) -> None:
    """A kill -9 during a save can leave ``.NAME.XXXX.tmp`` beside it: the next save removes it
    once it is old enough to be dead. Locks do not pile up in ``locks/`` (one per save path
    ever used, before): a game that ends removes its lock file."""
    assert run_patience("play", "escalator", "--deal", "3", input="deal\n").code == 3
    saves = patience_data_dir / "saves"
    litter = saves / ".escalator.json.k9x2ab7q.tmp"
    litter.write_text('{"format": "patience-save", "ver')
    when = time.time() - STALE_AFTER - 5
    os.utime(litter, (when, when))
    for n in range(3):
        path = patience_data_dir / f"g{n}.json"
        args = ("--deal", "5", "--file", str(path))
        assert run_patience("play", "escalator", *args, input="deal\n").code == 3
    assert run_patience("play", "escalator", "--resume", input="deal\n").code == 3
    assert sorted(p.name for p in saves.iterdir()) == ["escalator.json"]
    assert json.loads((saves / "escalator.json").read_text())["moves"] == ["deal", "deal"]
    assert list((patience_data_dir / "locks").iterdir()) == []
