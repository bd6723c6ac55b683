"""open_game, what both players start with: a new deal or a resumed save, the lock held until
release, the clock continued from the save, the statistics row kept across sittings."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from patience_core.engine import DealNumber
from patience_core.errors import PatienceError
from patience_core.play import OpenedGame, PlayRequest, open_game, winnable_deal
from patience_core.plugins import PluginHost


def request(path: Path, resume: bool = False, **kw: object) -> PlayRequest:
    deal = None if resume else DealNumber(2)
    return PlayRequest(  # type: ignore[arg-type]
        game="fake", path=path, explicit_file=True, resume=resume, deal=deal, **kw
    )


def opened(host: PluginHost, req: PlayRequest) -> OpenedGame:
    game = open_game(host, req)
    assert isinstance(game, OpenedGame)
    return game


def test_a_game_opened_saved_locked_and_resumed(
    patience_host: PluginHost, tmp_path: Path, patience_data_dir: Path
) -> None:
    path = tmp_path / "fake.json"
    first = opened(patience_host, request(path))
    controller = first.controller
    assert controller.session.deal == DealNumber(2) and path.exists()
    with pytest.raises(PatienceError):  # one window per save
        open_game(patience_host, request(path, resume=True))
    controller.apply("t3 f1")
    controller.apply("undo")
    controller.apply("redo")
    controller.clock.reset(42.0)
    controller.save()
    stats_id = controller.tally.game_id
    first.release()
    first.release()  # twice is harmless
    saved = json.loads(path.read_text())
    assert saved["elapsed"] >= 42.0 and saved["stats_id"] == stats_id
    again = opened(patience_host, request(path, resume=True))
    try:
        assert again.controller.session.move_texts == ["t3 f1"]
        assert again.controller.clock.seconds >= 42.0
        assert again.controller.tally.game_id == stats_id
        assert again.controller.tally.undos == 1  # counts on from the row
    finally:
        again.release()
    with sqlite3.connect(patience_data_dir / "stats.db") as db:
        rows = db.execute("SELECT COUNT(*) FROM games").fetchone()
    assert rows == (1,)


def test_a_winnable_deal_is_opened(patience_host: PluginHost, tmp_path: Path) -> None:
    game = opened(patience_host, request(tmp_path / "w.json", winnable=True, rng_seed=7))
    fake = patience_host.game("fake")
    try:
        # The request's deal is not used: the seed's first deal proved winnable is.
        expected = winnable_deal(fake, patience_host.search(fake), 7).deal
        assert game.controller.session.deal == expected
    finally:
        game.release()
