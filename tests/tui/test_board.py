"""The Board widget in a small app of its own, with the fake game: what it draws (suit symbols,
red and black, backs, outlines with names), the cursor, selection and hint highlighted with and
without colour (NO_COLOR), the too-small screen, resizing, and the clicks it posts."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets import Static

from patience_core.engine import DealNumber
from patience_core.model import Card
from patience_core.testing import FakeGame
from patience_core.tui import Board


class BoardApp(App[None]):
    """The board over three lines standing for the player's status, message and footer."""

    CSS = "#chrome { height: 3; }"

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board
        self.clicks: list[tuple[int, int, int, int]] = []

    def compose(self) -> ComposeResult:
        yield self.board
        yield Static("status\nmessage\nfooter", id="chrome")

    def on_board_clicked(self, message: Board.Clicked) -> None:
        self.clicks.append((message.pile, message.card, message.button, message.chain))


def run(
    board: Board,
    scenario: Callable[[Pilot[None], BoardApp], Awaitable[None]],
    size: tuple[int, int] = (80, 24),
) -> BoardApp:
    app = BoardApp(board)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot, app)

    asyncio.run(main())
    return app


def text(board: Board) -> list[str]:
    return [line_text(board.render_line(y)) for y in range(board.size.height)]


def line_text(strip: Strip) -> str:
    return "".join(segment.text for segment in strip)


def styles(app: App[None], board: Board, y: int, filtered: bool = True) -> list[Style]:
    """The style of each cell of line ``y`` as the terminal gets it (the app's filters applied,
    e.g. NO_COLOR's), or as the board draws it."""
    strip = board.render_line(y)
    for line_filter in app.get_line_filters() if filtered else ():
        strip = strip.apply_filter(line_filter, app.screen.styles.background)
    return [segment.style or Style() for segment in strip for _ in segment.text]


def cell(app: App[None], board: Board, pile: int, index: int, filtered: bool = True) -> Style:
    region = board.card_region(pile, index)
    return styles(app, board, region.y, filtered)[region.x]


GAME = FakeGame()
DEAL = GAME.deal(DealNumber(1))
S, W, F1, F2, T1, T2, T3 = range(7)


def test_the_board_draws_cards_backs_outlines_and_names() -> None:
    board = Board(GAME, DEAL)

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        assert board.size == (80, 21)
        lines = text(board)
        drawn = "\n".join(lines)
        for card in DEAL.cards():
            if card.face_up:
                assert card.rank.letter + card.suit.symbol in drawn
        assert "░░░░░░" in drawn  # the stock's and the tableau's face-down cards
        assert "[ f1 ]" in drawn and "[ w  ]" in drawn  # empty piles: outlines with names
        assert f"s {len(DEAL[S])}" in drawn
        assert board.too_small is None
        top = DEAL[T1][-1]
        red, black = Style(color="red"), Style(color="black")
        colour = cell(app, board, T1, len(DEAL[T1]) - 1, filtered=False).color
        assert colour == (red if top.is_red else black).color

    run(board, look)


@pytest.mark.parametrize("no_colour", [False, True])
def test_cursor_selection_and_hint_show_with_and_without_colour(
    monkeypatch: pytest.MonkeyPatch, no_colour: bool
) -> None:
    if no_colour:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    board = Board(GAME, DEAL)

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        assert app.no_color is no_colour
        t3_top = len(DEAL[T3]) - 1
        plain = cell(app, board, T3, t3_top)
        board.selection = (T3, t3_top)
        await pilot.pause()
        selected = cell(app, board, T3, t3_top)
        assert selected != plain and selected.reverse
        board.cursor = (T2, len(DEAL[T2]) - 1)
        board.hint = (T1, F1)
        await pilot.pause()
        assert cell(app, board, T2, len(DEAL[T2]) - 1).underline
        for pile, index in ((T1, len(DEAL[T1]) - 1), (F1, -1)):
            hinted = cell(app, board, pile, index)
            assert hinted.bold and hinted.italic and not hinted.underline
        board.selection, board.cursor, board.hint = None, None, (None, None)
        await pilot.pause()
        assert cell(app, board, T3, t3_top) == plain

    run(board, look)


def test_the_cursor_on_an_empty_pile_or_a_stacked_card_shows_where_it_is_drawn() -> None:
    board = Board(GAME, DEAL)

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        board.cursor = (F1, -1)
        await pilot.pause()
        assert cell(app, board, F1, -1).underline
        board.cursor = (S, 0)  # a card under the stock's top: the top is highlighted
        await pilot.pause()
        assert cell(app, board, S, len(DEAL[S]) - 1).underline

    run(board, look)


def test_a_small_terminal_says_which_size_it_needs_and_resizing_redraws() -> None:
    board = Board(GAME, DEAL)

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        await pilot.resize_terminal(12, 8)
        await pilot.pause()
        message = board.too_small
        assert message is not None and message.startswith("terminal too small: ")
        columns, rows = (int(n) for n in message.split()[-2].split("x"))
        assert columns > 12 and rows >= 8 and rows - board.geometry.rows == 3
        assert not any("t1" in line for line in text(board))
        await pilot.resize_terminal(columns, rows)
        await pilot.pause()
        assert board.too_small is None
        assert any("t1" in line for line in text(board))
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert board.geometry.metrics is not None and board.geometry.metrics.card == 6

    run(board, look, size=(80, 24))


def test_show_draws_a_new_position() -> None:
    board = Board(GAME, DEAL)
    moved = GAME.play(DEAL, GAME.legal_moves(DEAL)[-1])

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        before = text(board)
        board.show(moved)
        await pilot.pause()
        assert text(board) != before and board.position == moved

    run(board, look)


def test_clicks_are_posted_with_the_pile_and_card_under_the_mouse() -> None:
    board = Board(GAME, DEAL)

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        region = board.card_region(T3, len(DEAL[T3]) - 1)
        await pilot.click(Board, offset=(region.x, region.y))
        await pilot.pause()
        empty = board.card_region(F2, -1)
        await pilot.double_click(Board, offset=(empty.x + 1, empty.y))
        await pilot.pause()
        await pilot.click(Board, offset=(0, 20))  # nothing there
        await pilot.pause()

    app = run(board, look)
    top = len(DEAL[T3]) - 1
    assert (T3, top, 1, 0) in app.clicks and (T3, top, 1, -1) in app.clicks
    assert (T3, top, 1, 1) in app.clicks
    assert (F2, -1, 1, 2) in app.clicks
    assert {pile for pile, *_ in app.clicks} == {T3, F2}


def test_card_text_may_be_given() -> None:
    board = Board(GAME, DEAL, card_text=lambda card: card.code.upper())

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        top: Card = DEAL[T1][-1]
        assert any(top.code.upper() in line for line in text(board))

    run(board, look)


def test_neighbours_and_pile_at_follow_the_drawing() -> None:
    board = Board(GAME, DEAL)

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        assert board.neighbours(T1, "right") == T2
        region = board.card_region(T2, len(DEAL[T2]) - 1)
        assert board.pile_at(region.x, region.y) == (T2, len(DEAL[T2]) - 1)

    run(board, look)


def test_the_marker_of_hidden_cards_fits_narrow_cards() -> None:
    """Two-character cards show ``25`` for 25 hidden cards, never a cut ``+2``."""
    cards = [Card.of(1 + k % 6, (0, 2)[k // 6 % 2], face_up=k >= 20) for k in range(40)]
    position = DEAL.replace([(T1, tuple(cards)), (S, ()), (T2, ()), (T3, ())])
    board = Board(GAME, position)

    async def look(pilot: Pilot[None], app: BoardApp) -> None:
        assert board.geometry.metrics is not None and board.geometry.metrics.card == 2
        (more,) = [p for p in board.geometry.placed if p.what == "more"]
        region = board.card_region(T1, 0)
        assert line_text(board.render_line(region.y))[region.x : region.x + 2] == f"{more.hidden}"

    run(board, look, size=(17, 24))
