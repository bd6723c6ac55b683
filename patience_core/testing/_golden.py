"""The conformance kit's checks of whole games: winning lines typed as a player would, golden
deals, a hypothesis property over random walks, and the command line run in-process.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from patience_core.engine import DealNumber
from patience_core.games import Game
from patience_core.model import Position
from patience_core.testing._checks import check_random_walk, load_game

__all__ = [
    "assert_matches_golden",
    "check_winning_line",
    "play_winning_line",
    "random_walk_property",
    "read_golden",
]


def check_winning_line(game: Game, deal: str | int | DealNumber, line: list[str]) -> Position:
    """Replay a winning line typed as a player would (each text read by :meth:`Game.parse_move`,
    applied by :meth:`Game.apply`) and check that it wins exactly at its last move with the
    maximum score. Blank lines and ``#`` comments in ``line`` are skipped.

    :returns: the won position.
    :raises AssertionError: naming the step that went wrong.
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber.parse(deal)
    position = game.deal(number)
    texts = [t for t in (x.strip() for x in line) if t and not t.startswith("#")]
    for step, text in enumerate(texts, start=1):
        assert not game.is_won(position), f"deal {number}: won early, before move {step}"
        position = game.apply(position, game.parse_move(position, text))
    assert game.is_won(position), f"deal {number}: the line does not win"
    score = game.score(position)
    assert score == game.max_score, (
        f"deal {number}: won with score {score}, not the max score {game.max_score} (a win "
        "test that holds too early, or a wrong max_score)"
    )
    return position


def play_winning_line(
    game_name: str,
    deal: str | int,
    line: list[str],
    folder: Any,
    options: Mapping[str, str] | None = None,
) -> str:
    """Type a winning line into the real ``patience play`` (in-process, through its entry point,
    as a pipe) and check the game reports the win with the maximum score. Blank lines and ``#``
    comments in ``line`` are skipped.

    :param folder: a scratch folder (e.g. pytest's ``tmp_path``) for the save and data files.
    :returns: what ``play`` printed.
    :raises AssertionError: when play fails or does not say "You won! Score M/M.".
    """
    from pathlib import Path

    game = load_game(game_name, options)
    texts = [t for t in (x.strip() for x in line) if t and not t.startswith("#")]
    args = ["play", game_name, "--deal", str(deal), "--file", str(Path(folder) / "won.json")]
    for name, value in (options or {}).items():
        args += ["--option", f"{name}={value}"]
    env = {"PATIENCE_DATA_DIR": str(Path(folder) / "data"), "NO_COLOR": "1"}
    code, out, err = _run_cli(args, "\n".join(texts) + "\n", env)
    # Piped play stops at a refused move with status 5 and says which line; a game that ends
    # won exits 0 (docs/play.md, "Exit status").
    assert code not in (1, 5), err
    won = f"You won! Score {game.max_score}/{game.max_score}."
    assert won in out, f"{game_name} deal {deal}: play did not say {won!r}"
    assert code == 0, err
    return out


def random_walk_property(
    game_name: str, steps: int = 150, max_examples: int = 25
) -> Callable[[], None]:
    """A hypothesis test function for ``game_name``: random deals, random walks, every invariant
    of :func:`check_random_walk`. Assign it in a test module:
    ``test_walks = random_walk_property("x")``.
    """
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=max_examples, deadline=None, derandomize=True)
    @given(deal=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**32 - 1))
    def test_random_walk(deal: int, seed: int) -> None:
        check_random_walk(load_game(game_name), deal, seed, steps)

    return test_random_walk


_GOLDEN_HEADER = re.compile(r"^#\s*game=(?P<game>[\w-]+)\s+deal=(?P<deal>\d+)\s*$")


def read_golden(text: str) -> dict[tuple[str, int], dict[int, list[str]]]:
    """Parse golden deals in the format of ``aisleriot-deals.txt``.

    Blocks start with ``# game=<name> deal=<N>``; each line is ``<slot>:<cards>``, cards top first,
    ``*`` marking a face-down card. Other ``#`` lines are comments.

    :returns: ``{(game, N): {slot: [card codes, top first]}}``.
    :raises ValueError: for a malformed line.
    """
    result: dict[tuple[str, int], dict[int, list[str]]] = {}
    current: dict[int, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            header = _GOLDEN_HEADER.match(line)
            if header:
                current = result.setdefault((header["game"], int(header["deal"])), {})
            continue
        slot, sep, cards = line.partition(":")
        if not sep or current is None:
            raise ValueError(f"bad golden line {raw!r}")
        current[int(slot)] = cards.split()
    return result


def assert_matches_golden(game: Game, position: Position, slots: Mapping[int, list[str]]) -> None:
    """Assert ``position`` holds, pile by pile, the cards of a golden block.

    Piles are matched through :attr:`PileSpec.slot`; golden piles are top first, ours bottom first;
    face-down cards must be face down.

    :raises AssertionError: naming the first pile that differs.
    """
    by_slot = {spec.slot: i for i, spec in enumerate(game.piles) if spec.slot is not None}
    assert set(by_slot) == set(slots), f"slots differ: {sorted(by_slot)} vs {sorted(slots)}"
    for slot, expected in slots.items():
        ours = [str(card) for card in reversed(position[by_slot[slot]])]
        assert ours == expected, (
            f"slot {slot} ({game.piles[by_slot[slot]].name}): {ours} != {expected}"
        )


def _run_cli(args: list[str], stdin: str, environ: Mapping[str, str]) -> tuple[int, str, str]:
    """Run ``patience ARGS`` in-process (the real entry point, with its error handling)."""
    import contextlib
    import io
    import os
    import sys

    from patience_core.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_env = dict(os.environ)
    saved_stdin = sys.stdin
    os.environ.update(environ)
    sys.stdin = io.StringIO(stdin)
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdin = saved_stdin
        os.environ.clear()
        os.environ.update(saved_env)
    return code, out.getvalue(), err.getvalue()
