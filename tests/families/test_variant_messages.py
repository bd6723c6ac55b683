"""Every message of a variant file names a parameter as the file spells it,
``parameters.KEY``, in every family: a value a parameter does not allow, and the family's own
checks of parameters that contradict each other (docs/families.md, "Variant files")."""

from __future__ import annotations

import pytest

from patience_core.families import POLICIES, Family, Parameter, variant_problems

FAMILIES = ["freecell", "golf", "klondike", "spider"]


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _file(family: str, **parameters: object) -> bytes:
    lines = [f'family = "{family}"', 'name = "mine"', 'title = "Mine"', "[parameters]"]
    lines += [f"{key} = {_toml(value)}" for key, value in parameters.items()]
    return "\n".join(lines).encode()


def _bad_value(parameter: Parameter) -> object:
    """A value ``parameter`` does not allow."""
    if parameter.kind == "int":
        return parameter.high + 1
    if parameter.kind == "text":
        return 7
    return "no-such-name" if parameter.kind != "bool" else "yes"


def _parameters() -> list[tuple[str, Parameter]]:
    return [(name, p) for name in FAMILIES for p in POLICIES.family(name).parameters]


@pytest.mark.parametrize(("family", "parameter"), _parameters(), ids=lambda x: str(x)[:30])
def test_a_value_not_allowed_names_the_key_in_the_parameters_table(
    family: str, parameter: Parameter
) -> None:
    variant, problems = variant_problems(_file(family, **{parameter.name: _bad_value(parameter)}))
    assert variant is None
    assert [p.split(" ", 1)[0] for p in problems] == [f"parameters.{parameter.name}"]


@pytest.mark.parametrize(
    ("family", "parameters", "key"),
    [
        ("golf", {"tableau": "pyramid", "rows": 12}, "tableau"),
        ("golf", {"columns": 12, "depth": 12}, "tableau"),
        ("freecell", {"cells": 2, "cells-dealt": 4}, "cells-dealt"),
        ("freecell", {"ms-deals": True, "columns": 4}, "ms-deals"),
        ("spider", {"face-down": "1 2"}, "face-down"),
        ("spider", {"deck": "standard", "columns": 13, "face-down": " ".join(["6"] * 13)}, "deck"),
    ],
)
def test_a_contradiction_names_the_key_in_the_parameters_table(
    family: str, parameters: dict[str, object], key: str
) -> None:
    variant, problems = variant_problems(_file(family, **parameters))
    assert variant is None and len(problems) == 1
    assert problems[0].startswith(f"parameters.{key} is "), problems[0]


def test_every_family_is_covered() -> None:
    assert all(issubclass(POLICIES.family(name), Family) for name in FAMILIES)
    assert set(FAMILIES) <= set(POLICIES.names("family"))
