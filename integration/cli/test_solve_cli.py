"""``patience solve``, ``patience hint`` and ``hint`` / the dead check inside ``patience play``."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from patience_core.testing import CliResult

Run = Callable[..., CliResult]


def test_solve_prints_the_verdict_and_a_line_that_play_wins(run_patience: Run) -> None:
    result = run_patience("solve", "escalator", "--deal", "17", "--nodes", "400000")
    assert result.code == 0, result.err
    first, *moves = result.out.splitlines()
    assert first.startswith(f"Escalator, deal 17: won in {len(moves)} moves (")
    piped = run_patience("solve", "escalator", "--deal", "17", "--moves-only", "--nodes", "400000")
    assert piped.out.splitlines() == moves  # the verdict line went to stderr
    assert "won in" in piped.err
    played = run_patience("play", "escalator", "--deal", "17", input=piped.out)
    assert played.code == 0
    assert "You won! Score 28/28." in played.out


def test_solve_json(run_patience: Run) -> None:
    result = run_patience("solve", "bakers-game", "--deal", "7", "--json", "--nodes", "400000")
    data = json.loads(result.out)
    assert data["verdict"] == "won" and data["mode"] == "thoughtful"
    assert data["moves"] and all(isinstance(m, str) for m in data["moves"])
    assert data["nodes"] > 0 and data["seconds"] >= 0
    assert data["game"] == "bakers-game" and data["start"] == "deal 7"


@pytest.mark.parametrize(
    ("args", "verdict"),
    [(("--deal", "4", "--nodes", "400000"), "dead"), (("--deal", "1", "--nodes", "1"), "unknown")],
)
def test_dead_and_unknown_exit_zero(run_patience: Run, args: tuple[str, ...], verdict: str) -> None:
    result = run_patience("solve", "escalator", *args, "--json")
    assert result.code == 0
    data = json.loads(result.out)
    assert data["verdict"] == verdict and data["moves"] == []


def test_honest_solve_plays_the_deal_to_an_outcome(run_patience: Run) -> None:
    result = run_patience("solve", "escalator", "--deal", "17", "--honest", "--nodes", "1000")
    assert result.code == 0, result.err
    first, *moves = result.out.splitlines()
    assert first.startswith("Escalator, deal 17, honest play: ")
    assert re.search(r" after [0-9]+ moves? \([0-9,]+ positions?, [0-9]+\.[0-9]{2} s\)$", first)
    outcome = first.split(": ")[1].split(" after ")[0]
    assert outcome in ("won", "lost", "dead", "stopped")
    replay = run_patience(
        "play", "escalator", "--deal", "17", "--no-dead-check", input="\n".join(moves) + "\n"
    )
    # Piped play's exit status tells the outcome: 0 won, 4 lost, 3 in progress (a refused move
    # would be 5).
    assert replay.code == {"won": 0, "lost": 4}.get(outcome, 3), replay.err
    assert ("You won!" in replay.out) == (outcome == "won")


def test_honest_solve_json_gives_the_positions_searched_and_the_seconds(
    run_patience: Run,
) -> None:
    args = ("solve", "escalator", "--deal", "17", "--honest", "--nodes", "1000", "--json")
    data = json.loads(run_patience(*args).out)
    assert data["mode"] == "honest"
    assert isinstance(data["nodes"], int) and data["nodes"] > 0
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    # A node budget and no clock: the same play, and the same count, in every run.
    assert json.loads(run_patience(*args).out)["nodes"] == data["nodes"]


def test_solve_from_a_saved_game(run_patience: Run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run_patience("play", "escalator", "--deal", "17", "--file", str(save), input="deal\n")
    result = run_patience("solve", "escalator", "--from", str(save), "--nodes", "400000")
    assert result.code == 0, result.err
    assert result.out.startswith(f"Escalator, {save} (after move 1): won in ")


def test_deal_from_a_saved_game_shows_its_current_position(
    run_patience: Run, tmp_path: Path
) -> None:
    """deal --from reads saved games as solve --from does: the position after the moves."""
    save = tmp_path / "g.json"
    run_patience("play", "escalator", "--deal", "17", "--file", str(save), input="deal\n")
    before = save.read_bytes()
    shown = run_patience("deal", "escalator", "--from", str(save), "--json")
    assert shown.code == 0, shown.err
    dealt = json.loads(run_patience("deal", "escalator", "--deal", "17", "--json").out)
    position = json.loads(shown.out)
    assert position["piles"] != dealt["piles"]  # one card was dealt to the waste
    text = run_patience("deal", "escalator", "--from", str(save))
    assert text.out.startswith(f"Escalator, position from {save} (after move 1)")
    other = run_patience("deal", "bristol", "--from", str(save))
    assert other.code != 0 and "holds a saved escalator game, not bristol" in other.err
    with_option = run_patience("deal", "escalator", "--from", str(save), "-o", "x=y")
    assert with_option.code == 2 and "cannot be used with a saved game" in with_option.err
    stdin = io.TextIOWrapper(io.BytesIO(save.read_bytes()), encoding="utf-8")
    piped = run_patience("deal", "escalator", "--from", "-", input=stdin)
    assert piped.code != 0 and "cannot be read from standard input" in piped.err
    broken = tmp_path / "broken.json"
    broken.write_text(save.read_text().replace('"moves"', '"mooves"'))
    told = run_patience("deal", "escalator", "--from", str(broken))
    assert told.code != 0 and "unknown field 'mooves'" in told.err  # read as a save
    assert save.read_bytes() == before  # reading never changes the save


def test_solve_from_a_position_file_uses_its_options(run_patience: Run, tmp_path: Path) -> None:
    # Microsoft deal 1 is won with any card to an empty column and dead with kings only.
    dealt = run_patience(
        "deal", "bakers-game", "--deal", "ms:1", "-o", "empty-columns=any", "--json"
    )
    path = tmp_path / "p.json"
    path.write_text(dealt.out)
    result = run_patience("solve", "bakers-game", "--from", str(path), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["options"] == {"empty-columns": "any"} and data["verdict"] == "won"
    clash = run_patience("solve", "bakers-game", "--from", str(path), "-o", "empty-columns=kings")
    assert clash.code != 0 and "disagrees" in clash.err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(options={"empty-columns": "weird"}), "weird"),
        (lambda d: d.update(version=2), "version 2"),
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(game="escalator"), "escalator"),
    ],
)
def test_solve_refuses_a_bad_position_file(
    run_patience: Run, tmp_path: Path, change: Callable[[dict[str, object]], None], message: str
) -> None:
    data = json.loads(run_patience("deal", "bakers-game", "--deal", "ms:1", "--json").out)
    change(data)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    result = run_patience("solve", "bakers-game", "--from", str(path))
    assert result.code != 0
    assert len(result.err.strip().splitlines()) == 1 and message in result.err


@pytest.mark.parametrize("kind", ["deep-list", "deep-object", "huge"])
def test_solve_from_a_hostile_file_is_one_line(
    run_patience: Run, tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "hostile.json"
    if kind == "deep-list":
        path.write_text("[" * 100_000 + "]" * 100_000)
    elif kind == "deep-object":
        path.write_text('{"a":' * 5000 + "1" + "}" * 5000)
    else:
        path.write_text(" " * 2_000_000)
    result = run_patience("solve", "escalator", "--from", str(path))
    assert result.code == 1
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "escalator"),
        ("solve", "escalator", "--deal", "1", "--from", "x.json"),
        ("solve", "nosuchgame", "--deal", "1"),
        ("solve", "bakers-game", "--deal", "1", "-o", "empty-columns=never"),
        ("solve", "escalator", "--deal", "1", "--budget", "0"),
        ("hint", "missing.json"),
    ],
)
def test_bad_input_is_one_line(run_patience: Run, args: tuple[str, ...]) -> None:
    result = run_patience(*args)
    assert result.code != 0
    assert len(result.err.strip().splitlines()) == 1
    assert "Traceback" not in result.err


@pytest.mark.parametrize("command", ["solve", "simulate"])
@pytest.mark.parametrize("budget", ["inf", "nan", "0", "-5", "0.001"])
def test_a_bad_budget_is_a_usage_error_in_every_command(
    run_patience: Run, command: str, budget: str
) -> None:
    args = ("--deal", "1") if command == "solve" else ("-n", "1", "--strategy", "solver")
    result = run_patience(command, "escalator", *args, "--budget", budget)
    assert result.code == 2
    assert "--budget" in result.err and "Traceback" not in result.err


@pytest.mark.parametrize("text", ["", " ", "abc"])
def test_a_budget_that_is_no_number_says_so_in_words(run_patience: Run, text: str) -> None:
    result = run_patience("solve", "escalator", "--deal", "1", "--budget", text)
    assert result.code == 2
    assert f"{text!r} is not a valid number of seconds." in result.err
    assert "--budget SECONDS" in run_patience("solve", "--help").out


def test_hint_for_a_saved_game(run_patience: Run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run_patience("play", "escalator", "--deal", "17", "--file", str(save), input="deal\n")
    before = save.read_bytes()
    # The win is found in about a second; the generous cap keeps a busy machine from failing it.
    result = run_patience("hint", str(save), "--thoughtful", "--seconds", "60")
    assert result.code == 0, result.err
    label, move, reason = result.out.strip().split(": ", 2)
    assert label == "Hint (thoughtful)" and move
    assert reason.startswith("wins in ") and reason.endswith(" moves.")
    data = json.loads(run_patience("hint", str(save), "--json", "--seconds", "1").out)
    assert data["mode"] == "honest" and data["game"] == "escalator"
    assert data["moves_played"] == 1 and data["move"]
    # The final answer of the hint's stream, with the arrangements it judged.
    assert data["final"] is True and data["stage"] == "final"
    assert "samples" in data
    assert save.read_bytes() == before
    for bad in ("nan", "inf", "0", "601"):
        refused = run_patience("hint", str(save), "--seconds", bad)
        assert refused.code == 2 and "--seconds" in refused.err, bad


def test_a_hint_with_a_budget_in_positions_is_the_same_every_time(
    run_patience: Run, tmp_path: Path
) -> None:
    save = tmp_path / "g.json"
    run_patience("play", "bristol", "--deal", "3", "--file", str(save), input="")
    answers = set()
    for _ in range(2):
        result = run_patience("hint", str(save), "--nodes", "3000", "--seconds", "600", "--json")
        assert result.code == 0, result.err
        data = json.loads(result.out)
        answers.add((data["move"], data["reason"], data["verdict"]))
    assert len(answers) == 1
    assert run_patience("hint", str(save), "--nodes", "0").code == 2


def test_play_hint_command(run_patience: Run) -> None:
    result = run_patience(
        "play", "escalator", "--deal", "17", input="hint thoughtful\nhint nonsense\nquit\n"
    )
    assert "Hint (thoughtful): deal: wins in " in result.out
    assert "usage: hint [honest|thoughtful]" in result.out


def test_play_says_when_no_winning_line_remains(
    run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATIENCE_DEAD_CHECK", "60")  # escalator deal 4 is proved dead quickly
    result = run_patience("play", "escalator", "--deal", "4", "--dead-check", input="deal\n")
    # Said once, at the deal; not again after a move of a game that was never winnable.
    assert result.out.count("This deal cannot be won.") == 1
    assert "No winning line remains" not in result.out
    assert "game lost" not in result.out
    quiet = run_patience("play", "escalator", "--deal", "4", input="deal\n")  # off by default
    assert "cannot be won" not in quiet.out
    monkeypatch.setenv("PATIENCE_DEAD_CHECK", "0")
    off = run_patience("play", "escalator", "--deal", "4", "--dead-check", input="deal\n")
    assert "cannot be won" not in off.out
    monkeypatch.setenv("PATIENCE_DEAD_CHECK", "soon")
    bad = run_patience("play", "escalator", "--deal", "4", input="")
    assert bad.code == 1 and "PATIENCE_DEAD_CHECK" in bad.err
    monkeypatch.setenv("PATIENCE_DEAD_CHECK", "5_0")  # Python's float() reads it as 50
    odd = run_patience("play", "escalator", "--deal", "4", input="")
    assert odd.code == 1 and "PATIENCE_DEAD_CHECK" in odd.err


def test_moves_only_and_json_together_is_a_usage_error(run_patience: Run) -> None:
    result = run_patience("solve", "escalator", "--deal", "1", "--moves-only", "--json")
    assert result.code == 2
    assert "--moves-only and --json cannot be used together" in result.err
    assert "Traceback" not in result.err and not result.out


def test_hint_seconds_count_from_the_commands_start(
    run_patience: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start-up counts in --seconds: the search gets what is left (at least 0.05 s)."""
    import patience_core.cli.hint_cmd as hint_cmd

    save = tmp_path / "g.json"
    run_patience("play", "escalator", "--deal", "17", "--file", str(save), input="deal\n")
    asked: list[float] = []
    real = hint_cmd.hint

    def recording(*args: Any, seconds: float, **kwargs: Any) -> Any:
        asked.append(seconds)
        return real(*args, seconds=seconds, **kwargs)

    monkeypatch.setattr(hint_cmd, "hint", recording)
    monkeypatch.setattr(hint_cmd, "STARTED", time.perf_counter() - 1.0)
    assert run_patience("hint", str(save), "--seconds", "3").code == 0
    monkeypatch.setattr(hint_cmd, "STARTED", time.perf_counter() - 100.0)
    assert run_patience("hint", str(save), "--seconds", "3").code == 0
    assert 1.5 < asked[0] <= 2.0 and asked[1] == 0.05


def test_thoughtful_and_honest_exclude_each_other(run_patience: Run, tmp_path: Path) -> None:
    solved = run_patience("solve", "escalator", "--deal", "17", "--honest", "--thoughtful")
    assert solved.code == 2
    assert "exclude each other" in solved.err
    save = tmp_path / "g.json"
    played = run_patience("play", "escalator", "--deal", "17", "--file", str(save), input="deal\n")
    assert played.code == 3 and save.exists()  # piped play that ends in progress
    hinted = run_patience("hint", str(save), "--thoughtful", "--honest")
    assert hinted.code == 2
    assert "exclude each other" in hinted.err


def _in_plugin_module(source: str, module: str = "game") -> Any:
    """A function compiled as if written in a module of the Bristol plugin (whose search object
    is its own code, where a family's search is the core's)."""
    namespace: dict[str, Any] = {"__name__": f"patience_bristol.{module}"}
    exec(source, namespace)  # test scaffolding: code "inside" the plugin
    return namespace["broken"]


def test_a_failing_plugin_hook_names_the_plugin_and_exits_1(
    run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from patience_bristol import Bristol
    from patience_bristol.search import BristolSearch

    source = "def broken(self, position):\n    raise RuntimeError('boom')\n"
    monkeypatch.setattr(BristolSearch, "key", _in_plugin_module(source, "search"))
    result = run_patience("solve", "bristol", "--deal", "3")
    assert result.code == 1
    assert result.err.startswith("patience: error: the plugin patience-bristol failed: ")
    assert "RuntimeError: boom" in result.err and "Traceback" not in result.err
    # A game's answers are trusted once it is loaded (no trial of them when it is made): the
    # board's status line is where this one fails, and the plugin is named the same way.
    monkeypatch.setattr(Bristol, "status", _in_plugin_module(source))
    result = run_patience("deal", "bristol", "--deal", "3")
    assert result.code == 1
    assert result.err.strip() == (
        "patience: error: the plugin patience-bristol failed: RuntimeError: boom "
        "(set PATIENCE_DEBUG=1 for details)"
    )


def test_an_internal_error_names_the_game_being_worked_on(
    run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from patience_bristol.search import BristolSearch

    # Defined here (no plugin frame raises): the error comes up inside patience's solver.
    class Odd:
        def __hash__(self) -> int:
            raise ValueError("odd")

    monkeypatch.setattr(BristolSearch, "key", lambda self, position: Odd())
    result = run_patience("solve", "bristol", "--deal", "3")
    assert result.code == 70
    assert result.err.startswith(
        "patience: internal error (with the bristol game of patience-bristol): ValueError"
    )


def test_a_key_that_cannot_be_hashed_is_the_game_s_fault(
    run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from patience_bristol.search import BristolSearch

    monkeypatch.setattr(BristolSearch, "key", lambda self, position: [1])
    result = run_patience("solve", "bristol", "--deal", "3")
    assert result.code == 1
    assert result.err.startswith(
        "patience: error: the bristol game of patience-bristol is broken: it gave a "
        "position or a solver_key that cannot be hashed"
    )
    assert "TypeError: unhashable type: 'list'" in result.err and "Traceback" not in result.err


def test_a_position_of_another_game_is_named_before_its_options_are_tried(
    run_patience: Run, tmp_path: Path
) -> None:
    made = run_patience("deal", "bakers-game", "--deal", "5", "--json")
    position = tmp_path / "b5.json"
    position.write_text(made.out)
    result = run_patience("solve", "spiderette", "--from", str(position))
    assert result.code == 1
    assert result.err.strip() == (
        f"patience: error: {position}: position is of game 'bakers-game', not spiderette"
    )


def test_one_position_is_not_called_positions(run_patience: Run) -> None:
    result = run_patience("solve", "bakers-game", "--deal", "1", "--nodes", "1")
    assert result.code == 0, result.err
    assert result.out.startswith("Baker's Game, deal 1: unknown (1 position, ")
