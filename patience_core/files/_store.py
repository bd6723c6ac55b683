"""Files patience writes: the data folder, the atomic writer, moving a file aside."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import platformdirs

from patience_core.errors import PatienceError
from patience_core.files._atomic import atomic_writer

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


def write_json_atomic(path: Path, data: Any, *, new_mode: int | None = None) -> None:
    """Write ``data`` as JSON (indented by one space, UTF-8, a final newline) to ``path``
    atomically, with :func:`~patience_core.files.atomic_writer`: ``path`` holds either its old
    content or the whole new one, whatever happens. A symbolic link is written through, an
    existing file keeps its permissions, a new one gets ``new_mode`` (default: as :func:`open`).

    :raises OSError: when the file or folder may not be written, the disk is full, and so on.
    """
    with atomic_writer(path, new_mode=new_mode) as handle:
        json.dump(data, handle, indent=1, ensure_ascii=False)
        handle.write("\n")


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
