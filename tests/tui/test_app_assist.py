"""The full-screen player's help for the player, against the fake game: hints searched in a
worker thread and shown on the board, auto-finish, the dead-check indicator, the end screen, the
new-deal dialog (docs/play.md)."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.play import FINISHED_WON, PlayController, read_save
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import run_scenario, settle
from patience_core.tui._screens import EndScreen, NewDealScreen

STOCK, WASTE, F1, F2, T1, T2, T3 = range(7)
#: Fake Patience deal 2 after these moves: the rest is forced (17 moves, and it wins).
FORCED = ("deal", "deal", "w t1")

Make = Callable[..., PlayController]


def test_a_hint_highlights_a_legal_move_and_says_why(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("H")
        await settle(pilot, lambda: not app.thinking)
        source, target = app.board.hint
        legal = controller.session.legal_moves()
        assert any(m.source == source and m.target == target for m in legal)
        assert app.message.startswith("Hint")
        await pilot.press("d")  # a move clears the highlight
        assert app.board.hint == (None, None)

    run_scenario(PatienceApp(controller), scenario)


def test_auto_finish_is_offered_and_plays_the_rest_to_the_win(fake_controller: Make) -> None:
    controller = fake_controller(moves=FORCED[:-1])

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("a")
        assert "not forced" in app.message
        await pilot.press("w", "t", "1")
        assert "press a to finish" in app.message
        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, EndScreen))
        assert controller.session.finished == FINISHED_WON
        assert not controller.clock.running  # the time of a finished game stands still
        await pilot.press("u")  # back to the game
        await pilot.press("u")
        assert controller.session.finished is None
        assert controller.clock.running

    run_scenario(PatienceApp(controller), scenario)
    assert list(read_save(controller.path).redo) == ["w f2"]


def test_any_key_stops_auto_finish(fake_controller: Make) -> None:
    controller = fake_controller(moves=FORCED)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("a")
        await settle(pilot, lambda: len(controller.session.moves) > len(FORCED))
        await pilot.press("escape")
        assert not app.finishing
        played = len(controller.session.moves)
        await pilot.pause(0.3)
        assert len(controller.session.moves) == played
        assert controller.session.finished is None

    run_scenario(PatienceApp(controller), scenario)


def test_the_end_screen_offers_the_same_deal_again(fake_controller: Make) -> None:
    controller = fake_controller(moves=FORCED)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, EndScreen))
        text = "\n".join(str(w.render()) for w in app.screen.query("Static"))
        assert "You won!" in text and "Score 12/12" in text and "Moves 20" in text
        await pilot.press("a")
        assert not isinstance(app.screen, EndScreen)
        assert controller.session.moves == ()
        assert controller.session.deal == DealNumber(2)

    run_scenario(PatienceApp(controller), scenario)


def test_the_end_screen_quits(fake_controller: Make) -> None:
    controller = fake_controller(moves=FORCED)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.press("q")

    assert run_scenario(PatienceApp(controller), scenario) == 0


def test_a_new_deal_typed_by_number(fake_controller: Make) -> None:
    controller = fake_controller(moves=("deal",))

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n")
        assert isinstance(app.screen, NewDealScreen)
        await pilot.press("x", "enter")
        assert isinstance(app.screen, NewDealScreen)  # not a deal number: said, asked again
        await pilot.press("backspace", "7", "enter")
        assert not isinstance(app.screen, NewDealScreen)
        assert controller.session.deal == DealNumber(7)
        assert controller.session.moves == ()
        assert "Deal 7" in str(app.query_one("#status").render())

    run_scenario(PatienceApp(controller), scenario)
    assert read_save(controller.path).deal == DealNumber(7)


def test_a_random_new_deal_and_escape_from_the_dialog(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", "escape")
        assert controller.session.deal == DealNumber(2)
        await pilot.press("n", "r")
        assert not isinstance(app.screen, NewDealScreen)
        assert f"Deal {controller.session.deal}" in app.message

    run_scenario(PatienceApp(controller), scenario)


def test_a_winnable_new_deal(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", "w")
        await settle(pilot, lambda: "checked winnable" in app.message)

    run_scenario(PatienceApp(controller), scenario)


def test_the_dead_check_indicator_turns_on_and_off(fake_controller: Make) -> None:
    # Fake Patience deal 1 cannot be won (the solver proves it at once).
    controller = fake_controller(deal=1)
    controller.dead_seconds = 5.0
    controller.dead_check_on = False

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("x")
        assert controller.dead_check_on
        await settle(pilot, lambda: "cannot be won" in app.message)
        assert "NO WINNING LINE" in str(app.query_one("#status").render())
        await pilot.press("x")
        assert not controller.dead_check_on
        assert "dead check" not in str(app.query_one("#status").render())

    run_scenario(PatienceApp(controller), scenario)


def test_the_dead_check_speaks_at_the_deal_when_it_is_on_from_the_start(
    fake_controller: Make,
) -> None:
    controller = fake_controller(deal=1)
    controller.dead_seconds = 5.0
    controller.dead_check_on = True

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await settle(pilot, lambda: "This deal cannot be won." in app.message)

    run_scenario(PatienceApp(controller), scenario)


def test_a_finished_game_opens_with_its_end_screen(fake_controller: Make) -> None:
    controller = fake_controller(moves=FORCED)
    moves = controller.finish_moves()
    assert moves is not None
    for move in moves:
        controller.play_move(move)
    assert controller.session.finished == FINISHED_WON

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        assert isinstance(app.screen, EndScreen)
        assert not controller.clock.running

    run_scenario(PatienceApp(controller), scenario)


def test_a_lost_game_opens_the_end_screen_and_goes_back_to_undo(fake_controller: Make) -> None:
    # Fake Patience deal 1: six deals empty the stock and leave no move.
    controller = fake_controller(deal=1, moves=("deal",) * 5)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("d")
        assert isinstance(app.screen, EndScreen)
        text = "\n".join(str(w.render()) for w in app.screen.query("Static"))
        assert "No moves left: the game is lost." in text and "Moves 6" in text
        await pilot.press("escape", "u")
        assert controller.session.finished is None
        assert len(controller.session.moves) == 5

    run_scenario(PatienceApp(controller), scenario)
