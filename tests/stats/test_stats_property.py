"""Property: for any sequence of games of two option sets and two games, the figures ``collect``
gives equal the ones counted one game at a time in Python."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patience_core.stats import FINISHED, Statistics

OUTCOMES = ["won", "lost", "dead", "abandoned", "in progress"]
GAME = st.tuples(
    st.sampled_from(["a", "b"]),
    st.sampled_from([{}, {"x": "1"}]),
    st.sampled_from(OUTCOMES),
    st.integers(1, 50),
    st.integers(1, 900),
)


def streaks(wins: list[bool]) -> tuple[int, int]:
    current = best = 0
    for won in wins:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


@settings(max_examples=40, deadline=None)
@given(st.lists(GAME, max_size=25))
def test_figures_equal_a_count_by_hand(
    tmp_path_factory: pytest.TempPathFactory, games: list[tuple[str, dict[str, str], str, int, int]]
) -> None:
    folder = tmp_path_factory.mktemp("db")
    moment = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)

    def clock() -> dt.datetime:
        nonlocal moment
        moment += dt.timedelta(seconds=1)
        return moment

    stats = Statistics.open(folder / "stats.db", warn=print, clock=clock)
    assert stats is not None
    for n, (game, options, outcome, moves, seconds) in enumerate(games):
        record = stats.record(
            game=game, options=options, deal=str(n), patience_version="0", plugin_version="0"
        )
        record.update(
            moves=moves,
            undos=0,
            hints=0,
            restarts=0,
            score=moves % 7,
            seconds=seconds,
            outcome=outcome,
        )
    for key in [None, "a", "b"]:
        mine = [g for g in games if key is None or g[0] == key]
        summary = stats.report(game=key).total if key is None else stats.summary(key)
        wins = [g[2] == "won" for g in mine if g[2] in FINISHED]
        won_seconds = [g[4] for g in mine if g[2] == "won"]
        assert summary.played == len(mine)
        assert summary.won == len(won_seconds)
        assert (summary.streak, summary.best_streak) == streaks(wins)
        assert summary.best_seconds == (min(won_seconds) if won_seconds else None)
        assert summary.best_score == (max(g[3] % 7 for g in mine) if mine else None)
        if mine:
            assert summary.mean_moves == sum(g[3] for g in mine) / len(mine)
    stats.close()
