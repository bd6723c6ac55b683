"""The full-screen player with every shipped game at 80x24: keys and mouse clicks at the
cards' real places play real moves; undo, redo, restart and a new deal; resizing to 60 and 200
columns; a hint highlights a legal move (docs/play.md)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.model import Move, MoveKind, PileKind
from patience_core.play import PlayController, read_save
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import click_card, run_scenario, settle

GAMES = ["escalator", "bristol", "bakers-game", "diamond-mine", "spiderette", "golf"]

Make = Callable[..., PlayController]


def _a_move(controller: PlayController) -> Move:
    """A legal move of one card off a pile that is not the stock (the first in the game's
    order), after dealing from the stock until there is one."""
    session = controller.session
    for _ in range(10):
        for move in session.legal_moves():
            kind = session.game.piles[move.source].kind
            if move.kind is MoveKind.TRANSFER and move.count == 1 and kind is not PileKind.STOCK:
                return move
        assert not controller.deal().refused
    raise AssertionError("no move of one card")


async def _hot_keys(pilot: Pilot[int], app: PatienceApp, name: str) -> None:
    await pilot.press(*name)
    # A name others begin with (p2 beside p21) ends with a pause.
    await settle(pilot, lambda: not app.hot_keys.pending)
    await pilot.pause()


@pytest.mark.parametrize("game", GAMES)
def test_pile_hot_keys_play_a_move_undo_and_redo(game: str, shipped_controller: Make) -> None:
    controller = shipped_controller(game)
    move = _a_move(controller)
    piles = controller.session.game.piles
    after = controller.session.game.play(controller.session.position, move)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await _hot_keys(pilot, app, piles[move.source].name)
        assert app.board.selection is not None
        assert app.board.selection[0] == move.source
        assert move.target is not None
        await _hot_keys(pilot, app, piles[move.target].name)
        assert controller.session.position == after
        await pilot.press("u")
        assert controller.session.position != after
        await pilot.press("U")
        assert controller.session.position == after

    played = len(controller.session.moves) + 1
    run_scenario(PatienceApp(controller), scenario)
    assert len(read_save(controller.path).moves) == played


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("columns", [80, 200])
def test_clicks_at_the_cards_play_a_move(game: str, columns: int, shipped_controller: Make) -> None:
    controller = shipped_controller(game)
    move = _a_move(controller)
    assert move.target is not None
    target = move.target
    after = controller.session.game.play(controller.session.position, move)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await click_card(pilot, app, move.source, -1)
        assert app.board.selection is not None
        await pilot.pause(0.6)  # not a double click
        await click_card(pilot, app, target, -1)
        assert controller.session.position == after

    run_scenario(PatienceApp(controller), scenario, size=(columns, 40 if columns > 80 else 24))


@pytest.mark.parametrize("game", GAMES)
def test_at_60_columns_the_board_fits_or_says_the_size_it_needs(
    game: str, shipped_controller: Make
) -> None:
    controller = shipped_controller(game)
    move = _a_move(controller)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.resize_terminal(60, 24)
        await settle(pilot, lambda: app.size.width == 60)
        await pilot.pause()
        if app.query_one("#too-small").display:
            text = str(app.query_one("#too-small-text").render())
            assert "needed; this is 60x24" in text
        else:
            assert app.board.display
            await settle(pilot, lambda: app.board.size.width == 60)
            await click_card(pilot, app, move.source, -1)
            assert app.board.selection is not None
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        assert app.board.display
        assert not app.query_one("#too-small").display

    run_scenario(PatienceApp(controller), scenario)


@pytest.mark.parametrize("game", GAMES)
def test_restart_and_a_new_deal(game: str, shipped_controller: Make) -> None:
    controller = shipped_controller(game)
    move = _a_move(controller)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        assert not controller.play_move(move).refused
        app.redraw()
        await pilot.press("R", "y")
        assert controller.session.moves == ()
        await pilot.press("n", *"12", "enter")
        assert controller.session.deal == DealNumber(12)
        assert controller.session.position == controller.session.game.deal(DealNumber(12))

    run_scenario(PatienceApp(controller), scenario)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_hint_highlights_a_legal_move(game: str, shipped_controller: Make) -> None:
    controller = shipped_controller(game)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("H")
        await settle(pilot, lambda: not app.thinking)
        assert app.message.startswith(("Hint (", "No hint"))
        assert ", final): " in app.message or app.message.startswith("No hint")
        source, target = app.board.hint
        if source is not None:
            legal = controller.session.legal_moves()
            assert any(m.source == source and m.target == target for m in legal)

    run_scenario(PatienceApp(controller), scenario)


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_move_says_the_rule_it_breaks(game: str, shipped_controller: Make) -> None:
    controller = shipped_controller(game)
    _a_move(controller)  # a position with moves of cards (deals made where needed)
    session = controller.session
    position = session.position
    legal = {(m.source, m.target) for m in session.legal_moves()}
    piles = session.game.piles
    names = {spec.name for spec in piles}

    def prefix(pile: int) -> bool:  # a name another begins with ends with a pause
        return any(n != piles[pile].name and n.startswith(piles[pile].name) for n in names)

    refused = next(
        Move.transfer(source, target)
        for source, cards in enumerate(position.piles)
        if cards and cards[-1].face_up and piles[source].kind is not PileKind.STOCK
        for target in range(len(piles))
        if target != source
        and (source, target) not in legal
        and piles[target].kind is not PileKind.STOCK
        and not prefix(source)
        and not prefix(target)
    )
    reason = session.game.why_illegal(position, refused)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        assert refused.target is not None
        await pilot.press(*piles[refused.source].name, *piles[refused.target].name)
        assert controller.session.position == position
        assert reason in app.message

    run_scenario(PatienceApp(controller), scenario)
