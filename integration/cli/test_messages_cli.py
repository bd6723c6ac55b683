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
        "patience: error: unknown game 'bristol': its plugin patience-bristol is blocked by "
        "PATIENCE_DISABLE_PLUGINS or PATIENCE_PLUGINS\n",
    )


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
