"""The controller's hints as the search refines them (``hint_answers``), on the fake game with a
stream of answers in place of the solver's: each answer in order, the last final; the line
player's ``hint`` and ``hint_answer`` give the last one in the usual format; a cancel stops the
answers and tells the search (docs/solver.md, "Quick, then better")."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.games import Game
from patience_core.model import Position
from patience_core.play import PlayController, Session
from patience_core.solve import Hint
from patience_core.testing import FakeGame


class Stream:
    """A fake ``hint_stream``: a quick answer (the last legal move), then the final one (the
    first legal move); records whether it was told to stop in between."""

    def __init__(self) -> None:
        self.told_to_stop: bool | None = None

    def __call__(
        self,
        game: Game,
        position: Position,
        history: Sequence[Position] = (),
        cancel: Callable[[], bool] | None = None,
        **_: object,
    ) -> Iterator[Hint]:
        legal = game.legal_moves(position)
        quick, best = legal[-1], legal[0]
        yield Hint(quick, game.move_text(position, quick), "not judged yet", "honest", "unknown",
                   final=False, stage="quick")  # fmt: skip
        self.told_to_stop = cancel is not None and cancel()
        if self.told_to_stop:
            return
        yield Hint(best, game.move_text(position, best), "wins in 12 moves", "honest", "won",
                   final=True, stage="final")  # fmt: skip


@pytest.fixture
def stream(monkeypatch: pytest.MonkeyPatch) -> Stream:
    fake = Stream()
    monkeypatch.setattr("patience_core.play._searching.hint_stream", fake)
    return fake


def _controller(tmp_path: Path) -> PlayController:
    return PlayController(Session(FakeGame(), DealNumber(2)), tmp_path / "fake.json", "0.1.0")


def test_every_answer_comes_in_order_and_the_last_is_final(tmp_path: Path, stream: Stream) -> None:
    controller = _controller(tmp_path)
    position = controller.session.position
    legal = controller.session.legal_moves()
    first, last = list(controller.hint_answers())
    assert (first.move, first.final) == (legal[-1], False)
    assert (last.move, last.final) == (legal[0], True)
    assert (last.source, last.target) == (legal[0].source, legal[0].target)
    text = controller.session.game.move_text(position, legal[0])
    assert last.text == f"Hint (honest): {text}: wins in 12 moves."
    assert last.marked("final") == f"Hint (honest, final): {text}: wins in 12 moves."
    assert first.marked("thinking...").startswith("Hint (honest, thinking...): ")
    # The line player and a front end that wants one answer: the last, as ever.
    assert controller.hint() == last.text
    assert controller.hint_answer() == last
    assert controller.tally.hints == 3 and stream.told_to_stop is False


def test_a_cancel_stops_the_answers_and_tells_the_search(tmp_path: Path, stream: Stream) -> None:
    controller = _controller(tmp_path)
    cancel = threading.Event()
    answers = controller.hint_answers(cancel=cancel)
    assert not next(answers).final
    cancel.set()
    assert list(answers) == [] and stream.told_to_stop is True
    assert controller.hint_answer(cancel=cancel).text == "Hint cancelled."


def test_the_answers_are_for_the_position_when_asked(tmp_path: Path, stream: Stream) -> None:
    controller = _controller(tmp_path)
    legal = controller.session.legal_moves()
    answers = controller.hint_answers()
    controller.deal()  # the session moves on before the search starts
    assert [a.move for a in answers] == [legal[-1], legal[0]]
