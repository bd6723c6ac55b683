"""Game options on the command line (``-o NAME=VALUE``): read by games.parse_options."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from patience_core.errors import BadOption
from patience_core.games import parse_options


def test_options_are_read_into_a_dict() -> None:
    assert parse_options(["empty-columns=any", " wrap = yes "]) == {
        "empty-columns": "any",
        "wrap": "yes",
    }


@pytest.mark.parametrize(
    "pairs",
    [
        ["empty-columns=any", "empty-columns=kings"],
        ["empty-columns=any", "empty-columns=any"],
        ["empty-columns=any", " empty-columns =kings"],
    ],
)
def test_an_option_given_twice_is_refused(pairs: list[str]) -> None:
    with pytest.raises(BadOption, match=r"^option 'empty-columns' given twice$"):
        parse_options(pairs)


@pytest.mark.parametrize(
    "command",
    [
        ["deal", "bakers-game", "--deal", "1"],
        ["play", "bakers-game", "--deal", "1"],
        ["solve", "bakers-game", "--deal", "1"],
        ["simulate", "bakers-game", "-n", "1"],
    ],
)
def test_every_command_refuses_an_option_given_twice_in_one_line_like_a_bad_option(
    run_patience: Callable[..., Any], command: list[str]
) -> None:
    twice = run_patience(*command, "-o", "empty-columns=any", "-o", "empty-columns=kings")
    assert (twice.code, twice.out) == (1, "")
    assert twice.err == "patience: error: option 'empty-columns' given twice\n"
    # The same exit code as any other bad option.
    bad = run_patience(*command, "-o", "empty-columns=maybe")
    assert bad.code == twice.code


def test_a_game_drops_spaces_around_options_and_refuses_one_given_twice() -> None:
    from patience_core.testing import load_game

    game = type(load_game("bakers-game"))
    assert game({" empty-columns ": " any"}).option_values == {"empty-columns": "any"}
    with pytest.raises(BadOption, match="option 'empty-columns' given twice"):
        game({"empty-columns": "any", "empty-columns ": "any"})


def test_chosen_options_are_every_option_in_force() -> None:
    from patience_core.games import GameOption, chosen_options

    declared = (GameOption("wrap", ("no", "yes"), "no"), GameOption("size", ("s", "m"), "m"))
    assert chosen_options("alpha", declared, None) == {"wrap": "no", "size": "m"}
    assert chosen_options("alpha", declared, {" wrap ": " yes"}) == {"wrap": "yes", "size": "m"}
    with pytest.raises(BadOption, match=r"^alpha has no option 'colour' \(options: size, wrap\)$"):
        chosen_options("alpha", declared, {"colour": "red"})
    with pytest.raises(BadOption, match=r"^option wrap takes one of no, yes, not 'maybe'$"):
        chosen_options("alpha", declared, {"wrap": "maybe"})
