"""Statistics as a player makes them: piped ``patience play`` runs of Escalator (won, left in
progress, resumed with an undo, won again) give exactly the expected rows, figures and streaks,
and ``patience history`` gives the command that plays a deal again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]

#: Escalator deal 8 is won in 47 moves (patience solve escalator --deal 8 --moves-only).
WON_DEAL = "8"


@pytest.fixture
def winning_moves(run_patience: Run) -> str:
    result = run_patience("solve", "escalator", "--deal", WON_DEAL, "--moves-only")
    assert result.code == 0, result.err
    return result.out


def play(run_patience: Run, save: Path, *args: str, input: str) -> CliResult:
    result = run_patience(
        "play", "escalator", "--file", str(save), "--no-dead-check", *args, input=input
    )
    # The exit code tells the outcome of a piped game (docs/play.md): not this test's concern.
    assert "Traceback" not in result.err, result.err
    return result


def test_piped_games_give_the_expected_statistics(
    run_patience: Run, winning_moves: str, tmp_path: Path
) -> None:
    won = play(run_patience, tmp_path / "a.json", "--deal", WON_DEAL, input=winning_moves)
    assert "Escalator: played 1, won 1 (100%), streak 1 (best 1)." in won.out
    # Deal 12: two deals from the stock, one undone, left in progress.
    play(run_patience, tmp_path / "b.json", "--deal", "12", input="deal\ndeal\nundo\nquit\n")
    # Opened and left with no move: not counted.
    play(run_patience, tmp_path / "c.json", "--deal", "13", input="quit\n")
    # Deal 12 resumed: its row goes on (one row, the undo of the first sitting kept).
    play(run_patience, tmp_path / "b.json", "--resume", input="deal\nquit\n")
    again = play(run_patience, tmp_path / "d.json", "--deal", WON_DEAL, input=winning_moves)
    assert "Escalator: played 3, won 2 (67%), streak 2 (best 2)." in again.out

    rows = json.loads(run_patience("history", "--json").out)
    assert [(r["deal"], r["outcome"], r["moves"]) for r in rows] == [
        (WON_DEAL, "won", 47),
        ("12", "in progress", 2),
        (WON_DEAL, "won", 47),
    ]
    assert rows[1]["undos"] == 1
    assert rows[0]["command"] == f"patience play escalator --deal {WON_DEAL}"
    data = json.loads(run_patience("stats", "escalator", "--json").out)
    (game,) = data["games"]
    assert (game["played"], game["won"], game["streak"], game["best_streak"]) == (3, 2, 2, 2)
    assert game["best_score"] == 28 and game["mean_moves"] == pytest.approx(96 / 3)


def test_the_ready_command_replays_the_deal(
    run_patience: Run, winning_moves: str, tmp_path: Path
) -> None:
    play(run_patience, tmp_path / "a.json", "--deal", WON_DEAL, input=winning_moves)
    (row,) = json.loads(run_patience("history", "--json").out)
    words = row["command"].split()[1:]  # the command without "patience"
    result = run_patience(*words, "--file", str(tmp_path / "e.json"), input=winning_moves)
    assert result.code == 0 and "You won!" in result.out


def play_on(run_patience: Run, save: Path) -> list[str]:
    """Play a move of deal 12 and quit: the game must be saved; the statistics' warnings."""
    result = play(run_patience, save, "--deal", "12", input="deal\nquit\n")
    assert save.exists()
    assert "Moves: 1" in result.out
    return [line for line in result.err.splitlines() if "statistics" in line]


def test_a_read_only_data_folder_plays_on_with_one_warning(
    run_patience: Run, patience_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    patience_data_dir.mkdir()
    real = os.access
    # Root may write anywhere: the test tells the statistics what another user would find.
    monkeypatch.setattr(
        "patience_core.stats._db.os.access",
        lambda p, mode: False if Path(p) == patience_data_dir else real(p, mode),
    )
    (warning,) = play_on(run_patience, tmp_path / "b.json")
    assert warning.endswith(f"statistics are off: the folder {patience_data_dir} is read-only")
    assert not (patience_data_dir / "stats.db").exists()


def test_a_folder_in_the_way_that_cannot_be_moved_plays_on_with_one_warning(
    run_patience: Run, patience_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (patience_data_dir / "stats.db").mkdir(parents=True)
    monkeypatch.setattr("patience_core.files._store.os.link", _refuse)
    monkeypatch.setattr("patience_core.files._store.os.rename", _refuse)
    (warning,) = play_on(run_patience, tmp_path / "b.json")
    assert "statistics are off" in warning and "Permission denied" in warning
    assert (patience_data_dir / "stats.db").is_dir()


def test_a_corrupt_database_is_moved_aside_and_play_records(
    run_patience: Run, patience_data_dir: Path, tmp_path: Path
) -> None:
    patience_data_dir.mkdir()
    (patience_data_dir / "stats.db").write_bytes(b"\x00garbage" * 1000)
    (warning,) = play_on(run_patience, tmp_path / "b.json")
    assert "moved to" in warning
    (aside,) = patience_data_dir.glob("stats-*-corrupt.db")
    assert aside.read_bytes() == b"\x00garbage" * 1000
    assert [r["deal"] for r in json.loads(run_patience("history", "--json").out)] == ["12"]


def _refuse(*args: object) -> None:
    raise PermissionError(13, "Permission denied")
