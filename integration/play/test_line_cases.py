"""What outside testers found in the line player, kept as tests with the shipped games: the
save's truth in every ending line, a byte order mark on piped input, a dropped redo list said,
SIGTERM and a vanished terminal ending as an interrupt and a hang-up do."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from patience_core.engine import DealNumber
from patience_core.play import CardStyle, HangUp, LinePlayer, PlayController, Session, make_painter
from patience_core.plugins import PluginHost

Run = Any
PATIENCE = [sys.executable, "-c", "from patience_core.cli import main; main()"]


def script(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


def save_of(data: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((data / "saves" / "escalator.json").read_text())
    return loaded


def test_a_byte_order_mark_before_the_first_piped_line_is_skipped(
    run_patience: Run, patience_data_dir: Path
) -> None:
    result = run_patience("play", "escalator", "--deal", "17", input="\ufeffdeal\nquit\n")
    assert result.code == 3, result.err
    assert save_of(patience_data_dir)["moves"] == ["deal"]


def test_a_different_move_after_a_restart_says_the_redo_list_is_dropped(
    run_patience: Run,
) -> None:
    result = run_patience(
        "play", "escalator", "--deal", "17", input=script("deal", "deal", "restart", "redo", "u")
    )
    assert "moves to redo" not in result.out
    for lines, said in [
        (("6h", "7h", "u", "u", "deal"), "The 2 moves to redo are dropped."),
        (("6h", "u", "deal"), "The move to redo is dropped."),
        (("6h", "7h", "u", "u", "6h", "deal"), "The move to redo is dropped."),
    ]:
        result = run_patience(
            "play", "escalator", "--deal", "17", input=script("deal", "deal", *lines)
        )
        assert result.code == 3, result.err
        assert result.out.count("to redo") == 1 and said in result.out


def test_a_failed_save_is_told_in_the_refusal_and_at_the_end(
    patience_host: PluginHost,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The save's folder unusable mid-game: the lines that end the game say it is not saved and
    how many moves are missing; the end of input adds a closing line."""
    game = patience_host.game("escalator")
    folder = tmp_path / "saves"
    folder.mkdir()
    controller = PlayController(Session(game, DealNumber(17)), folder / "e.json", "1")
    player = LinePlayer(controller, make_painter(CardStyle()))
    assert player.command("deal", interactive=False) is None and controller.saved
    (tmp_path / "file").write_text("")
    controller.path = tmp_path / "file" / "e.json"  # no folder there: every save fails
    assert player.command("deal", interactive=False) is None and not controller.saved
    assert player.command("xyzzy", interactive=False) == 5
    err = capsys.readouterr().err
    assert "the game is NOT saved (the last move is not in " in err
    assert "the game is saved" not in err
    player.command("deal", interactive=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert player.run() == 1
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("patience: the game is NOT saved (the last 2 moves are not in ")


def test_sigterm_saves_and_says_so(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [*PATIENCE, "play", "escalator", "--deal", "1", "--no-dead-check"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PATIENCE_DATA_DIR": str(tmp_path)},
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        text = ""
        while not text.endswith("> "):
            char = process.stdout.read(1)
            assert char, text
            text += char
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
        _out, err = process.communicate()
    finally:
        process.kill()
    assert code == 143
    assert err == "Interrupted: game saved; resume with: patience play escalator --resume\n"


class _GoneTerminal:
    closed = False

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        raise OSError(errno.EIO, "Input/output error")


def test_a_vanished_terminal_ends_as_a_hang_up(
    patience_host: PluginHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = patience_host.game("escalator")
    controller = PlayController(Session(game, DealNumber(1)), tmp_path / "e.json", "1")
    player = LinePlayer(controller, make_painter(CardStyle()))
    monkeypatch.setattr(sys, "stdin", _GoneTerminal())
    with pytest.raises(HangUp):
        player.read_line(interactive=False)


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("t7 f1 0", "the count must be at least 1"),
        ("t7 f1 00", "the count must be at least 1"),
        ("t7 f1 9999999", "no pile holds that many cards"),
        ("t7 t1 30", "t7 has only 6 cards"),
    ],
)
def test_every_wrong_count_says_why(run_patience: Run, typed: str, why: str) -> None:
    result = run_patience("play", "bakers-game", "--deal", "5", input=script(typed))
    assert result.code == 5
    assert f"refused: illegal move {typed!r}: {why}. " in result.err


def test_the_statistics_line_names_the_option_set_and_the_command_carries_it(
    run_patience: Run,
) -> None:
    result = run_patience("play", "bakers-game", "-o", "empty-columns=any", input=script("t1 f"))
    first = result.out.splitlines()[0]
    assert first.startswith("Deal ") and first.endswith(" -o empty-columns=any."), first
    result = run_patience(
        "play", "bakers-game", "--deal", "5", "-o", "empty-columns=any", input=script("t1 f")
    )
    assert "Baker's Game (empty-columns=any): played " in result.out


#: A winning line of Escalator deal 17 (as in test_play_cli.py).
WIN_TEXT = (
    "deal deal 6h 7h 6c 7c 8c 7d 8d deal deal 4h deal 9d Tc Jh Qh deal deal Ac 2d 3h deal deal "
    "Td 9h deal 4d 5s deal deal Kd deal 5d deal deal 9c Th Jd deal 6s deal Jc deal Kh deal 2h"
)
WIN_LINE = WIN_TEXT.split()


def test_a_win_stays_recorded_when_moves_are_undone_after_it(
    run_patience: Run, patience_data_dir: Path
) -> None:
    won = run_patience("play", "escalator", "--deal", "17", input=script(*WIN_LINE))
    assert won.code == 0
    resumed = run_patience("play", "escalator", "--resume", input=script("undo", "undo"))
    assert resumed.code == 3
    assert "Escalator: played 1, won 1 (100%)" in resumed.out
    with sqlite3.connect(patience_data_dir / "stats.db") as conn:
        rows = conn.execute("SELECT outcome, moves FROM games").fetchall()
    assert rows == [("won", len(WIN_LINE) - 2)]


@pytest.mark.parametrize(
    ("game", "typed", "why"),
    [
        ("spiderette", "8h", "8♥ has nowhere to go (only a complete King-to-Ace run"),
        ("golf", "w t1", "cards never go from the waste back to the columns"),
        ("escalator", "8h", "8♥ is covered by "),
    ],
)
def test_a_refusal_names_the_reading_the_player_meant(
    run_patience: Run, game: str, typed: str, why: str
) -> None:
    """A card typed alone is not only a move to a foundation: when it goes nowhere the refusal
    says so before the foundations' rule."""
    result = run_patience("play", game, "--deal", "7", input=script(typed))
    assert result.code == 5
    assert f"refused: illegal move {typed!r}: {why}" in result.err
