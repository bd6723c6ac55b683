"""Fixtures of the statistics tests: a database in the test's folder, a clock that ticks one
minute a call, and the warnings given."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from patience_core.stats import Statistics


class Ticks:
    """A clock for :meth:`Statistics.open`: each call is one minute after the last."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        self.now += dt.timedelta(minutes=1)
        return self.now


@pytest.fixture
def ticks() -> Ticks:
    """A clock that ticks one minute a call, from 2026-12-01 12:00 UTC."""
    return Ticks()


@pytest.fixture
def warnings_given() -> list[str]:
    """The warnings the statistics gave (``warn``)."""
    return []


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where the test's database is."""
    return tmp_path / "data" / "stats.db"


@pytest.fixture
def open_stats(
    db_path: Path, warnings_given: list[str], ticks: Ticks
) -> Iterator[Callable[[], Statistics]]:
    """Open the test's database with a ticking clock (closed at the end of the test)."""
    opened: list[Statistics] = []
    clock = ticks

    def open_() -> Statistics:
        stats = Statistics.open(db_path, warn=warnings_given.append, clock=clock)
        assert stats is not None, warnings_given
        opened.append(stats)
        return stats

    yield open_
    for stats in opened:
        stats.close()
