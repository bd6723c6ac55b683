"""The files layer: the one atomic writer (text, bytes, links, permissions, refusals, stale
temporaries) and the lock that keeps one writer per file and leaves no lock file behind."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from patience_core.errors import PatienceError
from patience_core.files import (
    STALE_AFTER,
    WriterLock,
    atomic_writer,
    check_writable,
    protected,
    remove_stale_temporaries,
    write_bytes_atomic,
    write_text_atomic,
)


def _no_permission_to_write(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Make ``os.access`` say ``path`` may not be written (as root every file may)."""
    access = os.access

    def no_write(name: Any, mode: int, *args: Any, **kw: Any) -> bool:
        if Path(name) == path and mode & os.W_OK:
            return False
        return access(name, mode, *args, **kw)

    monkeypatch.setattr(os, "access", no_write)


def test_text_and_bytes_are_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    write_text_atomic(path, "ünï\r\ncode\n")
    assert path.read_bytes() == "ünï\r\ncode\n".encode()  # newlines as given
    write_bytes_atomic(path, b"\x00\xff")
    assert path.read_bytes() == b"\x00\xff"
    with atomic_writer(path) as handle:
        handle.write("one ")
        handle.write("two")
    assert path.read_text() == "one two"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_a_failing_block_leaves_the_old_content_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("old")
    with pytest.raises(ZeroDivisionError), atomic_writer(path) as handle:
        handle.write("new")
        1 / 0  # noqa: B018
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_permissions_are_kept_and_a_new_file_gets_the_usual_ones(tmp_path: Path) -> None:
    kept = tmp_path / "kept.txt"
    kept.write_text("x")
    kept.chmod(0o640)
    write_text_atomic(kept, "y")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    umask = os.umask(0o022)
    try:
        write_text_atomic(tmp_path / "new.txt", "z")
        write_text_atomic(tmp_path / "private.txt", "z", new_mode=0o600)
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "private.txt").stat().st_mode) == 0o600


def test_a_link_is_written_through(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to("real.txt")
    write_text_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_read_only_file_is_refused_and_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ro.txt"
    path.write_text("mine")
    path.chmod(0o444)
    _no_permission_to_write(monkeypatch, path)
    with pytest.raises(PermissionError, match="read-only"):
        write_text_atomic(path, "theirs")
    with pytest.raises(PermissionError):
        check_writable(path)
    assert path.read_text() == "mine" and os.listdir(tmp_path) == ["ro.txt"]


def test_a_file_with_no_write_bit_is_refused_even_where_os_access_allows_it(
    tmp_path: Path,
) -> None:
    """``chmod 444`` says the user protected the file: refused even for root (no monkeypatch:
    as root ``os.access`` says yes, the mode still says no)."""
    path = tmp_path / "ro.txt"
    path.write_text("mine")
    path.chmod(0o444)
    assert protected(path)
    with pytest.raises(PermissionError, match="read-only"):
        write_text_atomic(path, "theirs")
    with pytest.raises(PermissionError, match="read-only"):
        check_writable(path)
    assert path.read_text() == "mine" and os.listdir(tmp_path) == ["ro.txt"]
    path.chmod(0o644)
    assert not protected(path)


def test_something_that_is_not_a_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        write_text_atomic(fifo, "x")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def _age(path: Path, seconds: float) -> None:
    when = time.time() - seconds
    os.utime(path, (when, when))


def test_stale_temporaries_are_removed_at_the_next_write(tmp_path: Path) -> None:
    """What a kill -9 during a write left (the old name form without a pid, and one of a pid
    that is gone) is removed once old; a fresh one, another file's, and one of a live writer
    stay."""
    path = tmp_path / "sp-11.json"
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    old_form = tmp_path / ".sp-11.json.abcd1234.tmp"
    dead_writer = tmp_path / f".sp-11.json.{gone}.abcd1234.tmp"
    live_writer = tmp_path / f".sp-11.json.{os.getpid()}.abcd1234.tmp"
    fresh = tmp_path / ".sp-11.json.efgh5678.tmp"
    other = tmp_path / ".other.json.abcd1234.tmp"
    for litter in (old_form, dead_writer, live_writer, fresh, other):
        litter.write_text("partial")
    for litter in (old_form, dead_writer, live_writer, other):
        _age(litter, STALE_AFTER + 5)
    write_text_atomic(path, "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["sp-11.json", live_writer.name, fresh.name, other.name]
    )
    _age(live_writer, 2 * 24 * 3600)  # a write never takes a day: its pid was reused
    assert remove_stale_temporaries(path) == [live_writer]


def test_the_lock_refuses_a_second_holder_and_leaves_no_file(tmp_path: Path) -> None:
    locks = tmp_path / "locks"
    save = tmp_path / "game.json"
    probe = (
        "import sys; from pathlib import Path; from patience_core.files import WriterLock\n"
        "try:\n    WriterLock(Path(sys.argv[1]), 'busy!', Path(sys.argv[2])).acquire()\n"
        "except Exception as e:\n    print(e); sys.exit(3)\nprint('got it')"
    )
    run = [sys.executable, "-c", probe, str(save), str(locks)]
    with WriterLock(save, "busy!", locks) as held:
        assert held.lock_path.exists()
        other = subprocess.run(run, capture_output=True, text=True)
        assert (other.returncode, other.stdout) == (3, "busy!\n")
        with pytest.raises(PatienceError, match=r"^busy!$"):
            WriterLock(save, "busy!", locks).acquire()
    assert list(locks.iterdir()) == []  # released: the lock file is gone
    again = subprocess.run(run, capture_output=True, text=True)
    assert (again.returncode, again.stdout) == (0, "got it\n")
    # A process that ends without letting go (killed, or as this probe) leaves its lock file,
    # which is free, and the same file serves the next holder: no file per use piles up.
    assert len(list(locks.iterdir())) == 1
    with WriterLock(save, "busy!", locks):
        assert len(list(locks.iterdir())) == 1
    assert list(locks.iterdir()) == []


def test_a_lock_file_removed_under_a_new_holder_is_taken_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The holder removes its lock file as it lets go; a process that opened that file just
    before locks a file nobody else will open, and must lock a new one instead."""
    import filelock

    lock = WriterLock(tmp_path / "g.json", "busy!", tmp_path / "locks")
    real_acquire = filelock.FileLock.acquire
    calls: list[int] = []

    def acquire_then_lose_the_file(self: Any, *args: Any, **kw: Any) -> Any:
        got = real_acquire(self, *args, **kw)
        calls.append(1)
        if len(calls) == 1:
            Path(self.lock_file).unlink()  # the former holder's release, just now
        return got

    monkeypatch.setattr(filelock.FileLock, "acquire", acquire_then_lose_the_file)
    lock.acquire()
    assert len(calls) == 2 and lock.lock_path.exists()
    lock.release()
    assert not lock.lock_path.exists()
