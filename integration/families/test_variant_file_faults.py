"""Variant files as users run them (docs/families.md, "Variant files and saves"): an edited
file is a new game for ``simulate`` (rows of two versions never mixed), its free text cannot
reach the terminal as control characters, a default that depends on another parameter is not
blamed on the author, and a board format of one deck is refused for other decks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from patience_core.play import PlayRequest, own_exit_by_default, read_save
from patience_core.plugins import PluginHost
from patience_core.testing import CliResult
from patience_core.tui import PatienceApp, run_fullscreen
from patience_core.tui._pilot import run_scenario

Run = Callable[..., CliResult]

GOLF = """\
family = "golf"
name = "golf-wrap"
title = "Golf Wrap"

[parameters]
wrap = false
"""


def test_simulate_starts_a_new_run_when_the_variant_file_is_edited(
    variants: Path, run_patience: Run, tmp_path: Path
) -> None:
    path = variants / "golf-wrap.toml"
    path.write_text(GOLF)
    first = run_patience("simulate", "golf-wrap", "-n", "3")
    assert first.code == 0, first.err
    again = run_patience("simulate", "golf-wrap", "-n", "3")
    assert "already played" in again.out + again.err  # the same rules resume
    path.write_text(GOLF.replace("wrap = false", "wrap = true"))
    edited = run_patience("simulate", "golf-wrap", "-n", "3")
    assert edited.code == 0, edited.err
    assert "already played" not in edited.out + edited.err
    assert "Resuming" not in edited.out + edited.err


@pytest.mark.parametrize(
    ("key", "text"),
    [("own-rules", "\\u001b]0;pwned\\u0007"), ("own-rules", "Line one\\u009bline two")],
)
def test_control_characters_in_a_variant_files_text_are_refused(
    variants: Path, run_patience: Run, key: str, text: str
) -> None:
    path = variants / "golf-wrap.toml"
    path.write_text(GOLF.replace("[parameters]", f'{key} = "{text}"\n\n[parameters]'))
    check = run_patience("variant", "check", str(path))
    assert check.code != 0
    lines = (check.out + check.err).strip().splitlines()
    assert len(lines) == 1, lines
    assert "golf-wrap.toml" in lines[0] and f"{key} holds the control character" in lines[0]
    rules = run_patience("rules", "golf-wrap")
    assert "\x1b" not in rules.out + rules.err and "\x9b" not in rules.out + rules.err
    assert "\x07" not in rules.out + rules.err


def test_new_lines_stay_allowed_in_own_rules(variants: Path, run_patience: Run) -> None:
    path = variants / "golf-wrap.toml"
    own = 'own-rules = """\nFirst line.\nSecond line."""\n\n[parameters]'
    path.write_text(GOLF.replace("[parameters]", own))
    assert run_patience("variant", "check", str(path)).code == 0
    rules = run_patience("rules", "golf-wrap")
    assert rules.code == 0 and "First line.\nSecond line." in rules.out


def test_a_default_that_does_not_fit_is_not_blamed_on_the_author(
    variants: Path, run_patience: Run
) -> None:
    path = variants / "four.toml"
    path.write_text(
        'family = "spider"\nname = "four"\ntitle = "Four"\n\n[parameters]\ncolumns = 4\n'
    )
    check = run_patience("variant", "check", str(path))
    assert check.code != 0
    out = (check.out + check.err).strip()
    assert len(out.splitlines()) == 1 and "four.toml" in out
    assert "face-down is not given, and its default" in out and "not 4" in out
    assert "face-down is '5 4 4 5" not in out


def test_a_two_deck_free_cell_variant_has_no_fcs_board(
    variants: Path, run_patience: Run, tmp_path: Path
) -> None:
    (variants / "double.toml").write_text(
        'family = "freecell"\nname = "double"\ntitle = "Double"\n[parameters]\n'
        'deck = "two-decks"\ncolumns = 10\ncells = 8\n'
    )
    dealt = run_patience("deal", "double", "--deal", "1", "--format", "fcs")
    assert dealt.code != 0 and dealt.out == ""
    assert len(dealt.err.strip().splitlines()) == 1 and "fcs" in dealt.err
    board = tmp_path / "board.txt"
    board.write_text("Foundations: H-0 C-0 D-0 S-0\n: AC AC\n")
    read = run_patience("deal", "double", "--from", str(board))
    assert read.code != 0 and len(read.err.strip().splitlines()) == 1
    assert "reads no other position format" in read.err


MY_GOLF = 'family = "golf"\nname = "my-golf"\ntitle = "My Golf"\n[parameters]\ncolumns = 7\n'


def test_the_full_screen_player_shows_the_note_and_deals_anew_with_the_files_rules(
    variants: Path, run_patience: Run, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, save = variants / "my-golf.toml", tmp_path / "game.json"
    path.write_text(MY_GOLF)
    line = run_patience("solve", "my-golf", "--deal", "3", "--moves-only").out.splitlines()
    played = run_patience(
        "play", "my-golf", "--deal", "3", "--file", str(save), input=line[0] + "\n"
    )
    assert played.code == 3, played.err
    path.write_text(MY_GOLF.replace("columns = 7", "columns = 6"))
    capsys.readouterr()
    request = PlayRequest(game="my-golf", path=save, explicit_file=True, resume=True)
    seen: list[str] = []

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        seen.append(app._message)
        await pilot.press("n", *"12", "enter")

    host = PluginHost().load()
    code = run_fullscreen(
        host,
        request,
        own_exit=own_exit_by_default,
        show_traceback=print,
        run_app=lambda app: run_scenario(app, scenario),
    )
    assert code == 0
    assert "'my-golf' has changed since this game was saved" in seen[0]
    # The new deal is dealt with the file's rules now: six columns.
    saved = read_save(save)
    assert str(saved.deal) == "12" and saved.variant is not None
    assert saved.variant["parameters"]["columns"] == 6
