"""A simulation row: one deal played by one strategy, its columns and its possible results.

Layer 4. :class:`SimRow` is what :func:`~patience_core.simulate.play_deal` gives for a deal and
what the run store and the rows files hold; :func:`row_problem` says why
a row read back from a file cannot have been written by the run resuming it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

import attrs

from patience_core import __version__
from patience_core.engine import shown

__all__ = [
    "COLUMNS",
    "DEAD",
    "DEFAULT_MAX_MOVES",
    "LOST",
    "NEVER_GIVEN",
    "RESULTS",
    "STOPPED",
    "UNKNOWN",
    "WON",
    "SimRow",
    "options_text",
    "row_problem",
    "run_versions",
]

WON = "won"
LOST = "lost"
STOPPED = "stopped"
#: Proved unwinnable by the player's search (``solver``, ``honest``).
DEAD = "dead"
#: The player's search ran out of budget before deciding (``solver``).
UNKNOWN = "unknown"
#: Every result a row may hold.
RESULTS = (WON, LOST, STOPPED, DEAD, UNKNOWN)
#: The results each built-in strategy can never give (its rows that hold one were not written
#: by it): ``random`` and ``greedy`` search nothing, so they never prove or give up on a deal;
#: ``honest`` plays on until it wins, is lost, proves the deal dead or meets the move cap.
#: Plugin strategies may give any result.
NEVER_GIVEN = {"random": (DEAD, UNKNOWN), "greedy": (DEAD, UNKNOWN), "honest": (UNKNOWN,)}

#: The default move cap: a game still running after this many moves ends as ``stopped``. Every
#: built-in game finishes a random game well inside it or wanders forever (moving cards back and
#: forth); 2000 moves is about 10 to 40 times the length of a finished game of the five games.
DEFAULT_MAX_MOVES = 2000

#: The columns of a simulation row, in output order.
COLUMNS = (
    "game",
    "deal",
    "strategy",
    "options",
    "result",
    "score",
    "max_score",
    "moves",
    "seconds",
)


@attrs.frozen
class SimRow:
    """The result of one simulated game.

    :param game: the game's name (``"escalator"``).
    :param deal: the deal number as text (``str(DealNumber)``: ``"17"`` or ``"ms:17"``).
    :param strategy: the strategy's name.
    :param options: the game options in force, defaults included, as :func:`options_text` gives
        them (``"empty-columns=kings"``; ``""`` for a game without options).
    :param result: ``"won"``, ``"lost"`` (no legal move left), ``"stopped"`` (the move cap was
        reached, or the strategy resigned, without a result), or, for a strategy that resigns
        saying why, ``"dead"`` (it proved no line wins) or ``"unknown"`` (its search budget ran
        out).
    :param score: the score of the final position (0..max_score).
    :param max_score: the game's largest possible score.
    :param moves: the number of moves played.
    :param seconds: CPU seconds (``time.process_time``) spent dealing and playing this game in
        the process that played it; the only column that changes between runs.
    """

    game: str
    deal: str
    strategy: str
    options: str
    result: str
    score: int
    max_score: int
    moves: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        """The row as a dict with the keys of :data:`COLUMNS`, in that order."""
        return {name: getattr(self, name) for name in COLUMNS}

    def key(self) -> tuple[str, str, str, str, str, int, int, int]:
        """Every column but ``seconds``: what must agree between runs."""
        return (
            self.game,
            self.deal,
            self.strategy,
            self.options,
            self.result,
            self.score,
            self.max_score,
            self.moves,
        )


def options_text(values: Mapping[str, str]) -> str:
    """Game options as one text field: ``name=value`` pairs in name order joined by ``;``
    (``{"empty-columns": "kings"}`` gives ``"empty-columns=kings"``; no options give ``""``).

    :param values: option name to value, e.g. :attr:`Game.option_values
        <patience_core.games.Game.option_values>` (every option in force, defaults included).
    """
    return ";".join(f"{name}={value}" for name, value in sorted(values.items()))


def row_problem(
    row: SimRow,
    *,
    game: str,
    deals: Collection[str],
    strategy: str,
    options: str,
    max_score: int,
    max_moves: int,
) -> str | None:
    """What makes ``row`` one that :func:`play_deal` cannot have written for one of ``deals``
    (as text: ``"17"``, ``"ms:17"``) of ``game`` (its name, its options as
    :func:`options_text` gives them, its ``max_score``) with ``strategy`` and the move cap
    ``max_moves``, or ``None`` when nothing does: a column that names another game, a deal not
    among ``deals``, another strategy or other options; a result not in :data:`RESULTS`, or one
    the strategy never gives (:data:`NEVER_GIVEN`); a
    ``max_score`` not the game's; a score outside 0..``max_score``, or below it for a win;
    moves outside 0..``max_moves``; seconds that are not a CPU time (negative, infinite, NaN).

    :returns: one short phrase, e.g. ``"score 999 is outside 0..35"``.
    """
    if row.game != game:
        return f"game {shown(row.game)}, not {game!r}"
    if row.deal not in deals:
        return f"deal {shown(row.deal)} is not one of the run's deals"
    if row.strategy != strategy:
        return f"strategy {shown(row.strategy)}, not {strategy!r}"
    if row.options != options:
        return f"options {shown(row.options)}, not {options!r}"
    if row.result not in RESULTS:
        return f"result {shown(row.result)} is not one of {', '.join(RESULTS)}"
    if row.result in NEVER_GIVEN.get(strategy, ()):
        return f"result {row.result!r} is not one strategy {strategy!r} gives"
    if row.max_score != max_score:
        return f"max_score {row.max_score}, not {game}'s {max_score}"
    if not 0 <= row.score <= max_score:
        return f"score {row.score} is outside 0..{max_score}"
    if row.result == WON and row.score != max_score:
        return f"won with score {row.score}, not {max_score}"
    if not 0 <= row.moves <= max_moves:
        return f"moves {row.moves} is outside 0..{max_moves}"
    if not (math.isfinite(row.seconds) and row.seconds >= 0):
        return f"seconds {row.seconds} is not a CPU time"
    return None


def run_versions(host: Any, game: str, strategy: str) -> dict[str, str]:
    """The versions of the code that makes a run's rows, by distribution name: patience-core,
    the plugin of ``game`` and the plugin of ``strategy`` (``"?"`` for one the host does not
    know). They are part of a stored run's identity: rows of other versions are another run.

    :param host: the loaded :class:`~patience_core.plugins.PluginHost`.
    :raises PatienceError: for an unknown game or strategy.
    """
    wanted = {"patience-core", host.games.provider(game), host.strategies.provider(strategy)}
    versions = {"patience-core": __version__}
    for record in host.records:
        if record.distribution in wanted:
            versions.setdefault(record.distribution, record.version)
    return {name: versions.get(name, "?") for name in sorted(wanted)}
