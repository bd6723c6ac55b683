"""A save keeps its variant's rules (docs/families.md, "Variant files and saves"): a game of a
variant file, saved, goes on with the rules it was started with after the file is edited (a
one-line note), in the line player and the full-screen player; recorded rules that cannot be
made any more are refused in one line naming the game, the save kept; older saves without the
record load as before."""

from __future__ import annotations

import json
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

MY_GOLF = """\
family = "golf"
name = "my-golf"
title = "My Golf"

[parameters]
columns = 7
"""
NOTE = (
    "Note: 'my-golf' has changed since this game was saved; it goes on with the rules it was "
    "started with\n"
)


@pytest.fixture
def my_golf(add_variant: Callable[[str, str], Path]) -> Path:
    return add_variant("my-golf", MY_GOLF)


def _start(run_patience: Run, save: Path) -> list[str]:
    """Play the first two moves of a won line of deal 3 and leave; the moves played."""
    line = run_patience("solve", "my-golf", "--deal", "3", "--moves-only").out.splitlines()
    played = run_patience(
        "play", "my-golf", "--deal", "3", "--file", str(save), input="\n".join(line[:2]) + "\n"
    )
    assert played.code == 3, played.err  # piped play that ends in progress
    return line


def test_an_edited_variant_file_leaves_a_saved_game_its_rules(
    my_golf: Path, run_patience: Run, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    line = _start(run_patience, save)
    record = read_save(save).variant
    assert record is not None and record["family"] == "golf"
    assert record["parameters"]["columns"] == 7
    my_golf.write_text(MY_GOLF.replace("columns = 7", "columns = 6"))
    # Six columns deal another layout: the saved moves replay only under the saved rules.
    assert run_patience("deal", "my-golf", "--deal", "3", "--json").code == 0
    rest = "\n".join(line[2:]) + "\n"
    result = run_patience("play", "my-golf", "--resume", "--file", str(save), input=rest)
    assert result.code == 0, result.err
    assert result.out.startswith(NOTE + "Resuming My Golf, deal 3")
    assert "won" in result.out
    assert read_save(save).finished == "won"
    assert read_save(save).variant == record  # later saves keep the rules too
    # Other commands reading the save use its rules as well.
    assert run_patience("hint", str(save)).code == 0


def test_an_unchanged_variant_resumes_without_a_note(
    my_golf: Path, run_patience: Run, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    _start(run_patience, save)
    my_golf.write_text(MY_GOLF.replace('title = "My Golf"', 'title = "Golf of Mine"'))
    result = run_patience("play", "my-golf", "--resume", "--file", str(save), input="")
    assert result.code == 3, result.err
    assert result.out.startswith("Resuming Golf of Mine, deal 3")


def test_an_older_save_without_the_record_loads_as_before(
    my_golf: Path, run_patience: Run, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    _start(run_patience, save)
    data = json.loads(save.read_text())
    del data["variant"]
    save.write_text(json.dumps(data))
    result = run_patience("play", "my-golf", "--resume", "--file", str(save), input="")
    assert result.code == 3, result.err
    assert result.out.startswith("Resuming My Golf, deal 3")


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"family": "gone-family"}, "its family 'gone-family' is no longer installed"),
        ({"parameters": {"columns": 99}}, "columns is 99; allowed: a whole number 1..12"),
    ],
)
def test_rules_that_cannot_be_made_are_refused_and_the_save_kept(
    my_golf: Path,
    run_patience: Run,
    tmp_path: Path,
    change: dict[str, object],
    why: str,
) -> None:
    save = tmp_path / "game.json"
    _start(run_patience, save)
    data = json.loads(save.read_text())
    data["variant"].update(change)
    save.write_text(json.dumps(data))
    before = save.read_bytes()
    result = run_patience("play", "my-golf", "--resume", "--file", str(save), input="")
    assert result.code != 0
    (message,) = result.err.splitlines()
    assert "cannot resume the saved my-golf game" in message and why in message
    assert save.read_bytes() == before


def test_a_malformed_record_is_a_bad_save(my_golf: Path, run_patience: Run, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    _start(run_patience, save)
    data = json.loads(save.read_text())
    data["variant"]["parameters"] = {"columns": [7]}
    save.write_text(json.dumps(data))
    result = run_patience("play", "my-golf", "--resume", "--file", str(save), input="")
    assert result.code != 0
    assert result.err == (
        f"patience: error: {save}: 'variant' must be an object of a family, a title and "
        "parameter values\n"
    )


def test_the_full_screen_player_resumes_with_the_saved_rules(
    my_golf: Path, run_patience: Run, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.json"
    line = _start(run_patience, save)
    my_golf.write_text(MY_GOLF.replace("columns = 7", "columns = 6"))
    capsys.readouterr()
    request = PlayRequest(game="my-golf", path=save, explicit_file=True, resume=True)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("u", "q")

    def runner(app: PatienceApp) -> int | None:
        return run_scenario(app, scenario)

    host = PluginHost().load()
    code = run_fullscreen(
        host, request, own_exit=own_exit_by_default, show_traceback=print, run_app=runner
    )
    assert code == 0
    assert capsys.readouterr().out.startswith(NOTE)
    saved = read_save(save)
    assert list(saved.moves) == line[:1] and list(saved.redo) == line[1:2]
    assert saved.variant is not None and saved.variant["parameters"]["columns"] == 7


GONE = "'my-golf' is not installed now (its variant file or plugin is gone); the save is kept"


@pytest.mark.parametrize(
    "command",
    [
        ("play", "my-golf", "--resume", "--plain"),  # the default save
        ("play", "my-golf", "--resume", "--plain", "--file", "{save}"),
        ("score", "{save}"),
        ("score", "{save}", "--json"),
        ("hint", "{save}"),
        ("deal", "golf", "--from", "{save}"),
        ("solve", "golf", "--from", "{save}"),
    ],
)
def test_a_save_whose_variant_file_is_gone_says_so_and_is_kept(
    my_golf: Path,
    run_patience: Run,
    patience_data_dir: Path,
    tmp_path: Path,
    command: tuple[str, ...],
) -> None:
    if "{save}" in command:
        save, where = tmp_path / "game.json", ("--file", str(tmp_path / "game.json"))
    else:
        save, where = patience_data_dir / "saves" / "my-golf.json", ()
    played = run_patience("play", "my-golf", "--deal", "3", "--plain", *where, input="")
    assert played.code == 3, played.err
    before = save.read_bytes()
    my_golf.unlink()
    result = run_patience(*(part.format(save=save) for part in command), input="")
    assert result.code == 1 and not result.out
    assert result.err == f"patience: error: {save}: cannot load the saved my-golf game: {GONE}\n"
    assert save.read_bytes() == before


def test_a_save_whose_variant_file_is_broken_now_says_why_and_is_kept(
    my_golf: Path, run_patience: Run, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    _start(run_patience, save)
    before = save.read_bytes()
    my_golf.write_text(MY_GOLF + "deck = 'no-such-deck'\nfoo = 1\n")
    for command in (("play", "my-golf", "--resume", "--file", str(save)), ("score", str(save))):
        result = run_patience(*command, input="")
        assert result.code == 1
        error = result.err.splitlines()[-1]  # after the warning of the broken file
        assert error.startswith(f"patience: error: {save}: cannot load the saved my-golf game: ")
        assert f"(its variant file {my_golf} is broken: parameters." in error
        assert error.endswith("; the save is kept")
    assert save.read_bytes() == before


def test_resuming_a_game_not_installed_without_its_save_is_an_unknown_game(
    run_patience: Run, tmp_path: Path
) -> None:
    for file in ((), ("--file", str(tmp_path / "none.json"))):
        result = run_patience("play", "my-golf", "--resume", *file, input="")
        assert result.code == 1
        assert result.err.startswith("patience: error: unknown game 'my-golf' (did you mean")
