"""``patience play`` opens the full-screen player when standard input and output are a
terminal, and the line player otherwise or with ``--plain``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from patience_core.play import PlayRequest
from patience_core.testing import CliResult

Run = Callable[..., CliResult]


@pytest.fixture
def fullscreen(monkeypatch: pytest.MonkeyPatch) -> list[PlayRequest]:
    """The full-screen player replaced by one that records its request and exits 0."""
    import patience_core.tui

    calls: list[PlayRequest] = []

    def run(host: Any, request: PlayRequest, **kw: Any) -> int:
        calls.append(request)
        return 0

    monkeypatch.setattr(patience_core.tui, "run_fullscreen", run)
    monkeypatch.setattr("patience_core.cli.play_cmd.on_terminal", lambda: True)
    monkeypatch.setattr(patience_core.tui, "can_run", lambda: True)
    return calls


def test_standard_error_not_a_terminal_gets_the_line_player(
    patience_cli: Run, fullscreen: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full-screen player draws on standard error: redirected, the line player plays."""
    import patience_core.tui

    monkeypatch.setattr(patience_core.tui, "can_run", lambda: False)
    result = patience_cli("play", "fake", "--deal", "2", input="quit\n")
    assert fullscreen == [] and "Fake Patience, deal 2" in result.out


def test_a_terminal_gets_the_full_screen_player(patience_cli: Run, fullscreen: list[Any]) -> None:
    result = patience_cli("play", "fake", "--winnable", "--no-dead-check")
    assert result.code == 0 and result.out == ""
    (request,) = fullscreen
    assert request.game == "fake" and request.winnable and request.dead_check is False
    assert not request.plain


def test_plain_keeps_the_line_player(patience_cli: Run, fullscreen: list[Any]) -> None:
    result = patience_cli("play", "fake", "--deal", "2", "--plain", input="quit\n")
    assert fullscreen == []
    assert "Fake Patience, deal 2" in result.out


def test_a_pipe_gets_the_line_player(patience_cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    import patience_core.tui

    monkeypatch.setattr(patience_core.tui, "run_fullscreen", None)  # never called
    result = patience_cli("play", "fake", "--deal", "2", input="quit\n")
    assert result.code == 3 and "Fake Patience, deal 2" in result.out
