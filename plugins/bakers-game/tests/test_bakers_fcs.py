"""Microsoft FreeCell deals and Freecell Solver board text for Baker's Game (RULES.md Part A
"Baker's Game"), through the API and through ``patience deal``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from patience_bakers_game import CELLS, COLUMNS, FOUNDATIONS, BakersGame, read_fcs, write_fcs

from patience_core.api import BadDeal, BadSave, DealNumber, Position
from patience_core.cli import cli
from patience_core.engine import GRand

DATA = Path(__file__).parent / "data"


def ms_golden() -> dict[int, str]:
    """``make-microsoft-freecell-board -t N`` output by N, from golden/ms-deals.txt."""
    blocks: dict[int, str] = {}
    number = 0
    for line in (DATA / "ms-deals.txt").read_text().splitlines():
        if line.startswith("# deal=ms:"):
            number = int(line.removeprefix("# deal=ms:"))
            blocks[number] = ""
        elif not line.startswith("#") and line.strip():
            blocks[number] += line + "\n"
    return blocks


MS = ms_golden()


@pytest.fixture
def game() -> BakersGame:
    return BakersGame()


def test_all_five_golden_ms_deals_are_present() -> None:
    assert sorted(MS) == [1, 2, 3, 24, 617]


@pytest.mark.parametrize("number", sorted(MS))
def test_ms_deal_is_card_for_card_make_microsoft_freecell_board(
    game: BakersGame, number: int
) -> None:
    position = game.deal(DealNumber(number, "ms"))
    assert write_fcs(game, position) == MS[number]
    assert [len(position[i]) for i in COLUMNS] == [7, 7, 7, 7, 6, 6, 6, 6]


@pytest.mark.parametrize("number", sorted(MS))
def test_cli_prints_the_ms_deal_in_fcs_format(number: int) -> None:
    result = CliRunner().invoke(
        cli, ["deal", "bakers-game", "--deal", f"ms:{number}", "--format", "fcs"]
    )
    assert result.exit_code == 0, result.output
    assert result.output == MS[number]


def test_a_game_without_ms_deals_refuses_them() -> None:
    from patience_core.testing import load_game

    with pytest.raises(BadDeal):
        load_game("escalator").deal(DealNumber(1, "ms"))


# -- reading and writing board text ------------------------------------------------------------


def walk(game: BakersGame, deal: DealNumber, steps: int, seed: int) -> list[Position]:
    """Positions along a random legal walk (GRand-driven, deterministic)."""
    rand = GRand(seed)
    position = game.deal(deal)
    seen = [position]
    for _ in range(steps):
        legal = game.legal_moves(position)
        if not legal:
            break
        position = game.play(position, legal[rand.int_range(0, len(legal))])
        seen.append(position)
    return seen


@pytest.mark.parametrize("deal", [DealNumber(1), DealNumber(24, "ms"), DealNumber(4242)])
def test_round_trip_along_a_game(game: BakersGame, deal: DealNumber) -> None:
    positions = walk(game, deal, steps=120, seed=deal.number)
    assert any(position[c] for position in positions for c in CELLS)
    assert any(position[f] for position in positions for f in FOUNDATIONS)
    for position in positions:
        assert read_fcs(game, write_fcs(game, position)) == position


def test_written_header_lines(game: BakersGame) -> None:
    position = game.deal(DealNumber(1, "ms"))
    # Put 2H in c2 and play AH, AS home by hand: f1 = hearts, f2 = spades.
    piles = list(position.piles)
    piles[CELLS[1]] = (piles[COLUMNS[2]][-1],)
    piles[COLUMNS[2]] = piles[COLUMNS[2]][:-1]
    text = write_fcs(game, Position(tuple(piles)))
    assert text.splitlines()[0] == "Freecells: - 2H - -"
    moved = position
    for text in ("t7 c1", "t7 c2", "t7 c3"):  # 8C, JH, 4D away: AH and then 2H go home
        moved = game.apply(moved, game.parse_move(moved, text))
    lines = write_fcs(game, moved).splitlines()
    assert lines[:2] == ["Foundations: H-2 C-0 D-0 S-0", "Freecells: 8C JH 4D -"]
    assert lines[0].startswith("Foundations: ")
    assert lines[1].startswith("Freecells: ")
    assert read_fcs(game, "\n".join(lines)) == moved


def test_reads_fc_solve_state_output(game: BakersGame) -> None:
    """fc-solve's own state dumps: ``:`` column prefixes, wider spacing, foundations by suit."""
    text = (
        "Foundations: H-2 C-0 D-A S-0\n"
        "Freecells:  8H  -  -  QS\n"
        ": KD 2S 4C 3S 6D 6S JD\n"
        ": 2D KC KS 5C TD 8S 9C\n"
        ": 9H 9S 9D TS 4S 8D\n"
        ": JC 5S QD QH TH 6H\n"
        ": 5D JS 4H 6C 3H\n"
        ": 7H QC AS AC 2C 3D\n"
        ": 7C KH 4D JH 8C\n"
        ": 5H 3C 7S 7D TC\n"
    )
    position = read_fcs(game, text)
    assert [str(c) for c in position[FOUNDATIONS[0]]] == ["Ah", "2h"]
    assert [str(c) for c in position[FOUNDATIONS[1]]] == ["Ad"]
    assert position[FOUNDATIONS[2]] == position[FOUNDATIONS[3]] == ()
    assert [str(c) for c in position[CELLS[0]] + position[CELLS[3]]] == ["8h", "Qs"]
    assert write_fcs(game, position).splitlines()[:2] == [
        "Foundations: H-2 D-A C-0 S-0",
        "Freecells: 8H - - QS",
    ]


def test_an_empty_column_is_written_as_a_colon(game: BakersGame) -> None:
    position = game.deal(DealNumber(1, "ms"))
    piles = list(position.piles)
    piles[CELLS[0]], piles[COLUMNS[0]] = piles[COLUMNS[0]][-1:], ()
    piles[CELLS[1]] = piles[COLUMNS[1]][-1:]
    # Leave t1 holding nothing by moving its other cards onto t2 (no rules involved here).
    piles[COLUMNS[1]] = piles[COLUMNS[1]][:-1] + position[COLUMNS[0]][:-1]
    emptied = Position(tuple(piles))
    text = write_fcs(game, emptied)
    assert text.splitlines()[1] == ":"
    assert read_fcs(game, text) == emptied


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("KD 2S\n", "8 columns"),
        (MS[1].replace("JD", "XD"), "not a card"),
        (MS[1].replace("JD", "QH"), "appears too often"),
        ("Freecells: 2H 3H 4H 5H 6H\n" + MS[1], "4 free cells"),
        ("Foundations: H-Z\n" + MS[1], "SUIT-RANK"),
        ("Foundations: H-0 H-0\n" + MS[1], "repeated"),
        ("Foundations: H-A\n" + MS[1], "appears too often"),
        (MS[1].replace("JD ", ""), "missing"),
    ],
)
def test_bad_board_text_is_one_line_error(game: BakersGame, text: str, message: str) -> None:
    with pytest.raises(BadSave, match=message) as info:
        read_fcs(game, text)
    assert "\n" not in str(info.value)


# -- patience deal --from / --format -----------------------------------------------------------


def test_deal_from_an_fcs_file(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(MS[617])
    runner = CliRunner()
    result = runner.invoke(cli, ["deal", "bakers-game", "--from", str(board), "--format", "fcs"])
    assert result.exit_code == 0, result.output
    assert result.output == MS[617]
    shown = runner.invoke(cli, ["deal", "bakers-game", "--from", str(board)])
    assert shown.exit_code == 0
    assert shown.output.startswith("Baker's Game, position from ")
    assert "t8" in shown.output


def test_deal_from_a_json_file(tmp_path: Path) -> None:
    runner = CliRunner()
    dumped = runner.invoke(cli, ["deal", "bakers-game", "--deal", "ms:24", "--json"])
    assert json.loads(dumped.output)["game"] == "bakers-game"
    path = tmp_path / "pos.json"
    path.write_text(dumped.output)
    result = runner.invoke(cli, ["deal", "bakers-game", "--from", str(path), "--format", "fcs"])
    assert result.exit_code == 0, result.output
    assert result.output == MS[24]


def test_format_json_is_the_same_as_json_flag() -> None:
    runner = CliRunner()
    one = runner.invoke(cli, ["deal", "bakers-game", "-d", "3", "--json"])
    two = runner.invoke(cli, ["deal", "bakers-game", "-d", "3", "--format", "json"])
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["deal", "escalator", "--format", "fcs"], None, "has no position format 'fcs'"),
        (["deal", "bakers-game", "-d", "1", "--from", "{file}"], "", "not both"),
        (["deal", "bakers-game", "--from", "{file}"], "garbage\n", "8 columns"),
        (["deal", "bakers-game", "--from", "{file}"], "{not json", "not valid JSON"),
        (["deal", "bakers-game", "--from", "{file}/nope"], None, "cannot read"),
        (["deal", "escalator", "--from", "{file}"], MS[1], "reads no other position format"),
    ],
)
def test_bad_deal_requests_give_one_line(
    tmp_path: Path, args: list[str], content: str | None, message: str
) -> None:
    path = tmp_path / "in.txt"
    if content is not None:
        path.write_text(content)
    argv = [a.replace("{file}", str(path)) for a in args]
    exe = Path(sys.executable).with_name("patience")
    env = {k: v for k, v in os.environ.items() if k != "PATIENCE_DEBUG"}
    result = subprocess.run(
        [str(exe), *argv], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]


# -- boards as Freecell Solver's and PySolFC's own files write them ------------------------------

#: Microsoft deal 10016 in the middle of a game, as Freecell Solver's test data has it: a comment
#: line, the free cells header after it, an empty last column.
BOARD_10016 = (
    "# MS Freecell Deal #10016\n"
    "Freecells: TH 4H JH 8H\n"
    ": 5H QD TD 7H KH TC QS\n"
    ": 8S AD JD 6D AS 9D AC\n"
    ": JC 7C QH 6H 4S TS KC\n"
    ": 5C 7D KS JS 8D 2S 2C\n"
    ": 5S 9C 2H 4D 9H 9S 2D\n"
    ": 6C 3H QC 6S 5D KD 3S\n"
    ": AH 8C 7S 4C 3C 3D\n"
    ":\n"
)


def test_comment_lines_and_blank_lines_are_skipped_anywhere(game: BakersGame) -> None:
    plain = read_fcs(game, BOARD_10016.split("\n", 1)[1])
    assert read_fcs(game, BOARD_10016) == plain
    lines = BOARD_10016.splitlines()
    spaced = "\n\n".join(lines[:3]) + "\n  # a remark\n\n" + "\n".join(lines[3:]) + "  # t8 empty\n"
    assert read_fcs(game, spaced) == plain
    assert [str(c) for c in plain[CELLS[0]] + plain[CELLS[3]]] == ["Th", "8h"]
    assert plain[COLUMNS[7]] == ()


@pytest.mark.parametrize(
    ("cells", "homes"),
    [
        ("Freecells:", "Foundations:"),
        ("FC:", "Founds:"),
        ("fc:", "FOUNDS:"),
        ("freecells :", "foundations :"),
    ],
)
def test_every_header_spelling_is_read(game: BakersGame, cells: str, homes: str) -> None:
    """Freecell Solver writes ``Freecells:``/``Foundations:``, PySolFC ``FC:``/``Founds:``;
    either may come first."""
    columns = (
        ": KD 2S 4C 3S 6D 6S JD\n: 2D KC KS 5C TD 8S 9C\n: 9H 9S 9D TS 4S 8D\n"
        ": JC 5S QD QH TH 6H\n: 5D JS 4H 6C 3H\n: 7H QC AS AC 2C 3D\n: 7C KH 4D JH 8C\n"
        ": 5H 3C 7S 7D TC\n"
    )
    expected = read_fcs(game, f"Foundations: H-2 D-A\nFreecells: 8H - - QS\n{columns}")
    assert read_fcs(game, f"{homes} H-2 D-A\n{cells} 8H - - QS\n{columns}") == expected
    assert read_fcs(game, f"{cells} 8H - - QS\n{homes} H-2 D-A\n{columns}") == expected


def test_the_case_board_reads_through_the_command(tmp_path: Path) -> None:
    board = tmp_path / "e.board"
    board.write_text(BOARD_10016.replace("Freecells:", "FC:"))
    result = CliRunner().invoke(
        cli, ["deal", "bakers-game", "--from", str(board), "--format", "fcs"]
    )
    assert result.exit_code == 0, result.output
    written = BOARD_10016.split("\n", 1)[1].replace("\n: ", "\n")
    assert result.output == written


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda text: text.replace("QD", "8S"),
            "card 8S appears too often: line 3 (column 1) and line 4 (column 2); QD is missing",
        ),
        (
            lambda text: text.replace("TH 4H", "TH AH"),
            "card AH appears too often: line 2 (free cell 2) and line 9 (column 7); 4H is missing",
        ),
        (
            lambda text: text.replace("QD", "TD"),
            "card TD appears too often: line 3 (column 1, card 2) and line 3 (column 1, card 3); "
            "QD is missing",
        ),
        (
            lambda text: "Founds: S-A\n" + text,
            "card AS appears too often: line 1 (foundations) and line 5 (column 2)",
        ),
        (lambda text: text.replace("AH 8C", "HA 8C"), "'HA' is not a card (did you mean AH?)"),
        (lambda text: text.replace("TD", "D10"), "'D10' is not a card (did you mean TD?)"),
        (lambda text: text.replace("TD", "0D"), "'0D' is not a card (did you mean TD?)"),
        (lambda text: text.replace("QD", "XD"), "'XD' is not a card (e.g. 9H, TD, KS)"),
        (
            lambda text: text + "FC: - - - -\n",
            "line 11 (free cells): a second free cells line (the first is line 2)",
        ),
    ],
)
def test_a_bad_board_is_told_where(game: BakersGame, change: object, message: str) -> None:
    assert callable(change)
    with pytest.raises(BadSave) as info:
        read_fcs(game, change(BOARD_10016))
    assert str(info.value).endswith(message)
    assert "\n" not in str(info.value)


def test_one_reads_as_the_ace_as_freecell_solver_reads_it(game: BakersGame) -> None:
    assert read_fcs(game, BOARD_10016.replace("AH 8C", "1H 8C")) == read_fcs(game, BOARD_10016)
