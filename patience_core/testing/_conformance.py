"""The conformance kit: :class:`GameConformance`, the checks any game plugin runs against itself.

Layer 5 (it drives the command line too). patience-core registers :mod:`patience_core.testing`
as a pytest plugin (entry point ``pytest11``), so a game plugin's tests get it just by installing
patience-core. The simplest use, one class in the plugin's tests::

    from patience_core.testing import GameConformance

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
searches with the game's search object (its own, or the default one over its members) offers
every legal move and its keys merge only positions with the same future; the solver's verdicts
with the search object's shortcuts do not contradict those of the plain generic search; the
rules text is present; and the CLI can ``deal``, ``play`` (scripted through standard input, then
``--resume``) and ``simulate`` the game.

The command-line checks are in :mod:`patience_core.testing._conformance_cli`. The lower-level
checks (:mod:`patience_core.testing._checks`, ``_search_checks``, ``_golden``) can be used on
their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from patience_core.engine import DealNumber, counted
from patience_core.games import Game, GameSearch, is_default
from patience_core.model import Move
from patience_core.testing._checks import (
    _walk_records_elsewhere,
    check_deal,
    check_random_walk,
    load_game,
    walk_record,
)
from patience_core.testing._conformance_cli import CommandLineChecks
from patience_core.testing._golden import check_winning_line
from patience_core.testing._search_checks import (
    SHORTCUTS,
    check_key_merges,
    check_search_space,
    plain_search,
    search_for,
)

__all__ = ["ALL_DEAD_DEALS", "GameConformance"]


#: The number of deals all proved dead, none won, at which
#: :meth:`GameConformance.test_solved_deal_ends_won` fails instead of skipping: a game that
#: cannot win even one deal in that many is almost surely wrong about its wins.
ALL_DEAD_DEALS = 500


def _listed(deals: list[int], shown: int = 8) -> str:
    """``deals`` for a message: the first ``shown``, then ``...``."""
    more = ", ..." if len(deals) > shown else ""
    return ", ".join(map(str, deals[:shown])) + more


class GameConformance(CommandLineChecks):
    """Subclass in a game plugin's tests, setting :attr:`game`, to run the conformance kit.

    Class attributes:

    * ``game``: the game name to test (required).
    * ``options``: game options to test with (default: the game's defaults).
    * ``deals``: deal numbers used by the checks (default five, including 0 and 2**32 - 1).
    * ``walk_steps``: moves per random walk (default 120).
    * ``solve_nodes``, ``solve_seconds``: the positions and CPU seconds of each search of
      :meth:`test_solved_deal_ends_won` and :meth:`test_shortcuts_keep_the_verdicts`, whichever
      runs out first (default 30,000 and 0.5).
    * ``solve_total_nodes``, ``solve_total_seconds``: the same for all the deals of
      :meth:`test_solved_deal_ends_won` (default 600,000 and 5).
    """

    game: str = ""
    options: Mapping[str, str] = {}
    deals: tuple[int, ...] = (0, 1, 2, 12345, 2**32 - 1)
    walk_steps: int = 120
    solve_nodes: int = 30_000
    solve_seconds: float = 0.5
    solve_total_nodes: int = 600_000
    solve_total_seconds: float = 5.0

    # -- helpers ----------------------------------------------------------------------------

    def make_game(self) -> Game:
        """The game under test, loaded through the installed plugins."""
        assert self.game, "set `game = '<name>'` on your GameConformance subclass"
        return load_game(self.game, self.options)

    def make_search(self, game: Game) -> GameSearch:
        """The search object under test for ``game``: the one its plugin registered beside it
        (:func:`search_for`)."""
        return search_for(game)

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
        :func:`~patience_core.games.declaration_problem`), and a board that places every pile
        once (:meth:`~patience_core.games.BoardLayout.problem`)."""
        from patience_core.games import board_of, declaration_problem

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
        board = board_of(game).problem(game.piles)
        assert board is None, f"game class {type(game).__name__}: {board}"

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
        """The space the solver searches (the search object's own, or the default one over its
        moves_to_try, play, forced_move and key) offers every legal move and its keys merge
        only positions with the same future: the solver's "dead" relies on both
        (:func:`check_search_space` along random walks, :func:`check_key_merges` over a
        breadth-first search from each deal)."""
        game = self.make_game()
        search = self.make_search(game)
        for deal in self.deals:
            check_search_space(game, deal, deal ^ 0x5EA5, self.walk_steps, search)
            check_key_merges(game, deal, search=search)

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
        """The solver's line for the first deal it wins (``solve_nodes`` positions or
        ``solve_seconds`` each, among :attr:`deals` then 1, 2, ...) replays with the rules and
        wins exactly at its last move with the maximum score (:func:`check_winning_line`): so
        a game's win test and ``max_score`` are checked at the end of a game, which random
        walks seldom reach. Skipped, saying what was tried, when no deal is won within
        ``solve_total_nodes`` positions or ``solve_total_seconds`` in all."""
        import time

        import pytest

        from patience_core.solve import Budget, Verdict, solve

        game = self.make_game()
        search = self.make_search(game)
        started = time.process_time()
        deals = [*self.deals, *(n for n in range(1, 1000) if n not in self.deals)]
        verdicts: Counter[Verdict] = Counter()
        positions = 0
        for deal in deals:
            if positions >= self.solve_total_nodes:
                break
            if time.process_time() - started >= self.solve_total_seconds:
                break
            budget = Budget(nodes=self.solve_nodes, seconds=self.solve_seconds)
            solution = solve(game, game.deal(DealNumber(deal)), budget, search)
            verdicts[solution.verdict] += 1
            positions += solution.nodes
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
            f"the solver proved every one of {tried} deals dead: is_won, or the search's "
            "forced_move, is_dead or key, is probably wrong (if the game is won that rarely, add "
            "a deal you know is winnable to `deals`)"
        )
        pytest.skip(
            f"no deal won: {counted(tried, 'deal')} tried ({_listed(deals[:tried])}), "
            f"{self.solve_nodes:,} positions or {self.solve_seconds} s each, "
            f"{positions:,} positions and {time.process_time() - started:.1f} s in all "
            f"(at most {self.solve_total_nodes:,} or {self.solve_total_seconds} s): "
            f"{verdicts[Verdict.DEAD]} proved dead, {verdicts[Verdict.UNKNOWN]} undecided; "
            "the end was not checked"
        )

    def test_shortcuts_keep_the_verdicts(self) -> None:
        """The solver's verdicts with the search object's shortcuts (:data:`SHORTCUTS`:
        ``forced_move``, ``moves_to_try``, ``play``, ``is_dead``, ``search_space``,
        ``find_win``) never contradict those of the plain search over every legal move
        (:func:`plain_search`), on each of :attr:`deals` (``solve_nodes`` positions or
        ``solve_seconds`` each way): one
        ``won`` where the other is ``dead`` means a shortcut loses wins (or the plain search's
        win does not replay). Skipped for a search object with none of these shortcuts."""
        import pytest

        from patience_core.solve import Budget, Verdict, solve

        game = self.make_game()
        search = self.make_search(game)
        shortcuts = [name for name in SHORTCUTS if not is_default(search, name)]
        if not shortcuts:
            pytest.skip("the game has no solver shortcut to compare")
        plain = plain_search(search)
        for deal in self.deals:
            position = game.deal(DealNumber(deal))
            budget = Budget(nodes=self.solve_nodes, seconds=self.solve_seconds)
            fast = solve(game, position, budget, search).verdict
            if fast is Verdict.UNKNOWN:
                continue  # nothing the plain search says can contradict it
            slow = solve(game, position, budget, plain).verdict
            assert {fast, slow} != {Verdict.WON, Verdict.DEAD}, (
                f"deal {deal}: the solver says {fast.value} with the search object's "
                f"{', '.join(shortcuts)}, {slow.value} with the plain search over every legal "
                "move: a shortcut loses wins"
                if fast is Verdict.DEAD
                else f"deal {deal}: the solver wins with the search object's "
                f"{', '.join(shortcuts)}, but the plain search over every legal move proves it dead"
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

    def test_why_illegal_names_a_rule(self) -> None:
        """``why_illegal`` answers every refused move, along a walk of a few moves, with one
        non-empty line (what both players show when they refuse it)."""
        game = self.make_game()
        _texts, last = self._walk_texts(game, self.deals[0], 6)
        for position in (game.deal(DealNumber(self.deals[0])), last):
            legal = set(game.legal_moves(position))
            for source in range(len(game.piles)):
                for target in range(len(game.piles)):
                    for count in (1, 2):
                        move = Move.transfer(source, target, count)
                        if move in legal:
                            continue
                        reason = game.why_illegal(position, move)
                        assert isinstance(reason, str) and reason.strip(), (move, reason)
                        assert "\n" not in reason, (move, reason)

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
