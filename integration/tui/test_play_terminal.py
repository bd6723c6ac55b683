"""The full-screen player run as a separate process in a real pseudo-terminal, ended from
outside: SIGTERM, the terminal going away with no SIGHUP to tell (a shell that ignores it), and
an event loop that is stuck. Each time the game is saved with its move, the process ends and the
save's lock is free (docs/play.md, "Leaving")."""

from __future__ import annotations

import json
import os
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

# Generous bounds: the player ends at once or, stuck, after 1.5 s; the first screen of a cold
# start may take a while on a loaded machine.
_START = 60.0
_END = 15.0

# The player's command, run by ``python -c``: ``{prelude}`` runs first in the child.
_CHILD = "import signal, time\n{prelude}\nfrom patience_core.cli import main\nmain()\n"
# As a shell with ``trap '' HUP`` would leave it.
_IGNORE_HANG_UP = "signal.signal(signal.SIGHUP, signal.SIG_IGN)"
# A key whose action never returns: the event loop stuck (the file tells the test it is).
_STUCK = (
    "from patience_core.tui._app import PatienceApp\n"
    "def stuck(self):\n"
    "    open({marker!r}, 'w').close()\n"
    "    time.sleep(3600)\n"
    "PatienceApp.action_help = stuck"
)


class _Player:
    """``patience play escalator --deal 5`` in a new pseudo-terminal of 120x40 that is not its
    controlling terminal (so closing it sends no SIGHUP), its output read and dropped."""

    def __init__(self, data: Path, prelude: str = "") -> None:
        import fcntl  # POSIX only, as the whole module: here so that it skips on Windows
        import termios

        self.data = data
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = {**os.environ, "PATIENCE_DATA_DIR": str(data), "TERM": "xterm-256color"}
        env.pop("NO_COLOR", None)
        code = _CHILD.format(prelude=prelude)
        command = [sys.executable, "-c", code, "play", "escalator", "--deal", "5"]
        self.process = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.output = b""

    def pump(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        """Read the output until ``done()`` (failing the test after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"no {what} in {timeout} s: {self.output[-300:]!r}"
            if self.master >= 0 and select.select([self.master], [], [], 0.05)[0]:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:  # EIO: the player's side is closed
                    time.sleep(0.05)
            else:
                time.sleep(0.01)

    def press(self, key: bytes) -> None:
        """Type ``key``."""
        os.write(self.master, key)

    def moves(self) -> list[str] | None:
        """The moves of the save, ``None`` before there is one."""
        try:
            return list(json.loads((self.data / "saves" / "escalator.json").read_text())["moves"])
        except (OSError, ValueError):
            return None

    def deal(self) -> None:
        """Wait for the first screen, then play ``d`` (deal) and wait for its save."""
        self.pump(lambda: b"quit" in self.output, _START, "first screen")
        self.press(b"d")
        self.pump(lambda: self.moves() == ["deal"], _START, "move saved")

    def close_terminal(self) -> None:
        """Close the terminal's master side: the terminal is gone."""
        os.close(self.master)
        self.master = -1

    def wait(self) -> int:
        """The exit code, once the process ends (within :data:`_END` seconds)."""
        try:
            self.pump(lambda: self.process.poll() is not None, _END, "end")
            self._drain()
        finally:
            self.stop()
        return self.process.returncode

    def stop(self) -> None:
        """Kill the process if it still runs, and close the terminal."""
        self.process.kill()
        self.process.wait()
        if self.master >= 0:
            self.close_terminal()

    def _drain(self) -> None:
        """Read what the ended process left in the terminal (an end of file or EIO once read)."""
        while self.master >= 0 and select.select([self.master], [], [], 1.0)[0]:
            try:
                if not (read := os.read(self.master, 65536)):
                    return
            except OSError:
                return
            self.output += read

    def resume(self) -> subprocess.CompletedProcess[str]:
        """``patience play escalator --resume`` piped, quitting at once."""
        return subprocess.run(
            [sys.executable, "-c", _CHILD.format(prelude=""), "play", "escalator", "--resume"],
            input="quit\n",
            capture_output=True,
            text=True,
            env={**os.environ, "PATIENCE_DATA_DIR": str(self.data)},
            timeout=60,
        )


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., _Player]]:
    """``start(prelude="")``: the player started over ``tmp_path``, stopped after the test."""
    players: list[_Player] = []

    def make(prelude: str = "") -> _Player:
        players.append(_Player(tmp_path, prelude))
        return players[-1]

    yield make
    for player in players:
        player.stop()


def _resumed_with_the_move(player: _Player) -> None:
    assert player.moves() == ["deal"]
    resumed = player.resume()
    assert "open in another" not in resumed.stderr
    assert resumed.returncode == 3, resumed.stderr  # the line player: a game in progress
    assert not list((player.data / "locks").glob("*")), "the lock file is left"


def test_sigterm_saves_the_game_and_ends(start: Callable[..., _Player]) -> None:
    player = start()
    player.deal()
    player.process.send_signal(signal.SIGTERM)
    assert player.wait() == 143
    assert b"Interrupted: game saved; resume with: patience play escalator --resume" in (
        player.output
    )
    _resumed_with_the_move(player)


def test_the_terminal_gone_with_sighup_ignored_saves_the_game_and_ends(
    start: Callable[..., _Player],
) -> None:
    player = start(_IGNORE_HANG_UP)
    player.deal()
    player.close_terminal()
    assert player.wait() == 129
    _resumed_with_the_move(player)


@pytest.mark.parametrize("ending", ["signals", "terminal gone"])
def test_a_stuck_player_is_saved_and_ended_all_the_same(
    tmp_path: Path, start: Callable[..., _Player], ending: str
) -> None:
    """The event loop stuck in an action: the game is saved and the process ended without it,
    in the first signal's exit code (a second signal changes nothing)."""
    marker = tmp_path / "stuck"
    player = start(_STUCK.format(marker=str(marker)))
    player.deal()
    player.press(b"?")
    player.pump(marker.exists, _START, "stuck event loop")
    if ending == "signals":
        # The same signal twice: which of two signals sent together comes first is the system's.
        player.process.send_signal(signal.SIGTERM)
        player.process.send_signal(signal.SIGTERM)
        assert player.wait() == 143
        assert player.output.count(b"Interrupted: game saved") == 1
    else:
        player.close_terminal()
        assert player.wait() == 129
    assert player.moves() == ["deal"]
    resumed = player.resume()  # the lock went with the process (its free file is left)
    assert (resumed.returncode, "open in another" in resumed.stderr) == (3, False)
