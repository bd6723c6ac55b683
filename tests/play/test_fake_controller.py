"""The play controller's services for both front ends, on the test kit's fake game: moves as
objects (refused ones say why), smart moves, auto-finish, hints for a worker thread, the dead
check as an indicator said once per change, the clock, new deals, saves with the clock."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.model import Move
from patience_core.play import (
    DEAD_AT_DEAL,
    DEAD_NOW,
    PlayClock,
    PlayController,
    Session,
    load_session,
    read_save,
)
from patience_core.plugins import PluginHost
from patience_core.testing import FakeGame

#: A winning line of fake deal 2 (as in test_fake_session.py).
WIN_LINE = [
    *("t3 f1", "t3 f1", "t3 f1", "deal", "deal", "w t1", "deal", "deal", "deal", "w f1"),
    *("t1 f1", "t1 f1", "deal", "w f2", "t2 f2", "w t2", "w f2", "t2 f2", "t2 f2", "w f2"),
]
STOCK, WASTE, F1, F2, T1, T2, T3 = range(7)


@pytest.fixture
def game(patience_host: PluginHost) -> FakeGame:
    made = patience_host.game("fake")
    assert isinstance(made, FakeGame)
    return made


def controller_for(game: FakeGame, tmp_path: Path, deal: int = 2, **kw: object) -> PlayController:
    session = Session(game, DealNumber(deal))
    return PlayController(session, tmp_path / "fake.json", "0.1.0", **kw)  # type: ignore[arg-type]


def test_moves_as_objects_play_and_save(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    outcome = controller.transfer(T3, F1)
    assert outcome.show_board and not outcome.refused
    assert controller.deal().show_board
    assert json.loads((tmp_path / "fake.json").read_text())["moves"] == ["t3 f1", "deal"]


def test_a_refused_move_says_why_and_changes_nothing(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    before = controller.session.position
    for move, why in [
        (Move.transfer(T2, F1), "2♣ cannot start a foundation"),
        (Move.transfer(WASTE, T1), "nothing to move: w is empty"),
        (Move.transfer(T1, T2, 3), "t1 has only 1 card"),
        (Move.transfer(T3, F2), "A♥ goes on f1"),
    ]:
        outcome = controller.play_move(move)
        assert outcome.refused and not outcome.show_board
        assert len(outcome.messages) == 1 and why in outcome.messages[0]
    assert controller.session.position == before and not controller.session.moves


def test_typed_moves_that_break_a_rule_say_which(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    outcome = controller.apply("t3 f2")
    assert outcome.refused
    assert outcome.messages == ("illegal move 't3 f2': A♥ goes on f1.",)
    outcome = controller.apply("xyzzy")
    assert outcome.refused and "unknown pile or card" in outcome.messages[0]
    assert not controller.apply("help").refused


def test_a_smart_move_plays_to_a_foundation_first(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    assert controller.smart_move(T3).show_board
    assert controller.session.move_texts == ["t3 f1"]
    refused = controller.smart_move(WASTE)
    assert refused.refused and refused.messages == ("nothing to move: w is empty",)
    refused = controller.smart_move(T1)
    assert refused.refused and refused.messages[0].endswith("has nowhere to go")


def test_auto_finish_plays_the_forced_rest(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    assert controller.finish_moves() is None and not controller.can_finish()
    assert controller.auto().messages[0].startswith("Nothing to finish")
    for text in WIN_LINE[:13]:
        controller.apply(text)
    rest = controller.finish_moves()
    assert rest is not None and len(rest) == len(WIN_LINE) - 13
    step = controller.auto_step()
    assert step is not None and len(controller.session.moves) == 14
    outcome = controller.apply("auto")
    assert outcome.messages == ("Played the last 6 moves automatically.",)
    assert controller.session.finished == "won" and controller.auto_step() is None


def test_a_hint_answer_names_its_piles_and_changes_nothing(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    known = dict(controller.known)
    answer = controller.hint_answer("thoughtful")
    assert answer.move == Move.transfer(T3, F1)
    assert (answer.source, answer.target) == (T3, F1)
    assert answer.text.startswith("Hint (thoughtful): t3 f1: wins in ")
    assert controller.known == known and not controller.session.moves
    cancel = threading.Event()
    cancel.set()
    assert controller.hint_answer(cancel=cancel).move is None
    # From a worker thread as a front end asks it.
    answers = []
    worker = threading.Thread(target=lambda: answers.append(controller.hint_answer("thoughtful")))
    worker.start()
    worker.join()
    assert answers[0].move == answer.move


def test_the_dead_check_is_off_where_cards_are_hidden(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path, deal=1, dead_seconds=3600.0, dead_nodes=50_000)
    assert not controller.dead_check_on and controller.dead_news() is None
    controller.dead_check_on = True
    assert controller.dead_news() == DEAD_AT_DEAL
    assert controller.dead_news() is None  # once per position
    assert controller.dead_known is True
    controller.deal()
    assert controller.dead_news() is None  # dead before: not said again
    assert controller.apply("dead off").messages == ("Dead check off.",)
    assert controller.dead_news() is None and controller.dead_known is None


def test_the_dead_check_says_once_when_a_move_loses(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(
        game, tmp_path, deal=5, dead_check=True, dead_seconds=3600.0, dead_nodes=50_000
    )
    assert controller.dead_news() is None
    controller.deal()
    assert controller.dead_news() is None and controller.dead_known is False
    controller.deal()  # fake deal 5: the second deal leaves no winning line
    assert controller.dead_news() == DEAD_NOW
    assert controller.dead_news() is None
    controller.apply("undo")
    assert controller.dead_news() is None and controller.dead_known is False


def test_the_dead_check_can_never_run_without_seconds(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path, dead_check=True, dead_seconds=0.0)
    assert not controller.dead_check_on
    assert controller.apply("dead on").messages == (
        "The dead check is off: PATIENCE_DEAD_CHECK is 0.",
    )
    assert controller.apply("dead maybe").messages[0].startswith("usage: dead on|off")


def test_the_clock_counts_active_seconds_and_is_saved(game: FakeGame, tmp_path: Path) -> None:
    now = [100.0]
    clock = PlayClock(30.0, now=lambda: now[0])
    now[0] += 5
    clock.pause()
    now[0] += 1000  # paused: not counted
    clock.resume()
    now[0] += 200
    clock.lap(cap=60)  # the line player's cap: a minute a command at most
    assert clock.seconds == 30 + 5 + 60
    assert clock.text() == "1:35"
    controller = controller_for(game, tmp_path, clock=clock)
    controller.apply("deal")
    saved = read_save(tmp_path / "fake.json")
    assert saved.elapsed == pytest.approx(95.0)
    assert PlayClock(3725).text() == "1:02:05"


def test_a_save_without_the_clock_reads_as_zero(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    controller.apply("deal")
    path = tmp_path / "fake.json"
    data = json.loads(path.read_text())
    data.pop("elapsed", None)
    path.write_text(json.dumps(data))
    assert read_save(path).elapsed == 0.0 and read_save(path).stats_id is None
    data["elapsed"] = -1
    path.write_text(json.dumps(data))
    with pytest.raises(Exception, match="'elapsed' must be a number of seconds"):
        read_save(path)


def test_a_new_game_starts_another_deal_in_the_same_save(game: FakeGame, tmp_path: Path) -> None:
    controller = controller_for(game, tmp_path)
    controller.apply("t3 f1")
    controller.new_game(DealNumber(3))
    assert controller.session.deal == DealNumber(3) and not controller.session.moves
    _saved, session = load_session(tmp_path / "fake.json", lambda name, options: game)
    assert session.deal == DealNumber(3) and not session.moves


def test_the_dead_check_turned_on_late_tells_a_dead_deal(game: FakeGame, tmp_path: Path) -> None:
    """Fake deal 1 is dead from the start: turned on after a move, the check says the deal
    cannot be won (undoing would not help), not "undo to go back"."""
    controller = controller_for(game, tmp_path, deal=1, dead_seconds=3600.0, dead_nodes=50_000)
    controller.deal()
    assert controller.apply("dead on").messages == ("Dead check on.", DEAD_AT_DEAL)
