"""A file that cannot be read is told by one rule in every command that reads one (docs/cli.md,
"Files"): ``cannot read FILE: REASON``, exit 1, with the same REASON whichever command reads it;
and ``play --file`` through a symbolic link whose target is not there yet (docs/play.md)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]

#: Every command that reads a file a user gives, ``FILE`` standing for the file.
READERS = (
    ("score", "FILE"),
    ("hint", "FILE"),
    ("play", "fake", "--resume", "--file", "FILE"),
    ("deal", "fake", "--from", "FILE"),
    ("solve", "fake", "--from", "FILE"),
)


def _said_by_every_reader(patience_cli: Run, path: str, reason: str) -> None:
    for command in READERS:
        args = [path if arg == "FILE" else arg for arg in command]
        result = patience_cli(*args, input="quit\n")
        assert (result.code, result.out) == (1, ""), (command, result)
        assert result.err.startswith("patience: error: cannot read "), (command, result.err)
        assert result.err.endswith(f": {reason}\n"), (command, result.err)
        assert len(result.err.splitlines()) == 1, (command, result.err)


def test_a_name_too_long_is_a_file_that_cannot_be_read(patience_cli: Run, tmp_path: Path) -> None:
    _said_by_every_reader(
        patience_cli, str(tmp_path / ("a" * 5000)), os.strerror(errno.ENAMETOOLONG)
    )


def test_links_in_a_loop_are_a_file_that_cannot_be_read(patience_cli: Run, tmp_path: Path) -> None:
    """With ``--resume`` too: reading comes first, so it is not told as a save failure."""
    one, two = tmp_path / "loop1", tmp_path / "loop2"
    one.symlink_to(two)
    two.symlink_to(one)
    _said_by_every_reader(patience_cli, str(one), "Too many levels of symbolic links")


def test_a_folder_is_a_file_that_cannot_be_read(patience_cli: Run, tmp_path: Path) -> None:
    _said_by_every_reader(patience_cli, str(tmp_path), "Is a directory")


def test_a_file_not_utf8_is_a_file_that_cannot_be_read(patience_cli: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'\xff\xfe{"format": "patience-save"}')
    _said_by_every_reader(patience_cli, str(bad), "not UTF-8 text")
    assert bad.read_bytes() == b'\xff\xfe{"format": "patience-save"}'


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_a_device_is_not_a_save(patience_cli: Run) -> None:
    """``--from`` reads devices and pipes (a position may come through one); a save is a
    regular file."""
    for command in READERS[:3]:
        args = ["/dev/null" if arg == "FILE" else arg for arg in command]
        result = patience_cli(*args, input="quit\n")
        assert (result.code, result.err) == (
            1,
            "patience: error: cannot read /dev/null: not a regular file\n",
        ), command


def test_a_new_game_is_saved_through_a_dangling_link(patience_cli: Run, tmp_path: Path) -> None:
    """docs/play.md: a link is written through (its target is replaced, the link stays)."""
    link, target = tmp_path / "link.json", tmp_path / "target.json"
    link.symlink_to(target)
    result = patience_cli("play", "fake", "-d", "2", "--file", str(link), input="quit\n")
    assert result.code == 3, result.err  # piped play that ends in progress
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.is_file()
    resumed = patience_cli("play", "fake", "--resume", "--file", str(link), input="quit\n")
    assert resumed.code == 3, resumed.err


def test_a_link_into_a_missing_folder_is_refused(patience_cli: Run, tmp_path: Path) -> None:
    link, target = tmp_path / "link.json", tmp_path / "nowhere" / "target.json"
    link.symlink_to(target)
    result = patience_cli("play", "fake", "-d", "2", "--file", str(link), input="quit\n")
    assert (result.code, result.err) == (
        1,
        f"patience: error: cannot save the game to {link}: it links to {str(target)!r}, "
        "in a directory that does not exist\n",
    )
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()


def test_a_new_game_over_links_in_a_loop_is_refused(patience_cli: Run, tmp_path: Path) -> None:
    one, two = tmp_path / "loop1", tmp_path / "loop2"
    one.symlink_to(two)
    two.symlink_to(one)
    result = patience_cli("play", "fake", "-d", "2", "--file", str(one), input="quit\n")
    assert (result.code, result.err) == (
        1,
        f"patience: error: cannot save the game to {one}: its symbolic links go round in a loop\n",
    )
