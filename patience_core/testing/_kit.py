"""The conformance kit: checks any game plugin runs against itself, and a pytest plugin.

Layer 5 (it drives the command line too). patience-core registers this module as a pytest plugin
(entry point ``pytest11``), so a game plugin's tests get it just by installing patience-core. The
simplest use, one class in the plugin's tests::

    from patience_core.testing._kit import GameConformance

    class TestConformance(GameConformance):
        game = "golf"                      # the name your plugin registers
        options = {"wrap": "yes"}          # optional: game options to test with

That runs, against the installed game (found through its entry point, as the CLI finds it):
deterministic deals per deal number, different for different numbers; every deal holds exactly
the cards of ``new_deck()`` (none lost or duplicated by ``layout``); deals, legal moves (in
order) and scores the same in new processes with other ``PYTHONHASHSEED`` values; card
conservation along random walks; every generated move applies, changes the position, is listed
once and reads back from its text; applying an illegal move is refused; undo/redo round trips;
save/load round trips; the score stays within 0..max_score; won/lost agree with the legal moves;
a deal the solver wins ends exactly at the win with the maximum score; the space the solver
searches (the game's own, or the default one over its search hooks) offers every legal move and
its keys merge only positions with the same future; the solver's verdicts with the game's
shortcuts do not contradict those of the plain search; the rules text is present; and the CLI can
``deal``, ``play`` (scripted through standard input, then ``--resume``) and ``simulate`` the game.

The lower-level checks (:func:`check_deal`, :func:`check_random_walk`, :func:`check_position`,
:func:`check_search_space`, :func:`check_key_merges`, :func:`plain_game`,
:func:`check_winning_line`, :func:`walk_record`,
:func:`random_walk_property`, :func:`read_golden`, :func:`assert_matches_golden`) can be used on
their own. Each raises ``AssertionError`` with a message naming the deal, step and move when the
game breaks a rule of the :class:`~patience_core.games.Game` contract.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from patience_core.engine import DealNumber, GRand, counted
from patience_core.errors import BadSave
from patience_core.games import Game
from patience_core.model import Card, Move, Position

__all__ = [
    "GameConformance",
    "assert_matches_golden",
    "check_deal",
    "check_key_merges",
    "check_position",
    "check_random_walk",
    "check_search_space",
    "check_winning_line",
    "load_game",
    "plain_game",
    "play_winning_line",
    "provider_of",
    "random_walk_property",
    "read_golden",
    "walk_record",
]


def load_game(name: str, options: Mapping[str, str] | None = None) -> Game:
    """Load game ``name`` through the installed plugins, as the CLI does (proves discovery through
    the entry point, not only importability).

    :raises UnknownGame: when no installed plugin provides ``name``.
    """
    from patience_core.plugins import PluginHost

    return PluginHost().load().game(name, options)


def provider_of(name: str) -> str | None:
    """The distribution whose entry point registered game ``name``, or ``None`` when no installed
    plugin provides it. A plugin's first test: proves it is discovered, not only importable."""
    from patience_core.plugins import PluginHost

    host = PluginHost().load()
    return host.games.provider(name) if name in host.games else None


def _identity(position: Position) -> Counter[tuple[int, int]]:
    return Counter((card.rank, card.suit) for card in position.cards())


def _card_difference(found: Counter[tuple[int, int]], deck: Counter[tuple[int, int]]) -> str:
    """The cards ``found`` lacks and holds beyond ``deck``, by name: ``missing 7h; extra As``
    (``As x2`` for a card two too many)."""

    def names(cards: Counter[tuple[int, int]]) -> str:
        return ", ".join(
            Card.of(rank, suit).code + (f" x{count}" if count > 1 else "")
            for (rank, suit), count in sorted(
                cards.items(), key=lambda item: (item[0][1], item[0][0])
            )
        )

    missing, extra = deck - found, found - deck
    parts = [
        f"missing {names(missing)}" if missing else "",
        f"extra {names(extra)}" if extra else "",
    ]
    return "; ".join(part for part in parts if part)


def check_deal(game: Game, deal: int | DealNumber) -> Position:
    """Assert that deal ``deal`` holds exactly the cards of :meth:`Game.new_deck`, each as often
    as the deck has it, across all piles (face up or down does not matter), in one pile per
    layout pile: a :meth:`Game.layout` that loses or duplicates a card fails here, which a walk
    (that only checks the cards a deal started with stay) cannot see.

    :returns: the deal's position.
    :raises AssertionError: naming the deal and the missing and extra cards, e.g. ``deal 1 does
        not hold the cards of new_deck(): missing 7h; extra As``.
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    cards = game.new_deck()
    odd = [card for card in cards if not isinstance(card, Card)]
    assert not odd, f"new_deck() holds {odd[0]!r}, not a Card"
    position = game.deal(number)
    assert isinstance(position, Position), f"deal {number} is {position!r}, not a Position"
    assert len(position) == len(game.piles), (
        f"deal {number} has {counted(len(position), 'pile')}; the layout (piles) has "
        f"{len(game.piles)}"
    )
    deck: Counter[tuple[int, int]] = Counter((card.rank, card.suit) for card in cards)
    found = _identity(position)
    assert found == deck, (
        f"deal {number} does not hold the cards of new_deck(): {_card_difference(found, deck)}"
    )
    return position


def check_position(game: Game, position: Position, deck: Counter[tuple[int, int]]) -> None:
    """Assert the invariants of one position.

    :param deck: the multiset of ``(rank, suit)`` the game started with.
    :raises AssertionError: when a card is lost or duplicated, the pile count is wrong, a pile
        is not a tuple of :class:`Card`, :meth:`Game.solver_key` cannot be hashed,
        :meth:`Game.check_position` refuses the position (play reached it, so a position file
        holding it must be read), the score is out of 0..max_score, or won/lost and the legal
        moves disagree.
    """
    assert len(position) == len(game.piles), "position has the wrong number of piles"
    for index, pile in enumerate(position.piles):
        assert isinstance(pile, tuple), (
            f"pile {index} is a {type(pile).__name__}, not a tuple: positions hold tuples of cards"
        )
        odd_card = next((card for card in pile if not isinstance(card, Card)), None)
        assert odd_card is None, f"pile {index} holds {odd_card!r}, not a Card"
    key = game.solver_key(position)
    try:
        hash(key)
    except TypeError:
        raise AssertionError(
            f"solver_key returned a {type(key).__name__}, which cannot be hashed: return a "
            "tuple, bytes, text or number (the solver keeps keys in a table)"
        ) from None
    found = _identity(position)
    assert found == deck, f"cards lost or duplicated: {_card_difference(found, deck)}"
    try:
        game.check_position(position)
    except BadSave as exc:
        raise AssertionError(f"check_position refuses a position play reached: {exc}") from None
    score = game.score(position)
    assert type(score) is int, f"score returned {score!r}, not a whole number"
    assert 0 <= score <= game.max_score, f"score {score} outside 0..{game.max_score}"
    legal = game.legal_moves(position)
    odd = [move for move in legal if not isinstance(move, Move)]
    assert not odd, f"legal_moves returned {odd[0]!r} in its list, not a Move"
    won = game.is_won(position)
    assert isinstance(won, bool), f"is_won returned {won!r}, not True or False"
    if won:
        assert not game.is_lost(position), "a won position is also lost"
    else:
        assert game.is_lost(position) == (not legal), "is_lost disagrees with the legal moves"


def check_random_walk(game: Game, deal: int | DealNumber, seed: int, steps: int = 150) -> Position:
    """Deal ``deal`` and play up to ``steps`` random legal moves, checking every step.

    Checks the deal (:func:`check_deal`: exactly the cards of :meth:`Game.new_deck`), then at each
    step: :func:`check_position`; every legal move text reads back to the same move
    (:meth:`Game.parse_move` of :meth:`Game.move_text`); the chosen move is accepted by
    :meth:`Game.apply` and gives the same position as :meth:`Game.play`; dealing twice gives equal
    positions.

    :param seed: seeds the move choices (32-bit).
    :returns: the last position reached.
    :raises AssertionError: on the first broken invariant.
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    position = check_deal(game, number)
    assert position == game.deal(number), f"deal {number} is not deterministic"
    deck = _identity(position)
    rand = GRand(seed & 0xFFFFFFFF)
    for step in range(steps):
        check_position(game, position, deck)
        legal = game.legal_moves(position)
        if not legal:
            break
        assert len(set(legal)) == len(legal), f"deal {number} step {step}: duplicate legal moves"
        for move in legal:
            text = game.move_text(position, move)
            back = game.parse_move(position, text)
            assert back == move, f"deal {number} step {step}: {text!r} reads back as {back}"
        move = legal[rand.int_range(0, len(legal))]
        after = game.apply(position, move)
        assert after == game.play(position, move), f"deal {number} step {step}: apply != play"
        assert after != position, f"deal {number} step {step}: move {move} changed nothing"
        position = after
    check_position(game, position, deck)
    return position


def check_search_space(game: Game, deal: int | DealNumber, seed: int, steps: int = 150) -> int:
    """Check the space the solver searches against the game's own rules along a random walk:
    the game's :meth:`Game.search_space`, or where it has none (or it returns ``None``) the
    default space over :meth:`Game.solver_moves`, :meth:`Game.forced_move` and
    :meth:`Game.solver_key`. So a game's search hooks are checked too.

    At each position of the walk:

    * every child step maps (:meth:`SearchSpace.moves`) to legal moves; the child agrees on
      won-ness with the position they lead to, and has the same :meth:`SearchSpace.key` as the
      start of that position's own search space (so keys must depend on the state only, not on
      the position a space was made from);
    * every legal move's result, or that result after its :meth:`Game.forced_move` chain, has
      the same :meth:`Game.solver_key` as some child's position or as the position itself (the
      space leaves out only moves the solver's table would skip anyway; any other omission would
      make "dead" a lie); not checked for the default space of a game that overrides
      :meth:`Game.solver_moves`, which may leave out moves no winning line needs;
    * states with equal keys agree on won-ness, on the keys of their children and on the
      number of legal moves of their positions (a key that merges states with different futures
      would make "dead" a lie too; positions that differ only by interchangeable piles have as
      many moves).

    :param seed: seeds the move choices (32-bit); every few steps the walk takes a move into an
        empty pile when there is one, where search spaces most often cut corners.
    :returns: the number of positions checked.
    :raises AssertionError: naming the deal, step and move, on the first disagreement.
    """
    from patience_core.games import PositionSpace
    from patience_core.solve import space_for

    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    position = game.deal(number)
    rand = GRand(seed & 0xFFFFFFFF)
    checked = 0
    futures: dict[Any, tuple[bool, frozenset[Any], int]] = {}
    for step in range(steps):
        legal = game.legal_moves(position)
        space = space_for(game, position)
        checked += 1
        where = f"deal {number} step {step}"
        state, _ = space.start()
        # The start may be a few moves on (forced moves a space plays first).
        prefix = space.moves([])
        base = position
        for move in prefix:
            base = game.play(base, move)
        reached = {game.solver_key(base)}
        for child_step, child, _cost in space.children(state):
            after = base
            for move in space.moves([child_step])[len(prefix) :]:
                text = game.move_text(after, move) if move in game.legal_moves(after) else ""
                assert text, f"{where}: the search space plays {move}, which is not legal"
                after = game.play(after, move)
            assert space.is_won(child) == game.is_won(after), f"{where}: won differs"
            own = space_for(game, after)
            assert space.key(child) == own.key(own.start()[0]), (
                f"{where}: the child for {text!r} is not the position it leads to"
            )
            reached.add(game.solver_key(after))
            grandchildren = frozenset(space.key(c) for _s, c, _n in space.children(child))
            future = (space.is_won(child), grandchildren, len(game.legal_moves(after)))
            seen = futures.setdefault(space.key(child), future)
            assert seen == future, (
                f"{where}: the child for {text!r} has the key of a state with another future ("
                + (
                    f"{seen[2]} legal moves there, {future[2]} here"
                    if seen[2] != future[2]
                    else "other results of their moves"
                )
                + "): the key must tell apart positions that play differently"
            )
        # Game.solver_moves may leave out moves no winning line needs (the game's own claim,
        # which no walk can check); every other space must offer them all.
        every_move = (
            not isinstance(space, PositionSpace) or type(game).solver_moves is Game.solver_moves
        )
        for move in game.legal_moves(base) if every_move else ():
            after = game.play(base, move)
            if game.solver_key(after) in reached:
                continue
            while (forced := game.forced_move(after)) is not None and not game.is_won(after):
                after = game.play(after, forced)
            assert game.solver_key(after) in reached, (
                f"{where}: the search space has no child for {game.move_text(base, move)!r}"
            )
        if not legal:
            break
        into_empty = [m for m in legal if m.target is not None and not position[m.target]]
        choices = into_empty if into_empty and rand.int_range(0, 4) == 0 else legal
        position = game.play(position, choices[rand.int_range(0, len(choices))])
    return checked


def check_key_merges(game: Game, deal: int | DealNumber, nodes: int = 2000) -> int:
    """Check that the keys of the space the solver searches merge only states that play alike,
    over the first ``nodes`` states of a breadth-first search from ``deal`` (the walks of
    :func:`check_search_space` seldom meet two different states with one key; a search from
    the deal meets many).

    Each time the search reaches a state whose key an earlier, different state had, both must
    agree on won-ness, on their number of children and on their children's keys. States that
    differ only by interchangeable piles do (with canonical keys); a key that leaves out what
    tells two positions apart (a column's height without its cards, say) seldom does, and it
    would make the solver's "dead" a lie.

    :param nodes: distinct keys searched at most.
    :returns: the number of merged pairs compared.
    :raises AssertionError: naming the deal, on the first pair that disagrees.
    """
    from collections import deque

    from patience_core.solve import space_for

    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    space = space_for(game, game.deal(number))
    start, _ = space.start()

    def future(state: Any) -> tuple[bool, int, frozenset[Any]]:
        children = [space.key(child) for _step, child, _cost in space.children(state)]
        return space.is_won(state), len(children), frozenset(children)

    # key -> [the first state with it, its future (None until needed)]
    first: dict[Any, list[Any]] = {space.key(start): [start, None]}
    queue = deque([start])
    compared = 0
    while queue and len(first) < nodes:
        state = queue.popleft()
        for _step, child, _cost in space.children(state):
            key = space.key(child)
            seen = first.get(key)
            if seen is None:
                first[key] = [child, None]
                queue.append(child)
                continue
            if seen[0] == child:
                continue
            if seen[1] is None:
                seen[1] = future(seen[0])
            mine = future(child)
            compared += 1
            if mine != seen[1]:
                what = (
                    "one is won, the other not"
                    if mine[0] != seen[1][0]
                    else f"{seen[1][1]} and {mine[1]} moves"
                    if mine[1] != seen[1][1]
                    else "their moves lead to positions of other keys"
                )
                raise AssertionError(
                    f"deal {number}: two different positions have the same key but play "
                    f"differently ({what}): the key (solver_key, or the search space's) "
                    "must tell apart positions with different futures"
                )
    return compared


def walk_record(game: Game, deal: int | DealNumber, steps: int) -> list[str]:
    """What a process sees along a walk from ``deal``: at each step the legal move texts in
    :meth:`Game.legal_moves` order and the score; the walk takes the move whose index a
    :class:`GRand` seeded with the deal's number picks. Equal in every process for a
    deterministic game (any ``PYTHONHASHSEED``).

    :returns: one line per step.
    """
    number = deal if isinstance(deal, DealNumber) else DealNumber(deal)
    position = game.deal(number)
    rand = GRand(number.number & 0xFFFFFFFF)
    lines: list[str] = []
    for _ in range(steps):
        legal = game.legal_moves(position)
        lines.append(
            " | ".join(game.move_text(position, m) for m in legal) + f" = {game.score(position)}"
        )
        if not legal:
            break
        position = game.play(position, legal[rand.int_range(0, len(legal))])
    return lines


def _walk_records_elsewhere(
    name: str, options: Mapping[str, str], deals: Sequence[int], steps: int, hash_seed: str
) -> list[list[str]]:
    """:func:`walk_record` of each deal, made by a new Python process with ``PYTHONHASHSEED``
    set to ``hash_seed``.

    :raises AssertionError: when that process fails.
    """
    import json
    import os
    import subprocess
    import sys

    script = (
        "import json, sys\n"
        "from patience_core.testing._kit import load_game, walk_record\n"
        "name, options, deals, steps = json.loads(sys.argv[1])\n"
        "game = load_game(name, options)\n"
        "print(json.dumps([walk_record(game, d, steps) for d in deals]))\n"
    )
    argument = json.dumps([name, dict(options), list(deals), steps])
    environ = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", script, argument],
        capture_output=True,
        text=True,
        env=environ,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"PYTHONHASHSEED={hash_seed}: {done.stderr.strip()[-500:]}"
    records: list[list[str]] = json.loads(done.stdout)
    return records


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
    assert code == 0, err
    won = f"You won! Score {game.max_score}/{game.max_score}."
    assert won in out, f"{game_name} deal {deal}: play did not say {won!r}"
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


# -- the conformance kit ------------------------------------------------------------------------


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


#: The number of deals all proved dead, none won, at which
#: :meth:`GameConformance.test_solved_deal_ends_won` fails instead of skipping: a game that
#: cannot win even one deal in that many is almost surely wrong about its wins.
ALL_DEAD_DEALS = 500

#: The :class:`Game` methods that let the solver skip work: each must keep every win.
SHORTCUTS = ("forced_move", "solver_moves", "is_dead", "search_space", "find_win")


def plain_game(game: Game) -> Game:
    """``game`` without its solver shortcuts (:data:`SHORTCUTS`): a copy whose class puts
    :class:`Game`'s defaults back, so the solver searches every legal move, one at a time, with
    no forced move, no proof of ``dead`` but the exhausted search, and no win finder.
    ``solver_key`` and ``order_moves`` are kept (checked along random walks, and order changes
    no verdict).

    :returns: a new game object of a subclass of ``type(game)``; ``game`` is left as it is.
    """
    import copy

    cls = type(game)
    defaults = {name: getattr(Game, name) for name in SHORTCUTS}
    plain_cls = type(f"Plain{cls.__name__}", (cls,), {"__slots__": (), **defaults})
    plain = copy.copy(game)
    plain.__class__ = plain_cls
    return plain


class GameConformance:
    """Subclass in a game plugin's tests, setting :attr:`game`, to run the conformance kit.

    Class attributes:

    * ``game``: the game name to test (required).
    * ``options``: game options to test with (default: the game's defaults).
    * ``deals``: deal numbers used by the checks (default five, including 0 and 2**32 - 1).
    * ``walk_steps``: moves per random walk (default 120).
    * ``solve_seconds``, ``solve_total_seconds``: the solver's CPU seconds per deal and in all
      for :meth:`test_solved_deal_ends_won` (default 0.5 and 10); ``solve_seconds`` also per
      search of :meth:`test_shortcuts_keep_the_verdicts`.
    """

    game: str = ""
    options: Mapping[str, str] = {}
    deals: tuple[int, ...] = (0, 1, 2, 12345, 2**32 - 1)
    walk_steps: int = 120
    solve_seconds: float = 0.5
    solve_total_seconds: float = 10.0

    # -- helpers ----------------------------------------------------------------------------

    def make_game(self) -> Game:
        """The game under test, loaded through the installed plugins."""
        assert self.game, "set `game = '<name>'` on your GameConformance subclass"
        return load_game(self.game, self.options)

    def _option_args(self) -> list[str]:
        args: list[str] = []
        for name, value in self.options.items():
            args += ["--option", f"{name}={value}"]
        return args

    def _walk_texts(self, game: Game, deal: int, steps: int) -> tuple[list[str], Position]:
        position = game.deal(DealNumber(deal))
        rand = GRand(deal)
        texts: list[str] = []
        for _ in range(steps):
            legal = game.legal_moves(position)
            if not legal:
                break
            move = legal[rand.int_range(0, len(legal))]
            texts.append(game.move_text(position, move))
            position = game.play(position, move)
        return texts, position

    # -- the checks -------------------------------------------------------------------------

    def test_discovered_through_entry_point(self) -> None:
        """The game is found through the ``patience`` entry-point group, not only importable."""
        from patience_core.plugins import PluginHost

        host = PluginHost().load()
        assert self.game in host.games, (
            f"{self.game!r} is not registered by any installed plugin"
            + "".join(f"; {problem}" for problem in host.problems)
        )
        assert not [p for p in host.problems if self.game in p], host.problems

    def test_declaration(self) -> None:
        """Name, title, rules text, max score, unique pile names, options with valid defaults
        (every class attribute as the plugin host checks it when it loads the plugin:
        :func:`~patience_core.games.declaration_problem`)."""
        from patience_core.games import declaration_problem

        game = self.make_game()
        problem = declaration_problem(type(game))
        assert problem is None, f"game class {type(game).__name__}: {problem}"
        assert game.name == self.game
        assert game.title.strip()
        assert len(game.rules.strip()) >= 40, "the rules text is missing or too short"
        assert isinstance(game.max_score, int) and game.max_score > 0
        names = [spec.name for spec in game.piles]
        assert len(set(names)) == len(names), f"pile names repeat: {names}"
        for spec in game.piles:
            assert spec.name.isascii() and spec.name[:1].isalpha() and spec.name.islower()
        for option in type(game).options:
            assert option.default in option.choices

    def test_deals_hold_the_deck(self) -> None:
        """Every deal of :attr:`deals` holds exactly the cards of ``new_deck()``, each as often
        as the deck has it, across all piles (:func:`check_deal`): no card lost or
        duplicated by ``layout``."""
        game = self.make_game()
        for deal in self.deals:
            check_deal(game, deal)

    def test_deals_are_deterministic(self) -> None:
        """The same deal number gives the same position, from a fresh game object too."""
        game = self.make_game()
        starts = set()
        for deal in self.deals:
            first = game.deal(DealNumber(deal))
            assert first == self.make_game().deal(DealNumber(deal)), (
                f"deal {deal} differs from one game object to the next: a deal must depend on "
                "its number alone (shuffle with the cards deal() hands to layout, not random)"
            )
            starts.add(first)
        assert len(starts) == len(self.deals), "different deal numbers gave the same deal"

    def test_random_walks(self) -> None:
        """Card conservation, moves apply and read back, score range, won/lost consistency."""
        game = self.make_game()
        for deal in self.deals:
            check_random_walk(game, deal, seed=deal ^ 0x5EED, steps=self.walk_steps)

    def test_search_space(self) -> None:
        """The space the solver searches (the game's own, or the default one over its search
        hooks: solver_moves, forced_move, solver_key) offers every legal move and its keys merge
        only positions with the same future: the solver's "dead" relies on both
        (:func:`check_search_space` along random walks, :func:`check_key_merges` over a
        breadth-first search from each deal)."""
        game = self.make_game()
        for deal in self.deals:
            check_search_space(game, deal, seed=deal ^ 0x5EA5, steps=self.walk_steps)
            check_key_merges(game, deal)

    def test_same_in_every_process(self) -> None:
        """Deals, legal moves (their order too) and scores are the same in every process: two
        new processes with different ``PYTHONHASHSEED`` walk the same lines as this one (a
        move list built from a set, for one, would differ and make simulate's rows differ)."""
        game = self.make_game()
        deals = self.deals[:3]
        steps = min(self.walk_steps, 60)
        here = [walk_record(game, deal, steps) for deal in deals]
        for hash_seed in ("1", "2"):
            there = _walk_records_elsewhere(self.game, self.options, deals, steps, hash_seed)
            for deal, ours, theirs in zip(deals, here, there, strict=True):
                for step, (mine, other) in enumerate(zip(ours, theirs, strict=False)):
                    assert mine == other, (
                        f"deal {deal} step {step}, PYTHONHASHSEED={hash_seed}: another process "
                        f"sees {other[:300]!r}, this one {mine[:300]!r}"
                    )
                assert len(ours) == len(theirs), f"deal {deal}: walks of different lengths"

    def test_solved_deal_ends_won(self) -> None:
        """The solver's line for the first deal it wins (``solve_seconds`` each, among
        :attr:`deals` then 1, 2, ...) replays with the rules and wins exactly at its last move
        with the maximum score (:func:`check_winning_line`): so a game's win test and
        ``max_score`` are checked at the end of a game, which random walks seldom reach.
        Skipped when no deal is won within ``solve_total_seconds``."""
        import time

        import pytest

        from patience_core.solve import Budget, Verdict, solve

        game = self.make_game()
        started = time.process_time()
        deals = [*self.deals, *(n for n in range(1, 1000) if n not in self.deals)]
        verdicts: Counter[Verdict] = Counter()
        for deal in deals:
            if time.process_time() - started >= self.solve_total_seconds:
                break
            solution = solve(game, game.deal(DealNumber(deal)), Budget(seconds=self.solve_seconds))
            verdicts[solution.verdict] += 1
            if solution.verdict is Verdict.WON:
                position = game.deal(DealNumber(deal))
                texts = []
                for move in solution.moves:
                    texts.append(game.move_text(position, move))
                    position = game.play(position, move)
                check_winning_line(game, deal, texts)
                return
        tried = sum(verdicts.values())
        assert not (tried >= ALL_DEAD_DEALS and verdicts[Verdict.DEAD] == tried), (
            f"the solver proved every one of {tried} deals dead: is_won, forced_move, is_dead "
            "or solver_key is probably wrong (if the game is won that rarely, add a deal you "
            "know is winnable to `deals`)"
        )
        pytest.skip(
            f"no deal won within {self.solve_total_seconds} s ({counted(tried, 'deal')} tried: "
            f"{verdicts[Verdict.DEAD]} proved dead, {verdicts[Verdict.UNKNOWN]} undecided): "
            "the end was not checked"
        )

    def test_shortcuts_keep_the_verdicts(self) -> None:
        """The solver's verdicts with the game's shortcuts (``forced_move``, ``solver_moves``,
        ``is_dead``, ``search_space``, ``find_win``) never contradict those of the plain
        search over every legal move (:func:`plain_game`), on each of
        :attr:`deals` (``solve_seconds`` each way): one ``won``
        where the other is ``dead`` means a shortcut loses wins (or the plain search's win
        does not replay). Skipped for a game with none of these shortcuts."""
        import pytest

        from patience_core.solve import Budget, Verdict, solve

        game = self.make_game()
        shortcuts = [
            name for name in SHORTCUTS if getattr(type(game), name) is not getattr(Game, name)
        ]
        if not shortcuts:
            pytest.skip("the game has no solver shortcut to compare")
        plain = plain_game(game)
        for deal in self.deals:
            position = game.deal(DealNumber(deal))
            budget = Budget(seconds=self.solve_seconds)
            fast = solve(game, position, budget).verdict
            slow = solve(plain, position, budget).verdict
            assert {fast, slow} != {Verdict.WON, Verdict.DEAD}, (
                f"deal {deal}: the solver says {fast.value} with the game's "
                f"{', '.join(shortcuts)}, {slow.value} with the plain search over every legal "
                "move: a shortcut loses wins"
                if fast is Verdict.DEAD
                else f"deal {deal}: the solver wins with the game's {', '.join(shortcuts)}, but "
                "the plain search over every legal move proves it dead"
            )

    def test_illegal_moves_are_refused(self) -> None:
        """Transfers that are not among the legal moves are refused by ``apply``."""
        from patience_core.errors import IllegalMove

        game = self.make_game()
        position = game.deal(DealNumber(self.deals[0]))
        legal = set(game.legal_moves(position))
        tried = 0
        for source in range(len(game.piles)):
            for target in range(len(game.piles)):
                move = Move.transfer(source, target, 1)
                if move in legal:
                    continue
                tried += 1
                try:
                    game.apply(position, move)
                except IllegalMove:
                    continue
                raise AssertionError(f"apply accepted the illegal move {move}")
        assert tried

    def test_undo_redo_round_trip(self) -> None:
        """Undo returns the exact earlier positions; redo returns the later ones."""
        from patience_core.play import Session

        game = self.make_game()
        deal = DealNumber(self.deals[1 % len(self.deals)])
        texts, _ = self._walk_texts(game, deal.number, 30)
        session = Session(game, deal)
        seen = [session.position]
        for text in texts:
            session.play_text(text)
            seen.append(session.position)
        for expected in reversed(seen[:-1]):
            session.undo()
            assert session.position == expected
        for expected in seen[1:]:
            session.redo()
            assert session.position == expected

    def test_save_load_round_trip(self, tmp_path: Any) -> None:
        """A saved game reloads to the same position, moves and redo list."""
        from patience_core.play import Session, load_session, save_session
        from patience_core.plugins import PluginHost

        host = PluginHost().load()
        game = self.make_game()
        deal = DealNumber(self.deals[2 % len(self.deals)])
        texts, _ = self._walk_texts(game, deal.number, 25)
        session = Session.replay(game, deal, texts)
        undone = session.undo(min(3, len(texts)))
        path = tmp_path / "save.json"
        save_session(path, session, "test")
        _, again = load_session(path, host.game)
        assert again.position == session.position
        assert again.move_texts == session.move_texts
        assert len(again.redo_texts) == undone

    def test_cli_deal(self) -> None:
        """``patience deal GAME --deal N`` (text and JSON) works."""
        import json

        code, out, err = _run_cli(["deal", self.game, "--deal", "1", *self._option_args()], "", {})
        assert code == 0, err
        assert out.strip()
        code, out, err = _run_cli(
            ["deal", self.game, "--deal", "1", "--json", *self._option_args()], "", {}
        )
        assert code == 0, err
        data = json.loads(out)
        assert data["game"] == self.game and len(data["piles"]) == len(self.make_game().piles)

    def test_cli_play_scripted_and_resume(self, tmp_path: Any) -> None:
        """``patience play`` takes moves from a pipe, saves, and ``--resume`` continues."""
        from patience_core.play import load_session
        from patience_core.plugins import PluginHost

        game = self.make_game()
        texts, position = self._walk_texts(game, 1, 12)
        env = {"PATIENCE_DATA_DIR": str(tmp_path / "data"), "NO_COLOR": "1"}
        save = tmp_path / "game.json"
        args = ["play", self.game, "--deal", "1", "--file", str(save), *self._option_args()]
        code, _out, err = _run_cli(args, "\n".join([*texts, "quit"]) + "\n", env)
        assert code == 0, err
        _, session = load_session(save, PluginHost().load().game)
        assert session.position == position
        code, _out, err = _run_cli(
            ["play", self.game, "--resume", "--file", str(save)], "quit\n", env
        )
        assert code == 0, err

    def test_cli_simulate(self) -> None:
        """``patience simulate GAME -n 3`` runs and reports a win rate."""
        code, out, err = _run_cli(
            ["simulate", self.game, "-n", "3", "--max-moves", "300", *self._option_args()], "", {}
        )
        assert code == 0, err
        assert "won" in out.lower() and "95%" in out
