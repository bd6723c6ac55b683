"""The full-screen player where things go wrong or get tight, with the fake game: a winnable-deal
search stopped or outlived, a deal the game cannot deal, a save that fails, Ctrl+C in a dialog,
a narrow terminal's status bar, footer and help, a suspended clock (docs/play.md)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.play import PlayController, WinnableDeal, read_save
from patience_core.tui import PatienceApp, can_run
from patience_core.tui import _app as app_module
from patience_core.tui import _run as run_module
from patience_core.tui._keys import FOOTER
from patience_core.tui._lines import KEEP, KeyBar, StatusField, fit_keys, fit_status
from patience_core.tui._pilot import run_scenario, settle
from patience_core.tui._screens import HelpScreen, NewDealScreen

Make = Callable[..., PlayController]

FORCED = ("deal", "deal", "w t1")


def _blocked_search(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The winnable-deal search answers deal 5 once the event returned is set (or its own
    cancel event is): a search that takes as long as the test wants."""
    release = threading.Event()

    def slow(game: object, search: object, seed: int, *, cancel: threading.Event) -> object:
        while not release.wait(0.01):
            if cancel.is_set():
                return None
        return WinnableDeal(DealNumber(5), 1, 10)

    monkeypatch.setattr(app_module, "winnable_deal", slow)
    return release


def test_escape_stops_a_winnable_search_and_a_late_answer_changes_nothing(
    fake_controller: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller = fake_controller()
    release = _blocked_search(monkeypatch)
    slow = app_module.winnable_deal

    def ignores_cancel(game: object, search: object, seed: int, **_: object) -> object:
        # As if the search could not be stopped: its answer still comes, late.
        return slow(game, search, seed, cancel=threading.Event())

    monkeypatch.setattr(app_module, "winnable_deal", ignores_cancel)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", "w")
        assert "Looking for a winnable deal" in app.message
        await pilot.press("escape")
        assert "stopped" in app.message
        await pilot.press("d")
        release.set()
        await pilot.pause(0.3)
        assert controller.session.deal == DealNumber(2)
        assert len(controller.session.moves) == 1

    run_scenario(PatienceApp(controller), scenario)
    assert list(read_save(controller.path).moves) == ["deal"]


def test_quitting_during_a_winnable_search_does_not_wait_for_it(
    fake_controller: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller = fake_controller()
    release = _blocked_search(monkeypatch)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", "w", "q")  # q stops the search, a second q quits
        await pilot.press("q")

    try:
        # The search never ends by itself: the app returning at all shows nothing waited.
        assert run_scenario(PatienceApp(controller), scenario) == 0
    finally:
        release.set()


def test_a_winnable_answer_plays_the_deal_found(
    fake_controller: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller = fake_controller()
    _blocked_search(monkeypatch).set()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", "w")
        await settle(pilot, lambda: controller.session.deal == DealNumber(5))
        assert "checked winnable" in app.message

    run_scenario(PatienceApp(controller), scenario)


def test_a_deal_the_game_cannot_deal_is_said_in_the_dialog(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", *"ms:5", "enter")
        assert isinstance(app.screen, NewDealScreen)
        problem = str(app.screen.query_one("#problem").render())
        assert problem == "fake does not take ms deal numbers"
        await pilot.press("escape")
        assert controller.session.deal == DealNumber(2)

    assert run_scenario(PatienceApp(controller), scenario) is None  # still running: no crash


def test_a_failing_save_warns_at_each_move_and_quitting_is_clean(
    fake_controller: Make, tmp_path: Path
) -> None:
    controller = fake_controller()
    (tmp_path / "blocker").write_text("")

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        controller.path = tmp_path / "blocker" / "fake.json"
        for _ in range(2):
            await pilot.press("d")
            shown = str(app.query_one("#message").render())
            assert "patience: warning: cannot save the game" in shown
        await pilot.press("q")

    app = PatienceApp(controller)
    assert run_scenario(app, scenario) == 0
    assert len(app.warnings) >= 2
    controller.save()  # after the app: the warning is kept, the gone screen not touched
    assert len(app.warnings) >= 3


def test_ctrl_c_quits_from_the_new_deal_dialog_and_q_from_a_question(
    fake_controller: Make,
) -> None:
    async def in_dialog(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", "1", "ctrl+c")

    async def in_question(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("R", "q")

    assert run_scenario(PatienceApp(fake_controller()), in_dialog) == 0
    assert run_scenario(PatienceApp(fake_controller()), in_question) == 0


def test_restart_says_the_full_screen_keys(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("d", "d", "R", "y")
        assert app.message == "Back to the deal: U redoes the 2 moves, one by one."
        assert "redo all" not in app.message

    run_scenario(PatienceApp(controller), scenario)


def test_a_lost_game_shows_lost_whatever_the_dead_check_said(fake_controller: Make) -> None:
    controller = fake_controller(deal=1, moves=("deal",) * 5)
    controller.dead_check_on = True

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("d", "escape")
        await pilot.pause(0.2)
        status = str(app.query_one("#status").render())
        assert status.endswith("LOST") and "dead check" not in status

    run_scenario(PatienceApp(controller), scenario)


def test_auto_finish_is_offered_on_resume_and_after_it_is_stopped(fake_controller: Make) -> None:
    controller = fake_controller(moves=FORCED)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        assert "press a to finish" in app.message
        await pilot.press("a")
        await settle(pilot, lambda: len(controller.session.moves) > len(FORCED))
        await pilot.press("escape")
        assert app.message.startswith("Auto-finish stopped.")
        assert "press a to finish" in app.message

    run_scenario(PatienceApp(controller), scenario)


def test_the_status_bar_keeps_whole_fields_and_the_indicator() -> None:
    fields = [
        StatusField("Baker's Game", rank=0),
        StatusField("Deal 1", "#1", rank=6),
        StatusField("Score 0/52", "0/52", rank=5),
        StatusField("Moves 10", "Mv 10", rank=4),
        StatusField("0:07", rank=3),
        StatusField("Foundations: 0 0 0 0", rank=1),
        StatusField("NO WINNING LINE", rank=KEEP),
    ]
    full = "  ".join(field.text for field in fields)
    assert fit_status(fields, 200) == full
    assert fit_status(fields, len(full) - 1) == full.removeprefix("Baker's Game  ")
    assert fit_status(fields, 40) == "#1  0/52  Mv 10  0:07  NO WINNING LINE"
    assert fit_status(fields, 25) == "#1  0/52  NO WINNING LINE"
    assert fit_status(fields, 15) == "NO WINNING LINE"


def test_the_footer_shows_every_key_at_80_columns_and_help_and_quit_at_40() -> None:
    def shown(width: int) -> list[str]:
        return [key for row in fit_keys(FOOTER, width) for key, _label in row]

    assert shown(80) == [key for key, _label, _rank in FOOTER]
    for width in (60, 40):
        keys = shown(width)
        assert "?" in keys and "q" in keys and "d" in keys
        assert all(len(row) for row in fit_keys(FOOTER, width))


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_the_footer_on_screen(fake_controller: Make, size: tuple[int, int]) -> None:
    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        text = app.query_one(KeyBar).shown()
        lines = text.splitlines()
        assert len(lines) == 2 and all(len(line) <= size[0] for line in lines)
        assert "? help" in text and "q quit" in text
        if size[0] == 80:
            assert all(f"{key} {label}" in text for key, label, _rank in FOOTER)

    run_scenario(PatienceApp(fake_controller()), scenario, size)


def test_the_help_scrolls_at_60x12_and_any_other_key_closes_it(fake_controller: Make) -> None:
    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        scroll = app.screen.query_one(VerticalScroll)
        await pilot.press("down", "down")
        await pilot.pause()
        assert scroll.scroll_y > 0
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("z")
        assert not isinstance(app.screen, HelpScreen)

    run_scenario(PatienceApp(fake_controller()), scenario, (60, 12))


def test_every_scrolling_key_of_the_help_scrolls_it(fake_controller: Make) -> None:
    """Page Down, Page Up, End, Home and the arrows each scroll the help (none of them fails or
    closes it)."""

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("question_mark")
        scroll = app.screen.query_one(VerticalScroll)
        for key, moved in [("pagedown", True), ("pageup", False), ("end", True), ("home", False)]:
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen), key
            assert (scroll.scroll_target_y > 0) is moved, key
        for key in ("down", "j", "up", "k"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen), key

    run_scenario(PatienceApp(fake_controller()), scenario, (60, 12))


def test_a_long_message_wraps_to_two_lines(fake_controller: Make) -> None:
    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        app.say("word " * 30)
        await pilot.pause()
        assert app.query_one("#message").size.height == 2

    run_scenario(PatienceApp(fake_controller()), scenario)


def test_the_clock_stops_while_suspended_and_the_screen_is_redrawn_on_resume(
    fake_controller: Make,
) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        app.app_suspend_signal.publish(app)
        await pilot.pause()
        assert not controller.clock.running
        app.say("before")
        app.app_resume_signal.publish(app)
        await pilot.pause()
        assert controller.clock.running
        assert str(app.query_one("#message").render()) == "before"

    run_scenario(PatienceApp(controller), scenario)


@pytest.mark.parametrize(
    ("term", "mono"),
    [("dumb", True), ("xterm-mono", True), ("xterm-256color", False), ("", False)],
)
def test_no_colour_for_a_dumb_or_mono_terminal(
    term: str, mono: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERM", term)
    assert run_module._monochrome() is mono


def test_the_full_screen_player_runs_only_where_it_can_be_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Stream:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    for stream in ("stdin", "stdout", "__stderr__"):
        monkeypatch.setattr(f"sys.{stream}", Stream(True))
    assert can_run()
    monkeypatch.setattr("sys.__stderr__", Stream(False))  # 2>/dev/null: Textual draws there
    assert not can_run()


def test_a_colourless_app_draws_no_colour(fake_controller: Make) -> None:
    app = PatienceApp(fake_controller())
    app.colourless = True

    filters = app.get_line_filters()
    assert [type(f).__name__ for f in filters] == ["NoColor"]
