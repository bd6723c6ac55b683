"""The full-screen player's dialogs: the help overlay, a yes/no question, the new-deal dialog
and the end-of-game screen (docs/play.md).

Each is a modal screen that answers through ``dismiss``: the app decides what follows.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from patience_core.engine import DealNumber, counted
from patience_core.play import PlayClock
from patience_core.stats import GameSummary

__all__ = [
    "ConfirmScreen",
    "EndScreen",
    "HelpScreen",
    "NewDealScreen",
    "read_deal",
    "summary_lines",
]

_DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: auto; max-width: 90%; height: auto; max-height: 90%;
    border: thick $primary; background: $surface; padding: 0 1; overflow: hidden;
}}
{name} Static {{ width: auto; max-width: 100%; }}
"""


def summary_lines(
    summary: GameSummary, title: str, options: Mapping[str, str] | None = None
) -> list[str]:
    """The statistics of a game for the end screen and the statistics key: games played and
    won, streaks, best time and score. They count one option set, so ``options`` (name to
    value) are named after ``title`` as the line at the end of the game does (docs/play.md)."""
    named = ", ".join(f"{key}={value}" for key, value in (options or {}).items())
    label = f"{title} ({named})" if named else title
    lines = [
        f"{label}: played {summary.played}, won {summary.won} ({summary.win_rate:.0%}), "
        f"streak {summary.streak} (best {summary.best_streak})."
    ]
    extra = []
    if summary.best_seconds is not None:
        extra.append(f"best time {PlayClock(summary.best_seconds, running=False).text()}")
    if summary.best_score is not None:
        extra.append(f"best score {summary.best_score}")
    if summary.mean_moves is not None:
        extra.append(f"{counted(round(summary.mean_moves), 'move')} a game on average")
    if extra:
        lines.append(", ".join(extra).capitalize() + ".")
    return lines


#: Below this width (columns) the new-deal dialog says its choices in short.
NARROW_DIALOG = 40


def new_deal_intro(width: int) -> str:
    """What the new-deal dialog offers, for a terminal ``width`` columns wide."""
    if width < NARROW_DIALOG:
        return "r random, w winnable, or N or ms:N and Enter. Esc: back."
    return (
        "New deal: r a random deal, w a winnable deal (checked by the solver), "
        "or type a deal number (N or ms:N) and Enter. Esc: back to the game."
    )


def read_deal(
    text: str, schemes: Collection[str] | None = None, game: str = "this game"
) -> DealNumber | str:
    """The deal number typed in the new-deal dialog, or the one-line reason it is not one (a
    scheme not in ``schemes``, the game ``game``'s, is refused as such whatever the number)."""
    try:
        return DealNumber.parse(text.strip(), schemes, game)
    except ValueError as exc:
        return str(exc)


#: The keys that scroll the help overlay (any other key closes it).
_SCROLL_KEYS = {
    "up": "scroll_up",
    "k": "scroll_up",
    "down": "scroll_down",
    "j": "scroll_down",
    "pageup": "page_up",
    "pagedown": "page_down",
    "home": "scroll_home",
    "end": "scroll_end",
}


class HelpScreen(ModalScreen[None]):
    """Lines to read: every key of the player (``?``), the game's statistics (``S``). The
    arrows, ``j``/``k``, Page Up/Down, Home and End scroll it when it is taller than the
    terminal; ``q`` quits the game; any other key closes it.

    :param lines: the lines to show.
    """

    DEFAULT_CSS = (
        _DIALOG_CSS.format(name="HelpScreen")
        + "HelpScreen > VerticalScroll {width: auto; max-width: 100%; height: auto;"
        " max-height: 100%; border: thick $primary; background: $surface; padding: 0 1;"
        " overflow-x: hidden;}"
    )

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self._lines = lines

    def compose(self) -> ComposeResult:
        """The lines."""
        closing = "Arrows, PgUp/PgDn: scroll.  q: quit the game.  Any other key closes this."
        with VerticalScroll():
            yield Static("\n".join([*self._lines, "", closing]), markup=False)

    async def on_key(self, event: events.Key) -> None:
        """Scroll on the scrolling keys, quit on ``q``, close on any other key (which does
        nothing else)."""
        event.stop()
        event.prevent_default()
        scroll = _SCROLL_KEYS.get(event.key)
        if scroll is not None:
            getattr(self.query_one(VerticalScroll), f"action_{scroll}")()
        elif event.key == "q":
            await self.app.run_action("quit_game")
        else:
            self.dismiss(None)

    def on_click(self) -> None:
        """Close on a click."""
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: ``y`` or Enter answers yes, ``n`` or Esc no.

    :param question: the question, one line.
    """

    DEFAULT_CSS = _DIALOG_CSS.format(name="ConfirmScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
        Binding("q", "app.quit_game", "quit"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self._question = question

    def compose(self) -> ComposeResult:
        """The question and its keys."""
        with Vertical():
            yield Static(f"{self._question}  [y]es / [n]o", markup=False)

    def action_answer(self, yes: bool) -> None:
        """Answer the question."""
        self.dismiss(yes)


#: The new-deal dialog's answers besides a deal number typed.
RANDOM = "random"
WINNABLE = "winnable"
SAME = "same"


class _Problem(Static):
    """Why the deal typed is refused: in view as soon as its text takes its lines (on a small
    terminal the dialog's intro scrolls out of view for it)."""

    def on_resize(self) -> None:
        """Scroll the dialog to the whole refusal."""
        self.scroll_visible(animate=False)


class NewDealScreen(ModalScreen[DealNumber | str | None]):
    """The new-deal dialog: a random deal (``r``), a winnable one (``w``, the solver checks it),
    or a deal number typed and Enter; Esc goes back to the game.

    Its text wraps to the terminal, and a refusal shows under the field, scrolled into view,
    the text typed kept to be corrected (docs/play.md, "Keys").

    :param problem: why the deal asked before cannot be dealt (shown under the field), or "".
    :param typed: the text of that deal, put back in the field, or "".
    :param schemes: the deal schemes the game takes (``None``: not checked here), and ``game``
        its name, for the refusal of a number of another scheme.

    Answers a :class:`~patience_core.engine.DealNumber`, :data:`RANDOM`, :data:`WINNABLE`, or
    ``None``. :attr:`typed` is the text the number was read from.
    """

    DEFAULT_CSS = """
    NewDealScreen { align: center middle; }
    NewDealScreen > #dialog {
        width: 74; max-width: 100%; height: auto; max-height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    NewDealScreen Static { width: 100%; }
    NewDealScreen.-narrow > #dialog { padding: 0; }
    NewDealScreen.-short Input { border: none; height: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "answer(None)", "back to the game"),
    ]
    AUTO_FOCUS = "#deal"
    # Under 40 columns the short intro and no padding; under 16 lines a field of one line.
    # (Textual types these as instance variables: a ClassVar would not type-check.)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_DIALOG, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (16, "-tall")]  # noqa: RUF012

    def __init__(
        self,
        problem: str = "",
        typed: str = "",
        schemes: Collection[str] | None = None,
        game: str = "this game",
    ) -> None:
        super().__init__()
        self._problem = problem
        self.typed = typed
        self._schemes = schemes
        self._game = game

    def compose(self) -> ComposeResult:
        """The choices, and the deal number's field."""
        with VerticalScroll(id="dialog"):
            yield Static(new_deal_intro(self.app.size.width), id="intro", markup=False)
            # The cursor after the text kept, to correct it (not all of it selected).
            yield Input(self.typed, placeholder="deal number", id="deal", select_on_focus=False)
            yield _Problem(self._problem, id="problem", markup=False)

    def on_resize(self, event: events.Resize) -> None:
        """The intro for the new width."""
        self.query_one("#intro", Static).update(new_deal_intro(event.size.width))

    def on_input_changed(self, event: Input.Changed) -> None:
        """``r`` or ``w`` alone in the field chooses a random or a winnable deal."""
        if event.value in ("r", "w"):
            self.dismiss(RANDOM if event.value == "r" else WINNABLE)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A deal number typed: play it, or say why it is not one (the text stays)."""
        deal = read_deal(event.value, self._schemes, self._game)
        if isinstance(deal, str):
            self.query_one("#problem", Static).update(deal)
            return
        self.typed = event.value
        self.dismiss(deal)

    def action_answer(self, answer: str | None) -> None:
        """Answer without a number typed."""
        self.dismiss(answer)


class EndScreen(ModalScreen[str]):
    """The end of a game, won or lost: the score, moves and time, the game's statistics when
    there are any, and the choices: ``n`` a new deal, ``a`` the same deal again, ``u`` back to the
    game (undo), ``q`` quit. Answers ``"new"``, ``"same"``, ``"back"`` or ``"quit"``.

    :param lines: what to show above the choices.
    """

    # Taller than the terminal, the lines scroll (arrows, Page Up/Down, Home, End) under the
    # choices, which stay in view at the bottom of the dialog.
    DEFAULT_CSS = (
        _DIALOG_CSS.format(name="EndScreen")
        + "EndScreen > VerticalScroll {width: auto; max-width: 90%; height: auto;"
        " max-height: 100%; border: thick $primary; background: $surface; padding: 0 1;"
        " overflow-x: hidden;}"
        " EndScreen #choices {dock: bottom; width: 100%;}"
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "answer('new')", "new deal"),
        Binding("a", "answer('same')", "same deal again"),
        Binding("u,escape", "answer('back')", "back to the game"),
        Binding("q", "answer('quit')", "quit"),
        *(Binding(key, f"scroll('{action}')", show=False) for key, action in _SCROLL_KEYS.items()),
    ]

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self._lines = lines

    def compose(self) -> ComposeResult:
        """The outcome, and the choices."""
        choices = "n: new deal   a: the same deal again   u: back to the game   q: quit"
        with VerticalScroll():
            yield Static("\n".join(self._lines), markup=False)
            yield Static("\n" + choices, id="choices", markup=False)

    def action_scroll(self, action: str) -> None:
        """Scroll the lines (``action``: a scroll action of the dialog, e.g. ``scroll_end``)."""
        getattr(self.query_one(VerticalScroll), f"action_{action}")()

    def action_answer(self, answer: str) -> None:
        """Choose what follows."""
        self.dismiss(answer)
