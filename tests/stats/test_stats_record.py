"""Golden statistics: a scripted sequence of games, recorded through GameRecord, gives exactly
the expected counts, times, scores and streaks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from patience_core.stats import GameRecord, GameSummary, Statistics

DEFAULT = {"jokers": "0"}
JOKERS = {"jokers": "2"}


def start(
    stats: Statistics, game: str = "fake", options: dict[str, str] = DEFAULT, **kw: Any
) -> GameRecord:
    return stats.record(
        game=game,
        options=options,
        deal=str(kw.pop("deal", 7)),
        patience_version="0.1.0",
        plugin_version="1.0",
        **kw,
    )


def play(
    record: GameRecord,
    outcome: str,
    moves: int,
    seconds: float = 10.0,
    score: int = 0,
    undos: int = 0,
) -> None:
    """Every move updates the row, as the player does, then the end."""
    for move in range(1, moves + 1):
        record.update(
            moves=move,
            undos=undos,
            hints=0,
            restarts=0,
            score=score,
            seconds=seconds * move / moves,
            outcome="in progress",
        )
    record.update(
        moves=moves, undos=undos, hints=1, restarts=0, score=score, seconds=seconds, outcome=outcome
    )  # type: ignore[arg-type]


def scripted(open_stats: Callable[[], Statistics]) -> Statistics:
    stats = open_stats()
    play(start(stats, deal=1), "won", 10, 100.0, 52)  # A
    play(start(stats, deal=2), "won", 20, 50.0, 40)  # B
    play(start(stats, deal=3), "lost", 30, 200.0, 10)  # C
    nothing = start(stats, deal=4)  # D: opened, never moved in, abandoned
    nothing.update(
        moves=0, undos=0, hints=2, restarts=1, score=0, seconds=30.0, outcome="abandoned"
    )
    e = start(stats, deal=5)  # E: five moves, then the window closes
    play(e, "in progress", 5, 30.0, 5)
    play(start(stats, deal=6), "in progress", 2, 5.0)  # F: still in progress at the end
    again = open_stats()  # E resumed in another process: its row goes on
    resumed = start(again, deal=5, game_id=e.game_id)
    assert resumed.game_id == e.game_id
    resumed.update(
        moves=6, undos=0, hints=0, restarts=0, score=5, seconds=40.0, outcome="in progress"
    )
    resumed.update(
        moves=5, undos=1, hints=0, restarts=0, score=5, seconds=45.0, outcome="in progress"
    )
    play(resumed, "won", 12, 80.0, 30, undos=3)
    play(start(stats, deal=8), "abandoned", 3, 9.0)  # G
    play(start(stats, deal=9, options=JOKERS), "won", 4, 20.0, 60)  # H
    play(start(stats, "other", {}, deal=1), "won", 8, 30.0, 1)  # I
    return stats


def test_golden_sequence_per_option_set(open_stats: Callable[[], Statistics]) -> None:
    stats = scripted(open_stats)
    assert stats.summary("fake", DEFAULT) == GameSummary(
        "fake",
        DEFAULT,
        played=6,
        won=3,
        streak=0,
        best_streak=2,
        best_seconds=50.0,
        mean_win_seconds=pytest.approx(230 / 3),
        best_score=52,
        mean_moves=pytest.approx(77 / 6),
    )
    assert stats.summary("fake", JOKERS) == GameSummary(
        "fake", JOKERS, 1, 1, 1, 1, 20.0, 20.0, 60, 4.0
    )


def test_golden_sequence_per_game_and_total(open_stats: Callable[[], Statistics]) -> None:
    stats = scripted(open_stats)
    fake = stats.summary("fake")
    assert (fake.played, fake.won, fake.streak, fake.best_streak) == (7, 4, 1, 2)
    assert fake.win_rate == pytest.approx(4 / 7)
    assert fake.best_score == 60 and fake.best_seconds == 20.0
    report = stats.report()
    assert [s.game for s in report.games] == ["fake", "other"]
    total = report.total
    assert (total.played, total.won, total.streak, total.best_streak) == (8, 5, 2, 2)
    assert total.mean_moves == pytest.approx(89 / 8)
    assert [(s.game, s.options) for s in report.option_sets] == [
        ("fake", DEFAULT),
        ("fake", JOKERS),
        ("other", {}),
    ]


def test_history_newest_first_with_filters_and_commands(
    open_stats: Callable[[], Statistics],
) -> None:
    stats = scripted(open_stats)
    rows = stats.history()
    assert [r.deal for r in rows] == ["1", "9", "8", "5", "6", "3", "2", "1"]
    assert rows[1].command == "patience play fake --deal 9 -o jokers=2"
    assert [r.deal for r in stats.history(game="fake", which="won", limit=2)] == ["9", "5"]
    assert [r.outcome for r in stats.history(which="lost")] == ["abandoned", "lost"]
    e = stats.history(game="fake", which="won")[1]
    assert (e.moves, e.undos, e.seconds, e.outcome) == (12, 3, 80.0, "won")
    assert e.started_at < e.ended_at  # type: ignore[operator]
    assert stats.history(limit=None)[-1].deal == "1"


def test_since_counts_games_started_from_that_date(open_stats: Callable[[], Statistics]) -> None:
    stats = scripted(open_stats)
    assert stats.report(since="2026-12-02").total.played == 0
    assert stats.report(since="2026-12-01").total.played == 8


def test_a_game_with_no_move_is_not_recorded(open_stats: Callable[[], Statistics]) -> None:
    stats = open_stats()
    record = start(stats)
    record.update(moves=0, undos=0, hints=0, restarts=0, score=0, seconds=3.0, outcome="abandoned")
    assert stats.history() == []
    assert record.summary_line() == "fake: no game recorded yet."


def test_undone_to_no_move_keeps_the_row(open_stats: Callable[[], Statistics]) -> None:
    stats = open_stats()
    record = start(stats, title="Fake")
    record.update(
        moves=1, undos=0, hints=0, restarts=0, score=0, seconds=3.0, outcome="in progress"
    )
    record.update(moves=0, undos=1, hints=0, restarts=0, score=0, seconds=4.0, outcome="abandoned")
    (row,) = stats.history()
    assert (row.moves, row.undos, row.outcome) == (0, 1, "abandoned")
    assert record.summary_line() == "Fake: played 1, won 0 (0%), streak 0 (best 0)."


def test_a_won_game_updated_again_keeps_its_end_time(open_stats: Callable[[], Statistics]) -> None:
    stats = open_stats()
    record = start(stats)
    play(record, "won", 2)
    ended = stats.history()[0].ended_at
    record.update(moves=2, undos=0, hints=1, restarts=0, score=0, seconds=10.0, outcome="won")
    assert stats.history()[0].ended_at == ended


def test_a_won_row_stays_won_whatever_a_later_sitting_writes(
    open_stats: Callable[[], Statistics],
) -> None:
    """Won, undone, quit, then resumed in another process: the win stays recorded, with the
    time it was won (docs/stats.md, "What is recorded")."""
    stats = open_stats()
    record = start(stats)
    play(record, "won", 2)
    ended = stats.history()[0].ended_at
    resumed = start(open_stats(), game_id=record.game_id)
    resumed.update(
        moves=1, undos=1, hints=1, restarts=0, score=0, seconds=11.0, outcome="in progress"
    )
    (row,) = stats.history()
    assert (row.outcome, row.ended_at, row.moves) == ("won", ended, 1)
    assert stats.summary("fake", DEFAULT).won == 1


def test_summary_line(open_stats: Callable[[], Statistics]) -> None:
    stats = scripted(open_stats)
    record = start(stats, title="Fake")
    assert record.summary_line() == "Fake: played 6, won 3 (50%), streak 0 (best 2)."


def test_a_resumed_record_gives_the_counts_so_far(open_stats: Callable[[], Statistics]) -> None:
    stats = open_stats()
    record = start(stats)
    assert record.counts == {"undos": 0, "hints": 0, "restarts": 0}
    record.update(
        moves=3, undos=2, hints=1, restarts=1, score=0, seconds=3.0, outcome="in progress"
    )
    again = start(open_stats(), game_id=record.game_id)
    assert again.counts == {"undos": 2, "hints": 1, "restarts": 1}
    assert start(stats, game_id="0" * 32).counts == {"undos": 0, "hints": 0, "restarts": 0}
