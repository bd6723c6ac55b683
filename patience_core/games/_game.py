"""The :class:`Game` interface every game plugin implements, its options, and the game registry.

Layer 3 of the architecture. A game is a subclass of :class:`Game` registered through the
``patience_register_games`` hook (see :mod:`patience_core.plugins.hookspecs`). Everything the
tools do with a game (dealing, move generation, applying a move with its automatic follow-ups,
won/lost, score, rules text, rendering) goes through this interface, so ``deal``, ``play``,
``score``, ``simulate`` work for every installed game, including third-party ones.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, TypeGuard

import attrs

from patience_core.engine import (
    AISLERIOT,
    MS,
    DealNumber,
    aisleriot_shuffle,
    counted,
    format_move,
    parse_move,
    shown,
    standard_deck,
)
from patience_core.errors import (
    BadDeal,
    BadOption,
    BadSave,
    IllegalMove,
    PluginError,
    UnknownGame,
    digits_of,
)
from patience_core.games._search import GameSearch
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position

__all__ = [
    "Game",
    "GameOption",
    "GameRegistry",
    "Painter",
    "PositionFormat",
    "checked_flag",
    "checked_moves",
    "checked_piles",
    "checked_position",
    "checked_score",
    "declaration_problem",
    "distribution_of",
    "shown_answer",
    "wrong_answer",
]

#: A function that draws one card (or an empty pile, for ``None``) as exactly two visible
#: characters, e.g. ``"9♥"``, ``"##"`` for a face-down card, ``"--"`` for an empty pile. The
#: renderer supplies it; games never decide colours or symbols themselves.
Painter = Callable[[Card | None], str]


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


@attrs.frozen
class PositionFormat:
    """A named text format a game can write its positions in, and read them back from, e.g.
    Freecell Solver's board text for Baker's Game (``patience deal GAME --format NAME``,
    ``patience deal GAME --from FILE``).

    :param name: lower-case, e.g. ``"fcs"``; ``text`` and ``json`` are taken by the core.
    :param write: ``write(game, position)``: the text, ending with a newline.
    :param read: ``read(game, text)``: the position the text describes; raises
        :class:`~patience_core.errors.BadSave` with a one-line message for unreadable text.
        ``None`` for a format that is only written.
    :param help: one line for ``--help`` and the docs.
    """

    name: str
    write: Callable[[Game, Position], str]
    read: Callable[[Game, str], Position] | None = None
    help: str = ""


class Game(abc.ABC):
    """One patience game with one set of options. Subclass it once per game.

    A subclass sets the class attributes below and implements the abstract methods. Instances are
    cheap and stateless: the state of a game is a :class:`~patience_core.model.Position`, passed in
    and returned, never stored. Methods must be deterministic (no hash or set order, no clock).

    Class attributes a subclass sets:

    * ``name``: the game's name on the command line, lower case and hyphenated (``"escalator"``).
    * ``title``: the display name (``"Escalator"``).
    * ``max_score``: the largest score :meth:`score` returns.
    * ``rules``: the rules text shown by ``patience rules``; plain text, paragraphs.
    * ``options``: the :class:`GameOption` list (default none).
    * ``deal_schemes``: the deal numbering schemes the game accepts (default ``("aisleriot",)``).
    * ``formats``: extra :class:`PositionFormat` text formats (default none).
    * ``tableau_fan``: ``"down"`` (columns, the default) or ``"right"`` (one line per pile), for the
      default :meth:`render`.

    The plugin host checks them when the plugin registers the class (:func:`declaration_problem`):
    a wrong one makes the plugin broken, and it is skipped.

    :param options: option name to value; missing options take their defaults.
    :raises BadOption: for an unknown option name or a value not among its choices.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    max_score: ClassVar[int]
    rules: ClassVar[str]
    options: ClassVar[tuple[GameOption, ...]] = ()
    deal_schemes: ClassVar[tuple[str, ...]] = (AISLERIOT,)
    tableau_fan: ClassVar[str] = "down"
    #: Extra position text formats (see :class:`PositionFormat`); none by default.
    formats: ClassVar[tuple[PositionFormat, ...]] = ()

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        chosen = {spec.name: spec.default for spec in self.options}
        known = {spec.name: spec for spec in self.options}
        given: set[str] = set()
        for raw_key, raw_value in (options or {}).items():
            # Spaces around a name or value are dropped, as on the command line (``-o``).
            key, value = raw_key.strip(), raw_value.strip()
            if key in given:
                raise BadOption(f"option {shown(key, 23)} given twice")
            given.add(key)
            spec = known.get(key)
            if spec is None:
                names = ", ".join(sorted(known)) or "none"
                raise BadOption(f"{self.name} has no option {shown(key, 23)} (options: {names})")
            if value not in spec.choices:
                raise BadOption(
                    f"option {key} takes one of {', '.join(spec.choices)}, not {shown(value, 23)}"
                )
            chosen[key] = value
        #: The option values in force, every option present.
        self.option_values: dict[str, str] = chosen

    # -- layout and dealing ------------------------------------------------------------------

    @property
    @abc.abstractmethod
    def piles(self) -> tuple[PileSpec, ...]:
        """The layout: one :class:`PileSpec` per pile, in position order."""

    def new_deck(self) -> tuple[Card, ...]:
        """The unshuffled deck in Aisleriot's order. Override for decks other than 52 cards."""
        return standard_deck()

    def deal(self, deal: DealNumber) -> Position:
        """The starting position of deal ``deal``.

        The default shuffles :meth:`new_deck` as Aisleriot does (RULES.md Part B §0.3) and hands
        the cards to :meth:`layout`. Games with other deal schemes (``ms``) override this.

        :raises BadDeal: when the game does not accept the deal's scheme.
        """
        if deal.scheme not in self.deal_schemes:
            raise BadDeal(f"{self.name} does not take {deal.scheme} deal numbers")
        return self.layout(aisleriot_shuffle(self.new_deck(), deal.number))

    @abc.abstractmethod
    def layout(self, cards: list[Card]) -> Position:
        """Lay out a shuffled deck: ``cards[0]`` is the top of Aisleriot's shuffled stock, the
        first card dealt. Cards arrive face up; turn face-down cards with ``Card.turned(False)``.
        """

    # -- moves --------------------------------------------------------------------------------

    @abc.abstractmethod
    def legal_moves(self, position: Position) -> list[Move]:
        """Every legal move in ``position``, in a fixed, deterministic order.

        :returns: an empty list when the game is over (won, or no move exists).
        """

    @abc.abstractmethod
    def play(self, position: Position, move: Move) -> Position:
        """Apply a move **known to be legal**, with its automatic follow-ups (auto-flip, auto-play).

        No checking is done; use :meth:`apply` for untrusted moves.
        """

    def apply(self, position: Position, move: Move) -> Position:
        """Apply ``move`` after checking it is legal.

        :raises IllegalMove: when ``move`` is not among :meth:`legal_moves`.
        """
        if move not in self.legal_moves(position):
            raise IllegalMove(f"illegal move {self.move_text(position, move)!r}")
        return self.play(position, move)

    def check_position(self, position: Position) -> None:
        """Check that ``position`` (e.g. read from a file) could belong to this game: one pile per
        layout pile, and exactly the cards of :meth:`new_deck`, each once. Games with more rules
        for what a pile may hold extend it.

        :raises BadSave: with a one-line message naming the first problem.
        """
        if len(position) != len(self.piles):
            raise BadSave(
                f"position has {counted(len(position), 'pile')}; {self.name} has {len(self.piles)}"
            )
        deck: dict[tuple[int, int], int] = {}
        for card in self.new_deck():
            deck[(card.rank, card.suit)] = deck.get((card.rank, card.suit), 0) + 1
        for card in position.cards():
            key = (card.rank, card.suit)
            if deck.get(key, 0) == 0:
                raise BadSave(f"card {card.rank.letter}{card.suit.letter} appears too often")
            deck[key] -= 1
        for (rank, suit), left in deck.items():
            if left:
                missing = Card.of(rank, suit).code
                raise BadSave(
                    f"card {missing} is missing ({counted(sum(deck.values()), 'card')} missing)"
                )

    def position_format(self, name: str) -> PositionFormat | None:
        """The extra text format called ``name``; ``None`` when the game has none of that name."""
        return next((f for f in self.formats if f.name == name), None)

    # -- outcome ------------------------------------------------------------------------------

    @abc.abstractmethod
    def is_won(self, position: Position) -> bool:
        """Whether ``position`` satisfies the game's win test."""

    def is_lost(self, position: Position) -> bool:
        """Lost: not won and no legal move exists (RULES.md Part A, "Won / lost / dead")."""
        return not self.is_won(position) and not self.legal_moves(position)

    @abc.abstractmethod
    def score(self, position: Position) -> int:
        """The score of ``position``, 0..:attr:`max_score`; a pure function of the position."""

    def status(self, position: Position) -> str:
        """One line for the status bar; the default gives the stock count when there is a stock."""
        for i, spec in enumerate(self.piles):
            if spec.kind is PileKind.STOCK:
                return f"Stock left: {len(position[i])}"
        return ""

    # -- text ---------------------------------------------------------------------------------

    def move_text(self, position: Position, move: Move) -> str:
        """The canonical notation of ``move`` (see :mod:`patience_core.engine`)."""
        return format_move(self.piles, move, self.legal_moves(position))

    def parse_move(self, position: Position, text: str) -> Move:
        """Read a move typed by a player.

        :raises BadMoveText: for unreadable or ambiguous text.
        :raises IllegalMove: when the text names no legal move.
        """
        return parse_move(text, self.piles, position, self.legal_moves(position))

    def describe_move(self, position: Position, move: Move) -> str:
        """A sentence for people, e.g. ``"9♥ from p23 to the waste"``; used by hints and logs."""
        if move.kind is MoveKind.DEAL:
            return "deal from the stock"
        assert move.target is not None
        pile = position[move.source]
        card = pile[len(pile) - move.count]
        target = self.piles[move.target]
        if move.count == 1:
            cards = card.code
        elif move.count == 2:
            cards = f"{card.code} and the card on it"
        else:
            cards = f"{card.code} and the {move.count - 1} cards on it"
        return f"{cards} from {self.piles[move.source].name} to {target.name} ({target.kind.value})"

    def render(self, position: Position, paint: Painter) -> list[str]:
        """Draw ``position`` as lines of text, 80 columns wide at most.

        The default draws every non-tableau pile on one line as ``name top-card`` (the stock as a
        count), then the tableau: columns side by side when ``tableau_fan == "down"``, one line per
        pile when ``"right"``. Games with another shape (Escalator's pyramid) override it.

        :param paint: draws one card as two visible characters (see :data:`Painter`).
        """
        lines: list[str] = []
        top: list[str] = []
        tableau: list[int] = []
        for i, spec in enumerate(self.piles):
            pile = position[i]
            if spec.kind is PileKind.TABLEAU:
                tableau.append(i)
            elif spec.kind is PileKind.STOCK:
                top.append(f"{spec.name}:[{len(pile):2d}]")
            else:
                top.append(f"{spec.name}:{paint(pile[-1] if pile else None)}")
        for start in range(0, len(top), 8):
            lines.append("  ".join(top[start : start + 8]))
        if tableau and self.tableau_fan == "right":
            for i in tableau:
                cards = " ".join(paint(c) for c in position[i]) or paint(None)
                lines.append(f"{self.piles[i].name:>3}: {cards}")
        elif tableau:
            lines.append("")
            lines.append(" ".join(f"{self.piles[i].name:>3} " for i in tableau).rstrip())
            depth = max(len(position[i]) for i in tableau)
            for row in range(max(depth, 1)):
                cells = []
                for i in tableau:
                    pile = position[i]
                    if row < len(pile):
                        cells.append(f" {paint(pile[row])} ")
                    elif row == 0:
                        cells.append(f" {paint(None)} ")
                    else:
                        cells.append("    ")
                lines.append(" ".join(cells).rstrip())
        return lines

    # -- helpers for subclasses ---------------------------------------------------------------

    def pile_indices(self, kind: PileKind) -> tuple[int, ...]:
        """The indices of every pile of ``kind``, in layout order."""
        return tuple(i for i, spec in enumerate(self.piles) if spec.kind is kind)

    def option(self, name: str) -> str:
        """The value in force of option ``name``.

        :raises KeyError: for an option the game does not declare.
        """
        return self.option_values[name]


#: A game's name: lower-case letters and digits in words joined by single hyphens, as the command
#: line and saved games take it (``bakers-game``).
GAME_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: The longest game name (a saved game keeps at most this many characters).
GAME_NAME_LIMIT = 64
#: The longest game title: it is a cell of ``patience list``'s table, as wide as the longest
#: title, and a line of ``play`` (the shipped games' titles have 12 characters at most).
TITLE_LIMIT = 60
#: The largest ``max_score`` a game may declare (far above any game's: a score is a count of
#: cards, points or moves, and every message and file shows it in full).
MAX_SCORE_LIMIT = 10**9
#: The deal numbering schemes a game may declare in ``deal_schemes``.
DEAL_SCHEMES = (AISLERIOT, MS)
#: Position format names the core keeps for itself (``patience deal --format``).
CORE_FORMATS = ("text", "json")
_WORD = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


def _is_line(value: object) -> TypeGuard[str]:
    """Whether ``value`` is one non-blank line of printable text (no line break, tab, escape)."""
    return isinstance(value, str) and bool(value.strip()) and value.isprintable()


def _is_text(value: object) -> bool:
    """Whether ``value`` is non-blank printable text, with line breaks and tabs allowed."""
    return (
        isinstance(value, str)
        and bool(value.strip())
        and all(ch in "\n\t" or ch.isprintable() for ch in value)
    )


def _sequence(value: object) -> TypeGuard[tuple[object, ...] | list[object]]:
    return isinstance(value, (tuple, list))


def _entries_problem(
    game: type[Game],
    attribute: str,
    kind: str,
    entry: str,
    problem_of: Callable[[object], str | None],
) -> str | None:
    """What is wrong with a class attribute that is a tuple of named entries (``options``,
    ``formats``): not a tuple or list, an entry ``problem_of`` finds wrong, or a name used
    twice; ``None`` when nothing is.

    :param kind: the entries' class name, for the message (``"GameOption"``).
    :param entry: one entry in words, with its article (``"an option"``).
    """
    entries = getattr(game, attribute, None)
    if not _sequence(entries):
        return f"{attribute} is {shown_answer(entries)}, not a tuple of {kind}"
    names = []
    for item in entries:
        problem = problem_of(item)
        if problem:
            return f"{attribute} {problem}"
        names.append(getattr(item, "name", None))
    if len(set(names)) != len(names):
        return f"{attribute} declares {entry} name twice"
    return None


def _option_problem(option: object) -> str | None:
    """What is wrong with one entry of ``options``, or ``None``."""
    if not isinstance(option, GameOption):
        return f"holds {shown_answer(option)}, not a GameOption"
    if not isinstance(option.name, str) or not _WORD.match(option.name):
        return f"has an option named {shown_answer(option.name)}, not a lower-case hyphenated word"
    where = f"option {option.name!r}"
    choices = option.choices
    if not _sequence(choices) or not choices:
        return f"{where} has choices {shown_answer(choices)}, not a tuple of texts"
    for choice in choices:
        if not _is_line(choice) or choice != choice.strip() or " " in choice:
            return f"{where} has the choice {shown_answer(choice)}, not a word"
    if len(set(choices)) != len(choices):
        return f"{where} lists a choice twice"
    if option.default not in choices:
        return f"{where} has the default {shown_answer(option.default)}, not one of its choices"
    if not isinstance(option.help, str) or (option.help and not option.help.isprintable()):
        return f"{where} has the help {shown_answer(option.help)}, not one line of text"
    return None


def _format_problem(fmt: object) -> str | None:
    """What is wrong with one entry of ``formats``, or ``None``."""
    if not isinstance(fmt, PositionFormat):
        return f"holds {shown_answer(fmt)}, not a PositionFormat"
    if not isinstance(fmt.name, str) or not _WORD.match(fmt.name) or fmt.name in CORE_FORMATS:
        return (
            f"has a format named {shown_answer(fmt.name)}, not a lower-case word other than "
            "text and json"
        )
    where = f"format {fmt.name!r}"
    if not callable(fmt.write):
        return f"{where} has write {shown_answer(fmt.write)}, not a function"
    if fmt.read is not None and not callable(fmt.read):
        return f"{where} has read {shown_answer(fmt.read)}, not a function or None"
    if not isinstance(fmt.help, str) or (fmt.help and not fmt.help.isprintable()):
        return f"{where} has the help {shown_answer(fmt.help)}, not one line of text"
    return None


def declaration_problem(game: type[Game]) -> str | None:
    """What is wrong with the declaration of game class ``game``, or ``None`` when nothing is:
    every class attribute the :class:`Game` API documents must be present and of its kind
    (``name``, ``title``, ``max_score``, ``rules``, ``options``, ``deal_schemes``, ``formats``,
    ``tableau_fan``), and no abstract method may be left unimplemented.

    ``name`` is lower-case letters and digits joined by single hyphens (at most 64 characters);
    ``title`` one line of printable text of at most 60 characters (no line break, tab or other
    control character: it is a cell of ``patience list``'s table); ``rules`` printable text with
    line breaks; ``max_score`` a whole number from 1 to 1,000,000,000.

    :returns: one line naming the attribute and what it holds, e.g. ``title is int 42, not one
        line of text``.
    """
    name = getattr(game, "name", None)
    if not isinstance(name, str) or not GAME_NAME.match(name):
        return (
            f"name is {shown_answer(name)}, not lower-case letters, digits and hyphens "
            "(e.g. 'golf')"
        )
    if len(name) > GAME_NAME_LIMIT:
        return (
            f"name is {shown_answer(name)}, of {len(name):,} characters, not "
            f"{GAME_NAME_LIMIT} at most"
        )
    title = getattr(game, "title", None)
    if not _is_line(title):
        return (
            f"title is {shown_answer(title)}, not one line of text (no line break or control "
            "character)"
        )
    if len(title) > TITLE_LIMIT:
        return (
            f"title is {shown_answer(title)}, of {len(title):,} characters, not {TITLE_LIMIT} "
            "at most (it is a cell of the `patience list` table)"
        )
    max_score = getattr(game, "max_score", None)
    if type(max_score) is not int or not 1 <= max_score <= MAX_SCORE_LIMIT:
        return (
            f"max_score is {shown_answer(max_score)}, not a whole number from 1 to "
            f"{MAX_SCORE_LIMIT:,}"
        )
    rules = getattr(game, "rules", None)
    if not _is_text(rules):
        return (
            f"rules is {shown_answer(rules)}, not a text (line breaks and tabs are the only "
            "control characters it may hold)"
        )
    problem = _entries_problem(game, "options", "GameOption", "an option", _option_problem)
    if problem:
        return problem
    schemes = getattr(game, "deal_schemes", None)
    if not _sequence(schemes) or not schemes or any(s not in DEAL_SCHEMES for s in schemes):
        return (
            f"deal_schemes is {shown_answer(schemes)}, not a tuple of "
            f"{' and '.join(map(repr, DEAL_SCHEMES))}"
        )
    problem = _entries_problem(game, "formats", "PositionFormat", "a format", _format_problem)
    if problem:
        return problem
    fan = getattr(game, "tableau_fan", None)
    if fan not in ("down", "right"):
        return f"tableau_fan is {shown_answer(fan)}, not 'down' or 'right'"
    missing = sorted(getattr(game, "__abstractmethods__", ()))
    if missing:
        return f"it does not implement {', '.join(missing)}"
    return None


@attrs.define
class GameRegistry:
    """The games the installed plugins provide, by name. Passed to ``patience_register_games``.

    A plugin calls :meth:`add` once per game class. Names are unique across all plugins: a second
    claim to a name is refused with a :class:`PluginError` naming both distributions, and a
    plugin that registers one name twice is refused too (it is broken, not a rival).
    """

    _games: dict[str, type[Game]] = attrs.field(factory=dict)
    _providers: dict[str, str] = attrs.field(factory=dict)
    _searches: dict[str, type[GameSearch]] = attrs.field(factory=dict)
    #: The distribution whose hook is running now; the plugin host sets it.
    current_plugin: str = "patience-core"

    def add(self, game: type[Game], search: type[GameSearch] | None = None) -> None:
        """Register ``game`` (a :class:`Game` subclass) under ``game.name``.

        :param search: the game's search helpers for the solver (a
            :class:`~patience_core.games.GameSearch` subclass); default: the generic
            :class:`~patience_core.games.GameSearch`, which needs nothing but the rules.
        :raises PluginError: when ``search`` is not a GameSearch subclass, the class is not a
            Game subclass, its declaration is wrong
            (:func:`declaration_problem`: a class attribute missing or of the wrong kind, an
            abstract method not implemented), or the name is already taken (by this plugin
            too: a game registered twice).
        """
        if not (isinstance(game, type) and issubclass(game, Game)):
            raise PluginError(
                f"{self.current_plugin}: {shown_answer(game)} is not a patience Game class"
            )
        problem = declaration_problem(game)
        if problem:
            raise PluginError(f"game class {game.__name__}: {problem}")
        if search is not None and not (isinstance(search, type) and issubclass(search, GameSearch)):
            raise PluginError(
                f"game class {game.__name__}: its search is {shown_answer(search)}, "
                "not a GameSearch class"
            )
        name = game.name
        if name in self._games and self._providers[name] == self.current_plugin:
            raise PluginError(f"it registers the game {name!r} twice")
        if name in self._games:
            raise PluginError(
                f"game {name!r} is provided by both {self._providers[name]} and "
                f"{self.current_plugin}; keeping {self._providers[name]}"
            )
        self._games[name] = game
        self._providers[name] = self.current_plugin
        if search is not None:
            self._searches[name] = search

    def search(self, name: str) -> type[GameSearch]:
        """The search class registered beside game ``name``; :class:`GameSearch` (the generic
        one) for a game registered without one, or a name not registered."""
        return self._searches.get(name, GameSearch)

    def get(self, name: str) -> type[Game]:
        """The game class registered as ``name`` (case does not matter: names are lower case).

        :raises UnknownGame: with the list of known games.
        """
        game = self._games.get(name) or self._games.get(name.strip().lower())
        if game is None:
            known = ", ".join(sorted(self._games)) or "none installed"
            raise UnknownGame(f"unknown game {shown(name, 23)} (known games: {known})")
        return game

    def remove_provider(self, distribution: str) -> list[str]:
        """Unregister every game ``distribution`` registered (a plugin that failed half way).

        :returns: the names removed, sorted.
        """
        names = sorted(n for n, d in self._providers.items() if d == distribution)
        for name in names:
            del self._games[name]
            del self._providers[name]
            self._searches.pop(name, None)
        return names

    def provider(self, name: str) -> str:
        """The distribution that registered game ``name``."""
        return self._providers[name]

    def names(self) -> list[str]:
        """Every registered game name, sorted."""
        return sorted(self._games)

    def __iter__(self) -> Iterator[type[Game]]:
        return iter(self._games[name] for name in self.names())

    def __contains__(self, name: object) -> bool:
        return name in self._games

    def __len__(self) -> int:
        return len(self._games)


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """Read ``NAME=VALUE`` strings (``--option`` values) into a dict.

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


def wrong_answer(
    game: Game, hook: str, answer: object, expected: str, provider: str | None = None
) -> PluginError:
    """The error for a game whose ``hook`` answered with something of the wrong kind: one line
    naming the game, its distribution, the answer (its type and a little of its value) and what
    was expected.

    :param provider: the distribution; default: looked up from the game class's package.
    :returns: the :class:`PluginError` to raise.
    """
    if provider is None:
        provider = distribution_of(game)
    return PluginError(
        f"the {game.name} plugin ({provider}) is broken: {hook} returned "
        f"{shown_answer(answer)}, not {expected}"
    )


def _pile_count(game: Game) -> int:
    """``len(game.piles)``, kept on the game (a layout does not change), since
    :func:`checked_moves` asks it for every list of moves."""
    kept = getattr(game, "__dict__", None)
    count = kept.get("_patience_pile_count") if kept is not None else None
    if count is None:
        count = len(game.piles)
        if kept is not None:
            kept["_patience_pile_count"] = count
    return int(count)


def _is_index(value: object, piles: int) -> bool:
    return type(value) is int and 0 <= value < piles


def _move_problem(move: Move, piles: int) -> str:
    """What is wrong with ``move``, known to be wrong, in a game of ``piles`` piles (a pile
    that does not exist, a count of no cards)."""
    if move.kind is not MoveKind.TRANSFER and move.kind is not MoveKind.DEAL:
        return f"a move of kind {shown_answer(move.kind)}, not a MoveKind"
    there = f"the game has {counted(piles, 'pile')}, 0..{piles - 1}"
    if move.kind is MoveKind.DEAL:
        return f"a deal from pile {_shown_index(move.source)}, which does not exist ({there})"
    what = f"a transfer from pile {_shown_index(move.source)} to pile {_shown_index(move.target)}"
    for role, index in (("source", move.source), ("target", move.target)):
        if not _is_index(index, piles):
            return f"{what}, whose {role} pile {_shown_index(index)} does not exist ({there})"
    return f"{what} of {_shown_index(move.count)} cards, not 1 or more"


def checked_moves(game: Game, legal: object, provider: str | None = None) -> list[Move]:
    """``legal`` (what ``game.legal_moves`` answered) as a list of moves, each naming piles
    that exist (``0 <= index < len(game.piles)``) and, for a transfer, moving 1 card or more.

    :raises PluginError: (:func:`wrong_answer`) when it is not a list or tuple of :class:`Move`,
        or a move names a pile that does not exist (the message gives the pile index and the
        number of piles).
    """
    if not isinstance(legal, (list, tuple)):
        raise wrong_answer(game, "legal_moves", legal, "a list of moves", provider)
    if not legal:
        return []
    piles = _pile_count(game)
    transfer, deal = MoveKind.TRANSFER, MoveKind.DEAL
    for move in legal:
        if not isinstance(move, Move):
            raise wrong_answer(game, "legal_moves", move, "a Move, in its list", provider)
        # The common case inline: simulate asks this of every position it plays.
        source, kind = move.source, move.kind
        if kind is transfer:
            target, count = move.target, move.count
            if (
                type(source) is int
                and type(target) is int
                and type(count) is int
                and 0 <= source < piles
                and 0 <= target < piles
                and count >= 1
            ):
                continue
        elif kind is deal and type(source) is int and 0 <= source < piles:
            continue
        if provider is None:
            provider = distribution_of(game)
        raise PluginError(
            f"the {game.name} plugin ({provider}) is broken: legal_moves returned "
            f"{_move_problem(move, piles)}"
        )
    return list(legal)


_PILE_NAME = re.compile(r"^[a-z]+[0-9]*$")


def checked_piles(game: Game, piles: object, provider: str | None = None) -> tuple[PileSpec, ...]:
    """``piles`` (what ``game.piles`` answered) as a tuple of :class:`PileSpec`: at least one,
    each of a :class:`PileKind`, named with lower-case letters then digits (``t1``), no name
    twice.

    :raises PluginError: (:func:`wrong_answer`) naming the pile that is wrong.
    """
    if not isinstance(piles, (list, tuple)) or not piles:
        raise wrong_answer(game, "piles", piles, "a tuple of PileSpec", provider)
    seen: set[str] = set()
    for spec in piles:
        if not isinstance(spec, PileSpec):
            raise wrong_answer(game, "piles", spec, "a PileSpec, in its tuple", provider)
        if not isinstance(spec.name, str) or not _PILE_NAME.match(spec.name):
            raise wrong_answer(
                game, "piles", spec.name, "a pile name of lower-case letters then digits", provider
            )
        if not isinstance(spec.kind, PileKind):
            raise wrong_answer(game, "piles", spec.kind, f"a PileKind for {spec.name}", provider)
        if spec.name in seen:
            raise wrong_answer(game, "piles", spec.name, "a pile name used once", provider)
        seen.add(spec.name)
    return tuple(piles)


def checked_position(
    game: Game, hook: str, position: object, provider: str | None = None, whole: bool = True
) -> Position:
    """``position`` (what ``game.<hook>`` answered, e.g. ``deal``) as a :class:`Position` of
    the game's shape: one pile per pile of ``game.piles``, each a tuple of :class:`Card`.

    :param whole: ``False`` checks only that it is a :class:`Position`, for the positions of
        each move of ``simulate`` and of the greedy player's look-ahead: checked whole, they
        cost 12 to 15% of its games a second (the deal is checked whole; the conformance
        kit checks a game's positions fully).
    :raises PluginError: (:func:`wrong_answer`) naming what is wrong, e.g. ``deal returned a
        position of 5 piles, but piles lists 9``.
    """
    if not isinstance(position, Position):
        raise wrong_answer(game, hook, position, "a Position", provider)
    if not whole:
        return position
    piles = len(game.piles)
    if len(position) != piles:
        if provider is None:
            provider = distribution_of(game)
        raise PluginError(
            f"the {game.name} plugin ({provider}) is broken: {hook} returned a position of "
            f"{counted(len(position), 'pile')}, but piles lists {piles}"
        )
    for index, pile in enumerate(position.piles):
        if not isinstance(pile, tuple):
            raise wrong_answer(game, hook, pile, f"a tuple of cards as pile {index}", provider)
        for card in pile:
            if not isinstance(card, Card):
                raise wrong_answer(game, hook, card, f"a Card, in pile {index}", provider)
    return position


def check_answers(
    game: Game,
    position: Position,
    provider: str | None = None,
    ask: Callable[..., Any] | None = None,
) -> None:
    """Ask ``game`` what every command asks of a position (legal moves and their texts, score,
    won, lost, status) and check the kinds of the answers.

    :param ask: calls a hook, ``ask("score", position)``; by default the game's method itself
        (the plugin host passes one that names a hook that raises).
    :raises PluginError: (:func:`wrong_answer`) for an answer of the wrong kind.
    """
    if ask is None:

        def ask(hook: str, *args: object) -> Any:
            return getattr(game, hook)(*args)

    for move in checked_moves(game, ask("legal_moves", position), provider):
        text = ask("move_text", position, move)
        if not isinstance(text, str) or not text.strip():
            raise wrong_answer(game, "move_text", text, "a move text", provider)
    checked_score(game, ask("score", position), provider)
    checked_flag(game, "is_won", ask("is_won", position), provider)
    checked_flag(game, "is_lost", ask("is_lost", position), provider)
    status = ask("status", position)
    if not isinstance(status, str):
        raise wrong_answer(game, "status", status, "a text", provider)


def checked_score(game: Game, score: object, provider: str | None = None) -> int:
    """``score`` (what ``game.score`` answered), a whole number in 0..``game.max_score``.

    :raises PluginError: (:func:`wrong_answer`) for anything else.
    """
    if type(score) is not int or not 0 <= score <= game.max_score:
        raise wrong_answer(game, "score", score, f"a whole number in 0..{game.max_score}", provider)
    return score


def checked_flag(game: Game, hook: str, answer: object, provider: str | None = None) -> bool:
    """``answer`` (what ``game.<hook>`` answered, e.g. ``is_won``), ``True`` or ``False``.

    :raises PluginError: (:func:`wrong_answer`) for anything else.
    """
    if not isinstance(answer, bool):
        raise wrong_answer(game, hook, answer, "True or False", provider)
    return answer


def distribution_of(game: Game) -> str:
    """The installed distribution whose package holds ``game``'s class (for messages), or the
    package's name when no distribution claims it."""
    from importlib import metadata

    top = type(game).__module__.split(".")[0]
    try:
        owners = metadata.packages_distributions().get(top)
    except Exception:
        owners = None
    return owners[0] if owners else top


def shown_answer(answer: object) -> str:
    """A plugin's answer as a message shows it: its type and a little of its value, on one line,
    e.g. ``str 'lots'``. It never fails, whatever the answer: a whole number too long to show is
    given by its sign and size (``int of about 5000 digits``, ``negative int of ...``), an
    object whose ``repr`` fails by its type alone."""
    try:
        kind = type(answer).__name__
    except Exception:  # a metaclass with a __name__ of its own
        kind = "object"
    if not isinstance(kind, str):
        kind = "object"
    if isinstance(answer, int) and abs(answer).bit_length() > _SHOWN_BITS:
        sign = "negative " if answer < 0 else ""
        return f"{sign}{kind} of about {digits_of(answer)} digits"
    text = _repr_of(answer)
    return kind if text is None else f"{kind} {text}"


#: The bits of the largest whole number a message writes out (2**132 has 40 digits).
_SHOWN_BITS = 132


def _repr_of(value: object) -> str | None:
    """``repr(value)`` on one line (control characters as ``?``), cut to 40 characters and
    ``...``; ``None`` when the plugin's ``__repr__`` fails (with any exception but Ctrl-C)."""
    try:
        text = repr(value)
    except KeyboardInterrupt:
        raise
    except BaseException:
        return None
    if not isinstance(text, str):
        return None
    text = "".join(ch if ch.isprintable() else "?" for ch in text[:41])
    return text[:40] + "..." if len(text) > 40 else text


def _shown_index(value: object) -> str:
    """A pile index or card count of a plugin's move as a message shows it: as ``repr`` shows
    it, a whole number too long to show by its size (:func:`shown_answer`)."""
    if isinstance(value, int) and abs(value).bit_length() > _SHOWN_BITS:
        return shown_answer(value)
    text = _repr_of(value)
    return shown_answer(value) if text is None else text
