"""Fixtures of the full-screen player's tests: a game of the test kit's fake game in play
(``fake_controller``); the app is driven with :mod:`patience_core.tui._pilot`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.play import PlayController, Session
from patience_core.testing import FakeGame


@pytest.fixture
def fake_controller(tmp_path: Path) -> Callable[..., PlayController]:
    """``fake_controller(deal=2, options=None, moves=())``: a game of the fake game, ``moves``
    played, saved in a file of its own."""

    def make(
        deal: int = 2, options: dict[str, str] | None = None, moves: tuple[str, ...] = ()
    ) -> PlayController:
        session = Session.replay(FakeGame(options), DealNumber(deal), moves)
        return PlayController(session, tmp_path / "fake.json", "1.0")

    return make
