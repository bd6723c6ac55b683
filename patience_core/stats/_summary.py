"""What ``patience stats`` shows: played, won, win rate, streaks, times, scores and moves, per
option set of a game, per game, and of all games together (docs/stats.md)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping

import attrs

__all__ = [
    "FINISHED",
    "VALID",
    "GameSummary",
    "Report",
    "collect",
    "find",
    "options_key",
    "skipped",
]

#: The outcomes of a game that has ended; any other row is a game in progress.
FINISHED = ("won", "lost", "dead", "abandoned")


#: The SQL condition a row patience wrote meets: rows edited by hand into other values (options
#: that are no JSON object, a text where a number goes) are left out of every figure, and said.
VALID = (
    "coalesce(CASE WHEN json_valid(options) THEN json_type(options) = 'object' ELSE 0 END"
    " AND typeof(game) = 'text' AND typeof(deal) = 'text'"
    " AND typeof(started_at) = 'text' AND typeof(updated_at) = 'text'"
    " AND typeof(ended_at) IN ('text', 'null')"
    " AND typeof(seconds) IN ('real', 'integer') AND typeof(moves) = 'integer'"
    " AND typeof(undos) = 'integer' AND typeof(hints) = 'integer'"
    " AND typeof(restarts) = 'integer' AND typeof(score) IN ('integer', 'null')"
    " AND outcome IN ('won', 'lost', 'dead', 'abandoned', 'in progress'), 0)"
)


def skipped(conn: sqlite3.Connection) -> int:
    """How many rows of the ``games`` table fail :data:`VALID` (and are left out).

    :raises sqlite3.Error: when the database cannot be read.
    """
    row = conn.execute(f"SELECT COUNT(*) FROM games WHERE NOT {VALID}").fetchone()
    return int(row[0])


def options_key(options: Mapping[str, str]) -> str:
    """The text the ``options`` column keeps: a JSON object with sorted keys (``{}`` for none), so
    that one option set is always one text."""
    return json.dumps(dict(sorted(options.items())), separators=(",", ":"), ensure_ascii=False)


@attrs.frozen
class GameSummary:
    """The statistics of some recorded games.

    :param game: the game's name; ``None`` for all games together.
    :param options: the option set (name -> value); ``None`` for every option set together.
    :param played: games started and moved in (in progress ones too).
    :param won: games won.
    :param streak: won games in a row up to the last finished one (by end time; a game in
        progress does not break a streak; a lost, dead or abandoned one does).
    :param best_streak: the longest such run.
    :param best_seconds: the shortest won game, in active playing seconds (``None``: no win).
    :param mean_win_seconds: the mean playing seconds of a won game (``None``: no win).
    :param best_score: the highest final score (``None``: no game).
    :param mean_moves: the mean number of moves of a game (``None``: no game).
    """

    game: str | None
    options: Mapping[str, str] | None
    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    best_seconds: float | None = None
    mean_win_seconds: float | None = None
    best_score: int | None = None
    mean_moves: float | None = None

    @property
    def win_rate(self) -> float:
        """``won / played``, from 0.0 to 1.0 (0.0 when none was played; :meth:`as_dict` gives
        ``None`` then, as for every figure with no value)."""
        return self.won / self.played if self.played else 0.0

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict of every field, ``win_rate`` included."""
        data = attrs.asdict(self)
        data["options"] = dict(self.options) if self.options is not None else None
        data["win_rate"] = self.win_rate if self.played else None
        return data


@attrs.frozen
class Report:
    """The statistics of every recorded game (of one game when asked).

    :param total: all games together.
    :param games: one summary per game (every option set together), by name.
    :param option_sets: one summary per game and option set, by name then options.
    """

    total: GameSummary
    games: tuple[GameSummary, ...]
    option_sets: tuple[GameSummary, ...]

    @classmethod
    def empty(cls) -> Report:
        """The report of no game."""
        return cls(GameSummary(None, None), (), ())

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict: ``total``, ``games`` and ``option_sets``."""
        return {
            "total": self.total.as_dict(),
            "games": [s.as_dict() for s in self.games],
            "option_sets": [s.as_dict() for s in self.option_sets],
        }


@attrs.define
class _Tally:
    """Sums that combine: an option set's into its game's, a game's into the total."""

    played: int = 0
    won: int = 0
    best_seconds: float | None = None
    win_seconds: float = 0.0
    best_score: int | None = None
    moves: int = 0
    #: The finished games by end time, one letter each: ``w`` won, ``l`` not.
    ends: list[str] = attrs.Factory(list)

    def add(self, other: _Tally) -> None:
        self.played += other.played
        self.won += other.won
        self.win_seconds += other.win_seconds
        self.moves += other.moves
        self.best_seconds = _least(self.best_seconds, other.best_seconds)
        if other.best_score is not None:
            self.best_score = max(other.best_score, self.best_score or other.best_score)

    def summary(self, game: str | None, options: Mapping[str, str] | None) -> GameSummary:
        ends = "".join(self.ends)
        return GameSummary(
            game=game,
            options=options,
            played=self.played,
            won=self.won,
            streak=len(ends) - len(ends.rstrip("w")),
            best_streak=max(map(len, ends.split("l"))),
            best_seconds=self.best_seconds,
            mean_win_seconds=self.win_seconds / self.won if self.won else None,
            best_score=self.best_score,
            mean_moves=self.moves / self.played if self.played else None,
        )


def _least(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    return a if b is None else min(a, b)


def _where(game: str | None, options: str | None, since: str | None) -> tuple[str, list[str]]:
    clauses, params = [VALID], []
    if game is not None:
        clauses.append("game = ?")
        params.append(game)
    if options is not None:
        clauses.append("options = ?")
        params.append(options)
    if since is not None:
        clauses.append("started_at >= ?")
        params.append(since)
    return " WHERE " + " AND ".join(clauses), params


def collect(
    conn: sqlite3.Connection,
    *,
    game: str | None = None,
    options: Mapping[str, str] | None = None,
    since: str | None = None,
) -> Report:
    """The statistics of the recorded games (of ``game`` only, of one option set only, of the
    games started on or after ``since`` only, when given).

    :param since: an ISO date or time (UTC), e.g. ``2026-12-01``.
    :raises sqlite3.Error: when the database cannot be read.
    """
    where, params = _where(game, None if options is None else options_key(options), since)
    tallies: dict[tuple[str, str], _Tally] = {}
    query = (
        "SELECT game, options, COUNT(*), SUM(outcome = 'won'),"
        " MIN(CASE WHEN outcome = 'won' THEN seconds END),"
        " TOTAL(CASE WHEN outcome = 'won' THEN seconds END), MAX(score), TOTAL(moves)"
        f" FROM games{where} GROUP BY game, options"
    )
    for name, opts, played, won, best, win_seconds, score, moves in conn.execute(query, params):
        tallies[name, opts] = _Tally(played, won, best, win_seconds, score, int(moves))
    per_game: dict[str, _Tally] = {}
    total = _Tally()
    # Streaks run over finished games only: one in progress neither makes nor breaks one.
    streak_where = where + " AND ended_at IS NOT NULL"
    rows = conn.execute(
        f"SELECT game, options, iif(outcome = 'won', 'w', 'l') FROM games{streak_where}"
        " ORDER BY ended_at",
        params,
    )
    for name in sorted({name for name, _ in tallies}):
        per_game[name] = _Tally()
    # Letters appended here, streaks counted by str methods: 100,000 games in a few ms.
    for name, opts, end in rows:
        tallies[name, opts].ends.append(end)
        per_game[name].ends.append(end)
        total.ends.append(end)
    for (name, _opts), tally in tallies.items():
        per_game[name].add(tally)
        total.add(tally)
    # By game, then the set with no options first, then by their text.
    order = sorted(tallies, key=lambda key: (key[0], key[1] != "{}", key[1]))
    option_sets = tuple(tallies[key].summary(key[0], json.loads(key[1])) for key in order)
    games = tuple(tally.summary(name, None) for name, tally in sorted(per_game.items()))
    return Report(total.summary(None, None), games, option_sets)


def find(summaries: Iterable[GameSummary], game: str) -> GameSummary:
    """The summary of ``game`` in ``summaries``, or an empty one."""
    for summary in summaries:
        if summary.game == game:
            return summary
    return GameSummary(game, None)
