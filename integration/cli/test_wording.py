"""Counts in messages agree with their noun: '1 move', '3 moves' (engine.notation.counted)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from patience_core.api import DealNumber, Position
from patience_core.errors import BadSave
from patience_core.testing import load_game

Run = Callable[..., Any]


def test_score_of_a_game_of_one_move_says_1_move(run_patience: Run, tmp_path: Path) -> None:
    save = tmp_path / "one.json"
    played = run_patience(
        "play", "escalator", "--deal", "3", "--file", str(save), input="deal\nquit\n"
    )
    assert played.code == 3  # piped play that ends in progress
    result = run_patience("score", str(save))
    assert result.out.rstrip().endswith(", in progress, 1 move"), result.out
    assert json.loads(save.read_text())["moves"] == ["deal"]


def test_restart_after_one_move_says_1_move(run_patience: Run) -> None:
    result = run_patience(
        "play", "escalator", "--deal", "3", "--no-dead-check", input="deal\nrestart\nquit\n"
    )
    assert "Back to the deal; 'redo all' plays the 1 move again." in result.out


def test_a_position_one_card_short_says_1_card_missing() -> None:
    game = load_game("escalator")
    position = game.deal(DealNumber(3))
    short = position.replace([(0, position[0][:-1])])
    with pytest.raises(BadSave, match=r"\(1 card missing\)$"):
        game.check_position(short)
    with pytest.raises(BadSave, match=r"^position has 1 pile; escalator has 30$"):
        game.check_position(Position((tuple(position.cards()),)))


def test_a_stock_of_one_card_is_drawn_as_1_card() -> None:
    game = load_game("escalator")
    position = game.deal(DealNumber(3))
    one = position.replace([(0, position[0][:1]), (1, position[1] + position[0][1:])])
    lines = game.render(one, lambda card: "??")
    assert lines[-1].startswith("stock: 1 card ")
    assert game.render(position, lambda card: "??")[-1].startswith("stock: 24 cards ")


def test_shown_is_the_one_bounded_echo_of_user_and_plugin_text() -> None:
    from patience_core.errors import shown

    assert shown("  lots  ") == "'lots'"
    assert shown("x" * 5000, 23) == "'" + "x" * 20 + "...'"
    assert shown("a\nb\x1b") == "'a?b?'"
    assert shown("it's", quote=False) == "it's"
    assert shown(42) == "42"
    assert shown(10**5000) == "<a number of 5,000 digits>"
    assert len(shown(list(range(1000)))) < 60
