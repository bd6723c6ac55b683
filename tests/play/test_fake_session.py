"""A game being played, on the test kit's fake game: legal moves, playing, undo and redo, exact
replay, and saves (a round trip; a corrupt save refused in one line and left alone)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.errors import BadSave, IllegalMove
from patience_core.play import Session, load_session, save_session
from patience_core.plugins import PluginHost
from patience_core.testing import FakeGame

DEAL = DealNumber(2)
#: A winning line of fake deal 2 (found once by the solver).
WIN_LINE = [
    *("t3 f1", "t3 f1", "t3 f1", "deal", "deal", "w t1", "deal", "deal", "deal", "w f1"),
    *("t1 f1", "t1 f1", "deal", "w f2", "t2 f2", "w t2", "w f2", "t2 f2", "t2 f2", "w f2"),
]


@pytest.fixture
def game(patience_host: PluginHost) -> FakeGame:
    made = patience_host.game("fake")
    assert isinstance(made, FakeGame)
    return made


def test_a_new_session_starts_at_the_deal(game: FakeGame) -> None:
    session = Session(game, DEAL)
    assert session.position == session.start == game.deal(DEAL)
    assert session.legal_moves() == game.legal_moves(game.deal(DEAL))
    assert not session.can_undo and not session.can_redo
    assert session.score() == 0 and session.finished is None


def test_the_winning_line_wins_with_the_full_score(game: FakeGame) -> None:
    session = Session.replay(game, DEAL, WIN_LINE)
    assert session.is_won() and session.finished == "won"
    assert session.score() == game.max_score and session.move_texts == WIN_LINE


def test_an_illegal_move_is_refused_and_the_session_stays(game: FakeGame) -> None:
    session = Session(game, DEAL)
    with pytest.raises(IllegalMove) as info:
        session.play_text("t2 f1")
    assert "\n" not in str(info.value)
    assert session.position == game.deal(DEAL) and session.moves == ()


def test_undo_and_redo_step_through_the_same_positions(game: FakeGame) -> None:
    session = Session(game, DEAL)
    seen = [session.position]
    for text in WIN_LINE[:8]:
        session.play_text(text)
        seen.append(session.position)
    assert session.undo(3) == 3 and session.position == seen[5]
    assert session.redo_texts == WIN_LINE[5:8]
    assert session.redo() == 1 and session.position == seen[6]
    assert session.undo(100) == 6 and session.position == seen[0]
    assert session.redo(100) == 8 and session.position == seen[8]
    session.undo(3)
    texts = {session.game.move_text(session.position, m): m for m in session.legal_moves()}
    session.play(next(move for text, move in texts.items() if text != WIN_LINE[5]))
    assert not session.can_redo  # another move drops the undone one


def test_a_save_round_trips(game: FakeGame, patience_host: PluginHost, tmp_path: Path) -> None:
    session = Session.replay(game, DEAL, WIN_LINE[:10], WIN_LINE[10:12])
    path = tmp_path / "saves" / "fake.json"
    save_session(path, session, "0.1.0")
    data = json.loads(path.read_text())
    assert (
        data["game"] == "fake"
        and data["deal"] == "2"
        and data["options"] == {"empty-piles": "none"}
    )
    saved, loaded = load_session(path, patience_host.game)
    assert saved.deal == DEAL and saved.finished is None
    assert loaded.position == session.position
    assert loaded.move_texts == session.move_texts and loaded.redo_texts == session.redo_texts
    assert os.listdir(path.parent) == ["fake.json"]  # no temporary file left


def test_a_save_with_its_option_round_trips(patience_host: PluginHost, tmp_path: Path) -> None:
    game = patience_host.game("fake", {"empty-piles": "any"})
    session = Session.replay(game, DealNumber(0), ["t1 f1", "t2 t1"])
    path = tmp_path / "fake.json"
    save_session(path, session, "0.1.0")
    _, loaded = load_session(path, patience_host.game)
    assert loaded.game.option_values == {"empty-piles": "any"}
    assert loaded.position == session.position


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda text: text[: len(text) // 2],
        lambda text: text.replace('"t3 f1"', '"t2 f2"', 1),
        lambda text: text.replace('"fake"', '"nosuchgame"'),
        lambda text: text.replace('"none"', '"some"'),
    ],
    ids=["cut short", "illegal move", "unknown game", "bad option"],
)
def test_a_corrupt_save_is_refused_in_one_line_and_left_alone(
    game: FakeGame, patience_host: PluginHost, tmp_path: Path, corrupt: Callable[[str], str]
) -> None:
    path = tmp_path / "fake.json"
    save_session(path, Session.replay(game, DEAL, WIN_LINE[:4]), "0.1.0")
    path.write_text(corrupt(path.read_text()))
    before = path.read_bytes()
    with pytest.raises(BadSave) as info:
        load_session(path, patience_host.game)
    message = str(info.value)
    assert message and "\n" not in message and len(message) < 300
    assert path.read_bytes() == before
