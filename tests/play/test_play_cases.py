"""What outside testers found in the play services and the line player, kept as tests (on the
test kit's fake game): a new deal keeps the unfinished game aside, a winnable-deal search stops
when cancelled."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.play import PlayController, Session, load_session, winnable_deal
from patience_core.plugins import PluginHost
from patience_core.testing import FakeGame


@pytest.fixture
def game(patience_host: PluginHost) -> FakeGame:
    made = patience_host.game("fake")
    assert isinstance(made, FakeGame)
    return made


def controller_for(game: FakeGame, tmp_path: Path, deal: int = 2) -> PlayController:
    return PlayController(Session(game, DealNumber(deal)), tmp_path / "fake.json", "0.1.0")


def test_a_new_deal_keeps_the_unfinished_game_aside(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    controller.apply("t3 f1")
    kept = controller.new_game(DealNumber(3))
    assert kept is not None and kept.parent == tmp_path and kept.name.startswith("fake-")
    _saved, old = load_session(kept, lambda name, options: game)
    assert old.deal == DealNumber(2) and old.move_texts == ["t3 f1"]
    assert controller.kept_line is not None
    assert str(kept) in controller.kept_line and "--resume --file" in controller.kept_line
    _saved, new = load_session(tmp_path / "fake.json", lambda name, options: game)
    assert new.deal == DealNumber(3) and not new.moves


def test_a_new_deal_over_an_untouched_game_keeps_nothing(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    assert controller.new_game(DealNumber(3)) is None and controller.kept_line is None
    assert [p.name for p in tmp_path.iterdir()] == ["fake.json"]


def test_a_cancelled_winnable_search_returns_none(game: FakeGame) -> None:
    cancel = threading.Event()
    cancel.set()
    assert winnable_deal(game, None, 1, cancel=cancel) is None
    found = winnable_deal(game, None, 1, cancel=threading.Event())
    assert found is not None and found == winnable_deal(game, None, 1)
