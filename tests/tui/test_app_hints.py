"""The full-screen player's hints as they are refined, against the fake game and a stream of
answers the test releases one by one: the quick answer at once, marked as thinking, replaced by
the final one; a key stops the search and keeps what is shown; an answer for a position the
player has left is never shown; ``q`` quits at once (docs/play.md, "Hints")."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence

import pytest
from textual.pilot import Pilot

from patience_core.games import Game
from patience_core.model import Move, Position
from patience_core.play import PlayController
from patience_core.solve import Hint
from patience_core.tui import PatienceApp
from patience_core.tui._core import QUIT
from patience_core.tui._pilot import click_card, run_scenario, settle

STOCK, WASTE, F1, F2, T1, T2, T3 = range(7)

Make = Callable[..., PlayController]


class TwoAnswers:
    """A fake ``hint_stream``: a quick answer (the last legal move) at once, then, once
    :attr:`release` is set, the final answer (the first legal move), unless cancelled."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.cancelled = threading.Event()
        self.ended = threading.Event()

    def __call__(
        self,
        game: Game,
        position: Position,
        history: Sequence[Position] = (),
        cancel: Callable[[], bool] | None = None,
        **_: object,
    ) -> Iterator[Hint]:
        legal = game.legal_moves(position)
        try:
            yield self.answer(game, position, legal[-1], final=False)
            self.release.wait(10)
            if cancel is not None and cancel():
                self.cancelled.set()
                return
            yield self.answer(game, position, legal[0], final=True)
        finally:
            self.ended.set()

    @staticmethod
    def answer(game: Game, position: Position, move: Move, *, final: bool) -> Hint:
        reason = "wins in 12 moves" if final else "a shallow search's choice"
        stage = "final" if final else "quick"
        return Hint(move, game.move_text(position, move), reason, "thoughtful", "won",
                    final=final, stage=stage)  # fmt: skip


@pytest.fixture
def stream(monkeypatch: pytest.MonkeyPatch) -> TwoAnswers:
    """The fake stream, in place of the solver's for the controller's hints."""
    fake = TwoAnswers()
    monkeypatch.setattr("patience_core.play._searching.hint_stream", fake)
    return fake


def _piles(move: Move) -> tuple[int | None, int | None]:
    return move.source, move.target


def test_the_quick_answer_shows_at_once_then_the_final_one_replaces_it(
    fake_controller: Make, stream: TwoAnswers
) -> None:
    controller = fake_controller()
    legal = controller.session.legal_moves()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("H")
        await settle(pilot, lambda: "thinking..." in app.message and app.board.hint != (None, None))
        assert app.board.hint == _piles(legal[-1])
        assert app.message.startswith("Hint (thoughtful, thinking...): ")
        assert app.thinking
        stream.release.set()
        await settle(pilot, lambda: not app.thinking)
        assert app.board.hint == _piles(legal[0])
        assert app.message == "Hint (thoughtful, final): " + (
            f"{controller.session.game.move_text(controller.session.position, legal[0])}: "
            "wins in 12 moves."
        )
        await pilot.pause(0.2)  # the last answer stays
        assert app.board.hint == _piles(legal[0]) and "final" in app.message

    run_scenario(PatienceApp(controller), scenario)


def test_a_key_stops_the_search_keeps_the_quick_answer_and_does_nothing_else(
    fake_controller: Make, stream: TwoAnswers
) -> None:
    controller = fake_controller()
    legal = controller.session.legal_moves()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("H")
        await settle(pilot, lambda: app.board.hint != (None, None))
        await pilot.press("d")
        assert not app.thinking and controller.session.moves == ()
        assert app.message.startswith("Hint (thoughtful, stopped): ")
        stream.release.set()
        await settle(pilot, stream.ended.is_set)
        await pilot.pause(0.1)
        assert stream.cancelled.is_set()  # the search was told to stop
        assert app.board.hint == _piles(legal[-1]) and "stopped" in app.message

    run_scenario(PatienceApp(controller), scenario)


def test_a_key_before_any_answer_cancels_the_hint(
    fake_controller: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller = fake_controller()
    started = threading.Event()
    release = threading.Event()

    def slow(game: Game, position: Position, *_: object, **__: object) -> Iterator[Hint]:
        started.set()
        release.wait(10)
        yield TwoAnswers.answer(game, position, game.legal_moves(position)[0], final=True)

    monkeypatch.setattr("patience_core.play._searching.hint_stream", slow)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("H")
        await settle(pilot, started.is_set)
        await pilot.press("d")
        assert not app.thinking and app.message == "Hint cancelled."
        assert controller.session.moves == ()
        release.set()
        await pilot.pause(0.3)
        assert app.board.hint == (None, None)  # the answer came late: dropped

    run_scenario(PatienceApp(controller), scenario)


def test_an_answer_for_a_position_left_is_not_shown(
    fake_controller: Make, stream: TwoAnswers
) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("H")
        await settle(pilot, lambda: app.board.hint != (None, None))
        await click_card(pilot, app, STOCK, -1)  # the mouse deals: no key stops the hint
        assert len(controller.session.moves) == 1
        assert app.board.hint == (None, None) and not app.thinking
        stream.release.set()
        await settle(pilot, stream.ended.is_set)
        await pilot.pause(0.1)
        assert app.board.hint == (None, None)
        assert "Hint (" not in app.message

    run_scenario(PatienceApp(controller), scenario)


def test_q_quits_at_once_while_a_hint_is_searched(
    fake_controller: Make, stream: TwoAnswers
) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("H")
        await settle(pilot, lambda: app.board.hint != (None, None))
        await pilot.press("q")  # the search never ends by itself: quitting does not wait

    assert run_scenario(PatienceApp(controller), scenario) == QUIT
    stream.release.set()
