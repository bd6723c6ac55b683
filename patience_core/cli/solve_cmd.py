"""``patience solve GAME --deal N``: the verdict of a deal and its winning moves (docs/solver.md).

Thoughtful (the default): one search with every card known; the winning line is printed one
move per line in the play notation, so ``patience solve GAME --deal N --moves-only | patience
play GAME --deal N`` plays it. Honest: the deal is played by honest hints, move by move, as a
careful player would, and the outcome is reported.
"""

from __future__ import annotations

import json

import click

from patience_core.cli import get_host
from patience_core.cli.options import (
    COUNT,
    DEAL,
    SECONDS,
    chosen_mode,
    from_option,
    option_flag,
    position_from_file,
)
from patience_core.engine import DealNumber, counted
from patience_core.games import Game, parse_options
from patience_core.model import Move, Position
from patience_core.solve import HONEST, THOUGHTFUL, Budget, HonestBudget, play_honestly, solve


def _move_texts(game: Game, position: Position, moves: list[Move] | tuple[Move, ...]) -> list[str]:
    """The canonical text of each move, each written in the position it is played from."""
    texts = []
    for move in moves:
        texts.append(game.move_text(position, move))
        position = game.play(position, move)
    return texts


@click.command()
@click.argument("game", is_eager=True)  # read first: --deal checks its schemes
@click.option("--deal", "-d", "deal_number", type=DEAL, help="The deal, N or ms:N.")
@option_flag
@from_option(
    "Start from a saved game (its current position) or a position file with every card "
    "(as `patience deal --from` reads) instead of a deal."
)
@click.option("--thoughtful", is_flag=True, help="Solve with every card known (the default).")
@click.option(
    "--honest",
    is_flag=True,
    help="Play the deal by honest hints (only what a player sees) and report the outcome.",
)
@click.option(
    "--budget",
    type=SECONDS,
    metavar="SECONDS",
    help="CPU seconds of the whole search (thoughtful, default 10), or a cap in seconds on "
    "each move's decision (honest; none by default, so the moves do not depend on the machine).",
)
@click.option(
    "--nodes",
    type=COUNT,
    help="Positions searched at most: in all (thoughtful, default 5,000,000: raise it for a "
    "--budget of more than about 20 s), or per search (honest, default 1000). Without --budget "
    "there is then no time limit, so the answer is the same on every machine.",
)
@click.option("--moves-only", is_flag=True, help="Print only the moves, one per line (for play).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the result as one JSON object, with the positions searched (nodes) and the CPU "
    "seconds (the whole search, or with --honest every search of the play).",
)
@click.pass_context
def solve_command(
    ctx: click.Context,
    game: str,
    deal_number: DealNumber | None,
    options: tuple[str, ...],
    from_file: str | None,
    thoughtful: bool,
    honest: bool,
    budget: float | None,
    nodes: int | None,
    moves_only: bool,
    as_json: bool,
) -> None:
    """Solve deal N of GAME and print the verdict (won, dead or unknown: dead means proved
    unwinnable, unknown means the budget ran out) and the winning moves, one per line.

    With --honest, the deal is played by honest hints instead (as a careful player who sees only
    the face-up cards) and the outcome (won, lost, dead or stopped) and the moves played are
    printed. The exit status is 0 for every verdict.

    Example: patience solve escalator --deal 17 --moves-only | patience play escalator --deal 17
    """
    host = get_host(ctx)
    mode = chosen_mode(thoughtful, honest) or THOUGHTFUL
    if (deal_number is None) == (from_file is None):
        raise click.UsageError("give --deal or --from (one of them)")
    if moves_only and as_json:
        raise click.UsageError("--moves-only and --json cannot be used together")
    if from_file is not None:
        the_game, position, where = position_from_file(
            host, game, parse_options(options), from_file
        )
    else:
        the_game = host.game(game, parse_options(options))
        assert deal_number is not None
        position = the_game.deal(deal_number)
        where = f"deal {deal_number}"
    if mode == HONEST:
        default = HonestBudget()  # --nodes and --budget are never 0: `or` keeps the default
        limits = HonestBudget(nodes=nodes or default.nodes, seconds=budget or default.seconds)
        played = play_honestly(the_game, position, limits, search=host.search(the_game))
        verdict, moves = played.outcome, played.moves
        node_count, seconds = played.nodes, played.seconds
    else:
        solution = solve(the_game, position, Budget.asked(budget, nodes), host.search(the_game))
        verdict, moves = solution.verdict.value, solution.moves
        node_count, seconds = solution.nodes, solution.seconds
    texts = _move_texts(the_game, position, moves)
    if as_json:
        data = {
            "game": the_game.name,
            "options": dict(the_game.option_values),
            "start": where,
            "mode": mode,
            "verdict": verdict,
            "moves": texts,
            "nodes": node_count,
            "seconds": round(seconds, 3),
        }
        click.echo(json.dumps(data, indent=2))
        return
    count = counted(len(texts), "move")
    if mode == HONEST:
        summary = f"{the_game.title}, {where}, honest play: {verdict} after {count}"
    else:
        summary = f"{the_game.title}, {where}: {verdict}"
        if verdict == "won":
            summary += f" in {count}"
    summary += f" ({counted(node_count, 'position')}, {seconds:.2f} s)"
    click.echo(summary, err=moves_only)
    for text in texts:
        click.echo(text)
