"""The full-screen player's keys against the fake game: moves through the play controller,
saved after every change; refusals say why; undo, redo, restart, deal, quit (docs/play.md,
"Keys")."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from patience_core.play import PlayController, read_save
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import run_scenario, settle
from patience_core.tui._screens import ConfirmScreen, HelpScreen

# Fake Patience, deal 2: t1 6♥, t2 5♣# 2♣, t3 3♥# 2♥# A♥; six cards face down in the stock.
STOCK, WASTE, F1, F2, T1, T2, T3 = range(7)

Make = Callable[..., PlayController]


def _ranks(controller: PlayController, pile: int) -> list[int]:
    return [int(card.rank) for card in controller.session.position.piles[pile]]


def test_hot_keys_pick_up_and_drop_and_the_move_is_saved(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("t", "3")
        assert app.board.selection == (T3, 2)
        assert app.board.cursor == (T3, 2)
        await pilot.press("f", "1")
        assert _ranks(controller, F1) == [1]
        assert app.board.selection is None
        assert app.board.cursor == (F1, 0)  # the cursor follows the cards
        assert "Moves 1" in str(app.query_one("#status").render())

    run_scenario(PatienceApp(controller), scenario)
    assert list(read_save(controller.path).moves) == ["t3 f1"]


def test_a_letter_naming_a_kind_drops_on_the_first_pile_of_it_that_takes_the_cards(
    fake_controller: Make,
) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("t", "3", "f")
        # "f" alone: after a pause, any foundation
        await settle(pilot, lambda: _ranks(controller, F1) == [1])

    run_scenario(PatienceApp(controller), scenario)


def test_enter_picks_up_at_the_cursor_and_escape_puts_the_cards_back(
    fake_controller: Make,
) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        app.board.cursor = (T3, 2)
        await pilot.press("enter")
        assert app.board.selection == (T3, 2)
        await pilot.press("escape")
        assert app.board.selection is None
        await pilot.press("space")
        assert app.board.selection == (T3, 2)
        app.board.cursor = (F1, -1)
        await pilot.press("space")
        assert _ranks(controller, F1) == [1]

    run_scenario(PatienceApp(controller), scenario)


def test_a_refused_move_says_why_and_changes_nothing(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("t", "1", "t", "2")  # 6♥ onto 2♣: the tableau builds down in suit
        assert controller.session.moves == ()
        assert app.message
        assert app.board.selection is None
        assert not list(read_save(controller.path).moves) if controller.path.exists() else True

    run_scenario(PatienceApp(controller), scenario)


def test_the_cursor_moves_between_piles_and_along_a_fan(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        assert app.board.cursor == (T1, 0)
        await pilot.press("right")
        assert app.board.cursor == (T2, 1)
        await pilot.press("l")
        assert app.board.cursor == (T3, 2)
        await pilot.press("up")  # the card under the top one is face down: the pile above
        assert app.board.cursor is not None
        assert app.board.cursor[0] in (STOCK, WASTE, F1, F2)
        await pilot.press("j")
        assert app.board.cursor is not None
        assert app.board.cursor[0] in (T1, T2, T3)

    run_scenario(PatienceApp(controller), scenario)


def test_deal_undo_redo_and_restart(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("d")
        assert len(controller.session.position.piles[STOCK]) == 5
        await pilot.press("d")
        assert len(controller.session.moves) == 2
        await pilot.press("u")
        assert len(controller.session.moves) == 1
        await pilot.press("ctrl+z")
        assert len(controller.session.moves) == 0
        await pilot.press("U")
        await pilot.press("ctrl+y")
        assert len(controller.session.moves) == 2
        await pilot.press("R")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert len(controller.session.moves) == 2
        await pilot.press("R", "y")
        assert len(controller.session.moves) == 0
        assert len(controller.session.redo_texts) == 2

    run_scenario(PatienceApp(controller), scenario)
    assert list(read_save(controller.path).redo) == ["deal", "deal"]


def test_quit_saves_and_ends_with_code_0(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("d", "q")

    assert run_scenario(PatienceApp(controller), scenario) == 0
    assert list(read_save(controller.path).moves) == ["deal"]


def test_the_help_lists_every_key_and_any_key_closes_it(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("d")  # closes the help; deals nothing
        assert not isinstance(app.screen, HelpScreen)
        assert controller.session.moves == ()

    run_scenario(PatienceApp(controller), scenario)


def test_the_status_bar_shows_deal_score_moves_time_and_stock(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        status = str(app.query_one("#status").render())
        for part in ("Fake Patience", "Deal 2", "Score 0/12", "Moves 0", "0:0", "Stock left: 6"):
            assert part in status

    run_scenario(PatienceApp(controller), scenario)


def test_the_clock_stops_while_the_terminal_has_not_the_focus(fake_controller: Make) -> None:
    from textual import events

    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        app.post_message(events.AppBlur())
        await pilot.pause()
        assert not controller.clock.running
        app.post_message(events.AppFocus())
        await pilot.pause()
        assert controller.clock.running

    run_scenario(PatienceApp(controller), scenario)


def test_a_terminal_too_small_shows_only_the_size_needed_until_it_grows(
    fake_controller: Make,
) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        too_small = app.query_one("#too-small")
        assert not too_small.display
        await pilot.resize_terminal(12, 6)
        await pilot.pause()
        assert too_small.display
        text = str(app.query_one("#too-small-text").render())
        assert text.startswith("terminal too small: ") and text.endswith("this is 12x6")
        assert not app.board.display
        await pilot.press("d")  # no move is made blind
        assert controller.session.moves == ()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not too_small.display
        assert app.board.display

    run_scenario(PatienceApp(controller), scenario)


def test_docs_play_md_and_the_help_list_every_key() -> None:
    from pathlib import Path

    from patience_core.tui import KEYS, help_lines

    page = (Path(__file__).parents[2] / "docs" / "play.md").read_text()
    keys = page[page.index("### Keys") : page.index("### The mouse")]
    shown = {
        "left": "←",
        "right": "→",
        "up": "↑",
        "down": "↓",
        "enter": "Enter",
        "space": "Space",
        "escape": "Esc",
        "full_stop": "`.`",
        "question_mark": "`?`",
        "ctrl+z": "Ctrl+Z",
        "ctrl+y": "Ctrl+Y",
        "ctrl+c": "Ctrl+C",
    }
    help_text = "\n".join(help_lines())
    assert len(help_lines(80)) <= 20  # the help fits an 80x24 terminal
    for names, _label, what, _action, _footer in KEYS:
        for name in names.split(","):
            assert shown.get(name, f"`{name}`") in keys, f"{name} is not in docs/play.md"
        assert what in help_text


def test_the_smart_move_key_plays_the_card_at_the_cursor_to_a_foundation(
    fake_controller: Make,
) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        app.board.cursor = (T3, 2)
        await pilot.press("m")
        assert _ranks(controller, F1) == [1]
        app.board.cursor = (T1, 0)
        await pilot.press("full_stop")  # 6♥: nowhere to go
        assert len(controller.session.moves) == 1
        assert app.message

    run_scenario(PatienceApp(controller), scenario)


def test_ctrl_c_quits_and_saves(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("d", "ctrl+c")

    assert run_scenario(PatienceApp(controller), scenario) == 0
    assert list(read_save(controller.path).moves) == ["deal"]


def test_the_statistics_key_shows_the_games_statistics(fake_controller: Make) -> None:
    from patience_core.stats import GameSummary

    controller = fake_controller()
    summary = GameSummary("fake", {}, played=4, won=1, streak=1, best_streak=1, best_seconds=75.0)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("S")
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(str(w.render()) for w in app.screen.query("Static"))
        assert "played 4, won 1 (25%)" in text and "best time 1:15" in text.lower()

    run_scenario(PatienceApp(controller, statistics=lambda: summary), scenario)
