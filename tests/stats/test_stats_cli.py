"""``patience stats`` and ``patience history``: text and JSON, filters, export, reset, an empty
database, unknown games and bad input (one line, exit 1)."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.stats import Statistics
from patience_core.testing import CliResult

Run = Callable[..., CliResult]


@pytest.fixture
def recorded(patience_data_dir: Path, ticks: Callable[[], object]) -> Path:
    """The test's data folder holding four games of ``fake`` (won, lost, won with jokers=2,
    in progress) and one won game of ``other``."""
    stats = Statistics.open(patience_data_dir / "stats.db", warn=print, clock=ticks)  # type: ignore[arg-type]
    assert stats is not None
    games = [
        ("fake", {}, "1", "won", 10, 100.0),
        ("fake", {}, "2", "lost", 20, 50.0),
        ("fake", {"jokers": "2"}, "3", "won", 30, 70.0),
        ("fake", {}, "4", "in progress", 5, 5.0),
        ("other", {}, "ms:9", "won", 8, 40.0),
    ]
    for game, options, deal, outcome, moves, seconds in games:
        record = stats.record(
            game=game, options=options, deal=deal, patience_version="0.1.0", plugin_version="1"
        )
        record.update(
            moves=moves,
            undos=1,
            hints=0,
            restarts=0,
            score=moves,
            seconds=seconds,
            outcome=outcome,  # type: ignore[arg-type]
        )
    stats.close()
    return patience_data_dir


def test_stats_with_no_database_says_so_and_makes_none(
    patience_cli: Run, patience_data_dir: Path
) -> None:
    assert patience_cli("stats") == (0, "No games recorded yet.\n", "")
    assert patience_cli("history") == (0, "No games recorded yet.\n", "")
    code, out, _ = patience_cli("stats", "--json")
    assert code == 0 and json.loads(out)["total"]["played"] == 0
    assert json.loads(patience_cli("history", "--json").out) == []
    assert not patience_data_dir.exists()


def test_stats_table(patience_cli: Run, recorded: Path) -> None:
    code, out, err = patience_cli("stats")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["Game", "Played", "Won", "Win"]
    assert lines[1].split() == ["fake", "4", "2", "50%", "1", "1", "1:10", "1:25", "30", "16.2"]
    assert [line.split()[0] for line in lines[1:]] == ["fake", "(no", "jokers=2", "other", "All"]
    assert lines[-1].split()[2:6] == ["5", "3", "60%", "2"]


def test_stats_of_one_game_as_json(patience_cli: Run, recorded: Path) -> None:
    code, out, _ = patience_cli("stats", "fake", "--json")
    data = json.loads(out)
    assert code == 0 and [g["game"] for g in data["games"]] == ["fake"]
    (fake,) = data["games"]
    assert (fake["played"], fake["won"], fake["win_rate"], fake["best_seconds"]) == (
        4,
        2,
        0.5,
        70.0,
    )
    assert [s["options"] for s in data["option_sets"]] == [{}, {"jokers": "2"}]


def test_stats_since(patience_cli: Run, recorded: Path) -> None:
    assert patience_cli("stats", "--since", "2030-01-01") == (
        0,
        "No games recorded since 2030-01-01.\n",
        "",
    )
    code, out, _ = patience_cli("stats", "--since", "2026-12-01T12:02", "--json")
    assert json.loads(out)["total"]["played"] == 4  # the first game started at 12:01
    code, out, err = patience_cli("stats", "--since", "yesterday")
    assert (code, out) == (1, "")
    assert err == "patience: error: --since takes a date such as 2026-12-01, not 'yesterday'\n"


def test_stats_of_a_game_with_no_rows(patience_cli: Run, recorded: Path) -> None:
    # Installed (the test kit's fake game is) but not recorded: not an error.
    (recorded / "stats.db").unlink()
    assert patience_cli("stats", "fake") == (0, "No games of fake recorded.\n", "")
    code, out, err = patience_cli("stats", "nosuchgame")
    assert (code, out) == (1, "")
    # The known games are listed, or with more than ten installed, `patience list` is named.
    assert err.startswith("patience: error: unknown game 'nosuchgame' (")
    assert ("fake" in err or "`patience list`" in err) and err.count("\n") == 1


def test_a_recorded_game_no_longer_installed_is_shown(patience_cli: Run, recorded: Path) -> None:
    code, out, _ = patience_cli("stats", "other")
    assert code == 0 and out.splitlines()[1].split()[:3] == ["other", "1", "1"]


def test_history_text_and_filters(patience_cli: Run, recorded: Path) -> None:
    code, out, _ = patience_cli("history")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 6
    assert lines[1].split()[2:5] == ["other", "ms:9", "won"]
    assert lines[1].endswith("patience play other --deal ms:9")
    assert lines[3].endswith("patience play fake --deal 3 -o jokers=2")
    won = json.loads(patience_cli("history", "fake", "--won", "--json").out)
    assert [g["deal"] for g in won] == ["3", "1"]
    assert won[0]["command"] == "patience play fake --deal 3 -o jokers=2"
    lost = json.loads(patience_cli("history", "--lost", "--json").out)
    assert [g["outcome"] for g in lost] == ["lost"]
    assert len(json.loads(patience_cli("history", "-n", "2", "--json").out)) == 2


def test_history_refuses_a_bad_count(patience_cli: Run) -> None:
    code, _, err = patience_cli("history", "-n", "0")
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_export(patience_cli: Run, recorded: Path, tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"games{suffix}"
    assert patience_cli("stats", "--export", str(target)) == (
        0,
        f"Exported 5 games to {target}.\n",
        "",
    )
    text = target.read_text()
    if suffix == ".csv":
        rows = list(csv.DictReader(text.splitlines()))
        assert [r["deal"] for r in rows] == ["1", "2", "3", "4", "ms:9"]
        assert rows[2]["options"] == '{"jokers":"2"}' and rows[3]["ended_at"] == ""
    else:
        rows = [json.loads(line) for line in text.splitlines()]
        assert rows[2]["options"] == {"jokers": "2"} and rows[3]["ended_at"] is None


def test_export_refuses_another_suffix_and_a_folder(
    patience_cli: Run, recorded: Path, tmp_path: Path
) -> None:
    code, out, err = patience_cli("stats", "--export", str(tmp_path / "games.xlsx"))
    assert (code, out) == (1, "") and "must end in .csv or .jsonl" in err
    code, out, err = patience_cli("stats", "--export", str(tmp_path))
    assert (code, out) == (1, "") and "names a folder" in err


def test_reset_asks_first(patience_cli: Run, recorded: Path) -> None:
    code, out, err = patience_cli("stats", "--reset", "fake", input="n\n")
    assert code == 1 and "Delete the 4 recorded games of fake? [y/N]" in out
    assert (
        err == "patience: error: nothing deleted (answer y, or give --yes): 4 recorded games kept\n"
    )
    code, out, err = patience_cli("stats", "--reset", "fake")  # no answer at all
    assert code == 1 and "nothing deleted" in err
    code, out, _ = patience_cli("stats", "--reset", "fake", input="y\n")
    assert code == 0 and out.endswith("Deleted the 4 recorded games of fake.\n")
    assert patience_cli("stats", "--json").out.count('"game": "other"') == 2
    assert patience_cli("stats", "--reset", "fake", "--yes") == (
        0,
        "No games of fake recorded.\n",
        "",
    )


def test_reset_with_yes(patience_cli: Run, recorded: Path) -> None:
    assert patience_cli("stats", "--reset", "other", "--yes") == (
        0,
        "Deleted the 1 recorded game of other.\n",
        "",
    )


def test_a_corrupt_database_is_one_warning(patience_cli: Run, patience_data_dir: Path) -> None:
    patience_data_dir.mkdir()
    (patience_data_dir / "stats.db").write_bytes(b"garbage" * 100)
    code, out, err = patience_cli("stats")
    assert (code, out) == (0, "No games recorded yet.\n")
    assert err.startswith("patience: warning: ") and err.count("\n") == 1 and "moved to" in err
    (aside,) = patience_data_dir.glob("stats-*-corrupt.db")
    assert aside.read_bytes() == b"garbage" * 100


def test_a_newer_database_is_one_error(patience_cli: Run, recorded: Path) -> None:
    import sqlite3

    with sqlite3.connect(recorded / "stats.db") as conn:
        conn.execute("UPDATE schema_version SET version = 999")
    conn.close()
    code, out, err = patience_cli("history")
    assert (code, out) == (1, "")
    assert err.splitlines()[-1].startswith("patience: error: statistics are off: ")
    assert "newer patience" in err


def test_a_game_name_is_read_as_the_installed_game_reads_it(
    patience_cli: Run, recorded: Path
) -> None:
    code, out, _ = patience_cli("stats", "FAKE")
    assert code == 0 and out.splitlines()[1].split()[:3] == ["fake", "4", "2"]
    assert len(json.loads(patience_cli("history", " Fake ", "--json").out)) == 4
    code, out, _ = patience_cli("stats", "fake", "--since", "2030-01-01")
    assert (code, out) == (0, "No games of fake recorded since 2030-01-01.\n")
    code, out, err = patience_cli("history", "nosuchgame")
    assert (code, out) == (1, "") and err.startswith("patience: error: unknown game 'nosuchgame'")
    assert patience_cli("stats", "--reset", "FAKE", "--yes").out == (
        "Deleted the 4 recorded games of fake.\n"
    )
