"""One writer per file: an advisory lock (``filelock``) that leaves no lock file behind."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import tempfile
from pathlib import Path

import filelock

from patience_core.errors import PatienceError
from patience_core.files._store import data_dir

__all__ = ["WriterLock", "spare_lock_folder"]


def spare_lock_folder() -> Path:
    """Where lock files go when the data folder's ``locks/`` cannot be made (a read-only data
    folder, or one that is a file): this user's folder in the system's temporary folder, made
    private (``0o700``) when missing.

    :raises OSError: when it cannot be made, or belongs to another user.
    """
    user = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    folder = Path(tempfile.gettempdir()) / f"patience-locks-{user}"
    folder.mkdir(mode=0o700, exist_ok=True)
    if hasattr(os, "getuid") and folder.stat().st_uid != os.getuid():
        # Another user's folder would let that user hold (or drop) our locks.
        raise PermissionError(errno.EACCES, f"{folder} belongs to another user")
    return folder


class WriterLock:
    """An advisory lock on a file patience writes, held while a process may write it, so two
    processes never write (and resume) the same file at once: ``patience play`` holds one on its
    save, ``patience simulate`` on its output file.

    The lock is a :class:`filelock.FileLock` (``flock`` on POSIX, ``msvcrt`` on Windows) on a
    file in the data folder's ``locks/`` named by a digest of the file's real path, so no file
    appears beside the locked one. The operating system releases it when the process ends, even
    when killed; the lock file is removed on release (while still held, so a process starting
    meanwhile either sees the lock taken or makes a new lock file), so ``locks/`` holds only the
    locks of files open right now (and those of processes that were killed, reused next time).
    When that folder cannot be made (a read-only data folder), the lock file goes in
    :func:`spare_lock_folder` instead, so the file can still be written.

    :param path: the file to lock (a symbolic link locks its target).
    :param busy: the one-line message when another process (or another lock in this process)
        holds the lock.
    :param folder: where lock files go; default: ``<data dir>/locks``.
    """

    def __init__(self, path: Path, busy: str, folder: Path | None = None) -> None:
        self.path = Path(os.path.realpath(path))
        digest = hashlib.sha256(str(self.path).encode("utf-8", "surrogateescape")).hexdigest()
        self.lock_path = (folder or data_dir() / "locks") / f"{digest[:32]}.lock"
        self._folder_given = folder is not None
        self.busy = busy
        self._lock: filelock.FileLock | None = None

    def acquire(self) -> None:
        """Take the lock, without waiting.

        :raises PatienceError: one line, with :attr:`busy` when another holder has it, or
            naming the folder that cannot be made (neither ``locks/`` nor the spare one), or
            "cannot lock FILE: REASON" when the lock file cannot be made.
        """
        if self._lock is not None:
            return
        try:
            self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            if self._folder_given:
                raise PatienceError(
                    f"cannot make the lock folder {self.lock_path.parent}: {exc.strerror or exc}"
                ) from None
            try:
                self.lock_path = spare_lock_folder() / self.lock_path.name
            except OSError as spare:
                raise PatienceError(
                    f"cannot make the lock folder {self.lock_path.parent} "
                    f"({exc.strerror or exc}) nor {spare.filename or 'a spare one'} "
                    f"({spare.strerror or spare})"
                ) from None
        for _attempt in range(3):
            # Not thread-local and not shared: every WriterLock is its own holder, so a second
            # lock on the same file in this process is refused like one in another process.
            lock = filelock.FileLock(self.lock_path, timeout=0, thread_local=False)
            try:
                lock.acquire()
            except filelock.Timeout:
                raise PatienceError(self.busy) from None
            except OSError as exc:
                raise PatienceError(f"cannot lock {self.path}: {exc.strerror or exc}") from None
            if self.lock_path.exists():
                self._lock = lock
                return
            # The holder removed the lock file between our open and our lock: the lock we hold
            # is on a file nobody else will ever open; take the lock again on a new one.
            lock.release()
        raise PatienceError(self.busy)

    def release(self) -> None:
        """Give the lock back and remove the lock file; safe to call twice."""
        lock, self._lock = self._lock, None
        if lock is None:
            return
        with contextlib.suppress(OSError):
            self.lock_path.unlink()
        lock.release()

    def __enter__(self) -> WriterLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
