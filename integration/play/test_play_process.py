"""``patience play`` run as a separate process, as a user's shell runs it: errors of patience's
own under the game (a full disk under the output) and the terminal closed (SIGHUP)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

PATIENCE = [sys.executable, "-c", "from patience_core.cli import main; main()"]


def _env(data: Path) -> dict[str, str]:
    return {**os.environ, "PATIENCE_DATA_DIR": str(data)}


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_under_the_output_is_patience_s_error_not_the_plugin_s(
    tmp_path: Path,
) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*PATIENCE, "play", "escalator", "--deal", "1", "--no-dead-check"],
            input="deal\nquit\n",
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(tmp_path),
            timeout=60,
        )
    assert (done.returncode, done.stderr) == (1, "patience: error: No space left on device\n")
    assert json.loads((tmp_path / "saves" / "escalator.json").read_text())["deal"] == "1"


def _read_until(stream: IO[str], end: str) -> str:
    text = ""
    while not text.endswith(end):
        char = stream.read(1)
        assert char, f"output ended before {end!r}: {text!r}"
        text += char
    return text


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="needs SIGHUP")
def test_the_terminal_closing_saves_the_game_and_leaves_no_file_behind(tmp_path: Path) -> None:
    """SIGHUP (the terminal closed) ends play as the end of input does: the game saved, exit
    code 129, its lock released, no temporary file left."""
    process = subprocess.Popen(
        [*PATIENCE, "play", "escalator", "--deal", "1", "--no-dead-check"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path),
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        _read_until(process.stdout, "> ")
        process.stdin.write("deal\n")
        process.stdin.flush()
        _read_until(process.stdout, "> ")
        process.send_signal(signal.SIGHUP)
        code = process.wait(timeout=60)
    finally:
        process.kill()
        process.communicate()
    assert code == 129
    save = tmp_path / "saves" / "escalator.json"
    assert json.loads(save.read_text())["moves"] == ["deal"]
    # The statistics database is the one file besides the save (its WAL files are closed).
    left = [p.name for p in tmp_path.rglob("*") if p.is_file() and p != save]
    assert left == ["stats.db"]
