"""The conformance kit's checks of what a plugin registers through ``patience_register_policies``:
build and empty-pile policies, pile kinds, decks and families.

Layer 5 (testing). The plugin host checks only a name and its kind when a plugin registers one
(a wrong one makes the plugin broken); what a policy answers is trusted while games are played.
These checks are where a plugin author learns that an answer is wrong::

    from patience_core.testing import PolicyConformance

    class TestPolicies(PolicyConformance):
        distribution = "patience-piquet"     # what your plugin registers is checked
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from patience_core.families import POLICIES, BuildPolicy, Deck, EmptyPolicy, Family, PileRule
from patience_core.families._policies import POLICY_NAME
from patience_core.games import GameSearch
from patience_core.model import Card, Rank, Suit

__all__ = ["DECK_SIZES", "PolicyConformance", "check_policy", "policies_of"]

#: How many cards a deck may hold: at least one suit of Ace to King's worth of play, at most ten
#: 52-card decks.
DECK_SIZES = range(4, 521)
#: Every card face up, then every card face down: what the checks ask a policy about.
_CARDS = tuple(Card.of(rank, suit) for suit in Suit for rank in Rank)
_DOWN = tuple(card.turned(False) for card in _CARDS)


def _text_problem(text: object, limit: int = 100) -> str | None:
    if not isinstance(text, str) or not text.strip() or "\n" in text or len(text) > limit:
        return f"its text {text!r} is not one line of 1..{limit} characters"
    return None


def _answers(function: Any, calls: Iterable[tuple[Any, ...]]) -> list[object]:
    return [function(*args) for args in calls]


def _deterministic(label: str, function: Any, calls: list[tuple[Any, ...]]) -> None:
    """``function`` answers ``True`` or ``False`` to each of ``calls``, the same twice."""
    first = _answers(function, calls)
    odd = next((a for a in first if not isinstance(a, bool)), None)
    assert odd is None, f"{label} answers {odd!r}, not True or False"
    assert first == _answers(function, calls), f"{label} answers differently when asked again"


def check_policy(policy: BuildPolicy | EmptyPolicy | PileRule | Deck | type[Family]) -> None:
    """Check one registered building block (:mod:`patience_core.families`).

    * every kind: a name of lower-case words joined by hyphens, a one-line ``text`` (families:
      their parameters instead);
    * a :class:`BuildPolicy`: ``fits(card, onto)`` is ``True`` or ``False`` for every pair of
      the 52 cards, the same when asked again, and ``False`` when either card lies face down;
    * an :class:`EmptyPolicy`: ``accepts(card)`` is ``True`` or ``False``, the same again;
    * a :class:`PileRule`: ``capacity`` a whole number of 0 or more; ``accepts(card, pile)``
      ``True`` or ``False`` for an empty pile and a pile of one card, the same again;
    * a :class:`Deck`: ``cards()`` a tuple of face-up cards, :data:`DECK_SIZES` of them, the
      same tuple every call;
    * a :class:`Family`: its parameters are :class:`Parameter`\\ s with unique names whose
      defaults they allow, and its ``search_class`` is a :class:`GameSearch`.

    :raises AssertionError: naming the policy and what is wrong.
    """
    if isinstance(policy, type):
        _check_family(policy)
        return
    label = f"{type(policy).__name__} {policy.name!r}"
    assert isinstance(policy.name, str) and POLICY_NAME.match(policy.name), f"{label}: bad name"
    problem = _text_problem(policy.text)
    assert problem is None, f"{label}: {problem}"
    if isinstance(policy, BuildPolicy):
        pairs = [(card, onto) for card in _CARDS for onto in _CARDS]
        _deterministic(f"{label}: fits", policy.fits, pairs)
        down = [(_DOWN[k], _CARDS[j]) for k in range(52) for j in range(52)]
        down += [(_CARDS[k], _DOWN[j]) for k in range(52) for j in range(52)]
        assert not any(_answers(policy.fits, down)), f"{label}: fits a face-down card"
    elif isinstance(policy, EmptyPolicy):
        _deterministic(f"{label}: accepts", policy.accepts, [(card,) for card in _CARDS])
    elif isinstance(policy, PileRule):
        capacity = policy.capacity
        assert type(capacity) is int and capacity >= 0, f"{label}: capacity {capacity!r}"
        calls = [(card, pile) for card in _CARDS for pile in ((), (_CARDS[0],))]
        _deterministic(f"{label}: accepts", policy.accepts, calls)
    else:
        cards = policy.cards()
        assert isinstance(cards, tuple), f"{label}: cards() gives {type(cards).__name__}"
        assert all(isinstance(c, Card) and c.face_up for c in cards), (
            f"{label}: cards() holds something other than face-up cards"
        )
        assert len(cards) in DECK_SIZES, f"{label}: {len(cards)} cards, not 4..520"
        assert cards == policy.cards(), f"{label}: cards() differs from one call to the next"


def _check_family(family: type[Family]) -> None:
    label = f"family {getattr(family, 'family', family.__name__)!r}"
    assert POLICY_NAME.match(str(getattr(family, "family", ""))), f"{label}: bad name"
    names = [p.name for p in family.parameters]
    assert len(set(names)) == len(names), f"{label}: parameter names repeat: {names}"
    for parameter in family.parameters:
        assert POLICY_NAME.match(parameter.name), f"{label}: parameter {parameter.name!r}"
        problem = parameter.problem(parameter.default)
        assert problem is None, f"{label}: the default of {problem}"
        problem = _text_problem(parameter.help, 300)
        assert problem is None, f"{label}: {parameter.name}'s help: {problem}"
    search = family.search_class
    assert isinstance(search, type) and issubclass(search, GameSearch), f"{label}: search_class"


def policies_of(distribution: str) -> list[BuildPolicy | EmptyPolicy | PileRule | Deck | Any]:
    """Everything ``distribution`` registered in :data:`~patience_core.families.POLICIES` (as
    the last loaded plugin host left it), in registration order."""
    from patience_core.families._policies import KINDS

    return [
        getattr(POLICIES, KINDS[kind][0])[name]
        for (kind, name), provider in POLICIES.providers.items()
        if provider == distribution
    ]


class PolicyConformance:
    """Subclass in a plugin's tests, setting :attr:`distribution`, to check what the plugin
    registers through ``patience_register_policies`` (:func:`check_policy` on each).

    Class attributes: ``distribution``, the plugin's distribution name (required); and
    ``extra_plugins``, import paths of plugin objects loaded besides the installed ones (their
    distribution is their import path), for a plugin tested without an entry point.
    """

    distribution: str = ""
    extra_plugins: tuple[str, ...] = ()

    def _load(self) -> Any:
        import pkgutil

        from patience_core.plugins import LOADED, PluginHost

        assert self.distribution, "set `distribution = '<name>'` on your PolicyConformance"
        given = {path: pkgutil.resolve_name(path) for path in self.extra_plugins}
        host = PluginHost(plugins=given).load()
        record = next((r for r in host.records if r.distribution == self.distribution), None)
        assert record is not None, f"no installed plugin of distribution {self.distribution!r}"
        assert record.status == LOADED, f"{self.distribution} is {record.status}: {record.error}"
        return host

    def test_registers_something(self) -> None:
        """The plugin loads, and registers at least one policy, pile kind, deck or family."""
        self._load()
        assert policies_of(self.distribution), f"{self.distribution} registers no policy"

    def test_policies(self) -> None:
        """Each thing the plugin registers passes :func:`check_policy`."""
        self._load()
        for policy in policies_of(self.distribution):
            check_policy(policy)
