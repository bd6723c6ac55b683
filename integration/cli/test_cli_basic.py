"""The small commands (list, rules, deal, plugins) and the CLI's error handling."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from patience_core.cli import COMMANDS, cli


def patience_exe() -> list[str]:
    exe = Path(sys.executable).with_name("patience")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("patience")
    assert found, "the patience console script is not installed"
    return [found]


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ, **env)
    environ.pop("PATIENCE_DEBUG", None)
    return subprocess.run(
        [*patience_exe(), *args], capture_output=True, text=True, env=environ, timeout=60
    )


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


def test_top_level_help_lists_commands() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for command in COMMANDS:
        assert command in result.output


def test_list_shows_escalator_with_its_plugin() -> None:
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if line.startswith("escalator"))
    assert "patience-escalator" in line and "0.1.0" in line


def test_rules_text() -> None:
    result = CliRunner().invoke(cli, ["rules", "escalator"])
    assert result.exit_code == 0
    assert "pyramid" in result.output.lower()


def test_deal_text_names_the_deal_and_shows_cards() -> None:
    result = CliRunner().invoke(cli, ["deal", "escalator", "--deal", "1"])
    assert result.exit_code == 0
    assert "deal 1" in result.output
    assert "9♣" in result.output  # UTF-8 output: suit symbols, but no colour off a terminal
    assert "\x1b[" not in result.output


def test_deal_without_number_prints_a_replayable_number() -> None:
    result = CliRunner().invoke(cli, ["deal", "escalator"])
    assert result.exit_code == 0
    number = result.output.splitlines()[0].rsplit(" ", 1)[1]
    again = CliRunner().invoke(cli, ["deal", "escalator", "--deal", number])
    assert again.output == result.output


def test_deal_json() -> None:
    result = CliRunner().invoke(cli, ["deal", "escalator", "--deal", "1", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["format"] == "patience-position" and data["version"] == 1
    assert data["game"] == "escalator" and data["deal"] == "1"
    assert [p["name"] for p in data["piles"][:3]] == ["s", "w", "p1"]
    assert data["piles"][2]["cards"] == ["9c"]
    # Face down, the stock's cards are unknown, as a player sees them (the board hides them too)
    assert data["piles"][0]["cards"] == [None] * 24 and data["all_cards"] is False
    assert data["legal_moves"] == ["deal"]
    assert data["score"] == 0 and data["max_score"] == 28 and data["won"] is False
    every = CliRunner().invoke(cli, ["deal", "escalator", "--deal", "1", "--json", "--all-cards"])
    shown = json.loads(every.output)
    assert shown["piles"][0]["cards"][-1] == "*4c"  # the top of the stock is last
    assert shown["piles"][2:] == data["piles"][2:] and shown["all_cards"] is True


@pytest.mark.parametrize(
    ("args", "needle", "code"),
    [
        (("deal", "nosuchgame"), "unknown game 'nosuchgame'", 1),
        (("rules", "nosuchgame"), "unknown game", 1),
        (("deal", "escalator", "--deal", "banana"), "bad deal number", 2),
        (("deal", "escalator", "--deal", "4294967296"), "out of range", 2),
        (("deal", "escalator", "--deal", "ms:5"), "does not take ms deal numbers", 1),
        (("deal", "escalator", "--option", "foo=bar"), "has no option 'foo'", 1),
        (("deal", "escalator", "--option", "foo"), "expected NAME=VALUE", 1),
        (("nosuchcommand",), "No such command", 2),
        (("deal", "escalator", "--deal", "1", "--format", ""), "no position format ''", 2),
    ],
)
def test_bad_input_gives_one_line_and_nonzero_exit(
    args: tuple[str, ...], needle: str, code: int
) -> None:
    result = run(*args)
    assert result.returncode == code
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (("simulate", "escalator", "-j"), "patience simulate"),
        (("solve", "escalator", "--deal"), "patience solve"),
        (("simulate", "-j", "2", "escalator", "-n"), "patience simulate"),
        (("--version", "-j"), "patience"),
        (("nosuchcommand", "-j"), "patience"),
    ],
)
def test_an_option_missing_its_value_names_the_command(args: tuple[str, ...], where: str) -> None:
    """An option given last without its value is told with the command it belongs to, as every
    other usage error is (click gives no context for this one)."""
    result = run(*args)
    assert result.returncode == 2
    assert result.stderr.startswith(f"{where}: error: "), result.stderr
    assert result.stderr.count("\n") == 1


def test_an_interrupted_command_says_so_in_one_line(
    run_patience: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in a command: exit 130 and the one line ``patience: interrupted``, with no empty
    line before it (click's own handler prints one)."""
    from patience_core.cli import solve_cmd

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_cmd, "solve", interrupted)
    result = run_patience("solve", "escalator", "--deal", "1")
    assert (result.code, result.out, result.err) == (130, "", "patience: interrupted\n")


def test_a_ctrl_c_echoed_by_a_terminal_is_followed_by_a_line_break(tmp_path: Path) -> None:
    """At a terminal that shows the ``^C``, the message starts on the next line."""
    pty = pytest.importorskip("pty")
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: patience at a terminal, waiting in a long search
        os.environ["PATIENCE_DATA_DIR"] = str(tmp_path)
        os.execv(patience_exe()[0], ["patience", "solve", "spiderette", "--deal", "60"])
    output = b""

    def read_until(done: Callable[[], bool], seconds: float) -> None:
        nonlocal output
        end = time.monotonic() + seconds
        while not done() and time.monotonic() < end:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                output += chunk

    try:
        time.sleep(3)  # past start-up, into the search (10 s by default)
        os.write(fd, b"\x03")
        # Up to the line's end: the message and its line break may come in two reads.
        read_until(lambda: b"interrupted\r\n" in output, 30)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130
    assert output == b"^C\r\npatience: interrupted\r\n"


def test_disabled_plugin_makes_game_unknown() -> None:
    result = run("deal", "escalator", "--deal", "1", PATIENCE_DISABLE_PLUGINS="escalator")
    assert result.returncode == 1
    assert "unknown game 'escalator'" in result.stderr


def test_colour_and_symbols_follow_the_terminal(tmp_path: Path) -> None:
    from patience_core.play import CardStyle

    class Tty:
        encoding = "utf-8"

        def isatty(self) -> bool:
            return True

    assert CardStyle.for_stream(Tty(), {}) == CardStyle(unicode=True, colour=True)  # type: ignore[arg-type]
    assert CardStyle.for_stream(Tty(), {"NO_COLOR": "1"}).colour is False  # type: ignore[arg-type]
    assert CardStyle.for_stream(Tty(), {"TERM": "dumb"}).colour is False  # type: ignore[arg-type]
    with open(tmp_path / "out", "w", encoding="ascii") as plain:
        assert CardStyle.for_stream(plain, {}) == CardStyle(unicode=False, colour=False)


def test_position_file_size_is_capped(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text("{" + " " * 11_000_000 + "}")
    result = run("deal", "escalator", "--from", str(big))
    assert result.returncode == 1
    assert "larger than" in result.stderr and "Traceback" not in result.stderr
    endless = run("deal", "escalator", "--from", "/dev/zero")
    assert endless.returncode == 1 and "larger than" in endless.stderr


def test_position_file_options_are_used(tmp_path: Path) -> None:
    made = CliRunner().invoke(
        cli, ["deal", "bakers-game", "--deal", "3", "-o", "empty-columns=any", "--json"]
    )
    path = tmp_path / "pos.json"
    path.write_text(made.output)
    back = CliRunner().invoke(cli, ["deal", "bakers-game", "--from", str(path), "--json"])
    assert back.exit_code == 0, back.output
    assert json.loads(back.output)["options"] == {"empty-columns": "any"}
    clash = run("deal", "bakers-game", "--from", str(path), "-o", "empty-columns=kings")
    assert clash.returncode == 2 and "disagrees" in clash.stderr


def test_a_position_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    made = CliRunner().invoke(cli, ["deal", "escalator", "--deal", "3", "--json", "--all-cards"])
    path = tmp_path / "pos.json"
    path.write_bytes(b"\xef\xbb\xbf" + made.output.encode("utf-8"))
    back = CliRunner().invoke(
        cli, ["deal", "escalator", "--from", str(path), "--json", "--all-cards"]
    )
    assert back.exit_code == 0, back.output
    assert json.loads(back.output)["piles"] == json.loads(made.output)["piles"]


def test_random_deal_number_is_told_for_machine_formats() -> None:
    result = run("deal", "escalator", "--json")
    assert result.returncode == 0
    number = result.stderr.strip().rsplit(" ", 1)[1]
    assert json.loads(result.stdout)["deal"] == number


@pytest.mark.parametrize(
    "args", [["list"], ["deal", "escalator", "--deal", "3"], ["play", "escalator"]]
)
def test_a_closed_standard_output_is_an_error(args: list[str]) -> None:
    result = subprocess.run(
        [*patience_exe(), *args],
        input="quit\n",
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(1),  # as `patience ... >&-` in a shell
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == ["patience: error: standard output is closed"]


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "escalator", "--from", "-"],
        ["solve", "escalator", "--from", "-", "--nodes", "10"],
        ["solve", "bakers-game", "--from", "-", "--honest", "--nodes", "10"],
    ],
)
def test_a_position_from_a_closed_standard_input_is_an_error(args: list[str]) -> None:
    result = subprocess.run(
        [*patience_exe(), *args],
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(0),  # as `patience ... <&-` in a shell
        check=False,
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        "patience: error: cannot read standard input: it is closed"
    ]


@pytest.mark.parametrize("options", [{"empty-columns": 1}, ["any"], None, "any"])
def test_a_position_file_with_malformed_options_is_refused(tmp_path: Path, options: object) -> None:
    """Options that are not an object of names to text are refused, not ignored: ignored, the
    position would be solved under the game's default options, not the file's."""
    written = run("deal", "bakers-game", "--deal", "ms:5", "-o", "empty-columns=any", "--json")
    data = json.loads(written.stdout)
    data["options"] = options
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    for args in (("solve", "bakers-game", "--nodes", "10"), ("deal", "bakers-game")):
        result = run(*args, "--from", str(path))
        assert (result.returncode, result.stdout) == (1, ""), args
        assert result.stderr == (
            f"patience: error: {path}: 'options' must be an object of option names to text values\n"
        )


@pytest.mark.parametrize(
    "args",
    [
        ["hint", "{d}"],
        ["score", "{d}"],
        ["play", "escalator", "--resume", "--file", "{d}"],
        ["deal", "escalator", "--from", "{d}"],
        ["solve", "escalator", "--from", "{d}"],
    ],
)
def test_a_folder_given_as_a_file_is_a_bad_file(tmp_path: Path, args: list[str]) -> None:
    result = run(*(arg.format(d=tmp_path) for arg in args))
    assert result.returncode == 1, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(tmp_path) in result.stderr


def run_with_no_reader(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``patience ARGS`` with standard output a pipe that nobody reads any more (as
    ``patience ARGS | head -1`` once ``head`` has its line)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [*patience_exe(), *args],
            stdin=subprocess.DEVNULL,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["--help"],
        ["rules", "escalator"],
        ["deal", "escalator", "--deal", "3", "--json"],
        ["solve", "escalator", "--deal", "17"],
        ["simulate", "escalator", "-n", "50", "--strategy", "random"],
        ["simulate", "escalator", "-n", "50", "-O", "-"],
        ["play", "escalator", "--deal", "3"],
    ],
)
def test_output_cut_short_ends_quietly_with_141(args: list[str]) -> None:
    """A broken pipe (``| head -1``) ends the command with no message and exit code 141 (128 +
    SIGPIPE, as for a program the signal ends), never 1, the code of an error."""
    result = run_with_no_reader(*args)
    assert (result.returncode, result.stderr) == (141, "")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_output_cut_short_leaves_the_rows_written(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    result = run_with_no_reader("simulate", "escalator", "-n", "20", "-O", str(rows))
    assert (result.returncode, result.stderr) == (141, "")
    assert len(rows.read_text().splitlines()) == 21  # the header and every row
    assert not Path(f"{rows}.partial").exists()


@pytest.mark.parametrize("command", ["hint", "score"])
def test_a_save_file_named_with_a_final_separator_is_refused(
    run_patience: Callable[..., Any], tmp_path: Path, command: str
) -> None:
    """``game.json/`` names a folder: it is not read as the file ``game.json``."""
    save = tmp_path / "game.json"
    # Piped play that ends in progress exits 3 (docs/play.md, "Exit status").
    assert run_patience("play", "escalator", "--deal", "3", "--file", str(save)).code == 3
    result = run_patience(command, f"{save}/")
    assert result.code == 1
    assert result.err == f"patience: error: FILE names a folder, not a save file: '{save}/'\n"
    assert run_patience(command, str(save)).code == 0  # the file itself is fine


def test_write_errors_are_one_line() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [*patience_exe(), "list"], stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == ["patience: error: No space left on device"]


def test_a_position_file_with_a_huge_number_is_refused_in_our_words(tmp_path: Path) -> None:
    """A number of thousands of digits is refused by patience's own message, not by Python's
    advice to raise its limit (``sys.set_int_max_str_digits``)."""
    path = tmp_path / "position.json"
    path.write_text('{"format": "patience-position", "version": ' + "9" * 5000 + "}")
    result = run("deal", "escalator", "--from", str(path))
    assert result.returncode == 1
    assert "too many digits" in result.stderr
    assert "sys." not in result.stderr and len(result.stderr.splitlines()) == 1


HUGE = "9" * 5000

#: Every option of every command that takes a number, as (command line before the value, the
#: option); the value follows.
NUMERIC_OPTIONS = [
    (("deal", "escalator"), "--deal"),
    (("play", "escalator"), "--deal"),
    (("solve", "escalator"), "--deal"),
    (("solve", "escalator", "--deal", "1"), "--nodes"),
    (("solve", "escalator", "--deal", "1"), "--budget"),
    (("hint", "no-such-save.json"), "--seconds"),
    (("hint", "no-such-save.json"), "--nodes"),
    (("simulate", "escalator"), "-n"),
    (("simulate", "escalator", "-n", "1"), "--first-deal"),
    (("simulate", "escalator", "-n", "1"), "--max-moves"),
    (("simulate", "escalator", "-n", "1"), "-j"),
    (("simulate", "escalator", "-n", "1"), "--nodes"),
    (("simulate", "escalator", "-n", "1"), "--budget"),
    (("history",), "-n"),
]


def test_every_numeric_option_is_listed_here() -> None:
    """A new numeric option must join NUMERIC_OPTIONS (and so the test below)."""
    import click

    from patience_core.cli.options import DealType

    numeric = (click.types.IntParamType, click.types.FloatParamType, DealType)
    found = [
        (name, set(param.opts))
        for name in COMMANDS
        for param in cli.get_command(click.Context(cli), name).params  # type: ignore[union-attr]
        if isinstance(param.type, numeric)
    ]
    listed = [(before[0], option) for before, option in NUMERIC_OPTIONS]
    for name, opts in found:
        assert sum(command == name and option in opts for command, option in listed) == 1, opts
    assert len(listed) == len(found)


@pytest.mark.parametrize(("value", "said"), [(HUGE, "5000 digits"), ("x" * 5000, "xxx...")])
@pytest.mark.parametrize(("before", "option"), NUMERIC_OPTIONS)
def test_a_number_of_thousands_of_digits_is_refused_in_one_short_line(
    run_patience: Callable[..., Any],
    before: tuple[str, ...],
    option: str,
    value: str,
    said: str,
) -> None:
    """Not with Python's advice to raise its limit on digits, and without the 5000 characters
    again: a usage error of one short line."""
    result = run_patience(*before, option, value)
    assert result.code == 2, result
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and len(lines[0]) < 160, lines
    assert "set_int_max_str_digits" not in result.err and "Exceeds the limit" not in result.err


@pytest.mark.parametrize("value", ["1_000", "\uff11\uff12", "\u0663"])
@pytest.mark.parametrize(("before", "option"), NUMERIC_OPTIONS)
def test_digits_other_than_ascii_or_with_underscores_are_not_a_number(
    run_patience: Callable[..., Any], before: tuple[str, ...], option: str, value: str
) -> None:
    """Python reads ``1_000``, ``１２`` and ``٣`` as numbers; the command line does not, on every
    numeric option (a deal number, a count, seconds), in one line."""
    result = run_patience(*before, option, value)
    assert result.code == 2, result
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1, lines
    assert "is not a number" in lines[0] or "bad deal number" in lines[0], lines


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("deal", "escalator", "--deal", HUGE), "bad deal number: too many digits"),
        (("solve", "bakers-game", "--deal", "ms:" + HUGE), "bad deal number: too many digits"),
        (("solve", "escalator", "--deal", "ms:" + HUGE), "escalator does not take ms deal numbers"),
        (("solve", "escalator", "--deal", "1", "--nodes", HUGE), "a number of 5000 digits is"),
        (("solve", "escalator", "--deal", "1", "--budget", HUGE), "a number of 5000 digits is"),
        (("hint", "x.json", "--seconds", "-" + HUGE), "a number of 5000 digits is out of range"),
        (("deal", "escalator", "--deal", "y" * 5000), "bad deal number 'yyyyyyyyyyyyyyyyyyyy...'"),
        (("solve", "escalator", "--nodes", "z" * 50), "'zzzzzzzzzzzzzzzzzzzz...' is not a number"),
        (("simulate", "escalator", "-n", HUGE), "a number of 5000 digits is out of range"),
        (("simulate", "escalator", "-n", "1", "--first-deal", HUGE), "too many digits"),
    ],
)
def test_what_a_huge_number_is_told(
    run_patience: Callable[..., Any], args: tuple[str, ...], message: str
) -> None:
    result = run_patience(*args)
    assert message in result.err, result.err


def test_a_count_that_runs_past_the_last_deal_is_told_in_one_line(
    run_patience: Callable[..., Any],
) -> None:
    """simulate -n of 25 digits (a number -n takes) runs past the last deal: one short line."""
    result = run_patience("simulate", "escalator", "-n", "9" * 25)
    assert result.code == 1
    assert result.err.startswith("patience: error: " + "9" * 25 + " deals from 1 run past")
    assert len(result.err.splitlines()) == 1 and len(result.err) < 200


def test_a_long_echo_of_the_users_text_is_cut_short_in_any_message() -> None:
    """The command line's last guard: a number of more than 40 digits, or an argument of more
    than 40 characters, in any message is cut to its first 20 characters."""
    from patience_core.cli import shortened

    assert shortened("count " + "9" * 41 + " too big") == "count " + "9" * 20 + "... too big"
    assert shortened("count " + "9" * 40) == "count " + "9" * 40
    long_arg = "x" * 41
    assert shortened(f"bad {long_arg}!", [long_arg]) == "bad " + "x" * 20 + "...!"
    assert shortened(f"bad {long_arg}!", ["--name=" + long_arg]) == "bad " + "x" * 20 + "...!"


def test_spaces_around_option_names_and_values_in_a_position_file_are_dropped(
    tmp_path: Path,
) -> None:
    """As on the command line (``-o 'empty-columns = any'``): no message quoting a name it
    then says does not exist."""
    written = run("deal", "bakers-game", "--deal", "ms:5", "-o", "empty-columns=any", "--json")
    data = json.loads(written.stdout)
    data["options"] = {" empty-columns ": "any "}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    shown = run("deal", "bakers-game", "--from", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["options"] == {"empty-columns": "any"}
    data["options"] = {"empty-columns": "any", " empty-columns": "kings"}  # as -o given twice
    path.write_text(json.dumps(data))
    refused = run("deal", "bakers-game", "--from", str(path))
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == f"patience: error: {path}: option 'empty-columns' given twice\n"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["simulate", "escalator", "-n", "3", "-O", "rows.csv"],
            "the current folder no longer exists (it was removed): cd to another one",
        ),
        (
            ["simulate", "escalator", "-n", "3", "-O", "sub/rows.csv"],
            "cannot write 'sub/rows.csv': directory 'sub' does not exist (the current folder no "
            "longer exists: cd to another one)",
        ),
        (
            ["deal", "escalator", "--from", "x.json"],
            "cannot read x.json: No such file or directory (the current folder no longer "
            "exists: cd to another one)",
        ),
    ],
)
def test_a_relative_path_in_a_removed_current_folder_is_told_in_one_line(
    tmp_path: Path, args: list[str], said: str
) -> None:
    here = tmp_path / "gone"
    here.mkdir()
    code = (
        "import os, sys; os.rmdir(os.getcwd()); from patience_core.cli import main; "
        "main(sys.argv[1:])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=here,
        capture_output=True,
        text=True,
        env={**os.environ, "PATIENCE_DATA_DIR": str(tmp_path / "data")},
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"patience: error: {said}\n"
