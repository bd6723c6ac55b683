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
