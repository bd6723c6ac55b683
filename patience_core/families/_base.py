"""What every game family shares: declared parameters, generated rules text, and the making of
a variant from parameter values (a plugin's class declaration or a variant file's table).

Layer 3½ (above :mod:`patience_core.games`). A family is an abstract :class:`Family` subclass
(``FreeCellFamily``) that turns its declared parameters into layout, legal moves, play, won,
score and rules text, and names the generic :class:`~patience_core.games.GameSearch` that solves
every one of its variants (``search_class``). A variant is a subclass that sets ``name``,
``title`` and parameter values as class attributes::

    class BakersGame(FreeCellFamily):
        name = "bakers-game"
        title = "Baker's Game"
        build = "same-suit"

or :func:`make_variant` ``(FreeCellFamily, {"name": ..., "build": ...})`` for a variant file.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from patience_core.errors import shown
from patience_core.families._policies import POLICIES
from patience_core.games import Game, GameSearch
from patience_core.model import Card

__all__ = ["Family", "Parameter", "VariantError", "control_problem", "make_variant"]

#: The kinds of value a :class:`Parameter` takes.
KINDS = ("int", "bool", "choice", "build", "empty", "pile", "deck", "text")


class VariantError(ValueError):
    """A declaration or variant file sets a parameter wrongly; the message is one line naming
    the key and what is allowed, e.g. ``cells is 9; allowed: a whole number 0..8``."""


@attrs.frozen
class Parameter:
    """One thing a family lets a variant choose.

    :param name: the key in a variant file and the class attribute (hyphens become
        underscores: ``empty-column`` is ``empty_column``).
    :param kind: one of ``int``, ``bool``, ``choice`` (one of ``choices``), ``build``,
        ``empty``, ``pile``, ``deck`` (a name in :data:`~patience_core.families.POLICIES`),
        ``text``.
    :param default: the value when a variant does not set it.
    :param help: one line for the docs and ``patience variant check``.
    :param choices: for ``choice``, the allowed texts.
    :param low: for ``int``, the smallest allowed value.
    :param high: for ``int``, the largest allowed value.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 1_000

    @property
    def attribute(self) -> str:
        """The class attribute holding the value (``empty_column``)."""
        return self.name.replace("-", "_")

    def allowed(self) -> str:
        """What the parameter allows, for error messages: ``a whole number 0..8``."""
        if self.kind == "int":
            return f"a whole number {self.low}..{self.high}"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "text":
            return "a text"
        names = self.choices if self.kind == "choice" else _policy_names(self.kind)
        return "one of " + ", ".join(repr(n) for n in names)

    def problem(self, value: object) -> str | None:
        """What is wrong with ``value`` for this parameter, or ``None`` when it is allowed."""
        if self.kind == "int":
            ok = type(value) is int and self.low <= value <= self.high
        elif self.kind == "bool":
            ok = type(value) is bool
        elif self.kind == "text":
            ok = isinstance(value, str)
        elif self.kind == "choice":
            ok = value in self.choices
        else:
            ok = isinstance(value, str) and value in _policy_names(self.kind)
        if ok:
            # Free text reaches the terminal (rules, players): no control characters.
            if self.kind == "text" and isinstance(value, str):
                return control_problem(self.name, value)
            return None
        return f"{self.name} is {shown(value)}; allowed: {self.allowed()}"


def _policy_names(kind: str) -> tuple[str, ...]:
    return POLICIES.names(kind)


class Family(Game):
    """A game family: a :class:`Game` whose rules follow from declared parameters.

    A family subclass sets ``family`` (its name in variant files, e.g. ``"freecell"``),
    ``parameters``, ``search_class`` and implements the :class:`Game` methods from the parameter
    values, which it reads as class attributes (``self.cells``). It writes the rules text from
    them in :meth:`rules_text`; ``own_rules`` is a paragraph a variant adds for what is its own.

    Class attributes a variant sets: ``name``, ``title``, any parameter, ``own_rules``.
    """

    family: ClassVar[str]
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    #: The family's generic search, used when the variant registers without its own.
    search_class: ClassVar[type[GameSearch]] = GameSearch
    #: A paragraph of the rules text for what is the variant's own (default none).
    own_rules: ClassVar[str] = ""
    defaulted: ClassVar[frozenset[str]] = frozenset()
    _defaults_set: ClassVar[frozenset[str]] = frozenset()
    #: The variant file a variant was read from (its name, for ``patience list``), or ``None``
    #: for a variant declared in Python.
    variant_file: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Every parameter not set is its default, so a variant declares only what differs.
        for parameter in cls.parameters:
            if not hasattr(cls, parameter.attribute):
                setattr(cls, parameter.attribute, parameter.default)
                cls._defaults_set = cls.__dict__.get("_defaults_set", frozenset()) | {
                    parameter.attribute
                }
        #: The parameters no class of this variant set (the family's defaults): messages must
        #: not blame an author for a value never written.
        cls.defaulted = frozenset(
            p.name
            for p in cls.parameters
            if all(
                p.attribute not in k.__dict__ or p.attribute in k.__dict__.get("_defaults_set", ())
                for k in cls.__mro__
            )
        )
        # The score before the rules text, which may count foundations from it.
        deck = getattr(cls, "deck", None)
        if isinstance(deck, str) and deck in POLICIES.decks:
            score = cls.max_score_for(len(POLICIES.deck(deck).cards()))
            if score is not None:
                cls.max_score = score
        if "rules" not in cls.__dict__ and "name" in cls.__dict__:
            cls.rules = cls.rules_text()

    @classmethod
    def max_score_for(cls, cards: int) -> int | None:
        """The highest score of a variant whose ``deck`` parameter names a deck of ``cards``
        cards; :meth:`__init_subclass__` sets ``max_score`` from it before the rules text.

        :param cards: the deck's size (whole suits of 13 in the shipped families).
        :returns: the score (points), or ``None`` when the family works its score out
            otherwise (the default: e.g. the golf family's, from its tableau).
        """
        return None

    def new_deck(self) -> tuple[Card, ...]:
        """The deck the ``deck`` parameter names, in Aisleriot's order (the families that
        declare one share it).

        :raises AttributeError: when the family declares no ``deck`` parameter and does not
            override this method.
        """
        deck: str = self.deck  # type: ignore[attr-defined]  # a parameter of the family
        return POLICIES.deck(deck).cards()

    @classmethod
    def rules_text(cls) -> str:
        """The rules text generated from the declaration, ending with :attr:`own_rules`.

        Families override it; the default lists the parameters and their values.
        """
        lines = [cls.title, ""]
        lines += [f"{p.name}: {getattr(cls, p.attribute)}" for p in cls.parameters]
        if cls.own_rules:
            lines += ["", cls.own_rules.strip()]
        return "\n".join(lines) + "\n"

    @classmethod
    def declaration_problem(cls) -> str | None:
        """What is wrong with the parameter values of this variant, or ``None``: the first
        value a parameter does not allow, in one line (:meth:`Parameter.problem`)."""
        for parameter in cls.parameters:
            problem = parameter.problem(getattr(cls, parameter.attribute))
            if problem:
                return problem
        return None


def control_problem(key: str, text: str) -> str | None:
    """The one-line problem of a variant file's free text (``own-rules``, a text parameter),
    ``None`` when it has none: a control character (C0, C1, DEL; ESC among them) other than a
    new line, which would reach the terminal as a command (a title set, the screen cleared)
    through ``patience rules`` and the players.

    :param key: the key named in the message (``own-rules``, ``parameters.X``).
    :param text: the text as the variant file holds it.
    """
    for place, char in enumerate(text, 1):
        if char != "\n" and unicodedata.category(char) == "Cc":
            return (
                f"{key} holds the control character U+{ord(char):04X} (character "
                f"{place:,}); allowed: text without control characters (new lines allowed)"
            )
    return None


def make_variant(family: type[Family], values: Mapping[str, object]) -> type[Family]:
    """A variant of ``family`` from parameter values (a variant file's table).

    :param values: ``name`` and ``title`` (texts), optional ``own-rules`` (text), and any of the
        family's parameters by name.
    :returns: a new :class:`Family` subclass; register it like any game class.
    :raises VariantError: for an unknown key or a value a parameter does not allow (the message
        names the key and what is allowed).
    """
    known = {p.name: p for p in family.parameters}
    attributes: dict[str, object] = {}
    for key, value in values.items():
        if key in ("name", "title", "own-rules"):
            if not isinstance(value, str):
                raise VariantError(f"{key} is {shown(value)}; allowed: a text")
            if key == "own-rules" and (problem := control_problem(key, value)):
                raise VariantError(problem)
            attributes[key.replace("-", "_")] = value
        elif key in known:
            problem = known[key].problem(value)
            if problem:
                raise VariantError(problem)
            attributes[known[key].attribute] = value
        else:
            allowed = ", ".join(["name", "title", "own-rules", *known])
            raise VariantError(
                f"{key} is not a key of the {family.family} family; allowed: {allowed}"
            )
    for key in ("name", "title"):
        if key not in attributes:
            raise VariantError(f"{key} is missing; allowed: a text")
    class_name = "".join(part.title() for part in str(attributes["name"]).split("-")) or "Variant"
    # The family's module: where messages look for the code behind a game (the family's).
    attributes["__module__"] = family.__module__
    return type(class_name, (family,), attributes)
