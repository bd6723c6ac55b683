"""What issue 18 adds to the line player with the shipped games: auto-finish of Bristol's end,
winnable deals, the dead check off by default where cards are hidden and on in Baker's Game,
the statistics line at the end, and boards fitted to a narrow terminal."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]

#: Bristol deal 1 up to where the rest is forced (the solver's line; 21 moves to the
#: foundations remain).
BRISTOL_1 = [
    *("t7 f1", "t4 f1", "t2 f1", "t2 f2", "t1 t2", "t1 t2", "t8 t1", "t3 t1", "t3 f2", "t7 f2"),
    *("t7 f1", "t8 f1", "t5 f1", "t1 f1", "t1 f1", "t1 f1", "t2 f1", "t6 f1", "deal", "r1 f2"),
    *("deal", "r3 f2", "deal", "r2 f1", "r3 f1", "deal", "r1 f2", "r3 t2", "t6 t2", "t6 f3"),
    *("deal", "r3 t8", "r2 t8", "deal", "r2 t2", "deal", "r2 f2", "r1 f2", "r3 t4", "deal"),
    *("r1 f3", "t5 f3", "r3 t8", "r3 f3", "r2 f3", "r3 f2", "t4 f2", "t4 f2", "r1 f2", "r1 f3"),
    *("r2 f2", "r1 t5", "r1 t8", "r2 t5", "t2 t8", "deal"),
]


def script(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


def test_auto_finishes_bristols_forced_end(run_patience: Run) -> None:
    result = run_patience(
        "play",
        "bristol",
        "--deal",
        "1",
        input=script(*BRISTOL_1[:-1], "auto", *BRISTOL_1[-1:], "auto"),
    )
    assert "Nothing to finish automatically: moves are still to be chosen." in result.out
    assert "Played the last 21 moves automatically." in result.out
    assert "You won! Score 52/52." in result.out
    assert result.out.count("Bristol, deal 1") == len(BRISTOL_1) + 1 + 1  # once for auto
    assert result.code == 0  # piped play that ends won


def test_help_lists_auto_and_the_dead_check(run_patience: Run) -> None:
    result = run_patience("play", "bristol", "--deal", "1", input="help\n")
    assert "auto (play the forced rest)" in result.out and "dead on|off" in result.out


def test_a_winnable_deal_is_said_and_replayable(run_patience: Run, patience_data_dir: Path) -> None:
    result = run_patience("play", "bristol", "--winnable", input="")
    match = re.search(
        r"Deal (\d+) \(checked winnable by the solver\); play it again with --deal \1\.",
        result.out,
    )
    assert match, result.out
    assert result.code == 3
    result = run_patience("play", "bristol", "--winnable", "--deal", "3", input="")
    assert result.code == 2 and "cannot be used together" in result.err


def test_the_dead_check_is_on_in_bakers_game_and_off_in_escalator(run_patience: Run) -> None:
    result = run_patience("play", "bakers-game", "--deal", "ms:24", input="dead\n")
    assert "usage: dead on|off (the dead check is on)" in result.out
    result = run_patience("play", "escalator", "--deal", "3", input="dead\n")
    assert "usage: dead on|off (the dead check is off)" in result.out
    result = run_patience("play", "escalator", "--deal", "3", "--dead-check", input="dead\n")
    assert "usage: dead on|off (the dead check is on)" in result.out
    result = run_patience("play", "bakers-game", "--no-dead-check", input="dead\n")
    assert "usage: dead on|off (the dead check is off)" in result.out


def test_the_end_of_a_game_shows_its_statistics(run_patience: Run) -> None:
    run_patience("play", "escalator", "--deal", "3", input="deal\n")
    result = run_patience("play", "escalator", "--resume", input="deal\n")
    assert re.search(r"^Escalator: played 1, won 0 ", result.out, re.M), result.out


def test_a_board_too_wide_for_the_terminal_is_cut_between_columns(
    run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Diamond Mine's 13 columns at 60 columns (the outside testers' case): two blocks of
    columns, no line wider than the terminal, no card or word cut."""
    monkeypatch.setattr("patience_core.play._line.line_width", lambda: 60)
    monkeypatch.setattr("patience_core.play._narrow.line_width", lambda *_: 60)
    result = run_patience("play", "diamond-mine", "--deal", "3", input="")
    lines = result.out.split("Type 'help'")[0].splitlines()  # the board and the status
    assert all(len(line) <= 60 for line in lines), lines
    header = [line for line in lines if line.lstrip().startswith("t1 ")]
    assert header and "t13" not in header[0]
    assert any(line.lstrip().startswith("t") and "t13" in line for line in lines)
    monkeypatch.setattr("patience_core.play._line.line_width", lambda: 40)
    monkeypatch.setattr("patience_core.play._narrow.line_width", lambda *_: 40)
    result = run_patience("play", "bakers-game", "--deal", "ms:24", input="")
    lines = result.out.split("Type 'help'")[0].splitlines()
    assert all(len(line) <= 40 for line in lines), lines
    status = [line for line in lines if "Free cells" in line or "/52" in line]
    assert status and all("0/52" in line or "/52" not in line for line in status)
