"""Statistics of a batch: the Wilson interval of a win rate, and :class:`Summary`, the running
totals of simulation rows (win rate and its interval, mean and best score, moves, CPU time).

Layer 4. See ``docs/simulate.md``, "The summary and the interval".
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from patience_core.engine import counted
from patience_core.simulate._rows import DEAD, LOST, STOPPED, UNKNOWN, WON, SimRow

__all__ = ["Z95", "Summary", "summary_lines", "wilson_interval"]

#: The two-sided 95% normal quantile, for :func:`wilson_interval`.
Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate of ``wins`` out of ``games`` (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is sound for rates near 0 or 1 and
    for small samples (Wilson, 1927). With no games it is (0, 1); with no win its low end is
    exactly 0, with no loss its high end exactly 1.

    :raises ValueError: when ``games < 0`` or ``wins`` is outside ``0..games``.
    """
    if games < 0 or not 0 <= wins <= games:
        raise ValueError(f"need 0 <= wins <= games, got {wins} of {games}")
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    # Exactly 0 with no win and 1 with no loss (rounding would leave 1e-19 or 0.9999999999).
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


@attrs.define
class Summary:
    """Running totals of simulation rows. Feed rows with :meth:`add`.

    :param game: the game's name.
    :param strategy: the strategy's name.
    :param max_score: the game's largest possible score.
    """

    game: str
    strategy: str
    max_score: int
    games: int = 0
    wins: int = 0
    lost: int = 0
    stopped: int = 0
    dead: int = 0
    unknown: int = 0
    score_total: int = 0
    best_score: int = 0
    moves_total: int = 0
    cpu_seconds: float = 0.0
    first_deal: str = ""
    last_deal: str = ""

    def add(self, row: SimRow) -> None:
        """Count one row."""
        if not self.games:
            self.first_deal = row.deal
        self.last_deal = row.deal
        self.games += 1
        self.wins += row.result == WON
        self.lost += row.result == LOST
        self.stopped += row.result == STOPPED
        self.dead += row.result == DEAD
        self.unknown += row.result == UNKNOWN
        self.score_total += row.score
        self.best_score = max(self.best_score, row.score)
        self.moves_total += row.moves
        self.cpu_seconds += row.seconds

    @property
    def win_rate(self) -> float:
        """Wins per game, 0..1 (0 with no games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def decided(self) -> int:
        """Games with a known outcome: every game but ``stopped`` and ``unknown`` ones."""
        return self.games - self.stopped - self.unknown

    @property
    def interval_decided(self) -> tuple[float, float]:
        """The Wilson 95% interval of wins over decided games (:attr:`decided`)."""
        return wilson_interval(self.wins, self.decided)

    @property
    def mean_score(self) -> float:
        """The mean final score (0 with no games)."""
        return self.score_total / self.games if self.games else 0.0

    @property
    def mean_moves(self) -> float:
        """The mean number of moves per game (0 with no games)."""
        return self.moves_total / self.games if self.games else 0.0

    def as_dict(
        self, wall_seconds: float | None = None, played: int | None = None
    ) -> dict[str, Any]:
        """Every figure as JSON-ready values. They count every row added, ``cpu_seconds`` too
        (the sum of the rows' ``seconds``). ``wall_seconds`` (the batch's elapsed time) adds the
        speed of this run: ``games_this_run`` (``played``, default every game; a resumed run
        played only the rest), ``wall_seconds``, and ``games_per_second`` over those games
        (``None`` when no game was played)."""
        low, high = self.interval
        data: dict[str, Any] = {
            "game": self.game,
            "strategy": self.strategy,
            "first_deal": self.first_deal,
            "last_deal": self.last_deal,
            "games": self.games,
            "wins": self.wins,
            "lost": self.lost,
            "stopped": self.stopped,
            "dead": self.dead,
            "unknown": self.unknown,
            "win_rate": self.win_rate,
            "ci_low": low,
            "ci_high": high,
            "decided": self.decided,
            "win_rate_decided": self.wins / self.decided if self.decided else 0.0,
            "ci_decided_low": self.interval_decided[0],
            "ci_decided_high": self.interval_decided[1],
            "confidence": 0.95,
            "mean_score": self.mean_score,
            "best_score": self.best_score,
            "max_score": self.max_score,
            "mean_moves": self.mean_moves,
            "cpu_seconds": round(self.cpu_seconds, 6),
        }
        if wall_seconds is not None:
            count = self.games if played is None else played
            data["games_this_run"] = count
            data["wall_seconds"] = round(wall_seconds, 6)
            data["games_per_second"] = count / wall_seconds if count and wall_seconds > 0 else None
        return data


def _bounds(low: float, high: float) -> str:
    """``low to high`` as percentages with the fewest decimals (1 to 4) that show a bound more
    than 0 as more than 0 (no win in 20,000 games: ``0.000% to 0.019%``, not ``0.0% to
    0.0%``)."""
    for digits in range(1, 5):
        if all(value == 0 or round(value * 100, digits) != 0 for value in (low, high)):
            break
    return f"{low:.{digits}%} to {high:.{digits}%}"


def summary_lines(
    summary: Summary,
    title: str,
    jobs: int,
    wall: float,
    played: int | None = None,
    kept_in: str = "the partial file",
) -> list[str]:
    """The human-readable summary of every row: ``played`` games (default all; a resumed run
    played only the rest, the others were already in ``kept_in``) took ``wall`` seconds on
    ``jobs`` worker processes. The speed line counts only those games, and says so when they
    are not all; with none played it says that nothing was left to play."""
    low, high = summary.interval
    count = summary.games if played is None else played
    rate = count / wall if wall > 0 else float("inf")
    if count == summary.games:
        speed = f"{rate:.3g} games/s ({wall:.2f} s wall, {counted(jobs, 'job')})"
    elif count:
        speed = (
            f"{rate:.3g} games/s over the {counted(count, 'game')} played now "
            f"({wall:.2f} s wall, {counted(jobs, 'job')}); "
            f"{summary.games - count} {'was' if summary.games - count == 1 else 'were'} "
            f"already in {kept_in}"
        )
    else:
        every = "the game was" if summary.games == 1 else f"all {summary.games} games were"
        speed = f"nothing left to play: {every} already in {kept_in}"
    deals = (
        f"deal {summary.first_deal}"
        if summary.games == 1
        else f"deals {summary.first_deal}..{summary.last_deal}"
    )
    lines = [
        f"{title}, strategy {summary.strategy}, {deals} ({counted(summary.games, 'game')})",
        f"won      {summary.wins} ({summary.win_rate:.1%}; 95% CI {_bounds(low, high)}, Wilson)",
        f"lost     {summary.lost}   stopped {summary.stopped}",
    ]
    if summary.dead or summary.unknown:
        lines[-1] += f"   dead {summary.dead}   unknown {summary.unknown}"
        if summary.decided:
            dlow, dhigh = summary.interval_decided
            rate_decided = summary.wins / summary.decided
            lines.append(
                f"decided  {summary.decided}: won {rate_decided:.1%} of them "
                f"(95% CI {_bounds(dlow, dhigh)})"
            )
    return [
        *lines,
        f"score    mean {summary.mean_score:.2f} of {summary.max_score}, best {summary.best_score}",
        f"moves    mean {summary.mean_moves:.1f}",
        f"speed    {speed}",
    ]
