"""The one-line messages of the commands with the shipped games, as docs/cli.md ("Messages")
states them: why a game is missing, the files a message names, long paths cut short."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]


@pytest.mark.parametrize(
    "args",
    [
        ("play", "bristol"),
        ("deal", "bristol", "--from", "POSITION"),
        ("solve", "bristol", "--from", "POSITION"),
        ("deal", "bristol"),
    ],
)
def test_every_command_says_why_a_game_is_missing(
    run_patience: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    position = tmp_path / "p.json"
    position.write_text("{}")
    monkeypatch.setenv("PATIENCE_DISABLE_PLUGINS", "bristol")
    result = run_patience(*[str(position) if a == "POSITION" else a for a in args])
    assert (result.code, result.err) == (
        1,
        "patience: error: unknown game 'bristol': its plugin patience-bristol is blocked: "
        "PATIENCE_DISABLE_PLUGINS names it\n",
    )


@pytest.mark.parametrize(
    "args",
    [
        ("play", "escalator", "--file", "LONG.json"),
        ("play", "escalator", "--resume", "--file", "LONG.json"),
        ("simulate", "escalator", "-n", "1", "-O", "LONG.csv"),
        ("deal", "escalator", "--from", "LONG.json"),
        ("score", "LONG.json"),
    ],
)
def test_a_long_path_of_missing_folders_is_cut_short_where_its_folder_is_named(
    run_patience: Run, tmp_path: Path, args: tuple[str, ...]
) -> None:
    """docs/cli.md, "Messages": a 3,800-character path makes a short line, its folder (quoted
    as "the folder ... does not exist") cut short too."""
    long = str(tmp_path / "/".join(["d" * 200] * 19) / "x")
    result = run_patience(*[a.replace("LONG", long) for a in args], input="quit\n")
    assert result.code == 1 and result.err.count("\n") == 1, result.err
    assert result.err.startswith("patience: error: ") and len(result.err) < 400, result.err
    assert "d" * 200 + "/" not in result.err


@pytest.mark.parametrize("command", ["score", "hint"])
def test_a_missing_save_is_the_rule_of_every_file_read(
    run_patience: Run, tmp_path: Path, command: str
) -> None:
    """docs/cli.md: ``cannot read FILE: REASON``, as ``deal --from`` says it; the reason says
    whether the folder is missing."""
    none = tmp_path / "none.json"
    typo = tmp_path / "typo" / "none.json"
    for path, reason in (
        (none, "No such file or directory"),
        (typo, f"the folder {typo.parent} does not exist"),
    ):
        for args in ((command, str(path)), ("deal", "escalator", "--from", str(path))):
            result = run_patience(*args)
            assert (result.code, result.err) == (
                1,
                f"patience: error: cannot read {path}: {reason}\n",
            ), args
