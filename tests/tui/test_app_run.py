"""Starting the full-screen player (``run_fullscreen``) with the fake game: the game opened as
the line player opens it, the save locked and resumable by either player, and a plugin that
fails mid-game ends the app with one line and the game saved (docs/play.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.play import PlayRequest, own_exit_by_default, read_save
from patience_core.plugins import PluginHost
from patience_core.testing import FakeGame
from patience_core.tui import PatienceApp, run_fullscreen
from patience_core.tui._pilot import Scenario, run_scenario


def _run(host: PluginHost, request: PlayRequest, scenario: Scenario) -> int:
    def runner(app: PatienceApp) -> int | None:
        return run_scenario(app, scenario)

    return run_fullscreen(
        host,
        request,
        own_exit=own_exit_by_default,
        show_traceback=lambda _exc: None,
        run_app=runner,
    )


def _request(path: Path, *, resume: bool = False) -> PlayRequest:
    return PlayRequest(
        game="fake",
        path=path,
        explicit_file=True,
        resume=resume,
        deal=None if resume else DealNumber(2),
    )


async def _deal_and_quit(pilot: Pilot[int], app: PatienceApp) -> None:
    await pilot.press("d", "q")


def test_a_game_played_quit_and_resumed(
    patience_host: PluginHost, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert _run(patience_host, _request(path), _deal_and_quit) == 0
    assert list(read_save(path).moves) == ["deal"]
    out = capsys.readouterr().out
    assert out.endswith(
        f"Game saved to {path}; resume with: patience play fake --resume --file {path}\n"
    )
    assert _run(patience_host, _request(path, resume=True), _deal_and_quit) == 0
    assert list(read_save(path).moves) == ["deal", "deal"]


def test_the_resume_line_at_a_narrow_terminal_keeps_the_command_whole(
    patience_host: PluginHost,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The line the player prints as it ends is wrapped between words, as the line player's:
    at 40 columns no line (the statistics line too) is longer, but for a word (the path) longer
    on its own, and no word of the resume command is cut (80 columns cut 'escalator' in
    two)."""
    import patience_core.play._narrow as narrow

    monkeypatch.setattr(narrow, "line_width", lambda stream=None: 40)
    path = tmp_path / "game.json"
    assert _run(patience_host, _request(path), _deal_and_quit) == 0
    lines = capsys.readouterr().out.splitlines()
    ending = lines[lines.index("Game saved to") :]
    assert " ".join(ending) == (
        f"Game saved to {path}; resume with: patience play fake --resume --file {path}"
    )
    assert all(len(line) <= 40 or " " not in line for line in lines)


def test_the_save_is_locked_while_the_app_runs(patience_host: PluginHost, tmp_path: Path) -> None:
    from patience_core.errors import PatienceError

    path = tmp_path / "game.json"

    async def second_window(pilot: Pilot[int], app: PatienceApp) -> None:
        with pytest.raises(PatienceError):
            _run(patience_host, _request(path, resume=True), _deal_and_quit)
        await pilot.press("q")

    assert _run(patience_host, _request(path), second_window) == 0


def test_a_plugin_failing_mid_game_ends_with_one_line_and_the_game_saved(
    patience_host: PluginHost,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "game.json"
    played = FakeGame.play

    armed: list[bool] = []  # the game opens well (auto-finish is looked for at the start)

    def failing(self: FakeGame, position: object, move: object) -> object:
        if armed and position != self.deal(DealNumber(2)):
            raise RuntimeError("the second move broke")
        return played(self, position, move)  # type: ignore[arg-type]

    monkeypatch.setattr(FakeGame, "play", failing)

    async def two_deals(pilot: Pilot[int], app: PatienceApp) -> None:
        armed.append(True)
        await pilot.press("d", "d")

    assert _run(patience_host, _request(path), two_deals) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "the fake plugin" in err[0] and "the second move broke" in err[0]
    assert "your game is saved" in err[0]
    assert list(read_save(path).moves) == ["deal"]
