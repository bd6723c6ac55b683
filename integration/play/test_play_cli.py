"""``patience play``: scripted games through a pipe, saving after every move, resuming, and
never losing a game in progress."""

from __future__ import annotations

import io
import json
import os
import re
import selectors
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from patience_core.cli import cli
from patience_core.engine import DealNumber
from patience_core.play import Session
from patience_core.plugins import PluginHost

WIN_DEAL = "17"
#: A winning line for Escalator deal 17 (found once by a depth-first search).
WIN_TEXT = (
    "deal deal 6h 7h 6c 7c 8c 7d 8d deal deal 4h deal 9d Tc Jh Qh deal deal Ac 2d 3h deal deal "
    "Td 9h deal 4d 5s deal deal Kd deal 5d deal deal 9c Th Jd deal 6s deal Jc deal Kh deal 2h"
)
WIN_LINE = WIN_TEXT.split()
#: Escalator deal 2 is lost after turning the whole stock without playing a card.
LOSE_DEAL = "2"

Run = Callable[..., Any]


def script(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines)


def save_of(data_dir: Path, game: str = "escalator") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((data_dir / "saves" / f"{game}.json").read_text())
    return data


def last_status(out: str) -> str:
    """The last status line printed (``Score N/M   Stock left: K   Moves: J``)."""
    return [line for line in out.splitlines() if line.startswith("Score ")][-1]


def replayed(moves: list[str], deal: str = WIN_DEAL) -> Session:
    return Session.replay(PluginHost().load().game("escalator"), DealNumber.parse(deal), moves)


# -- whole games ------------------------------------------------------------------------------


def test_a_winning_line_wins(run_patience: Run, patience_data_dir: Path) -> None:
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input=script(*WIN_LINE))
    assert result.code == 0, result.err
    assert "You won! Score 28/28." in result.out
    assert last_status(result.out) == "Score 28/28   Stock left: 5   Moves: 47"
    save = save_of(patience_data_dir)
    assert save["finished"] == "won" and len(save["moves"]) == len(WIN_LINE)
    assert "resume with: patience play escalator --resume" in result.out.splitlines()[-1]
    assert result.err == ""


def test_a_losing_game_is_lost(run_patience: Run, patience_data_dir: Path) -> None:
    result = run_patience("play", "escalator", "--deal", LOSE_DEAL, input=script(*["d"] * 24))
    assert result.code == 4  # piped play that ends lost
    assert "No moves left: game lost. Score 0/28." in result.out
    assert "You won" not in result.out
    assert save_of(patience_data_dir)["finished"] == "lost"


def test_undo_is_allowed_after_a_loss_and_after_a_win(
    run_patience: Run, patience_data_dir: Path
) -> None:
    result = run_patience(
        "play", "escalator", "--deal", LOSE_DEAL, input=script(*["d"] * 24, "undo")
    )
    assert last_status(result.out).endswith("Moves: 23")
    assert save_of(patience_data_dir)["finished"] is None
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input=script(*WIN_LINE, "u"))
    save = save_of(patience_data_dir)
    assert save["finished"] is None and save["redo"] == ["p1 w"]
    assert last_status(result.out).startswith("Score 27/28")


def test_a_move_after_the_end_is_a_warning_and_the_exit_status_tells_the_result(
    run_patience: Run, patience_data_dir: Path
) -> None:
    """Piped, a move after the game is over is refused with a warning, and the run goes on:
    the exit status tells how the game stands at the end (won 0, lost 4), the statistics line
    and the save line are printed; `auto` after the end has nothing to finish."""
    result = run_patience("play", "escalator", "--deal", LOSE_DEAL, input=script(*["d"] * 25))
    assert result.code == 4
    assert result.err == (
        "patience: warning: input line 25: 'd' ignored: The game is over (no moves left); "
        "type 'undo', 'restart' or 'quit'.\n"
    )
    assert save_of(patience_data_dir)["finished"] == "lost"
    assert "Game saved to " in result.out
    result = run_patience(
        "play", "escalator", "--deal", WIN_DEAL, input=script(*WIN_LINE, "2h", "auto")
    )
    assert result.code == 0 and "'2h' ignored: The game is over (you won)" in result.err
    assert "Nothing to finish: the game is over (you won)." in result.out
    assert "Escalator: played 2, won 1" in result.out  # the lost game above, and this one
    # Undoing after the end plays on: the exit status tells the game as it stands.
    result = run_patience(
        "play", "escalator", "--deal", LOSE_DEAL, input=script(*["d"] * 24, "d", "undo")
    )
    assert result.code == 3


# -- mistakes never end a game ----------------------------------------------------------------


def test_garbled_and_illegal_moves_print_one_line_and_the_game_goes_on(
    run_patience: Run, patience_data_dir: Path
) -> None:
    result = run_patience(
        "play", "escalator", "--deal", WIN_DEAL, input=script("", "deal", "uNdO 0", "board")
    )
    assert result.code == 3
    lines = result.out.splitlines()
    assert lines[lines.index("> ") + 1] == "> deal"
    assert lines[lines.index("> uNdO 0") + 1] == "usage: undo [N|all]"
    assert save_of(patience_data_dir)["moves"] == ["deal"]
    for typed, said in [
        ("xyzzy 7", "unknown pile or card 'xyzzy'; type 'help' for the notation"),
        ("6h", "illegal move '6h': 6♥ is not one rank from 2♠ (K and A count as one apart)"),
    ]:
        result = run_patience("play", "escalator", "--resume", input=script(typed, "deal"))
        assert result.code == 5  # piped: a refused move ends the run
        assert result.err == (
            f"patience: input line 1: {typed!r} refused: {said}. The rest of the input is "
            "not played; the game is saved; resume with: patience play escalator --resume\n"
        )
        assert save_of(patience_data_dir)["moves"] == ["deal"]


def test_counts_of_thousands_of_digits_are_read_as_counts_not_errors(
    run_patience: Run, patience_data_dir: Path
) -> None:
    """Python refuses to read a number of more than 4,300 digits: ``undo`` of such a count takes
    back every move, a move of so many cards is illegal, and a digit that is not ASCII is no
    count; the game goes on."""
    huge = "9" * 5000
    result = run_patience(
        "play",
        "escalator",
        "--deal",
        WIN_DEAL,
        "--no-dead-check",
        input=script("deal", "deal", f"undo {huge}", f"redo 000{huge}", "undo ²", f"p28 w {huge}"),
    )
    assert result.code == 5, result.err
    assert result.err.startswith(
        f"patience: input line 6: 'p28 w {huge[:31]}...' refused: illegal move "
        f"'p28 w {huge[:31]}...': no pile holds that many cards. "
    )
    lines = result.out.splitlines()
    assert lines[lines.index("> undo ²") + 1] == "usage: undo [N|all]"
    assert [line for line in lines if line.startswith("Score ")][-2].endswith("Moves: 0")
    assert save_of(patience_data_dir)["moves"] == ["deal", "deal"]


def test_help_moves_board_and_save(run_patience: Run, patience_data_dir: Path) -> None:
    result = run_patience(
        "play",
        "escalator",
        "--deal",
        WIN_DEAL,
        input=script("help", "d", "d", "moves", "b", "save"),
    )
    assert "Piles: s stock, w waste, p1..p28 tableau." in result.out
    assert "deal, d" in result.out and "quit/q" in result.out
    assert "Legal moves (4):" in result.out
    assert "  p23 w      6h from p23 to w (waste)\n" in result.out
    assert "  deal       deal from the stock\n" in result.out
    assert result.out.count("Escalator, deal 17") == 4  # start, two moves, board
    assert f"Saved to {patience_data_dir / 'saves' / 'escalator.json'}." in result.out
    assert "\x1b[" not in result.out  # not a terminal: no colour


def test_unknown_game_bad_deal_and_bad_option(run_patience: Run) -> None:
    result = run_patience("play", "nosuchgame")
    assert result.code == 1 and "unknown game 'nosuchgame'" in result.err
    result = run_patience("play", "escalator", "--deal", "x7")
    assert result.code == 2 and "bad deal number" in result.err
    result = run_patience("play", "escalator", "--deal", "ms:5")
    assert result.code == 1 and "escalator does not take ms deal numbers" in result.err
    result = run_patience("play", "escalator", "-o", "colour=red")
    assert result.code == 1 and "no option 'colour'" in result.err


@pytest.mark.parametrize(
    "args",
    [["nosuchgame"], ["escalator", "--deal", "x7"], ["escalator", "--deal", "ms:5"]],
)
def test_errors_are_one_line_without_traceback(run_patience: Run, args: list[str]) -> None:
    result = run_patience("play", *args)
    assert result.code != 0
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err


def test_a_random_deal_is_printed_so_it_can_be_replayed(
    run_patience: Run, patience_data_dir: Path
) -> None:
    result = run_patience("play", "escalator", input=script("d"))
    match = re.search(
        r"Deal (\d+) was chosen at random; play it again with --deal \1\.", result.out
    )
    assert match
    assert save_of(patience_data_dir)["deal"] == match[1]
    assert f"Escalator, deal {match[1]}" in result.out


# -- saving and resuming ----------------------------------------------------------------------


@pytest.mark.parametrize("k", [0, 3, 11])
def test_end_of_input_saves_and_resume_continues(
    run_patience: Run, patience_data_dir: Path, k: int
) -> None:
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input=script(*WIN_LINE[:k]))
    assert result.code == 3  # piped play that ends in progress
    assert result.out.splitlines()[-1] == (
        f"Game saved to {patience_data_dir / 'saves' / 'escalator.json'}; "
        "resume with: patience play escalator --resume"
    )
    assert len(save_of(patience_data_dir)["moves"]) == k
    result = run_patience("play", "escalator", "--resume", input=script(*WIN_LINE[k:]))
    assert result.code == 0
    assert result.out.startswith("Resuming Escalator, deal 17, from ")
    assert f"Moves: {k}" in result.out.split("> ")[0]
    assert "You won! Score 28/28." in result.out


def test_every_move_is_saved_at_once(run_patience: Run, patience_data_dir: Path) -> None:
    seen: list[list[str]] = []

    class Spy:
        """Standard input that records the save before each line is read."""

        def __init__(self, lines: list[str]) -> None:
            self.lines = lines

        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            seen.append(save_of(patience_data_dir)["moves"])
            return self.lines.pop(0) + "\n" if self.lines else ""

    run_patience("play", "escalator", "--deal", WIN_DEAL, input=Spy(WIN_LINE[:6]))
    assert seen == [WIN_LINE_TEXTS[:i] for i in range(7)]


WIN_LINE_TEXTS = replayed(WIN_LINE).move_texts


def test_ctrl_c_saves_and_exits_130(run_patience: Run, patience_data_dir: Path) -> None:
    class Interrupt:
        def __init__(self) -> None:
            self.lines = ["deal\n", "deal\n", "6h\n"]

        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            if not self.lines:
                raise KeyboardInterrupt
            return self.lines.pop(0)

    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input=Interrupt())
    assert result.code == 130
    # One line on stderr, no empty line; the prompt's line on stdout is ended.
    assert result.err == "Interrupted: game saved; resume with: patience play escalator --resume\n"
    assert result.out.endswith("\n> \n")
    assert save_of(patience_data_dir)["moves"] == WIN_LINE_TEXTS[:3]


def test_ctrl_c_away_from_the_prompt_adds_no_line_break(
    run_patience: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Interrupted in a hint's search, where every line printed is ended: the one line of
    stderr is all, with no empty line before it and none on stdout."""
    from patience_core.play import _searching as play_cmd

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_cmd, "hint_stream", interrupted)
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input=script("deal", "hint"))
    assert result.code == 130
    assert result.err == "Interrupted: game saved; resume with: patience play escalator --resume\n"
    assert result.out.endswith("\n> hint\n")


def test_a_real_ctrl_c_at_the_prompt_gives_one_line(patience_data_dir: Path) -> None:
    exe = Path(sys.executable).with_name("patience")
    if not exe.exists() or sys.platform == "win32":
        pytest.skip("needs the patience script next to this Python, and POSIX signals")
    env = {**os.environ, "PATIENCE_DATA_DIR": str(patience_data_dir), "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [str(exe), "play", "escalator", "--deal", WIN_DEAL],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    output = b""
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        while not output.endswith(b"\n> "):
            assert selector.select(timeout=60), "patience play stopped answering"
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, "patience play ended early"
            output += chunk
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert rest == b"\n"  # the prompt's line is ended
    assert err == b"Interrupted: game saved; resume with: patience play escalator --resume\n"


def test_output_cut_short_ends_play_quietly_and_keeps_the_game(
    run_patience: Run, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader of the transcript goes away (``play ... | head -40``) after some moves: the
    game ends quietly (exit 141, as for a broken pipe in any command), not as a failure of the
    game's plugin, and every move played is saved."""

    class ReaderGone(io.StringIO):
        def __init__(self, writes: int) -> None:
            super().__init__()
            self.writes = writes

        def write(self, text: str) -> int:
            self.writes -= 1
            if self.writes < 0:
                raise BrokenPipeError(32, "Broken pipe")
            return super().write(text)

    monkeypatch.setattr(sys, "stdout", ReaderGone(60))
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input=script(*WIN_LINE))
    assert (result.code, result.err) == (141, "")
    moves = save_of(patience_data_dir)["moves"]
    assert 0 < len(moves) < len(WIN_LINE) and moves == WIN_LINE_TEXTS[: len(moves)]


def test_quit_saves_and_stops_reading(run_patience: Run, patience_data_dir: Path) -> None:
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input=script("d", "q", "d"))
    assert result.code == 3 and "> q" in result.out and "> d\n" not in result.out.split("> q")[1]
    assert save_of(patience_data_dir)["moves"] == ["deal"]


def test_undo_redo_restart_round_trip(run_patience: Run, patience_data_dir: Path) -> None:
    moves = WIN_LINE[:8]
    result = run_patience(
        "play", "escalator", "--deal", WIN_DEAL, input=script(*moves, "undo 3", "redo", "restart")
    )
    assert "Back to the deal; 'redo all' plays the 8 moves again." in result.out
    save = save_of(patience_data_dir)
    assert save["moves"] == [] and save["redo"] == WIN_LINE_TEXTS[:8]
    result = run_patience("play", "escalator", "--resume", input=script("redo 6", "moves"))
    save = save_of(patience_data_dir)
    assert save["moves"] == WIN_LINE_TEXTS[:6] and save["redo"] == WIN_LINE_TEXTS[6:8]
    assert f"Score {replayed(WIN_LINE[:6]).score()}/28" in result.out
    result = run_patience("play", "escalator", "--resume", input=script("redo all", "redo"))
    assert "Nothing to redo." in result.out
    assert save_of(patience_data_dir)["moves"] == WIN_LINE_TEXTS[:8]


def test_a_killed_game_resumes_with_the_moves_played(patience_data_dir: Path) -> None:
    exe = Path(sys.executable).with_name("patience")
    if not exe.exists():
        pytest.skip("the patience script is not installed next to this Python")
    env = {**os.environ, "PATIENCE_DATA_DIR": str(patience_data_dir), "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [str(exe), "play", "escalator", "--deal", WIN_DEAL],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    output = b""

    def wait_for_prompts(count: int) -> None:
        nonlocal output
        while output.count(b"\n> ") < count:
            assert selector.select(timeout=60), "patience play stopped answering"
            chunk = os.read(proc.stdout.fileno(), 65536)  # type: ignore[union-attr]
            assert chunk, "patience play ended early"
            output += chunk

    try:
        wait_for_prompts(1)
        for i, move in enumerate(WIN_LINE[:5], start=2):
            proc.stdin.write(f"{move}\n".encode())
            proc.stdin.flush()
            wait_for_prompts(i)  # the move was echoed, played and saved: the next prompt is up
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
        selector.close()
    assert b"Moves: 5" in output
    assert save_of(patience_data_dir)["moves"] == WIN_LINE_TEXTS[:5]
    result = subprocess.run(
        [str(exe), "play", "escalator", "--resume"],
        input=script(*WIN_LINE[5:]).encode(),
        capture_output=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0
    assert b"Moves: 5" in result.stdout.split(b"> ")[0]
    assert b"You won! Score 28/28." in result.stdout


# -- never lose a game in progress --------------------------------------------------------


def test_a_new_game_keeps_the_unfinished_one(run_patience: Run, patience_data_dir: Path) -> None:
    run_patience("play", "escalator", "--deal", WIN_DEAL, input=script(*WIN_LINE[:4]))
    path = patience_data_dir / "saves" / "escalator.json"
    before = path.read_bytes()
    result = run_patience("play", "escalator", "--deal", "5", input=script("d"))
    assert result.code == 3
    match = re.search(
        r"Your unfinished escalator game \(deal 17, 4 moves\) was kept as (\S+); "
        r"resume it with: patience play escalator --resume --file (\S+)\n",
        result.out,
    )
    assert match and match[1] == match[2]
    archive = Path(match[1])
    assert archive.parent == path.parent and archive.read_bytes() == before
    assert save_of(patience_data_dir)["deal"] == "5"
    result = run_patience("play", "escalator", "--resume", "--file", str(archive), input="")
    assert result.code == 3 and "Moves: 4" in result.out
    assert f"--resume --file {archive}" in result.out.splitlines()[-1]


def test_a_finished_game_is_simply_replaced(run_patience: Run, patience_data_dir: Path) -> None:
    run_patience("play", "escalator", "--deal", LOSE_DEAL, input=script(*["d"] * 24))
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input="")
    assert "kept as" not in result.out
    assert os.listdir(patience_data_dir / "saves") == ["escalator.json"]
    assert save_of(patience_data_dir)["deal"] == WIN_DEAL


def test_a_corrupt_default_save_is_moved_aside(run_patience: Run, patience_data_dir: Path) -> None:
    path = patience_data_dir / "saves" / "escalator.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"format": "patience-save", "vers')
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, input="")
    assert result.code == 3
    match = re.search(r"could not be read; it was moved to (\S+)\.\n", result.out)
    assert match and Path(match[1]).read_bytes() == b'{"format": "patience-save", "vers'
    assert save_of(patience_data_dir)["deal"] == WIN_DEAL


@pytest.mark.parametrize("content", ["unfinished", "not a save", "finished"])
def test_file_is_never_overwritten_unless_finished(
    run_patience: Run, tmp_path: Path, content: str
) -> None:
    path = tmp_path / "mine.json"
    if content == "not a save":
        path.write_text("my precious notes\n")
    else:
        moves = ["d"] * (24 if content == "finished" else 3)
        run_patience(
            "play", "escalator", "-d", LOSE_DEAL, "--file", str(path), input=script(*moves)
        )
    before = path.read_bytes()
    result = run_patience("play", "escalator", "--deal", WIN_DEAL, "--file", str(path), input="")
    if content == "finished":
        assert result.code == 3 and json.loads(path.read_text())["deal"] == WIN_DEAL
        return
    assert result.code == 1 and len(result.err.strip().splitlines()) == 1
    assert "not overwriting" in result.err or "--resume" in result.err
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.glob("mine*")] == ["mine.json"]


BAD_FILES = {
    "truncated": b'{"format": "patience-save", "version": 1, "game": "esc',
    "not json": b"\x00\x01binary",
    "wrong version": json.dumps(
        {"format": "patience-save", "version": 99, "game": "escalator"}
    ).encode(),
    "hostile": json.dumps(
        {
            "format": "patience-save",
            "version": 1,
            "game": "escalator",
            "plugin_version": "1",
            "deal": "17",
            "options": {},
            "moves": ["deal", "__import__('os').remove('x')"],
            "redo": [],
            "finished": None,
            "saved_at": "2025-01-01T00:00:00",
        }
    ).encode(),
    "other format": b'{"format": "patience-position", "version": 1}',
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
@pytest.mark.parametrize("where", ["default", "file"])
def test_resume_refuses_bad_saves_and_leaves_them_alone(
    run_patience: Run, patience_data_dir: Path, tmp_path: Path, name: str, where: str
) -> None:
    path = patience_data_dir / "saves" / "escalator.json" if where == "default" else tmp_path / "x"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(BAD_FILES[name])
    args = ["play", "escalator", "--resume"] + (["--file", str(path)] if where == "file" else [])
    result = run_patience(*args, input="d\n")
    assert result.code == 1
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err
    assert result.err.startswith("patience: error: ")
    assert path.read_bytes() == BAD_FILES[name]
    # Nothing beside the save (the data folder, where locks live, may sit in the same place).
    assert [n for n in os.listdir(path.parent) if n != "patience-data"] == [path.name]


def test_resume_without_a_save(run_patience: Run, patience_data_dir: Path) -> None:
    result = run_patience("play", "escalator", "--resume")
    assert result.code == 1
    save = patience_data_dir / "saves" / "escalator.json"
    assert result.err == (
        f"patience: error: cannot read {save}: No such file or directory; "
        "start one with: patience play escalator\n"
    )
    assert not (patience_data_dir / "saves").exists()


def test_resume_refuses_deal_and_options(run_patience: Run) -> None:
    result = run_patience("play", "escalator", "--resume", "--deal", "3")
    assert result.code == 2 and "cannot be used with --resume" in result.err


def test_resume_refuses_a_save_of_another_game(tmp_path: Path) -> None:
    host = PluginHost().load()
    copy = type("Copy", (host.games.get("escalator"),), {"name": "escalator-copy"})
    host.games.add(copy)
    path = tmp_path / "copy.json"
    runner = CliRunner()
    made = runner.invoke(
        cli, ["play", "escalator-copy", "-d", "17", "--file", str(path)], input="d\n", obj=host
    )
    assert made.exit_code == 3, made.output
    before = path.read_bytes()
    result = runner.invoke(
        cli, ["play", "escalator", "--resume", "--file", str(path)], input="d\n", obj=host
    )
    assert result.exit_code == 1
    assert "holds a saved escalator-copy game, not escalator" in str(result.exception)
    assert path.read_bytes() == before


# -- one window per game, plugin failures, small things found from outside ------------------------


def test_a_second_window_on_the_same_game_is_refused(
    run_patience: Run, patience_data_dir: Path
) -> None:
    exe = str(Path(sys.executable).with_name("patience"))
    env = dict(os.environ, PATIENCE_DATA_DIR=str(patience_data_dir), NO_COLOR="1")
    first = subprocess.Popen(
        [exe, "play", "escalator", "--deal", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert first.stdin is not None and first.stdout is not None
        first.stdin.write("deal\n")
        first.stdin.flush()
        # Wait until the first window has played its move (it echoes the prompt again).
        seen = ""
        while seen.count("> ") < 2:
            chunk = first.stdout.read(1)
            assert chunk, "the first window ended early"
            seen += chunk
        second = run_patience("play", "escalator", "--resume", input="deal\nquit\n")
        assert second.code == 1
        assert "open in another patience window" in second.err
        again = run_patience("play", "escalator", "--deal", "5", input="quit\n")
        assert again.code == 1 and "open in another patience window" in again.err
    finally:
        first.communicate("quit\n", timeout=60)
    saved = json.loads((patience_data_dir / "saves" / "escalator.json").read_text())
    assert saved["deal"] == "3" and saved["moves"] == ["deal"]
    # Once the first window is closed the game opens again.
    assert run_patience("play", "escalator", "--resume", input="quit\n").code == 3


def test_a_plugin_failing_during_play_is_reported_and_the_game_kept(
    run_patience: Run, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from patience_escalator import Escalator

    real_play = Escalator.play
    calls = {"n": 0}

    def flaky(self: Escalator, position: Any, move: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("plugin bug")
        return real_play(self, position, move)

    monkeypatch.setattr(Escalator, "play", flaky)
    result = run_patience(
        "play", "escalator", "--deal", "3", "--no-dead-check", input="deal\ndeal\ndeal\ndeal\n"
    )
    assert result.code == 1
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "escalator plugin (patience-escalator) failed: RuntimeError: plugin bug" in lines[0]
    assert "your game is saved" in lines[0] and "--resume" in lines[0]
    monkeypatch.setattr(Escalator, "play", real_play)
    saved = json.loads((patience_data_dir / "saves" / "escalator.json").read_text())
    assert saved["moves"] == ["deal", "deal"]


@pytest.mark.parametrize("line", ["deal 5", "quit now", "help me"])
def test_commands_with_stray_arguments_say_so(run_patience: Run, line: str) -> None:
    result = run_patience("play", "escalator", "--deal", "3", input=f"{line}\nquit\n")
    assert result.code == 3
    assert "takes no argument" in result.out


def test_a_game_with_no_moves_is_not_archived(run_patience: Run, patience_data_dir: Path) -> None:
    run_patience("play", "escalator", "--deal", "3", input="quit\n")
    run_patience("play", "escalator", "--deal", "4", input="quit\n")
    assert sorted(p.name for p in (patience_data_dir / "saves").iterdir()) == ["escalator.json"]


def test_help_examples_are_legal_moves(run_patience: Run) -> None:
    result = run_patience("play", "escalator", "--deal", "3", input="deal\nhelp\nquit\n")
    line = next(x for x in result.out.splitlines() if x.startswith("Legal now, for example:"))
    assert "p1 w" not in result.out  # the apex is never free at the start
    assert line.rstrip(".").split(": ", 1)[1]


def test_control_characters_are_not_echoed(run_patience: Run) -> None:
    result = run_patience("play", "escalator", "--deal", "3", input="\x1b[2J\x07junk\nquit\n")
    assert "\x1b" not in result.out and "\x07" not in result.out


def test_a_plugin_whose_legal_moves_fail_after_a_move_keeps_that_move_saved(
    run_patience: Run, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save asks whether the game is over (the legal moves); when the plugin fails there,
    the moves are saved all the same, marked in progress."""
    from patience_escalator import Escalator

    real_moves = Escalator.legal_moves

    def failing_once_dealt(self: Escalator, position: Any) -> Any:
        if position[1]:  # a card on the waste: after the first deal
            raise RuntimeError("late plugin bug")
        return real_moves(self, position)

    monkeypatch.setattr(Escalator, "legal_moves", failing_once_dealt)
    result = run_patience(
        "play", "escalator", "--deal", "3", "--no-dead-check", input="deal\nquit\n"
    )
    assert result.code == 1
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "failed: RuntimeError: late plugin bug; your game is saved" in lines[0]
    saved = json.loads((patience_data_dir / "saves" / "escalator.json").read_text())
    assert saved["moves"] == ["deal"] and saved["finished"] is None


def _failing_once_dealt(
    monkeypatch: pytest.MonkeyPatch, method: str, raised: str, in_search: bool = False
) -> None:
    """Escalator's ``method`` raising ``raised`` from the plugin's own module (so that patience
    finds the plugin behind it) once a card is on the waste: after the first deal.

    With ``in_search``, Bristol's search object's ``method`` instead (Escalator's search is the
    golf family's, in the core), once a card is on the first reserve: after the first deal."""
    if in_search:
        from patience_bristol.search import BristolSearch as owner
    else:
        from patience_escalator import Escalator as owner
    namespace: dict[str, Any] = {
        "__name__": "patience_bristol.search" if in_search else "patience_escalator.game",
        "real": getattr(owner, method),
    }
    exec(  # test scaffolding: code "inside" the plugin
        "def broken(self, position, *args):\n"
        "    if position[1]:\n"
        f"        raise {raised}\n"
        "    return real(self, position, *args)\n",
        namespace,
    )
    monkeypatch.setattr(owner, method, namespace["broken"])


_EVERY_METHOD = ["legal_moves", "play", "score", "is_won", "is_lost", "status", "move_text"]
_EVERY_METHOD += ["render", "describe_move"]


@pytest.mark.parametrize("method", _EVERY_METHOD)
@pytest.mark.parametrize("raised", ["SystemExit(7)", "RuntimeError('bug')"])
def test_a_plugin_failing_in_any_method_during_play_says_the_game_is_saved(
    run_patience: Run,
    patience_data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    raised: str,
) -> None:
    """Wherever play meets the failure (playing the move, saving it, drawing the board, ...),
    one line says the game is saved and how to resume it, and the moves before it are kept."""
    _failing_once_dealt(monkeypatch, method, raised)
    result = run_patience(
        "play", "escalator", "--deal", "3", "--no-dead-check", input="deal\nmoves\ndeal\nquit\n"
    )
    assert result.code == 1, result
    said = "SystemExit: 7" if raised.startswith("SystemExit") else "RuntimeError: bug"
    assert result.err.splitlines() == [
        f"patience: error: the escalator plugin (patience-escalator) failed: {said}; your game "
        "is saved; resume with: patience play escalator --resume"
    ]
    assert save_of(patience_data_dir)["moves"] in (["deal"], ["deal", "deal"])


@pytest.mark.parametrize("method", ["legal_moves", "score", "is_won", "status", "render"])
def test_a_plugin_failing_when_a_game_resumes_says_the_game_is_saved(
    run_patience: Run, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """In replaying the saved moves (the save is only read) or in drawing the board (the game
    is saved again, the same moves)."""
    run_patience("play", "escalator", "--deal", "3", "--no-dead-check", input="deal\n")
    before = (patience_data_dir / "saves" / "escalator.json").read_text()
    _failing_once_dealt(monkeypatch, method, "SystemExit(0)")
    result = run_patience("play", "escalator", "--resume", "--no-dead-check", input="quit\n")
    assert result.code == 1, result
    assert result.err.splitlines() == [
        "patience: error: the escalator plugin (patience-escalator) failed: SystemExit: 0; your "
        "game is saved; resume with: patience play escalator --resume"
    ]
    after = save_of(patience_data_dir)
    assert after["moves"] == ["deal"] and after["finished"] is None
    if method in ("legal_moves", "is_won"):  # failed in replaying the save: it was only read
        assert (patience_data_dir / "saves" / "escalator.json").read_text() == before


@pytest.mark.parametrize("search", ["dead check", "hint"])
def test_a_plugin_exiting_in_a_search_of_play_is_a_failing_search(
    run_patience: Run, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch, search: str
) -> None:
    """A plugin's SystemExit in the dead check or a hint is what any failure of the plugin is
    there: the check is turned off, or there is no hint, and the game goes on."""
    # The search's position key, in a search object that is the plugin's own code.
    _failing_once_dealt(monkeypatch, "key", "SystemExit(7)", in_search=True)
    dead_check = "--dead-check" if search == "dead check" else "--no-dead-check"
    result = run_patience("play", "bristol", "--deal", "3", dead_check, input="deal\nhint\n")
    assert result.code == 3, result
    if search == "dead check":
        assert "the dead check is off" in result.err and "SystemExit: 7" in result.err
    else:
        assert "No hint: the bristol plugin (patience-bristol) failed in a search: " in result.out
    assert save_of(patience_data_dir, "bristol")["moves"] == ["deal"]


def test_a_plugin_failing_in_the_dead_check_turns_the_check_off_and_the_game_goes_on(
    run_patience: Run, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import patience_core.solve._hints as hints

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("boom in a search")

    monkeypatch.setattr("patience_core.play._searching.run_dead_check", broken)
    assert hints.dead_check is not broken
    result = run_patience(
        "play", "escalator", "--deal", "3", "--dead-check", input="deal\ndeal\nquit\n"
    )
    assert result.code == 3
    assert result.err.count("the dead check is off") == 1
    assert "(patience-escalator) failed in a search: ZeroDivisionError" in result.err
    saved = json.loads((patience_data_dir / "saves" / "escalator.json").read_text())
    assert saved["moves"] == ["deal", "deal"]


def test_errors_raised_in_plugin_code_name_the_plugin() -> None:
    # Bristol's rules are its plugin's own code (Escalator's are the golf family's, in patience).
    from patience_bristol import Bristol

    from patience_core.errors import plugin_behind
    from patience_core.model import Move

    game = Bristol()
    position = game.deal(DealNumber(1))
    try:
        game.play(position, Move.transfer(99, 1))  # no such pile
    except IndexError as exc:
        assert plugin_behind(exc) == "patience-bristol"
    else:
        raise AssertionError("expected an IndexError from the plugin")
    try:
        raise ValueError("ours")
    except ValueError as exc:
        assert plugin_behind(exc) is None


def _patience_exe() -> Path:
    exe = Path(sys.executable).with_name("patience")
    if not exe.exists():
        pytest.skip("the patience script is not installed next to this Python")
    return exe


def test_play_with_standard_input_closed_ends_like_end_of_input(patience_data_dir: Path) -> None:
    env = {**os.environ, "PATIENCE_DATA_DIR": str(patience_data_dir), "NO_COLOR": "1"}
    done = subprocess.run(
        [str(_patience_exe()), "play", "escalator", "--deal", WIN_DEAL],
        stdin=None,
        capture_output=True,
        env=env,
        close_fds=True,
        preexec_fn=lambda: os.close(0),
        timeout=120,
    )
    assert done.returncode == 3, done.stderr  # piped: in progress
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr
    assert b"Game saved" in done.stdout


def test_bytes_the_locale_cannot_decode_are_a_garbled_move(patience_data_dir: Path) -> None:
    env = {
        **os.environ,
        "PATIENCE_DATA_DIR": str(patience_data_dir),
        "NO_COLOR": "1",
        "LC_ALL": "POSIX",
        "PYTHONIOENCODING": "ascii",
    }
    done = subprocess.run(
        [str(_patience_exe()), "play", "escalator", "--deal", WIN_DEAL],
        input="deal\nQ♥\ndeal\nquit\n".encode(),
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 5, done.stderr  # piped: a garbled move is a refused one
    assert b"input line 2: 'Q" in done.stderr and b"' refused: cannot read move" in done.stderr
    assert b"Traceback" not in done.stderr
    assert save_of(patience_data_dir)["moves"] == ["deal"]


def test_a_deal_that_cannot_be_won_is_called_so_at_the_deal_once(run_patience: Run) -> None:
    """With the dead check on, a dead deal (Escalator deal 11) is called so once, at the deal;
    later moves do not repeat it, nor say "undo to go back" (nothing was winnable)."""
    result = run_patience(
        "play", "escalator", "--deal", "11", "--dead-check", input="deal\ndeal\nquit\n"
    )
    assert result.code == 3, result.err
    assert result.out.count("This deal cannot be won.") == 1
    assert "No winning line" not in result.out


def test_the_dead_check_is_off_by_default_where_cards_are_hidden(run_patience: Run) -> None:
    """Escalator hides its stock: no spoiler unless asked for; 'dead on' asks, once."""
    result = run_patience("play", "escalator", "--deal", "11", input="deal\nboard\n")
    assert "cannot be won" not in result.out and "No winning line" not in result.out
    result = run_patience(
        "play", "escalator", "--deal", "11", input="dead on\nboard\ndead off\ndeal\n"
    )
    lines = result.out.splitlines()
    assert lines[lines.index("> dead on") + 1 :][:2] == [
        "Dead check on.",
        "This deal cannot be won.",
    ]
    assert result.out.count("cannot be won") == 1
    assert "Dead check off." in result.out


def test_play_file_in_a_missing_folder_makes_no_folder(run_patience: Run, tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "game.json"
    result = run_patience(
        "play", "escalator", "--deal", "2", "--file", str(missing), input="quit\n"
    )
    assert result.code == 1
    assert result.err.strip() == (
        f"patience: error: cannot save the game to {missing}: the folder {missing.parent} "
        "does not exist"
    )
    assert not missing.parent.exists()
    plain = tmp_path / "afile"
    plain.write_text("not a folder")
    inside = plain / "game.json"
    result = run_patience("play", "escalator", "--deal", "2", "--file", str(inside), input="quit\n")
    assert result.code == 1 and f"the folder {plain} is not a folder" in result.err
    assert plain.read_text() == "not a folder"


def test_resume_from_a_missing_folder_says_the_folder_is_missing(
    run_patience: Run, tmp_path: Path
) -> None:
    missing = tmp_path / "typo" / "game.json"
    result = run_patience("play", "escalator", "--resume", "--file", str(missing), input="")
    assert (result.code, result.err) == (
        1,
        f"patience: error: cannot read {missing}: the folder {missing.parent} does not exist\n",
    )
    there = tmp_path / "game.json"
    result = run_patience("play", "escalator", "--resume", "--file", str(there), input="")
    assert result.err == (
        f"patience: error: cannot read {there}: No such file or directory; "
        f"start one with: patience play escalator --file {there}\n"
    )


@pytest.mark.parametrize("name", ["", "."])
def test_play_file_naming_a_folder_is_refused(
    run_patience: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_patience("play", "escalator", "--deal", "2", "--file", name, input="quit\n")
    assert result.code == 1
    assert result.err.strip() == "patience: error: --file names a folder, not a save file: '.'"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["new/", "saves/", "game.json/", "game.json/.", "saves//"])
@pytest.mark.parametrize("resume", [False, True])
def test_play_file_ending_in_a_separator_is_refused(
    run_patience: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, resume: bool
) -> None:
    """A path ending in a separator names a folder, whether or not it exists: never the file
    ``new``, ``saves`` or ``game.json`` (pathlib drops the final separator). An existing folder
    given to ``--resume`` is a file that cannot be read, in the rule of every command."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saves").mkdir()
    (tmp_path / "game.json").write_text("a file, not a folder")
    before = sorted(tmp_path.iterdir())
    args = ["--resume"] if resume else ["--deal", "2"]
    result = run_patience("play", "escalator", *args, "--file", name, input="quit\n")
    assert result.code == 1
    if resume and name.startswith("saves/"):
        assert result.err == f"patience: error: cannot read {name}: Is a directory\n"
    else:
        assert result.err == f"patience: error: --file names a folder, not a save file: {name!r}\n"
    assert sorted(tmp_path.iterdir()) == before
    assert (tmp_path / "game.json").read_text() == "a file, not a folder"
