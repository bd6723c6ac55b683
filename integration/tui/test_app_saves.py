"""The full-screen and line players read each other's saves: a game quit in the full-screen
player goes on in the line player (``patience play --resume``), and the reverse (docs/play.md,
"Saving and resuming")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.play import PlayRequest, own_exit_by_default, read_save
from patience_core.plugins import PluginHost
from patience_core.testing import CliResult
from patience_core.tui import PatienceApp, run_fullscreen
from patience_core.tui._pilot import Scenario, run_scenario


def _fullscreen(host: PluginHost, path: Path, scenario: Scenario, *, resume: bool) -> int:
    request = PlayRequest(
        game="bakers-game",
        path=path,
        explicit_file=True,
        resume=resume,
        deal=None if resume else DealNumber.parse("ms:2"),
    )

    def runner(app: PatienceApp) -> int | None:
        return run_scenario(app, scenario)

    return run_fullscreen(
        host, request, own_exit=own_exit_by_default, show_traceback=print, run_app=runner
    )


def _keys(*keys: str) -> Scenario:
    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press(*keys)

    return scenario


def test_the_line_player_resumes_a_game_of_the_full_screen_player(
    patience_host: PluginHost, tmp_path: Path, run_patience: Callable[..., CliResult]
) -> None:
    path = tmp_path / "game.json"
    assert _fullscreen(patience_host, path, _keys("t", "1", "c", "1", "q"), resume=False) == 0
    assert list(read_save(path).moves) == ["t1 c1"]
    result = run_patience("play", "bakers-game", "--resume", "--file", str(path), input="u\n")
    assert "Resuming Baker's Game, deal ms:2" in result.out
    assert list(read_save(path).moves) == []
    assert list(read_save(path).redo) == ["t1 c1"]


def test_the_full_screen_player_resumes_a_game_of_the_line_player(
    patience_host: PluginHost, tmp_path: Path, run_patience: Callable[..., CliResult]
) -> None:
    path = tmp_path / "game.json"
    run_patience("play", "bakers-game", "--deal", "ms:2", "--file", str(path), input="t1 c1\n")
    assert list(read_save(path).moves) == ["t1 c1"]
    assert _fullscreen(patience_host, path, _keys("u", "q"), resume=True) == 0
    assert list(read_save(path).moves) == []
    assert list(read_save(path).redo) == ["t1 c1"]
