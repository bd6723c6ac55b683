"""Hints (patience_core.solve): thoughtful hints keep a winnable game winnable, honest hints never
use the face-down cards, dead positions name the last winnable one (issue 4, RULES.md Part A)."""

from __future__ import annotations

import pytest

from patience_core.engine import DealNumber
from patience_core.games import Game, GameSearch
from patience_core.model import Position
from patience_core.plugins import PluginHost
from patience_core.solve import (
    HONEST,
    THOUGHTFUL,
    Budget,
    HonestBudget,
    HonestPlayer,
    Solution,
    SolverPlayer,
    Verdict,
    dead_check,
    default_mode,
    hidden_wording,
    hint,
    honest_stats,
    play_honestly,
    solve,
    visible_seed,
)
from patience_core.solve._honest import MoveStats, _ranked
from patience_core.testing import search_for

#: Enough for every search below, so no answer depends on the machine's speed.
NODES = 400_000
SLOW = 600.0


@pytest.fixture(scope="module")
def host() -> PluginHost:
    host = PluginHost()
    host.load()
    return host


def game_of(host: PluginHost, name: str) -> Game:
    game: Game = host.game(name, {})
    return game


_SEARCHES: dict[int, tuple[Game, GameSearch]] = {}


def search_of(game: Game) -> GameSearch:
    """The game's registered search object, as the commands use it (one per game object)."""
    kept = _SEARCHES.get(id(game))
    if kept is None or kept[0] is not game:
        kept = _SEARCHES[id(game)] = (game, search_for(game))
    return kept[1]


def shuffled_hidden(position: Position, shift: int) -> Position:
    """``position`` with its face-down cards rotated by ``shift`` places: looks the same."""
    places = [
        (i, j)
        for i, pile in enumerate(position.piles)
        for j, card in enumerate(pile)
        if not card.face_up
    ]
    cards = [position[i][j] for i, j in places]
    cards = cards[shift:] + cards[:shift]
    piles = [list(pile) for pile in position.piles]
    for (i, j), card in zip(places, cards, strict=True):
        piles[i][j] = card
    return Position(tuple(tuple(pile) for pile in piles))


@pytest.mark.parametrize(
    ("name", "deal"), [("escalator", 17), ("escalator", 14), ("bakers-game", 7)]
)
def test_following_thoughtful_hints_wins_and_never_spoils_a_winnable_position(
    host: PluginHost, name: str, deal: int
) -> None:
    game = game_of(host, name)
    position = game.deal(DealNumber(deal))
    assert (
        solve(game, position, Budget(nodes=NODES, seconds=SLOW), search=search_of(game)).verdict
        is Verdict.WON
    )
    known: dict[Position, Solution] = {}  # as in play: hints follow one line
    for _ in range(400):
        if game.is_won(position):
            break
        found = hint(
            game,
            position,
            mode=THOUGHTFUL,
            seconds=SLOW,
            nodes=NODES,
            known=known,
            search=search_of(game),
        )
        assert found.verdict == "won" and found.move is not None
        assert found.reason == f"wins in {found.length} move{'s' if found.length != 1 else ''}"
        assert found.text == game.move_text(position, found.move)
        position = game.play(position, found.move)
        # the position after the hinted move is still winnable (checked independently)
        after = solve(game, position, Budget(nodes=NODES, seconds=SLOW), search=search_of(game))
        assert after.verdict is Verdict.WON
    assert game.is_won(position)


def test_a_thoughtful_hint_never_spoils_a_winnable_position_anywhere(host: PluginHost) -> None:
    # Positions along random lines from winnable deals: whenever the position is winnable, the
    # hinted move (found afresh, no cache) leads to a winnable position.
    game = game_of(host, "bristol")
    position = game.deal(DealNumber(3))
    checked = 0
    for step in range(40):
        legal = game.legal_moves(position)
        if not legal:
            break
        if (
            step % 4 == 0
            and solve(
                game, position, Budget(nodes=NODES, seconds=SLOW), search=search_of(game)
            ).moves
        ):
            found = hint(
                game, position, mode=THOUGHTFUL, seconds=SLOW, nodes=NODES, search=search_of(game)
            )
            assert found.move is not None
            after = game.play(position, found.move)
            assert (
                solve(
                    game, after, Budget(nodes=NODES, seconds=SLOW), search=search_of(game)
                ).verdict
                is Verdict.WON
            )
            checked += 1
        position = game.play(position, legal[(step * 7) % len(legal)])
    assert checked >= 3


def test_bakers_game_honest_is_thoughtful(host: PluginHost) -> None:
    game = game_of(host, "bakers-game")
    position = game.deal(DealNumber(7))
    assert default_mode(position) == THOUGHTFUL
    honest = hint(game, position, mode=HONEST, seconds=SLOW, nodes=NODES, search=search_of(game))
    thoughtful = hint(
        game, position, mode=THOUGHTFUL, seconds=SLOW, nodes=NODES, search=search_of(game)
    )
    assert honest.move == thoughtful.move and honest.reason == thoughtful.reason
    assert thoughtful.reason.startswith("wins in ")


@pytest.mark.parametrize(
    ("name", "wording"),
    [
        ("escalator", "stock orders"),
        ("bristol", "stock orders"),
        ("diamond-mine", "arrangements of the face-down cards"),
        ("spiderette", "arrangements of the unseen cards"),
    ],
)
def test_hidden_cards_are_worded_per_game(host: PluginHost, name: str, wording: str) -> None:
    game = game_of(host, name)
    position = game.deal(DealNumber(1))
    assert default_mode(position) == HONEST
    assert hidden_wording(game, position) == wording


@pytest.mark.parametrize("name", ["escalator", "bristol", "spiderette", "diamond-mine"])
def test_honest_hints_do_not_depend_on_where_the_face_down_cards_lie(
    host: PluginHost, name: str
) -> None:
    game = game_of(host, name)
    position = game.deal(DealNumber(3))
    other = shuffled_hidden(position, 5)
    assert other != position
    assert visible_seed(other) == visible_seed(position)
    first = hint(
        game, position, mode=HONEST, seconds=SLOW, nodes=1500, samples=3, search=search_of(game)
    )
    second = hint(
        game, other, mode=HONEST, seconds=SLOW, nodes=1500, samples=3, search=search_of(game)
    )
    assert (first.move, first.reason, first.wins) == (second.move, second.reason, second.wins)
    assert first.mode == HONEST and first.move is not None


def test_honest_reason_gives_the_share_of_stock_orders(host: PluginHost) -> None:
    game = game_of(host, "bristol")
    position = game.deal(DealNumber(3))
    found = hint(game, position, seconds=SLOW, nodes=3000, samples=6, search=search_of(game))
    assert found.verdict == "sampled" and found.samples == 6
    assert found.wins is not None and found.wins > 0
    share = round(100 * found.wins / 6)
    assert found.reason == (
        f"wins in {share}% of the possible stock orders ({found.wins} of 6 sampled)"
    )


def test_honest_stats_rank_moves_best_first(host: PluginHost) -> None:
    game = game_of(host, "bristol")
    position = game.deal(DealNumber(1))
    stats = honest_stats(
        game, position, samples=4, seconds=SLOW, nodes=2000, search=search_of(game)
    )
    assert {s.move for s in stats} == set(game.legal_moves(position))
    assert all(s.samples == 4 for s in stats)
    wins = [s.wins for s in stats]
    assert wins == sorted(wins, reverse=True)


def test_the_default_honest_budget_samples_fewer_arrangements_with_many_moves(
    host: PluginHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    import patience_core.solve._honest as honest_module
    from patience_core.solve import (
        HONEST_MIN_NODES,
        HONEST_MIN_SAMPLES,
        HONEST_NODES,
    )

    monkeypatch.setattr(honest_module, "HONEST_ROUNDS", 1)  # the first round's sharing

    game = game_of(host, "spiderette")
    few = game.deal(DealNumber(1))
    assert len(game.legal_moves(few)) * 24 * HONEST_MIN_NODES <= HONEST_NODES
    assert honest_stats(game, few, seconds=SLOW, search=search_of(game))[0].samples == 24
    many = next(
        p
        for p in (game.deal(DealNumber(d)) for d in range(1, 200))
        if len(game.legal_moves(p)) * HONEST_MIN_SAMPLES * 2 * HONEST_MIN_NODES > HONEST_NODES
        or len(game.legal_moves(p)) > 8
    )
    legal = len(game.legal_moves(many))
    expected = min(24, max(HONEST_MIN_SAMPLES, HONEST_NODES // (legal * HONEST_MIN_NODES)))
    assert expected < 24
    assert honest_stats(game, many, seconds=SLOW, search=search_of(game))[0].samples == expected


def test_a_dead_position_names_the_last_winnable_one(host: PluginHost) -> None:
    game = game_of(host, "escalator")
    history = [game.deal(DealNumber(17))]
    # Deal 17 is winnable; always taking the last legal move spoils it within a few moves.
    while (
        solve(game, history[-1], Budget(nodes=NODES, seconds=SLOW), search=search_of(game)).verdict
        is Verdict.WON
    ):
        history.append(game.play(history[-1], game.legal_moves(history[-1])[-1]))
    for _ in range(3):  # and a few moves more
        history.append(game.play(history[-1], game.legal_moves(history[-1])[0]))
    last = max(
        i
        for i, p in enumerate(history)
        if solve(game, p, Budget(nodes=NODES, seconds=SLOW), search=search_of(game)).verdict
        is Verdict.WON
    )
    found = hint(
        game,
        history[-1],
        history[:-1],
        mode=THOUGHTFUL,
        seconds=SLOW,
        nodes=NODES,
        search=search_of(game),
    )
    assert found.verdict == "dead" and found.move is None
    assert found.last_winnable == last + 1
    assert found.undo == len(history) - 1 - last
    assert found.reason == (
        f"no line wins from here: the last winnable position was before move {last + 1} "
        f"(undo {found.undo})"
    )
    assert found.sentence().startswith("No line wins from here")


def test_a_dead_deal_says_it_cannot_be_won(host: PluginHost) -> None:
    game = game_of(host, "escalator")
    start = game.deal(DealNumber(4))
    after = game.play(start, game.legal_moves(start)[0])
    found = hint(
        game, after, [start], mode=THOUGHTFUL, seconds=SLOW, nodes=NODES, search=search_of(game)
    )
    assert found.reason == "no line wins from here, nor from the deal: it cannot be won"
    assert found.last_winnable is None


def test_won_and_lost_positions_have_no_move(host: PluginHost) -> None:
    game = game_of(host, "escalator")
    position = game.deal(DealNumber(17))
    for move in solve(
        game, position, Budget(nodes=NODES, seconds=SLOW), search=search_of(game)
    ).moves:
        position = game.play(position, move)
    found = hint(game, position, search=search_of(game))
    assert found.move is None and found.verdict == "over" and found.reason == "the game is won"
    with pytest.raises(ValueError):
        hint(game, position, mode="psychic", search=search_of(game))


def test_dead_check_remembers_the_winning_line(host: PluginHost) -> None:
    game = game_of(host, "escalator")
    position = game.deal(DealNumber(17))
    known: dict[Position, Solution] = {}
    first = dead_check(game, position, SLOW, NODES, known, search=search_of(game))
    assert first.verdict is Verdict.WON
    after = game.play(position, first.moves[0])
    assert known[after].moves == first.moves[1:]
    assert (
        dead_check(game, game.deal(DealNumber(4)), SLOW, NODES, search=search_of(game)).verdict
        is Verdict.DEAD
    )


def test_solver_player_plays_the_line_or_says_why_it_resigns(host: PluginHost) -> None:
    game = game_of(host, "escalator")
    won = SolverPlayer(game, nodes=NODES, seconds=SLOW, search=search_of(game))
    position = game.deal(DealNumber(17))
    while not game.is_won(position):
        move = won.choose(position, game.legal_moves(position))
        assert move is not None
        position = game.play(position, move)
    dead = SolverPlayer(game, nodes=NODES, seconds=SLOW, search=search_of(game))
    start = game.deal(DealNumber(4))
    assert dead.choose(start, game.legal_moves(start)) is None and dead.outcome == "dead"
    unknown = SolverPlayer(game, nodes=1, search=search_of(game))
    start = game.deal(DealNumber(1))
    assert unknown.choose(start, game.legal_moves(start)) is None
    assert unknown.outcome == "unknown"


def test_honest_player_resigns_when_the_position_is_proved_dead(host: PluginHost) -> None:
    game = game_of(host, "escalator")
    budget = HonestBudget(dead_nodes=50_000, play_on=False)
    player = HonestPlayer(game, budget=budget, search=search_of(game))
    start = game.deal(DealNumber(4))
    assert player.choose(start, game.legal_moves(start)) is None
    assert player.outcome == "dead"


def test_honest_player_plays_on_for_points_once_the_position_is_proved_dead(
    host: PluginHost,
) -> None:
    """Escalator deal 4 is dead from the start: the player says so (``outcome``) and plays on
    while a move is expected to raise the score, never into a position it has seen."""
    game = game_of(host, "escalator")
    search = search_of(game)
    player = HonestPlayer(game, budget=HonestBudget(dead_nodes=50_000), search=search)
    position = game.deal(DealNumber(4))
    seen = {search.key(position)}
    played = 0
    while (legal := game.legal_moves(position)) and (move := player.choose(position, legal)):
        position = game.play(position, move)
        assert search.key(position) not in seen
        seen.add(search.key(position))
        played += 1
    assert player.outcome == "dead"
    assert played > 0 and game.score(position) > game.score(game.deal(DealNumber(4)))


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The positions of every search that hints and honest analyses run from now on, as the
    solver counts them, in order."""
    import patience_core.solve._hints as hints_module
    import patience_core.solve._honest as honest_module

    counts: list[int] = []

    def counted_solve(
        game: Game,
        position: Position,
        budget: Budget | None = None,
        search: GameSearch | None = None,
    ) -> Solution:
        solution = solve(game, position, budget, search)
        counts.append(solution.nodes)
        return solution

    monkeypatch.setattr(hints_module, "solve", counted_solve)
    monkeypatch.setattr(honest_module, "solve", counted_solve)
    return counts


def test_honest_play_counts_every_position_its_searches_generate(
    host: PluginHost, searched: list[int]
) -> None:
    """``play_honestly``'s ``nodes`` is the sum over every search it ran (dead checks and
    sampled arrangements), counted here at the solver; ``seconds`` are CPU seconds."""
    game = game_of(host, "escalator")
    played = play_honestly(
        game, game.deal(DealNumber(17)), HonestBudget(nodes=1000), search=search_of(game)
    )
    assert played.moves and len(searched) > len(played.moves)
    assert played.nodes == sum(searched) > 0
    assert played.seconds >= 0


def test_an_honest_analysis_counts_the_positions_of_every_round(
    host: PluginHost, searched: list[int]
) -> None:
    game = game_of(host, "escalator")
    stats = honest_stats(game, game.deal(DealNumber(10)), seconds=SLOW, search=search_of(game))
    # Deal 10 takes a second round (see the test below): the first one's searches count too.
    assert len(searched) > sum(entry.samples for entry in stats)
    assert sum(entry.nodes for entry in stats) == sum(searched) > 0


def test_following_guesses_never_goes_round_in_circles(host: PluginHost) -> None:
    # Spiderette deal 23 after three moves: only "t1 t4" and the deal are legal, and with a tiny
    # search budget every hint is a guess. Guesses once went t1 t4, t4 t1, t1 t4, ... for ever.
    game = host.game("spiderette", {})
    position = game.deal(DealNumber(23))
    history: list[Position] = []
    for text in ("t3 t2", "t6 t3", "t6 t1"):
        history.append(position)
        position = game.apply(position, game.parse_move(position, text))
    for _ in range(6):
        found = hint(game, position, history, mode="thoughtful", nodes=300, search=search_of(game))
        assert found.move is not None and found.verdict == "unknown"
        after = game.apply(position, found.move)
        assert after not in history
        history.append(position)
        position = after


def test_an_honest_analysis_with_every_move_undecided_searches_again_with_more(
    host: PluginHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Escalator deal 10 at the deal: one move, and no sampled stock order is decided with the
    first round's 500 positions a search; the next rounds (four times as many) find wins."""
    import patience_core.solve._honest as honest_module

    game = game_of(host, "escalator")
    start = game.deal(DealNumber(10))
    first = honest_stats(game, start, seconds=SLOW, search=search_of(game))
    assert first[0].wins > 0
    monkeypatch.setattr(honest_module, "HONEST_ROUNDS", 1)
    only = honest_stats(game, start, seconds=SLOW, search=search_of(game))
    assert only[0].wins == 0 and only[0].unknown == only[0].samples


def test_an_honest_analysis_with_some_moves_lost_and_none_won_searches_again(
    host: PluginHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Escalator deal 5 at the deal: the first round finds no win (one search proved lost, the
    others undecided); later rounds find wins."""
    import patience_core.solve._honest as honest_module

    game = game_of(host, "escalator")
    start = game.deal(DealNumber(5))
    assert honest_stats(game, start, seconds=SLOW, search=search_of(game))[0].wins > 0
    monkeypatch.setattr(honest_module, "HONEST_ROUNDS", 1)
    assert honest_stats(game, start, seconds=SLOW, search=search_of(game))[0].wins == 0


def test_an_undecided_thoughtful_hint_never_picks_a_move_proved_lost(host: PluginHost) -> None:
    """Spiderette deal 7 after deal, t2 t6, deal, t2 t7: the position is winnable (t2 t1 wins)
    but no search of 20,000 positions finds a win there; dealing is proved lost in under 100
    positions. The hint must not be the deal, and says how many moves were proved lost."""
    game = game_of(host, "spiderette")
    position = game.deal(DealNumber(7))
    history = [position]
    for text in ("deal", "t2 t6", "deal", "t2 t7"):
        position = game.play(position, game.parse_move(position, text))
        history.append(position)
    history.pop()
    found = hint(
        game, position, history, mode=THOUGHTFUL, seconds=SLOW, nodes=20_000, search=search_of(game)
    )
    assert found.verdict == "unknown" and found.move is not None
    assert found.text != "deal"
    assert "proved lost)" in found.reason
    after = solve(
        game,
        game.play(position, found.move),
        Budget(nodes=20_000, seconds=SLOW),
        search=search_of(game),
    )
    assert after.verdict is not Verdict.DEAD
    dealt = game.play(position, game.parse_move(position, "deal"))
    assert (
        solve(game, dealt, Budget(nodes=20_000, seconds=SLOW), search=search_of(game)).verdict
        is Verdict.DEAD
    )


def test_honest_ranking_puts_undecided_before_proved_lost(host: PluginHost) -> None:
    """With no win in any sample, a move undecided everywhere comes before one proved lost in
    most samples (it may yet win)."""
    game = game_of(host, "bakers-game")
    position = game.deal(DealNumber(1))
    first, second = game.legal_moves(position)[:2]
    mostly_lost = MoveStats(first, wins=0, unknown=8, samples=24)
    undecided = MoveStats(second, wins=0, unknown=24, samples=24)
    assert _ranked(search_of(game), position, [mostly_lost, undecided])[0] is undecided
    winner = MoveStats(first, wins=1, unknown=0, samples=24)
    assert _ranked(search_of(game), position, [undecided, winner])[0] is winner


def test_an_honest_hint_in_a_position_proved_dead_says_so(host: PluginHost) -> None:
    """``play`` has said that no winning line remains (its dead check, every card known): an
    honest hint's share of winning arrangements must not read as hope."""
    game = game_of(host, "escalator")
    start = game.deal(DealNumber(4))  # dead
    after = game.play(start, game.legal_moves(start)[0])
    assert len(game.legal_moves(after)) > 1
    suffix = "; but no winning line remains here (proved with every card known)"
    for position in (start, after):  # one legal move, and several
        known: dict[Position, Solution] = {}
        assert (
            dead_check(game, position, SLOW, NODES, known, search=search_of(game)).verdict
            is Verdict.DEAD
        )
        told = hint(game, position, mode=HONEST, seconds=SLOW, nodes=500, known=known,
                    search=search_of(game))  # fmt: skip
        plain = hint(game, position, mode=HONEST, seconds=SLOW, nodes=500, search=search_of(game))
        assert told.move == plain.move is not None
        assert told.reason == plain.reason + suffix
        assert not plain.reason.endswith(suffix)


def test_an_honest_hint_with_one_legal_move_names_it_at_once(host: PluginHost) -> None:
    game = game_of(host, "spiderette")
    start = game.deal(DealNumber(1))  # only the deal: t1..t7 hold one face-up card each
    assert len(game.legal_moves(start)) == 1
    found = hint(game, start, mode=HONEST, search=search_of(game))
    assert (found.text, found.reason, found.verdict) == ("deal", "the only legal move", "only")
    assert hint(game, start, mode=THOUGHTFUL, nodes=2000, search=search_of(game)).verdict != "only"


@pytest.mark.parametrize(("finished", "counts"), [(1, False), (3, False), (4, True)])
def test_a_round_cut_short_counts_only_with_a_win_over_enough_arrangements(
    host: PluginHost, monkeypatch: pytest.MonkeyPatch, finished: int, counts: bool
) -> None:
    """Round 1 decides nothing; the clock cuts round 2 short after ``finished`` arrangements,
    one of them won: its "100% (1 of 1 sampled)" must not stand for fewer than 4."""
    import patience_core.solve._honest as honest_module

    game = game_of(host, "bristol")
    position = game.deal(DealNumber(1))
    legal = game.legal_moves(position)
    first = [MoveStats(m, 0, 4, 4) for m in legal]
    second = [MoveStats(m, int(i == 1), 0, finished) for i, m in enumerate(legal)]
    rounds = iter([(first, False), (second, True)])
    monkeypatch.setattr(honest_module, "_round", lambda *args: next(rounds))
    best = honest_stats(game, position, search=search_of(game))[0]
    assert (best.wins, best.samples) == ((1, finished) if counts else (0, 4))
