"""The commands, run through the test kit's ``patience_cli`` fixture on its fake game: what a
user types and sees, with the one-line errors and exit codes of the real command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]


def ok(result: CliResult, code: int = 0) -> str:
    assert result.code == code, result.err
    return result.out


def test_list_shows_the_fake_game(patience_cli: Run) -> None:
    lines = ok(patience_cli("list")).splitlines()
    assert any(line.split()[:3] == ["fake", "Fake", "Patience"] for line in lines)


def test_rules_show_the_text_and_the_option(patience_cli: Run) -> None:
    out = ok(patience_cli("rules", "fake"))
    assert out.startswith("Fake Patience\n")
    assert "empty-piles=none|any  (default none)" in out


def test_deal_shows_the_layout_hiding_face_down_cards(patience_cli: Run) -> None:
    out = ok(patience_cli("deal", "fake", "--deal", "2"))
    assert out.splitlines()[:2] == ["Fake Patience, deal 2", "s:[ 6]  w:--  f1:--  f2:--"]
    assert "##" in out and "Stock left: 6" in out
    assert ok(patience_cli("deal", "fake", "-d", "2")) == out


def test_deal_as_json_lists_the_legal_moves(patience_cli: Run) -> None:
    data = json.loads(ok(patience_cli("deal", "fake", "-d", "2", "--json")))
    assert data["game"] == "fake" and data["deal"] == "2"
    assert data["options"] == {"empty-piles": "none"}
    assert data["legal_moves"] == ["t3 f1", "deal"] and data["max_score"] == 12
    assert data["piles"][0]["cards"] == [None] * 6  # the stock lies face down


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("deal", "fake", "-d", "x"), 2, "bad deal number 'x'"),
        (("deal", "fake", "-d", "ms:3"), 1, "fake does not take ms deal numbers"),
        # Whatever the number: no ms range is told for a game without ms numbers.
        (("deal", "fake", "-d", "ms:99999999999"), 1, "fake does not take ms deal numbers"),
        (("deal", "-d", "ms:0", "fake"), 1, "fake does not take ms deal numbers"),
        (("play", "fake", "-d", "ms:-1"), 1, "fake does not take ms deal numbers"),
        (("solve", "fake", "-d", "ms:" + "9" * 40), 1, "fake does not take ms deal numbers"),
        (("deal", "nosuchgame", "-d", "ms:0"), 2, "out of range"),
        (("deal", "fake", "-d", "2", "-o", "empty-piles=x"), 1, "option empty-piles takes"),
        (("deal", "nosuchgame", "-d", "2"), 1, "unknown game 'nosuchgame'"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    patience_cli: Run, args: tuple[str, ...], code: int, message: str
) -> None:
    result = patience_cli(*args)
    assert result.code == code and result.out == ""
    assert message in result.err and result.err.count("\n") == 1


def test_solve_gives_the_verdicts(patience_cli: Run) -> None:
    won = ok(patience_cli("solve", "fake", "-d", "2")).splitlines()
    assert won[0].startswith("Fake Patience, deal 2: won in 20 moves")
    assert len(won) == 21 and won[1] == "t3 f1"
    assert ": dead (" in ok(patience_cli("solve", "fake", "-d", "0"))
    assert ": unknown (" in ok(patience_cli("solve", "fake", "-d", "0", "--nodes", "1"))


def test_a_solved_line_piped_into_play_wins(patience_cli: Run, patience_data_dir: Path) -> None:
    line = ok(patience_cli("solve", "fake", "-d", "2", "--moves-only"))
    out = ok(patience_cli("play", "fake", "-d", "2", input=line))
    assert "Score 12/12" in out
    save = json.loads((patience_data_dir / "saves" / "fake.json").read_text())
    assert save["finished"] == "won" and save["moves"] == line.split("\n")[:-1]


def test_play_hint_score_and_resume_on_a_save(patience_cli: Run, patience_data_dir: Path) -> None:
    # Piped play that ends in progress exits 3 (docs/play.md, "Exit status").
    out = ok(patience_cli("play", "fake", "-d", "2", input="deal\nundo\nt3 f1\nquit\n"), 3)
    assert "Score 1/12" in out and "resume with: patience play fake --resume" in out
    save = str(patience_data_dir / "saves" / "fake.json")
    assert ok(patience_cli("score", save)) == "fake deal 2: score 1/12, in progress, 1 move\n"
    # A generous cap: the budget in positions decides, not the machine's load.
    thoughtful = ok(patience_cli("hint", "--thoughtful", save, "--seconds", "600"))
    assert thoughtful.startswith("Hint (thoughtful): t3 f1: wins in ")
    honest = ok(patience_cli("hint", save, "--seconds", "600"))  # the default: cards face down
    assert honest.startswith("Hint (honest): ") and "of the unseen cards" in honest
    resumed = ok(patience_cli("play", "fake", "--resume", input="t3 f1\nquit\n"), 3)
    assert "Score 2/12" in resumed


def test_a_corrupt_save_is_refused_in_one_line(patience_cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "fake.json"
    path.write_text('{"format": "patience-save", "version": 1, "game": "fake"')
    for command in ("score", "hint"):
        result = patience_cli(command, str(path))
        assert result.code == 1 and result.err.count("\n") == 1
        assert result.err.startswith("patience: error: ")


def test_simulate_reports_the_win_rate(patience_cli: Run) -> None:
    out = ok(patience_cli("simulate", "fake", "-n", "5", "--strategy", "greedy"))
    lines = out.splitlines()
    assert lines[0] == "Fake Patience, strategy greedy, deals 1..5 (5 games)"
    assert lines[1].startswith("won ") and "Wilson" in lines[1]
    summary = json.loads(ok(patience_cli("simulate", "fake", "-n", "5", "--json")))
    assert summary["games"] == 5
