"""``patience hint`` without ``--seconds``: the budget in positions decides, so a slow start-up
(a loaded machine) does not change the answer (docs/solver.md, "How a hint is made")."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.cli import hint_cmd
from patience_core.play import load_session
from patience_core.plugins import PluginHost
from patience_core.solve import HINT_CAP_SECONDS, hint
from patience_core.testing import CliResult

Run = Callable[..., CliResult]


def _answer(data: dict[str, object]) -> dict[str, object]:
    """The hint without its timing."""
    return {key: value for key, value in data.items() if key != "seconds"}


@pytest.mark.parametrize("mode", ["thoughtful", "honest"])
def test_a_slow_start_up_does_not_cut_the_default_hint_short(
    patience_cli: Run,
    patience_data_dir: Path,
    patience_host: PluginHost,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
) -> None:
    played = patience_cli("play", "fake", "-d", "2", input="deal\nundo\nt3 f1\nquit\n")
    assert played.code == 3, played.err
    save = patience_data_dir / "saves" / "fake.json"
    # Start-up took 10 s, more than the old default seconds (1.5) counted from the start.
    monkeypatch.setattr(hint_cmd, "STARTED", time.perf_counter() - 10.0)
    caps: list[object] = []

    def recorded(*args: object, **kwargs: object) -> object:
        caps.append(kwargs["seconds"])
        return hint(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hint_cmd, "hint", recorded)
    result = patience_cli("hint", f"--{mode}", str(save), "--json")
    assert result.code == 0, result.err
    shown = json.loads(result.out)
    _saved, session = load_session(save, patience_host.game)
    positions = session.positions
    found = hint(
        session.game,
        positions[-1],
        positions[:-1],
        mode=mode,
        seconds=600,
        search=patience_host.search(session.game),
    )
    expected = found.as_dict()
    assert _answer({k: shown[k] for k in expected}) == _answer(expected)
    assert shown["final"] is True
    # The search was given the whole safety cap, not what the start-up left of 1.5 s.
    assert caps == [HINT_CAP_SECONDS]


def test_seconds_given_count_from_the_start(
    patience_cli: Run, patience_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = patience_cli("play", "fake", "-d", "2", input="deal\nundo\nt3 f1\nquit\n")
    assert played.code == 3, played.err
    monkeypatch.setattr(hint_cmd, "STARTED", time.perf_counter() - 10.0)
    caps: list[float] = []

    def recorded(*args: object, **kwargs: float) -> object:
        caps.append(kwargs["seconds"])
        return hint(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hint_cmd, "hint", recorded)
    save = str(patience_data_dir / "saves" / "fake.json")
    assert patience_cli("hint", save, "--seconds", "12").code == 0
    # 12 s from the start, 10 of them gone: at most 2 s left for the search.
    assert len(caps) == 1 and 0.05 <= caps[0] <= 2.0
