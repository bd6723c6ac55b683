"""Variant files (docs/families.md): every problem is one line naming the key and what is
allowed; a right file is a game class of its family; reading one runs no code."""

from __future__ import annotations

import pytest

from patience_core.engine import DealNumber
from patience_core.families import VariantError, read_variant, variant_problems
from patience_core.plugins import PluginHost
from patience_core.testing import FAKE_FAMILY_PLUGIN, FakeFamily

GOOD = b"""\
family = "fake"
name = "fake-three"
title = "Fake Three"
own-rules = "Deals turn three cards."

[parameters]
draw = 3
empty-piles = "any"
"""


@pytest.fixture(autouse=True)
def _fake_family() -> None:
    """The fake family (and its deck) registered, as a loaded plugin host leaves them."""
    import importlib

    plugin = importlib.import_module(FAKE_FAMILY_PLUGIN)
    host = PluginHost(entry_points=[], plugins={FAKE_FAMILY_PLUGIN: plugin}).load()
    assert not host.problems


def problems(text: str) -> list[str]:
    variant, found = variant_problems(text.encode())
    assert variant is None
    assert found and all("\n" not in p for p in found)
    return found


def test_a_right_file_is_a_variant_of_its_family() -> None:
    variant, found = variant_problems(GOOD)
    assert found == [] and variant is not None
    assert issubclass(variant, FakeFamily)
    assert (variant.name, variant.title, variant.draw, variant.empty_piles) == (
        "fake-three",
        "Fake Three",
        3,
        "any",
    )
    assert "Deals turn three cards." in variant.rules
    game = variant()
    assert game.legal_moves(game.deal(DealNumber(1)))


def test_parameters_left_out_take_their_defaults_and_dotted_keys_work() -> None:
    text = 'family = "fake"\nname = "fake-two"\ntitle = "Two"\nparameters.draw = 2\n'
    variant, found = variant_problems(text.encode())
    assert found == [] and variant is not None
    assert (variant.draw, variant.empty_piles) == (2, "none")


def test_not_toml_names_the_line() -> None:
    (found,) = problems('family = "fake"\nname = \n')
    assert found.startswith("is not TOML: ") and "line 2" in found


def test_not_utf8() -> None:
    variant, found = variant_problems(b'name = "\xff"\n')
    assert variant is None and found == ["is not UTF-8 text (byte 9); allowed: a TOML file"]


def test_an_unknown_key() -> None:
    # A top-level key after [parameters] would be a parameter: it goes before.
    text = GOOD.decode().replace('title = "Fake Three"', 'title = "Fake Three"\ncolour = "red"')
    assert problems(text) == [
        "colour is not a key of a variant file; allowed: family, name, title, own-rules, parameters"
    ]


def test_an_unknown_or_missing_family() -> None:
    text = GOOD.decode()
    (found,) = problems(text.replace('family = "fake"', 'family = "frecell"'))
    assert found.startswith("family is 'frecell'; allowed: one of ") and "'fake'" in found
    (found,) = problems(text.replace('family = "fake"\n', ""))
    assert found.startswith("family is missing; allowed: one of ")


def test_a_missing_or_bad_name_and_title() -> None:
    text = GOOD.decode()
    found = problems(
        text.replace('name = "fake-three"\n', "").replace('title = "Fake Three"\n', "")
    )
    assert [p.split(";")[0] for p in found] == ["name is missing", "title is missing"]
    assert "lower-case letters and digits" in found[0] and "60 characters" in found[1]
    (found1,) = problems(text.replace('"fake-three"', '"Fake Three"'))
    assert found1.startswith("name is 'Fake Three'; allowed: lower-case letters")
    (found1,) = problems(text.replace('title = "Fake Three"', "title = 3"))
    assert found1.startswith("title is 3; allowed: one line of text")
    (found1,) = problems(text.replace('"Fake Three"', '"' + "T" * 70 + '"'))
    assert found1.startswith("title ") and "60" in found1


def test_bad_parameters() -> None:
    text = GOOD.decode()
    assert problems(text.replace("draw = 3", "draw = 5")) == [
        "parameters.draw is 5; allowed: a whole number 1..3"
    ]
    assert problems(text.replace("draw = 3", 'draw = "3"')) == [
        "parameters.draw is '3'; allowed: a whole number 1..3"
    ]
    (found,) = problems(text.replace('"any"', '"aces"'))
    assert found.startswith("parameters.empty-piles is 'aces'; allowed: one of 'any', 'kings'")
    assert problems(text.replace("draw = 3", "drwa = 3")) == [
        "parameters.drwa is not a parameter of the fake family; allowed: empty-piles, draw"
    ]
    (found,) = problems(text.split("[parameters]")[0] + "parameters = 3\n")
    assert found.startswith("parameters is 3; allowed: a table ([parameters])")


def test_every_problem_is_reported() -> None:
    text = 'family = "fake"\ncolour = 1\n[parameters]\ndraw = 9\nfoo = 1\n'
    found = problems(text)
    assert [p.split(" ")[0] for p in found] == [
        "colour",
        "name",
        "title",
        "parameters.draw",
        "parameters.foo",
    ]


def test_read_variant_names_the_file() -> None:
    variant = read_variant(GOOD, "three.toml")
    assert variant.variant_file == "three.toml"
    with pytest.raises(VariantError, match=r"^three.toml: parameters.draw is 0; allowed"):
        read_variant(GOOD.replace(b"draw = 3", b"draw = 0"), "three.toml")


@pytest.mark.parametrize(
    "value",
    [
        '"patience_core.testing._fake:FakeGame"',
        "\"__import__('os').system('false')\"",
    ],
)
def test_no_key_takes_code(value: str) -> None:
    """A text where a policy's name goes is a name, never imported or evaluated."""
    text = GOOD.decode().replace('"any"', value)
    (found,) = problems(text)
    assert found.startswith("parameters.empty-piles is ")


VALUES = ['"text"', "3", "2.5", "true", "1979-05-27T07:32:00Z", "[1, 2]", "{ a = 1 }", '"fake"']


@pytest.mark.parametrize("key", ["family", "name", "title", "own-rules", "parameters"])
@pytest.mark.parametrize("value", VALUES)
def test_any_toml_value_anywhere_is_a_problem_or_a_game(key: str, value: str) -> None:
    """Every kind of TOML value at every key, and at every parameter: one-line problems or a
    game, never an exception."""
    lines = [line for line in GOOD.decode().splitlines() if not line.startswith(f"{key} =")]
    text = "\n".join([f"{key} = {value}", *lines]) if key != "parameters" else None
    if text is None:
        text = GOOD.decode().split("[parameters]")[0] + f"parameters = {value}\n"
    variant, found = variant_problems(text.encode())
    assert (variant is None) == bool(found)
    assert all(p and "\n" not in p for p in found)
    for parameter in ("draw", "empty-piles", "other"):
        variant, found = variant_problems(
            GOOD + f"{parameter} = {value}\n".encode()
            if parameter == "other"
            else GOOD.replace(b"draw = 3", f"{parameter} = {value}".encode())
        )
        assert all(p and "\n" not in p for p in found)


@pytest.mark.parametrize("data", [b"", b"\x00\x01", b"[[parameters]]\n", b"a.b.c = 1\n" * 3])
def test_odd_files_are_problems(data: bytes) -> None:
    variant, found = variant_problems(data)
    assert variant is None and found and all("\n" not in p for p in found)
