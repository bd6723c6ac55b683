"""``patience play`` run as a separate process, as a user's shell runs it: errors of patience's
own under the game (a full disk under the output) and the terminal closed (SIGHUP)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
