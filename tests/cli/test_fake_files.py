"""Files the commands read and write, run on the test kit's fake game: files the user
protected, the size a save or position file may have, and the one-line messages of missing or
protected files (docs/cli.md, "Messages")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from patience_core.testing import CliResult

Run = Callable[..., CliResult]


def _protected_save(patience_cli: Run, path: Path) -> bytes:
    result = patience_cli("play", "fake", "-d", "2", "--file", str(path), input="quit\n")
    assert result.code == 3, result.err  # piped play that ends in progress
    path.chmod(0o444)
    return path.read_bytes()


def test_play_never_replaces_a_save_the_user_protected(patience_cli: Run, tmp_path: Path) -> None:
    """docs/play.md: a save with no write bit (``chmod 444``) is refused before the game
    starts, even for root (whom ``os.access`` lets write anything)."""
    save = tmp_path / "g.json"
    before = _protected_save(patience_cli, save)
    result = patience_cli("play", "fake", "--resume", "--file", str(save), input="t3 f1\nquit\n")
    assert (result.code, result.err) == (
        1,
        f"patience: error: cannot save the game to {save}: the file is read-only\n",
    )
    assert result.out == "" and save.read_bytes() == before


def test_simulate_never_replaces_an_output_the_user_protected(
    patience_cli: Run, tmp_path: Path
) -> None:
    rows = tmp_path / "ro.csv"
    rows.write_text("protected\n")
    rows.chmod(0o444)
    result = patience_cli("simulate", "fake", "-n", "3", "--output", str(rows))
    assert (result.code, result.err) == (
        1,
        f"patience: error: cannot write {str(rows)!r}: you have no permission to write it\n",
    )
    assert rows.read_text() == "protected\n"


def test_every_command_reading_a_save_takes_the_same_sizes(
    patience_cli: Run, tmp_path: Path
) -> None:
    """One limit for a file read as a save or a position: a valid 2 MB save (padded with
    spaces) is read by ``score``, ``play --resume``, ``deal --from`` and ``solve --from``."""
    save = tmp_path / "g.json"
    played = patience_cli("play", "fake", "-d", "2", "--file", str(save), input="t3 f1\nquit\n")
    assert played.code == 3, played.err  # piped play that ends in progress
    save.write_text(save.read_text() + " " * 2_000_000)
    for args in (
        ("score", str(save)),
        ("deal", "fake", "--from", str(save)),
        ("solve", "fake", "--from", str(save)),
        ("play", "fake", "--resume", "--file", str(save)),
    ):
        result = patience_cli(*args, input="quit\n")
        # Piped play that ends in progress exits 3 (docs/play.md, "Exit status").
        assert result.code == (3 if args[0] == "play" else 0), (args, result.err)


def test_a_bad_option_recorded_in_a_position_file_names_the_file(
    patience_cli: Run, tmp_path: Path
) -> None:
    dealt = patience_cli("deal", "fake", "-d", "2", "--json")
    assert dealt.code == 0, dealt.err
    data = json.loads(dealt.out)
    data["options"] = {"empty-piles": "maybe"}
    position = tmp_path / "p.json"
    position.write_text(json.dumps(data))
    for command in ("deal", "solve"):
        result = patience_cli(command, "fake", "--from", str(position))
        assert (result.code, result.err) == (
            1,
            f"patience: error: {position}: option empty-piles takes one of none, any, "
            "not 'maybe'\n",
        ), command
    typed = patience_cli("deal", "fake", "--from", str(position), "-o", "empty-piles=maybe")
    assert typed.code == 1 and typed.err.startswith("patience: error: option empty-piles ")
