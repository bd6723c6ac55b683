"""Thoughtful winnability of Golf under its rule variants, beside black-hole-solver's figures.

Usage: python benchmarks/winnability.py [--deals 1000] [--seconds 10] [--variant wrap ...]
[--boards FILE]

Prints, per variant: deals, won, dead, unknown, the win rate with its Wilson 95% interval, the
median solve time (CPU seconds), and black-hole-solver's published rate for PySol's deals of the
same variant, with whether it lies inside the interval. The deals are patience's (Aisleriot's
shuffle), not PySol's, so the comparison is of rates, not deal by deal; unless ``--boards FILE``
gives the layouts in black-hole-solver's board text (blocks ``#N``, ``Talon: ...`` with the next
card first, ``Foundations: C`` the waste card, then one line per column, bottom card first), as
``pysol_cards`` writes PySol's Golf deals (README), which are the deals black-hole-solver's rates
are of: then both solve the same layouts.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from pathlib import Path

from patience_core.api import Card, DealNumber, Position
from patience_core.solve import Budget, Verdict, solve
from patience_core.testing import load_game, search_for

VARIANTS: list[tuple[str, dict[str, str], float]] = [
    ("wrap", {"wrap": "yes"}, 0.928),
    ("no wrap, Q on K", {"queen-on-king": "yes"}, 0.463),
    ("standard (no wrap)", {}, 0.262),
]


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score 95% interval of wins/n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _card(code: str) -> Card:
    """A card of black-hole-solver's text (``TH``)."""
    return Card.from_code(code[0] + code[1].lower())


def read_boards(text: str) -> list[Position]:
    """The positions of black-hole-solver's Golf boards (module docstring), in file order."""
    positions = []
    for block in text.split("#")[1:]:
        lines = block.strip().splitlines()[1:]
        fields = dict(line.split(":", 1) for line in lines if ":" in line)
        talon = [_card(code) for code in fields["Talon"].split()]
        waste = (_card(fields["Foundations"].split()[0]),)
        columns = [tuple(map(_card, line.split())) for line in lines if ":" not in line]
        stock = tuple(card.turned(False) for card in reversed(talon))
        positions.append(Position((stock, waste, *columns)))
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--variant",
        choices=["wrap", "queen-on-king", "standard"],
        action="append",
        help="only these variants (repeatable; default all)",
    )
    parser.add_argument("--boards", type=Path, help="solve these layouts (module docstring)")
    args = parser.parse_args()
    boards = read_boards(args.boards.read_text())[: args.deals] if args.boards else None
    names = {"wrap": 0, "queen-on-king": 1, "standard": 2}
    chosen = [VARIANTS[names[v]] for v in args.variant] if args.variant else VARIANTS
    where = f"the layouts of {args.boards}" if boards else "deals"
    print(f"Golf, {where} 1..{args.deals}, thoughtful, budget {args.seconds:g} s per deal")
    print(
        f"{'variant':<20} {'won':>5} {'dead':>5} {'unk':>4} {'rate':>7} "
        f"{'95% CI':>15} {'median s':>9} {'black-hole-solver':>18}"
    )
    for label, options, reference in chosen:
        game = load_game("golf", options)
        search = search_for(game)
        counts = {v: 0 for v in Verdict}
        times = []
        for deal in range(1, args.deals + 1):
            started = time.process_time()
            budget = Budget(seconds=args.seconds)
            start = boards[deal - 1] if boards else game.deal(DealNumber(deal))
            result = solve(game, start, budget, search)
            times.append(time.process_time() - started)
            counts[result.verdict] += 1
        won = counts[Verdict.WON]
        low, high = wilson(won, args.deals)
        inside = "inside" if low <= reference <= high else "OUTSIDE"
        ref = f"{reference:.1%} {inside}"
        print(
            f"{label:<20} {won:>5} {counts[Verdict.DEAD]:>5} {counts[Verdict.UNKNOWN]:>4} "
            f"{won / args.deals:>7.1%} {f'{low:.1%}-{high:.1%}':>15} "
            f"{statistics.median(times):>9.4f} {ref:>18}"
        )


if __name__ == "__main__":
    main()
