"""``patience score FILE``: the score of a saved game, as text or JSON; bad files in one line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from patience_core.engine import DealNumber
from patience_core.play import Session, save_session
from patience_core.plugins import PluginHost

#: A winning line for Escalator deal 17 (found once by a depth-first search).
WIN_TEXT = (
    "deal deal 6h 7h 6c 7c 8c 7d 8d deal deal 4h deal 9d Tc Jh Qh deal deal Ac 2d 3h deal deal "
    "Td 9h deal 4d 5s deal deal Kd deal 5d deal deal 9c Th Jd deal 6s deal Jc deal Kh deal 2h"
)
WIN_LINE = WIN_TEXT.split()

Run = Callable[..., Any]


def saved(path: Path, moves: list[str], redo: list[str] = [], deal: int = 17) -> Path:  # noqa: B006
    game = PluginHost().load().game("escalator")
    save_session(path, Session.replay(game, DealNumber(deal), moves, redo), "0.1.0")
    return path


def test_score_of_a_game_in_progress(run_patience: Run, tmp_path: Path) -> None:
    path = saved(tmp_path / "s.json", WIN_LINE[:12], WIN_LINE[12:14])
    result = run_patience("score", str(path))
    assert result.code == 0 and result.err == ""
    assert result.out == "escalator deal 17: score 8/28, in progress, 12 moves\n"


def test_score_of_won_and_lost_games(run_patience: Run, tmp_path: Path) -> None:
    won = saved(tmp_path / "won.json", WIN_LINE)
    assert run_patience("score", str(won)).out == "escalator deal 17: score 28/28, won, 47 moves\n"
    lost = saved(tmp_path / "lost.json", ["deal"] * 24, deal=2)
    assert run_patience("score", str(lost)).out == "escalator deal 2: score 0/28, lost, 24 moves\n"


def test_score_json(run_patience: Run, tmp_path: Path) -> None:
    path = saved(tmp_path / "s.json", WIN_LINE[:12], WIN_LINE[12:14])
    result = run_patience("score", "--json", str(path))
    data = json.loads(result.out)
    assert data["game"] == "escalator" and data["deal"] == "17"
    assert (data["score"], data["max_score"], data["status"]) == (8, 28, "in progress")
    assert (data["won"], data["lost"], data["moves"], data["redo"]) == (False, False, 12, 2)
    assert data["plugin_version"] == "0.1.0" and data["options"] == {}


def test_score_does_not_change_the_file(run_patience: Run, tmp_path: Path) -> None:
    path = saved(tmp_path / "s.json", WIN_LINE[:5])
    before = path.read_bytes()
    run_patience("score", str(path))
    assert path.read_bytes() == before


GOOD = {
    "format": "patience-save",
    "version": 1,
    "game": "escalator",
    "plugin_version": "0.1.0",
    "deal": "17",
    "options": {},
    "moves": ["deal"],
    "redo": [],
    "finished": None,
    "saved_at": "2025-01-31T12:00:00+00:00",
}

BAD = {
    "corrupt": b"\x89PNG\r\n\x1a\n",
    "truncated": json.dumps(GOOD).encode()[:40],
    "wrong version": json.dumps({**GOOD, "version": 2}).encode(),
    "wrong type": json.dumps({**GOOD, "moves": {"a": 1}}).encode(),
    "unknown game": json.dumps({**GOOD, "game": "nosuchgame"}).encode(),
    "illegal move": json.dumps({**GOOD, "moves": ["deal", "Ks"]}).encode(),
    "hostile": json.dumps({**GOOD, "options": {"__class__": "os.system"}}).encode(),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_are_one_line_and_exit_1(run_patience: Run, tmp_path: Path, name: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(BAD[name])
    result = run_patience("score", str(path))
    assert result.code == 1 and result.out == ""
    assert result.err.startswith("patience: error: ") and result.err.count("\n") == 1
    assert "Traceback" not in result.err
    assert path.read_bytes() == BAD[name]


def test_a_missing_file(run_patience: Run, tmp_path: Path) -> None:
    result = run_patience("score", str(tmp_path / "none.json"))
    assert (result.code, result.err) == (
        1,
        f"patience: error: cannot read {tmp_path / 'none.json'}: No such file or directory\n",
    )
    assert not (tmp_path / "none.json").exists()
