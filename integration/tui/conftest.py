"""Fixtures of the full-screen player's tests with the shipped games: a game in play
(``shipped_controller``) and the names of every shipped game (``SHIPPED``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.play import PlayController, Session
from patience_core.plugins import PluginHost


@pytest.fixture
def shipped_controller(patience_host: PluginHost, tmp_path: Path) -> Callable[..., PlayController]:
    """``shipped_controller(game, deal="1", options=None, moves=())``: a game of a shipped
    game, ``moves`` played, with the game's own search, saved in a file of its own."""

    def make(
        game: str,
        deal: str = "1",
        options: dict[str, str] | None = None,
        moves: tuple[str, ...] = (),
    ) -> PlayController:
        the_game = patience_host.game(game, options or {})
        session = Session.replay(the_game, DealNumber.parse(deal), moves)
        return PlayController(
            session,
            tmp_path / f"{game}.json",
            patience_host.version_of(game),
            search=patience_host.search(the_game),
        )

    return make
