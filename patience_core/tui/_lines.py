"""The lines under the board: the status bar fitted to the terminal's width by whole fields, and
the key bar, the footer that shows every key on two lines (docs/play.md, "The full-screen
player").
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from rich.text import Text
from textual.widgets import Static

from patience_core.model import PileKind
from patience_core.play import FINISHED_WON, PlayController

__all__ = ["KeyBar", "StatusField", "fit_keys", "fit_status", "status_fields"]


@attrs.frozen
class StatusField:
    """One field of the status bar.

    :param text: the field in full (``"Moves 12"``).
    :param short: the field shortened (``"Mv 12"``) when the line is narrow; ``""``: as ``text``.
    :param rank: which fields go first when the line is too narrow: the lowest rank first;
        :data:`KEEP` never goes.
    """

    text: str
    short: str = ""
    rank: int = 0


#: The rank of a field never dropped (the dead-check indicator, won or lost).
KEEP = 1_000


def fit_status(fields: Sequence[StatusField], width: int, gap: str = "  ") -> str:
    """The status bar in ``width`` columns, with whole fields only: all of them in full when
    they fit; else the fields shortened; else, besides, the lowest-ranked fields left out one by
    one (those of rank :data:`KEEP` stay; were they alone too wide, the line is cut)."""
    kept = list(fields)
    line = gap.join(field.text for field in kept)
    if len(line) <= width:
        return line
    kept = [field for field in kept if field.rank > 0] or kept  # rank 0: the title
    for shortened in (False, True):
        while True:
            line = gap.join(
                (field.short or field.text) if shortened else field.text for field in kept
            )
            if len(line) <= width or not shortened:
                break
            droppable = [field for field in kept if field.rank < KEEP]
            if not droppable:
                break
            kept.remove(min(droppable, key=lambda field: field.rank))
        if len(line) <= width:
            return line
    return line[:width]


def fit_keys(
    labels: Sequence[tuple[str, str, int]], width: int, lines: int = 2, gap: int = 2
) -> list[list[tuple[str, str]]]:
    """Key labels (``(key, label, rank)``, in the order shown) laid out on at most ``lines``
    lines of ``width`` columns: every one when they fit, else the lowest-ranked left out first
    (those of rank :data:`KEEP`, help and quit, always stay)."""
    kept = list(labels)
    while True:
        rows: list[list[tuple[str, str]]] = [[]]
        used = 0
        for key, label, _rank in kept:
            size = len(key) + 1 + len(label)
            if rows[-1] and used + gap + size > width:
                rows.append([])
                used = 0
            used += size + (gap if rows[-1] else 0)
            rows[-1].append((key, label))
        droppable = [item for item in kept if item[2] < KEEP]
        if len(rows) <= lines or not droppable:
            return rows[:lines]
        kept.remove(min(droppable, key=lambda item: item[2]))


class KeyBar(Static):
    """The footer: every key of the player with a short label, on two lines at 80 columns; on
    a narrower terminal the least used keys are left out, ``? help`` and ``q quit`` never.

    :param labels: ``(key as shown, label, rank)`` in the order shown; the lowest rank is left
        out first, rank :data:`KEEP` never.
    """

    DEFAULT_CSS = """
    KeyBar { height: auto; max-height: 2; background: $panel; color: $text; }
    """

    def __init__(self, labels: Sequence[tuple[str, str, int]], *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self._labels = tuple(labels)

    def on_resize(self) -> None:
        """Lay the keys out again for the new width."""
        self.lay_out()

    def on_mount(self) -> None:
        """Lay the keys out for the width the bar has."""
        self.lay_out()

    def lay_out(self) -> None:
        """Show the keys that fit the bar's width."""
        width = self.size.width or self.app.size.width
        text = Text(no_wrap=True, overflow="crop")
        for number, row in enumerate(fit_keys(self._labels, width)):
            if number:
                text.append("\n")
            for index, (key, label) in enumerate(row):
                text.append("  " if index else "")
                text.append(key, style="bold reverse")
                text.append(f" {label}")
        self.update(text)

    def shown(self) -> str:
        """The text shown (for tests)."""
        return str(self.render())


def status_fields(controller: PlayController) -> list[StatusField]:
    """The fields of the status bar for the game of ``controller``: deal, score, moves, clock,
    stock left, the game's own status, and the game's end or the dead check's verdict (never
    dropped).
    """
    session = controller.session
    game = session.game
    score = controller.score_text()
    moves = len(session.moves)
    # Least important first out: the title, the game's own text, stock, clock, moves.
    fields = [
        StatusField(game.title, rank=0),
        StatusField(f"Deal {session.deal}", f"#{session.deal}", rank=6),
        StatusField(score, score.removeprefix("Score "), rank=5),
        StatusField(f"Moves {moves}", f"Mv {moves}", rank=4),
        StatusField(controller.clock.text(), rank=3),
    ]
    status = game.status(session.position)
    stock = game.pile_indices(PileKind.STOCK)
    if stock and "stock" not in status.lower():  # unless the game's status tells it
        left = sum(len(session.position.piles[i]) for i in stock)
        fields.append(StatusField(f"Stock {left}", f"St {left}", rank=2))
    if status:
        fields.append(StatusField(status, rank=1))
    if session.finished is not None:  # a game over is over, whatever the dead check said
        won = session.finished == FINISHED_WON
        fields.append(StatusField("WON" if won else "LOST", rank=KEEP))
    elif controller.dead_check_on:
        dead = controller.dead_known
        fields.append(StatusField("NO WINNING LINE" if dead else "dead check on", rank=KEEP))
    return fields
