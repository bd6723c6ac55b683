"""Files patience writes: the data folder, the atomic writer, moving a file aside."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import platformdirs

from patience_core.errors import PatienceError

__all__ = ["DATA_DIR_ENV", "data_dir", "move_aside", "write_json_atomic"]

#: The environment variable that moves the data folder (saves, statistics, runs).
DATA_DIR_ENV = "PATIENCE_DATA_DIR"


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder patience keeps its data in: ``$PATIENCE_DATA_DIR``, else
    ``platformdirs.user_data_dir("patience")``. Not created here."""
    env = os.environ if environ is None else environ
    override = env.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("patience", appauthor=False))


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` so that ``path`` holds either its old content or the
    whole new one, whatever happens: a temporary file in the same folder, flushed and
    ``fsync``-ed, then renamed over ``path``. The temporary file is removed on failure. A
    symbolic link is written through (its target is replaced, the link stays), and an existing
    file keeps its permissions.

    :raises OSError: when the folder is not writable, the disk is full, and so on.
    """
    # Write through a symbolic link to its target, and keep an existing file's permissions.
    path = Path(os.path.realpath(path))
    folder = path.parent
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = None
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1, ensure_ascii=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    # Make the rename itself durable (POSIX); not possible on every platform.
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def move_aside(path: Path, name: Callable[[str], str]) -> Path:
    """Rename ``path`` to ``name(serial)`` in the same folder, where ``serial`` is ``""``, then
    ``"-2"``, ``"-3"``... until the name is free. Never overwrites a file.

    :returns: the new path.
    :raises PatienceError: when the file cannot be renamed.
    """
    for attempt in range(1, 1000):
        target = path.with_name(name("" if attempt == 1 else f"-{attempt}"))
        if target.exists() or target.is_symlink():
            continue
        try:
            # A hard link fails if the target appeared meanwhile, so nothing is ever clobbered.
            os.link(path, target)
        except FileExistsError:
            continue
        except OSError:
            try:
                os.rename(path, target)
            except OSError as exc:
                raise PatienceError(f"cannot move {path} aside: {exc.strerror or exc}") from None
            return target
        os.unlink(path)
        return target
    raise PatienceError(f"cannot move {path} aside: too many files of that name")
