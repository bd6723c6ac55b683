"""Variant files: a TOML file that names a family and its parameters is a game.

Layer 3½ (above :mod:`patience_core.games`). The format (docs/families.md, "Variant files")::

    family = "freecell"          # a family in POLICIES.families
    name = "freecell"            # the game's name on the command line
    title = "FreeCell"           # its display name
    own-rules = "..."            # optional: a paragraph of rules text of its own

    [parameters]                 # the family's parameters; those left out take their defaults
    cells = 4
    build = "alternate-colours"

A variant file is data only: TOML values (texts, numbers, true/false), read with
:mod:`tomllib`, checked against the family's declared parameters; no key takes an import path
or code, so loading one never runs code of its own. Every problem is one line naming the key
and what is allowed (:func:`variant_problems`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from patience_core.errors import shown
from patience_core.families._base import Family, VariantError, control_problem, make_variant
from patience_core.families._policies import POLICIES, PolicyRegistry
from patience_core.games import (
    GAME_NAME,
    GAME_NAME_LIMIT,
    TITLE_LIMIT,
    Game,
    declaration_problem,
)

__all__ = [
    "VARIANT_KEYS",
    "read_variant",
    "same_rules",
    "variant_from_record",
    "variant_problems",
    "variant_record",
]

#: The top-level keys of a variant file.
VARIANT_KEYS = ("family", "name", "title", "own-rules", "parameters")

_TEXT = "a text"
_NAME = (
    "lower-case letters and digits in words joined by single hyphens "
    f"(my-freecell), at most {GAME_NAME_LIMIT} characters"
)
_TITLE = f"one line of text of at most {TITLE_LIMIT} characters"


def _parsed(data: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The TOML table of ``data``, or the one-line problem that it is not TOML."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"is not UTF-8 text (byte {exc.start + 1}); allowed: a TOML file"
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as exc:
        return None, f"is not TOML: {str(exc).splitlines()[0]}"


def _family_problem(table: Mapping[str, Any], policies: PolicyRegistry) -> str | None:
    families = policies.names("family")
    allowed = (
        "one of " + ", ".join(repr(n) for n in families)
        if families
        else "the name of a family (none is installed)"
    )
    if "family" not in table:
        return f"family is missing; allowed: {allowed}"
    if table["family"] not in families:
        return f"family is {shown(table['family'])}; allowed: {allowed}"
    return None


def _text_problems(table: Mapping[str, Any]) -> list[str]:
    problems = []
    name, title = table.get("name"), table.get("title")
    if name is None:
        problems.append(f"name is missing; allowed: {_NAME}")
    elif not (isinstance(name, str) and GAME_NAME.match(name) and len(name) <= GAME_NAME_LIMIT):
        problems.append(f"name is {shown(name)}; allowed: {_NAME}")
    if title is None:
        problems.append(f"title is missing; allowed: {_TITLE}")
    elif not isinstance(title, str):
        problems.append(f"title is {shown(title)}; allowed: {_TITLE}")
    own = table.get("own-rules", "")
    if not isinstance(own, str):
        problems.append(f"own-rules is {shown(own)}; allowed: {_TEXT}")
    elif problem := control_problem("own-rules", own):
        problems.append(problem)
    return problems


def _parameter_problems(family: type[Family], given: object) -> list[str]:
    """The problems of the ``[parameters]`` table ``given`` for ``family``, each naming the key
    as ``parameters.KEY``."""
    if not isinstance(given, dict):
        return [
            f"parameters is {shown(given)}; allowed: a table ([parameters]) of the "
            f"{family.family} family's parameters"
        ]
    known = {p.name: p for p in family.parameters}
    problems = []
    for key, value in given.items():
        parameter = known.get(key)
        if parameter is None:
            allowed = ", ".join(known) or "none (the family has no parameters)"
            problems.append(
                f"parameters.{key} is not a parameter of the {family.family} family; "
                f"allowed: {allowed}"
            )
        else:
            problem = parameter.problem(value)
            if problem:
                problems.append(f"parameters.{problem}")
    return problems


def variant_problems(
    data: bytes, policies: PolicyRegistry = POLICIES
) -> tuple[type[Family] | None, list[str]]:
    """Read a variant file's bytes: the game class it declares, and every problem found.

    :param data: the file's contents.
    :param policies: where its family and the names its parameters take are looked up.
    :returns: ``(variant, problems)``: the new :class:`Family` subclass (``None`` when there are
        problems), and the problems, each one line beginning with the key it is about (or
        ``is not TOML: ...`` with the line and column) and ending with what is allowed.
    """
    table, problem = _parsed(data)
    if table is None:
        return None, [str(problem)]
    problems = [
        f"{key} is not a key of a variant file; allowed: {', '.join(VARIANT_KEYS)}"
        for key in table
        if key not in VARIANT_KEYS
    ]
    family_problem = _family_problem(table, policies)
    if family_problem:
        problems.append(family_problem)
    problems += _text_problems(table)
    if family_problem:
        return None, problems
    family = policies.family(table["family"])
    given = table.get("parameters", {})
    problems += _parameter_problems(family, given)
    if problems:
        return None, problems
    values: dict[str, object] = {k: table[k] for k in ("name", "title", "own-rules") if k in table}
    try:
        variant = make_variant(family, {**values, **given})
    except VariantError as exc:  # make_variant's own checks; the ones above catch the same
        return None, [str(exc)]
    # The family's own check first: its message names the key (a contradiction also leaves
    # the generic checks' max_score unset).
    for check in (lambda cls: cls.declaration_problem(), declaration_problem):
        problem = check(variant)
        if problem:
            return None, [_as_file_key(family, problem)]
    return variant, []


def _as_file_key(family: type[Family], problem: str) -> str:
    """``problem`` with its key named as the file spells it: a family's check names a
    parameter as a declaration does (``tableau is ...``), the file has it in its
    ``[parameters]`` table (``parameters.tableau is ...``)."""
    key = problem.split(" ", 1)[0]
    return f"parameters.{problem}" if key in {p.name for p in family.parameters} else problem


def read_variant(data: bytes, where: str, policies: PolicyRegistry = POLICIES) -> type[Family]:
    """The game class a variant file declares.

    :param data: the file's contents.
    :param where: the file's name, for messages and the class's ``variant_file`` attribute.
    :returns: a :class:`Family` subclass, to register like any game class.
    :raises VariantError: with the first problem (:func:`variant_problems`), one line, prefixed
        by ``where``.
    """
    variant, problems = variant_problems(data, policies)
    if variant is None:
        raise VariantError(f"{where}: {problems[0]}")
    variant.variant_file = where
    return variant


def variant_record(game: type[Game] | Game) -> dict[str, Any] | None:
    """The rules of a variant-file game as a save records them: its family, title and every
    parameter's value (defaults included, so a family's new default changes no saved game).

    :param game: a game class or instance.
    :returns: ``{"family": ..., "title": ..., "parameters": {name: value}}`` (JSON data: texts,
        whole numbers, true/false), or ``None`` for a game not read from a variant file (its
        rules are its plugin's code, which a save cannot hold).
    """
    cls = game if isinstance(game, type) else type(game)
    if not issubclass(cls, Family) or cls.variant_file is None:
        return None
    return {
        "family": cls.family,
        "title": cls.title,
        "parameters": {p.name: getattr(cls, p.attribute) for p in cls.parameters},
    }


def same_rules(record: Mapping[str, Any], other: Mapping[str, Any] | None) -> bool:
    """Whether two :func:`variant_record` records give the same game (the title is only a
    display name and does not count)."""
    keys = ("family", "parameters")
    return other is not None and all(record.get(k) == other.get(k) for k in keys)


def variant_from_record(
    name: str, record: Mapping[str, Any], policies: PolicyRegistry = POLICIES
) -> type[Family]:
    """The game class of the rules ``record`` holds (:func:`variant_record`), named ``name``:
    a saved game goes on with the rules it was started with after its variant file changed.

    :raises VariantError: one line, when the family is no longer installed or a value is one
        the family no longer allows (a parameter it dropped, a policy no plugin registers).
    """
    family_name = record.get("family")
    if family_name not in policies.names("family"):
        raise VariantError(f"its family {shown(family_name)} is no longer installed")
    family = policies.family(str(family_name))
    values: dict[str, object] = {"name": name, "title": str(record.get("title") or name)}
    parameters = record.get("parameters")
    values.update(parameters if isinstance(parameters, dict) else {})
    variant = make_variant(family, values)
    problem = variant.declaration_problem() or declaration_problem(variant)
    if problem:
        raise VariantError(problem)
    # Still a variant-file game: its saves keep recording these rules.
    variant.variant_file = "(the rules a saved game was started with)"
    return variant
