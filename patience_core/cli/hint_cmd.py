"""``patience hint FILE [--thoughtful|--honest] [--seconds S] [--nodes N] [--json]``: the best
move of a saved game and why, the hint's final answer (docs/solver.md)."""

from __future__ import annotations

import json
import time

import click

from patience_core.cli import STARTED, get_host
from patience_core.cli.options import COUNT, SecondsType, chosen_mode, file_path
from patience_core.play import load_session
from patience_core.solve import HINT_CAP_SECONDS, hint


@click.command()
# Not readable=True (click's exit 2): a file that cannot be read is told by the reading, in one
# line, exit 1, as every bad file (docs/cli.md).
@click.argument("file", type=click.Path(readable=False))
@click.option(
    "--thoughtful",
    is_flag=True,
    help="Use every card, face-down ones too (an analysis, not a fair hint).",
)
@click.option(
    "--honest",
    is_flag=True,
    help="Use only what a player sees (the default when a card is face down).",
)
@click.option(
    "--seconds",
    type=SecondsType(min=0.05, max=600),
    metavar="SECONDS",
    help="A tight cap: at most about how long until the answer, start-up included (by "
    "default the budget in positions decides, capped at "
    f"{HINT_CAP_SECONDS:g} s of search).",
)
@click.option(
    "--nodes",
    type=COUNT,
    help="The search's budget in positions (honest: of each sampled search; default: the "
    "hint's own). The answer depends only on it and the position, not on the machine's load, "
    f"unless a cap cuts the search short: --seconds, or without it {HINT_CAP_SECONDS:g} s.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the hint as one JSON object.")
@click.pass_context
def hint_command(
    ctx: click.Context,
    file: str,
    thoughtful: bool,
    honest: bool,
    seconds: float | None,
    nodes: int | None,
    as_json: bool,
) -> None:
    """Print the best move of the saved game FILE (as written by `patience play`) in the play
    notation, and why: "wins in 41 moves", "wins in 83% of the possible stock orders", or "no
    line wins from here: the last winnable position was before move 12". Honest hints (the
    default when a card is face down) never use the face-down cards; --thoughtful does. The
    answer is the hint's final one (the full-screen player shows quicker ones first). The file
    is never changed."""
    mode = chosen_mode(thoughtful, honest)
    host = get_host(ctx)
    _saved, session = load_session(
        file_path(file, "FILE", "save file", reading=True), host.saved_game
    )
    positions = session.positions
    # By default the budget in positions decides and the cap only guards against a runaway
    # search: start-up under load must not cut the search short (docs/solver.md). A --seconds
    # given is due about that long after the command started, start-up (loading the plugins,
    # reading the save) included, so the search gets what is left (at least 0.05 s).
    if seconds is None:
        left = HINT_CAP_SECONDS
    else:
        left = max(0.05, seconds - (time.perf_counter() - STARTED))
    found = hint(
        session.game,
        positions[-1],
        positions[:-1],
        mode=mode,
        seconds=left,
        nodes=nodes,
        search=host.search(session.game),
    )
    if as_json:
        data = found.as_dict()
        data["game"] = session.game.name
        data["deal"] = str(session.deal)
        data["moves_played"] = len(session.moves)
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    click.echo(f"Hint ({found.mode}): {found.sentence()}")
