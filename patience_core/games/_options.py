"""Game options: what a game declares (:class:`GameOption`), and reading what players give.

Layer 3. A player chooses options with ``--option NAME=VALUE`` (``-o``) on the command line, or
in a position file; :func:`parse_options` reads the pairs, :func:`chosen_options` checks them
against a game's declaration (docs/cli.md, "Game options").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from patience_core.errors import BadOption, shown

__all__ = ["GameOption", "chosen_options", "parse_options"]


@attrs.frozen
class GameOption:
    """A game option a player chooses with ``--option NAME=VALUE``.

    :param name: lower-case, hyphenated, e.g. ``"empty-columns"``.
    :param choices: the values accepted.
    :param default: one of ``choices``.
    :param help: one line for ``patience rules`` and ``--help``.
    """

    name: str
    choices: tuple[str, ...]
    default: str
    help: str = ""


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """Read ``NAME=VALUE`` strings (``--option`` values) into a dict; spaces around a name or a
    value are dropped.

    :raises BadOption: for a string without ``=``, or a name given twice (even with the same
        value: which one was meant is not for patience to guess).
    """
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadOption(f"bad option {shown(pair, 23)}: expected NAME=VALUE")
        if key.strip() in result:
            raise BadOption(f"option {shown(key, 23)} given twice")
        result[key.strip()] = value.strip()
    return result


def chosen_options(
    game: str, declared: Sequence[GameOption], given: Mapping[str, str] | None
) -> dict[str, str]:
    """The value in force of every option ``declared`` by game ``game``: the one ``given``, else
    the default. Spaces around a name or a value are dropped, as on the command line (``-o``).

    :param game: the game's name, for messages.
    :returns: option name to value, every declared option present.
    :raises BadOption: for a name given twice (spaces aside), an option the game does not
        declare (the message lists those it does), or a value not among the option's choices.
    """
    chosen = {spec.name: spec.default for spec in declared}
    known = {spec.name: spec for spec in declared}
    seen: set[str] = set()
    for raw_key, raw_value in (given or {}).items():
        key, value = raw_key.strip(), raw_value.strip()
        if key in seen:
            raise BadOption(f"option {shown(key, 23)} given twice")
        seen.add(key)
        spec = known.get(key)
        if spec is None:
            names = ", ".join(sorted(known)) or "none"
            raise BadOption(f"{game} has no option {shown(key, 23)} (options: {names})")
        if value not in spec.choices:
            raise BadOption(
                f"option {key} takes one of {', '.join(spec.choices)}, not {shown(value, 23)}"
            )
        chosen[key] = value
    return chosen
