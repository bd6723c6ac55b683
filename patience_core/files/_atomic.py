"""The one way patience writes a file: atomically, permissions kept, stale temporaries removed.

A file is written to a temporary file in its own folder (``.NAME.PID.XXXXXXXX.tmp``), flushed
and ``fsync``-ed, then renamed over ``NAME`` (``os.replace``), so a crash or a kill leaves either
the old content or the whole new one, never a partial file. A kill -9 between the two steps can
leave the temporary file behind: the next write of the same file removes it (only when it is old
enough to be dead, see :func:`remove_stale_temporaries`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Literal, cast, overload

__all__ = [
    "STALE_AFTER",
    "atomic_writer",
    "check_writable",
    "protected",
    "remove_stale_temporaries",
    "write_bytes_atomic",
    "write_text_atomic",
]

#: A temporary file untouched for this long (seconds) whose writer is gone is left over from a
#: killed write, and is removed the next time its file is written.
STALE_AFTER = 60.0
#: A temporary file untouched for this long (seconds) is removed even if a process of the pid in
#: its name runs (pids are reused; a write never takes a day).
_DEAD_ANYWAY_AFTER = 24 * 3600.0


def _resolved(path: str | os.PathLike[str]) -> Path:
    """The file a write of ``path`` replaces: a symbolic link is written through to its target."""
    return Path(os.path.realpath(path))


def protected(path: str | os.PathLike[str], mode: int | None = None) -> bool:
    """Whether the existing file ``path`` is one patience must not replace: the user may not
    write it (:func:`os.access`), or its mode has no write bit at all (``mode & 0o222 == 0``,
    e.g. ``chmod 444``), which says it was made read-only on purpose; the second rule holds
    even for root, whom :func:`os.access` lets write anything. The one rule for every file
    patience replaces (saves, position files, ``--output`` rows).

    :param mode: the file's ``st_mode`` when the caller has it already (else it is read).
    :raises OSError: when ``path`` cannot be looked at (e.g. ``FileNotFoundError``).
    """
    if mode is None:
        mode = os.stat(path).st_mode
    return stat.S_IMODE(mode) & 0o222 == 0 or not os.access(path, os.W_OK)


def check_writable(path: str | os.PathLike[str]) -> None:
    """Refuse, before anything is written, a file the user may not replace: an existing file that
    is not a regular file or that is :func:`protected` (e.g. mode 0444, even for root), or a
    folder where no file can be made. A missing file in a writable folder is fine.

    :raises OSError: ``PermissionError`` (errno ``EACCES``) or ``OSError`` (errno ``EINVAL``, "not
        a regular file"), with ``strerror`` and ``filename`` set, for a one-line message.
    """
    target = _resolved(path)
    try:
        info = target.stat()
    except FileNotFoundError:
        info = None
    if info is not None:
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if protected(target, info.st_mode):
            raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    folder = target.parent
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "its folder is read-only", str(path))


def _pid_running(pid: int) -> bool:
    """Whether process ``pid`` runs (``True`` when there is no way to tell)."""
    if pid == os.getpid() or os.name == "nt":
        return True  # on Windows os.kill(pid, 0) would end the process: the day rule serves
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: running, under another user; or no way to tell (not POSIX)
        return True
    return True


def remove_stale_temporaries(path: str | os.PathLike[str], now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed write of ``path`` left beside it: hidden files named
    ``.NAME.*.tmp`` untouched for :data:`STALE_AFTER` seconds whose writer (the pid in the name,
    when there is one) no longer runs, or untouched for a day. Files of a write in progress are
    kept. Errors (a file removed meanwhile, a read-only folder) are ignored.

    :param now: the time to compare with (seconds since the epoch); default: now.
    :returns: the files removed.
    """
    target = _resolved(path)
    clock = time.time() if now is None else now
    prefix = f".{target.name}."
    removed: list[Path] = []
    try:
        names = os.listdir(target.parent)
    except OSError:
        return removed
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        middle = name[len(prefix) : -len(".tmp")]
        pid_text = middle.split(".", 1)[0] if "." in middle else ""
        candidate = target.parent / name
        try:
            age = clock - candidate.lstat().st_mtime
        except OSError:
            continue
        writer_gone = not (pid_text.isdigit() and _pid_running(int(pid_text)))
        if (age >= STALE_AFTER and writer_gone) or age >= _DEAD_ANYWAY_AFTER:
            with contextlib.suppress(OSError):
                candidate.unlink()
                removed.append(candidate)
    return removed


def _sync_folder(folder: Path) -> None:
    # Make the rename itself durable (POSIX); not possible on every platform.
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


@overload
def atomic_writer(
    path: str | os.PathLike[str], *, binary: Literal[False] = ..., new_mode: int | None = ...
) -> contextlib.AbstractContextManager[IO[str]]: ...
@overload
def atomic_writer(
    path: str | os.PathLike[str], *, binary: Literal[True], new_mode: int | None = ...
) -> contextlib.AbstractContextManager[IO[bytes]]: ...
def atomic_writer(
    path: str | os.PathLike[str], *, binary: bool = False, new_mode: int | None = None
) -> contextlib.AbstractContextManager[IO[str]] | contextlib.AbstractContextManager[IO[bytes]]:
    """A handle whose content replaces ``path`` atomically when the ``with`` block ends normally;
    when it ends with an exception, ``path`` is left as it was and the temporary file removed.

    Text is UTF-8, written as given (no newline translation). A symbolic link is written through
    (its target is replaced, the link stays). An existing file keeps its permission bits; a new
    one gets ``new_mode`` (default: ``0o666`` less the umask, as :func:`open` gives). Stale
    temporary files of ``path`` are removed first (:func:`remove_stale_temporaries`). The folder
    must exist.

    :param binary: yield a bytes handle instead of a text one.
    :raises OSError: when ``path`` may not be replaced (:func:`check_writable`, checked before
        and again just before the rename), the folder is not writable, the disk is full, etc.
    """
    # One implementation for both: the overloads above give each caller its handle's type.
    return cast(contextlib.AbstractContextManager[IO[str]], _atomic_writer(path, binary, new_mode))


@contextlib.contextmanager
def _atomic_writer(
    path: str | os.PathLike[str], binary: bool, new_mode: int | None
) -> Iterator[IO[str] | IO[bytes]]:
    check_writable(path)
    target = _resolved(path)
    folder = target.parent
    remove_stale_temporaries(target)
    fd, tmp_name = tempfile.mkstemp(
        prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=folder
    )
    try:
        handle: IO[str] | IO[bytes] = (
            os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="")
        )
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        check_writable(path)  # it may have become read-only (or a pipe) meanwhile
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            if new_mode is None:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            else:
                mode = new_mode
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    _sync_folder(folder)


def write_text_atomic(
    path: str | os.PathLike[str], text: str, *, new_mode: int | None = None
) -> None:
    """Write ``text`` (UTF-8, newlines as given) to ``path`` atomically (see
    :func:`atomic_writer` for links, permissions and stale temporaries).

    :raises OSError: when ``path`` may not be written (read-only file or folder, not a regular
        file, disk full, ...).
    """
    with atomic_writer(path, new_mode=new_mode) as handle:
        handle.write(text)


def write_bytes_atomic(
    path: str | os.PathLike[str], data: bytes, *, new_mode: int | None = None
) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_writer`).

    :raises OSError: as :func:`write_text_atomic`.
    """
    with atomic_writer(path, binary=True, new_mode=new_mode) as handle:
        handle.write(data)
