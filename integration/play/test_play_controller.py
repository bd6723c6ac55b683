"""The play controller, as a front end other than the line player drives it: typed commands in,
outcomes out, no input or output of its own; saved after every change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.play import Outcome, PlayController, Session, load_session
from patience_core.plugins import PluginHost

WIN_TEXT = (
    "deal deal 6h 7h 6c 7c 8c 7d 8d deal deal 4h deal 9d Tc Jh Qh deal deal Ac 2d 3h deal deal "
    "Td 9h deal 4d 5s deal deal Kd deal 5d deal deal 9c Th Jd deal 6s deal Jc deal Kh deal 2h"
)
WIN_LINE = WIN_TEXT.split()


@pytest.fixture(scope="module")
def host() -> PluginHost:
    return PluginHost().load()


@pytest.fixture
def controller(host: PluginHost, tmp_path: Path) -> PlayController:
    session = Session(host.game("escalator"), DealNumber(17))
    return PlayController(session, tmp_path / "g.json", "0.1.0", resume_hint="resume it")


def _moves_saved(controller: PlayController) -> list[str]:
    data = json.loads(controller.path.read_text())
    moves: list[str] = data["moves"]
    return moves


def test_a_move_is_played_saved_and_asks_for_the_board(controller: PlayController) -> None:
    assert controller.apply("deal") == Outcome(show_board=True)
    assert _moves_saved(controller) == ["deal"]
    assert controller.status_line().startswith("Score 0/28") and "Moves: 1" in (
        controller.status_line()
    )
    assert controller.outcome_line() is None


def test_commands_give_their_messages(controller: PlayController) -> None:
    assert controller.apply("   ") == Outcome()
    assert controller.apply("undo") == Outcome(("Nothing to undo.",))
    assert controller.apply("deal 5") == Outcome(
        ("'deal' takes no argument; type 'help' for the commands.",)
    )
    assert controller.apply("9z").messages[0].startswith("unknown pile or card '9z'")
    assert controller.apply("hint sideways") == Outcome(("usage: hint [honest|thoughtful]",))
    assert controller.apply("help").messages[0] == "Type one move or command per line. Moves:"
    assert controller.apply("moves").messages[0].startswith("Legal moves (")
    assert controller.apply("b") == Outcome(show_board=True)
    assert controller.apply("quit") == Outcome(quit=True)
    assert not controller.path.exists()  # nothing changed, nothing saved


def test_undo_redo_restart_and_the_win(controller: PlayController, host: PluginHost) -> None:
    for move in WIN_LINE[:5]:
        controller.apply(move)
    canonical = _moves_saved(controller)  # the moves as the game writes them
    assert controller.apply("undo 2").show_board and _moves_saved(controller) == canonical[:3]
    assert controller.apply("restart").messages == (
        "Back to the deal; 'redo all' plays the 5 moves again.",
    )
    assert controller.apply("redo all").show_board
    for move in WIN_LINE[3:]:
        controller.apply(move)
    assert controller.outcome_line() == "You won! Score 28/28."
    assert controller.apply("deal").messages == (
        "The game is over (you won); type 'undo', 'restart' or 'quit'.",
    )
    _saved, loaded = load_session(controller.path, host.game)
    assert loaded.finished == "won"


def test_a_hint_and_the_dead_check(controller: PlayController) -> None:
    assert controller.hint().startswith("Hint (")
    controller.dead_seconds, controller.dead_nodes = 3600.0, 3_000
    controller.apply("deal")
    assert controller.outcome_line() is None  # deal 17 can be won


def test_a_failing_save_is_a_warning_and_play_goes_on(
    controller: PlayController, tmp_path: Path
) -> None:
    warnings: list[str] = []
    controller.warn = warnings.append
    controller.path = tmp_path / "no such folder" / "deeper" / "g.json"
    (tmp_path / "no such folder").write_text("a file, not a folder")
    assert controller.apply("deal") == Outcome(show_board=True)
    assert not controller.saved and len(warnings) == 1
    assert warnings[0].startswith("patience: warning: cannot save the game to ")
    assert controller.failure_line("it broke") == (
        "patience: error: it broke; your game could NOT be saved; resume with: resume it"
    )
