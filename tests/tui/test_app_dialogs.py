"""The full-screen player's dialogs wrap their lines to the terminal: the end screen's long
statistics line and its choices, and a question, are readable whole at 80x24 and at 60 columns
(docs/play.md, "The end of a game")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from patience_core.play import PlayController
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import run_scenario, screen_text
from patience_core.tui._screens import ConfirmScreen, EndScreen

Make = Callable[..., PlayController]

LINES = [
    "You won!",
    "",
    "Score 52/52   Moves 123   Time 12:34",
    "Baker's Game (empty-columns=any): played 100, won 37 (37%), streak 3 (best 12).",
    "Best time 4:56, best score 52, 140 moves a game on average.",
]
CHOICES = "n: new deal   a: the same deal again   u: back to the game   q: quit"


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=str)
def test_the_end_screen_and_a_question_are_readable_whole(
    size: tuple[int, int], fake_controller: Make
) -> None:
    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        for screen, texts in (
            (EndScreen(LINES), [*LINES, CHOICES]),
            (ConfirmScreen("Restart this deal?"), ["Restart this deal? [y]es / [n]o"]),
        ):
            app.push_screen(screen)
            await pilot.pause()
            region = screen.query_one("Vertical, VerticalScroll").region
            shown = " ".join(" ".join(screen_text(app, region)).split())
            for text in texts:
                assert " ".join(text.split()) in shown, (text, shown)
            app.pop_screen()
            await pilot.pause()

    run_scenario(PatienceApp(fake_controller()), scenario, size)


@pytest.mark.parametrize("empty", ["none", "any"])
def test_the_statistics_name_the_option_set_they_count(empty: str, fake_controller: Make) -> None:
    # The summary counts one option set (Statistics.summary with the game's options), so the
    # statistics key and the end screen name it, as the line at the end of the game does.
    from patience_core.stats import GameSummary

    controller = fake_controller(options={"empty-piles": empty})
    summary = GameSummary("fake", {"empty-piles": empty}, played=3, won=1, streak=1, best_streak=1)
    label = f"Fake Patience (empty-piles={empty}): played 3, won 1 (33%), streak 1 (best 1)."

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("S")
        shown = " ".join(" ".join(screen_text(app)).split())
        assert label in shown, shown
        await pilot.press("escape")
        app.game_ended()
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        shown = " ".join(" ".join(screen_text(app)).split())
        assert label in shown, shown

    run_scenario(PatienceApp(controller, statistics=lambda: summary), scenario)


def _joined(app: PatienceApp) -> str:
    """The text the dialog on top shows (its frame's region only)."""
    region = app.screen.query_one("VerticalScroll").region
    return " ".join(" ".join(screen_text(app, region)).split())


@pytest.mark.parametrize("size", [(40, 15), (40, 16), (60, 20)], ids=str)
def test_a_dialog_taller_than_the_terminal_scrolls_to_every_line(
    size: tuple[int, int], fake_controller: Make
) -> None:
    # The end screen's choices stay in view; End reaches its last line, Home its first; the
    # help's End reaches its closing line.
    choices = " ".join(CHOICES.split())

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        app.push_screen(EndScreen(LINES))
        await pilot.pause()
        assert choices in _joined(app) and LINES[0] in _joined(app)
        await pilot.press("end")
        await pilot.pause()
        assert choices in _joined(app) and " ".join(LINES[-1].split()) in _joined(app)
        await pilot.press("home")
        await pilot.pause()
        assert LINES[0] in _joined(app)
        await pilot.press("u")
        await pilot.press("question_mark", "end")
        await pilot.pause()
        assert "Any other key closes this." in _joined(app), _joined(app)

    run_scenario(PatienceApp(fake_controller()), scenario, size)


def test_two_resume_notes_are_not_cut_mid_word_on_the_message_line(fake_controller: Make) -> None:
    # The full-screen player's message line (two lines at most) shows the first note whole and
    # says another follows, rather than the two joined and the second cut mid-word.
    from patience_core.play._start import _opening_note

    first = (
        "Note: 'escalator' has changed since this game was saved; it goes on with the rules it "
        "was started with"
    )
    second = "Note: saved with escalator of a variant file (no version); now patience 1.0."
    assert _opening_note([]) is None and _opening_note([second]) == second
    controller = fake_controller()
    controller.opening_note = _opening_note([first, second])

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.pause()
        message = app.query_one("#message").region
        shown = " ".join(" ".join(screen_text(app, message)).split())
        assert shown == f"{first} (and 1 more note when you quit)", shown

    run_scenario(PatienceApp(controller), scenario, (80, 24))
