"""What ``patience stats`` shows: played, won, win rate, streaks, times, scores and moves, per
option set of a game, per game, and of all games together (docs/stats.md)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping

import attrs

__all__ = [
    "FIGURES",
    "FINISHED",
    "GameSummary",
    "Report",
    "collect",
    "decoded_options",
    "find",
    "options_key",
    "where_clause",
]

#: The outcomes of a game that has ended; any other row is a game in progress.
FINISHED = ("won", "lost", "dead", "abandoned")


#: The SQL condition a row counted in the figures meets, on columns of both indexes
#: ``games_by_game`` and ``games_by_end`` (so reading stays an index scan): a row edited by hand
#: into another outcome is left out, and said; options that are no JSON object are checked once
#: per option set, in Python. A seconds, moves or score value of another type (a text) is
#: left out of its sums and bests (:data:`_SOUND`), the row counted.
FIGURES = (
    "typeof(game) = 'text' AND typeof(options) = 'text'"
    " AND outcome IN ('won', 'lost', 'dead', 'abandoned', 'in progress')"
)

#: The outcomes patience writes.
_OUTCOMES = frozenset(("won", "lost", "dead", "abandoned", "in progress"))

#: A seconds value as patience writes it.
_NUMBER = "typeof(seconds) IN ('real', 'integer')"

#: The SQL condition of a row whose seconds, moves and score are as patience writes them.
_SOUND = (
    "typeof(seconds) IN ('real', 'integer') AND typeof(moves) = 'integer'"
    " AND typeof(score) IN ('integer', 'null')"
)


def decoded_options(text: str) -> dict[str, str] | None:
    """The option set the ``options`` column keeps; ``None`` for a text patience never writes
    (no JSON object of texts)."""
    try:
        options = json.loads(text)
    except ValueError:
        return None
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        return None
    return options


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
    :param left_out: the rows holding values patience never writes (edited by hand): left
        out, or their odd values left out of the sums and bests; not part of :meth:`as_dict`.
    """

    total: GameSummary
    games: tuple[GameSummary, ...]
    option_sets: tuple[GameSummary, ...]
    left_out: int = 0

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
            mine = self.best_score
            self.best_score = other.best_score if mine is None else max(mine, other.best_score)

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


def where_clause(
    game: str | None, options: str | None, since: str | None, figures: bool = True
) -> tuple[str, list[str]]:
    """The ``WHERE`` clause and its parameters for the rows of ``game`` (``None``: every game),
    option set ``options`` (its key; ``None``: any), started at or after ``since`` (an ISO time;
    ``None``: ever); with ``figures``, only rows whose figures patience could have written."""
    clauses, params = ["1"], []  # so that more conditions can follow with AND
    if figures:
        clauses.append(FIGURES)
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
    key = None if options is None else options_key(options)
    where, params = where_clause(game, key, since, figures=False)
    found = _sound_tallies(conn, where, params)
    left_out = 0
    if found is None:
        # Some row was edited by hand: read again, leaving out what patience never writes.
        where, params = where_clause(game, key, since)
        found, left_out = _checked_tallies(conn, where, params)
        (rows,) = conn.execute(
            f"SELECT COUNT(*) FROM games{where_clause(game, key, since, figures=False)[0]}", params
        ).fetchone()
        left_out += int(rows) - sum(tally.played for tally, _ in found.values())
    tallies = {group: tally for group, (tally, _) in found.items()}
    per_game: dict[str, _Tally] = {name: _Tally() for name, _ in sorted(tallies)}
    total = _Tally()
    # Streaks run over finished games only: one in progress neither makes nor breaks one.
    rows = conn.execute(
        f"SELECT game, options, iif(outcome = 'won', 'w', 'l') FROM games{where}"
        " AND ended_at IS NOT NULL ORDER BY ended_at",
        params,
    )
    # Letters appended here, streaks counted by str methods: 100,000 games in a few ms.
    for name, opts, end in rows:
        if (name, opts) in tallies:
            tallies[name, opts].ends.append(end)
            per_game[name].ends.append(end)
            total.ends.append(end)
    for (name, _opts), tally in tallies.items():
        per_game[name].add(tally)
        total.add(tally)
    # By game, then the set with no options first, then by their text.
    order = sorted(tallies, key=lambda key: (key[0], key[1] != "{}", key[1]))
    option_sets = tuple(tallies[key].summary(key[0], found[key][1]) for key in order)
    games = tuple(tally.summary(name, None) for name, tally in sorted(per_game.items()))
    return Report(total.summary(None, None), games, option_sets, left_out)


#: The tallies of each (game, options) group, with the options decoded.
_Found = dict[tuple[str, str], tuple[_Tally, dict[str, str]]]


def _sound_tallies(conn: sqlite3.Connection, where: str, params: list[str]) -> _Found | None:
    """The tallies of the rows of ``where``, or ``None`` when one of them holds a value patience
    never writes: grouped by outcome too (the index's order: an index scan with no test per
    row), the largest values telling a text among numbers (SQLite sorts texts after them)."""
    found: _Found = {}
    query = (
        "SELECT game, options, outcome, COUNT(*), MIN(seconds), TOTAL(seconds), MAX(seconds),"
        f" MAX(score), TOTAL(moves), MAX(moves) FROM games{where} GROUP BY game, options, outcome"
    )
    for name, opts, outcome, count, least, seconds, most, score, moves, most_moves in conn.execute(
        query, params
    ):
        numbers = isinstance(least, float | int) and isinstance(most, float | int)
        whole = isinstance(most_moves, int) and (score is None or isinstance(score, int))
        options_set = decoded_options(opts) if isinstance(opts, str) else None
        sound = isinstance(name, str) and outcome in _OUTCOMES and numbers and whole
        if not sound or options_set is None:
            return None
        tally, _ = found.setdefault((name, opts), (_Tally(), options_set))
        won = outcome == "won"
        tally.add(
            _Tally(
                count,
                count if won else 0,
                least if won else None,
                seconds if won else 0.0,
                score,
                int(moves),
            )
        )
    return found


def _checked_tallies(conn: sqlite3.Connection, where: str, params: list[str]) -> tuple[_Found, int]:
    """The tallies of the sound rows of ``where`` (:data:`FIGURES`; odd seconds, moves and
    scores left out of the sums), and how many rows held such odd values."""
    query = (
        "SELECT game, options, COUNT(*), SUM(outcome = 'won'),"
        f" MIN(CASE WHEN outcome = 'won' AND {_NUMBER} THEN seconds END),"
        f" TOTAL(CASE WHEN outcome = 'won' AND {_NUMBER} THEN seconds END),"
        " MAX(CASE WHEN typeof(score) = 'integer' THEN score END),"
        " TOTAL(CASE WHEN typeof(moves) = 'integer' THEN moves END),"
        f" SUM(NOT ({_SOUND}))"
        f" FROM games{where} GROUP BY game, options"
    )
    found: _Found = {}
    odd = 0
    for name, opts, played, won, best, win_seconds, score, moves, bad in conn.execute(
        query, params
    ):
        options_set = decoded_options(opts)
        if options_set is not None:
            found[name, opts] = (
                _Tally(played, won, best, win_seconds, score, int(moves)),
                options_set,
            )
            odd += bad
    return found, odd


def find(summaries: Iterable[GameSummary], game: str) -> GameSummary:
    """The summary of ``game`` in ``summaries``, or an empty one."""
    for summary in summaries:
        if summary.game == game:
            return summary
    return GameSummary(game, None)
