"""The conformance kit's checks of the command line: :class:`CommandLineChecks`, mixed into
:class:`~patience_core.testing.GameConformance` (layer 5: it drives the command line in new
processes).

The CLI can ``deal`` the game (text and JSON), ``play`` it scripted through standard input (the
exit status telling the game's state) and then ``--resume`` it, and ``simulate`` it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patience_core.engine import DealNumber, GRand
from patience_core.games import Game
from patience_core.model import Position
from patience_core.testing._golden import _run_cli

__all__ = ["CommandLineChecks"]


class CommandLineChecks:
    """The command-line checks of the conformance kit and the helpers they share with it; a
    base of :class:`~patience_core.testing.GameConformance`, which sets :attr:`game`,
    :attr:`options` and :meth:`make_game`."""

    game: str = ""
    options: Mapping[str, str] = {}

    def make_game(self) -> Game:
        """The game under test (:class:`~patience_core.testing.GameConformance` loads it).

        :raises NotImplementedError: always, here.
        """
        raise NotImplementedError

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
        from patience_core.plugins import PluginHost, variant_folder

        game = self.make_game()
        texts, position = self._walk_texts(game, 1, 12)
        env = {"PATIENCE_DATA_DIR": str(tmp_path / "data"), "NO_COLOR": "1"}
        # The data folder's variant files are games in the fresh one too (regular files only:
        # a pipe there would hang the copy).
        variant_folder(env).mkdir(parents=True)
        for path in variant_folder().glob("*.toml"):
            if path.is_file():
                (variant_folder(env) / path.name).write_bytes(path.read_bytes())
        save = tmp_path / "game.json"
        args = ["play", self.game, "--deal", "1", "--file", str(save), *self._option_args()]
        code, _out, err = _run_cli(args, "\n".join([*texts, "quit"]) + "\n", env)
        assert code in (0, 3, 4), err  # won, in progress, lost: anything else is a failure
        _, session = load_session(save, PluginHost().load().game)
        # Piped play's exit status tells the game's state: 0 won, 3 in progress, 4 lost.
        expected = {"won": 0, "lost": 4, None: 3}[session.finished]
        assert code == expected, err
        assert session.position == position
        code, _out, err = _run_cli(
            ["play", self.game, "--resume", "--file", str(save)], "quit\n", env
        )
        assert code == expected, err

    def test_cli_simulate(self) -> None:
        """``patience simulate GAME -n 3`` runs and reports a win rate."""
        code, out, err = _run_cli(
            ["simulate", self.game, "-n", "3", "--max-moves", "300", *self._option_args()], "", {}
        )
        assert code == 0, err
        assert "won" in out.lower() and "95%" in out
