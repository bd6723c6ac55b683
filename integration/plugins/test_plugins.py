"""The plugin host: two-phase discovery, broken and blocked plugins, duplicate game names."""

from __future__ import annotations

import types
from typing import Any

import pytest
from click.testing import CliRunner

from patience_core import hookimpl
from patience_core.api import (
    Game,
    GameOption,
    GameRegistry,
    PileKind,
    PileSpec,
    Position,
    PositionFormat,
)
from patience_core.cli import cli
from patience_core.errors import PluginError, UnknownGame
from patience_core.plugins import PluginHost

#: The line ``patience list`` ends with on stderr when plugins are left out: the number and
#: verb, then "its" or "their".
NOT_LISTED = (
    "patience: {} blocked, broken or incompatible: {} games are not listed (see `patience plugins`)"
)


class _Dist:
    def __init__(self, name: str, version: str) -> None:
        self.metadata = {"Name": name}
        self.version = version


class FakeEntryPoint:
    """Stands in for importlib.metadata.EntryPoint: name, dist, load()."""

    def __init__(self, name: str, dist: str, loader: Any, version: str = "1.0") -> None:
        self.name = name
        self.dist = _Dist(dist, version)
        self._loader = loader

    def load(self) -> Any:
        return self._loader()


def make_game(game_name: str) -> type[Game]:
    class Tiny(Game):
        name = game_name
        title = game_name.title()
        max_score = 1
        rules = "A tiny game."

        @property
        def piles(self) -> tuple[PileSpec, ...]:
            return (PileSpec("t1", PileKind.TABLEAU),)

        def layout(self, cards: list[Any]) -> Position:
            return Position((tuple(cards),))

        def legal_moves(self, position: Position) -> list[Any]:
            return []

        def play(self, position: Position, move: Any) -> Position:
            return position

        def is_won(self, position: Position) -> bool:
            return False

        def score(self, position: Position) -> int:
            return 0

    return Tiny


def game_plugin(*names: str) -> types.SimpleNamespace:
    @hookimpl
    def patience_register_games(registry: GameRegistry) -> None:
        for name in names:
            registry.add(make_game(name))

    return types.SimpleNamespace(patience_register_games=patience_register_games)


def ok(name: str, dist: str, *games: str) -> FakeEntryPoint:
    plugin = game_plugin(*games)
    return FakeEntryPoint(name, dist, lambda: plugin)


def failing_import() -> Any:
    raise ImportError("No module named 'missing_dependency'")


def host(*eps: FakeEntryPoint, **env: str) -> PluginHost:
    return PluginHost(entry_points=eps, environ=env).load()


def status(h: PluginHost) -> dict[str, str]:
    return {r.distribution: r.status for r in h.records}


def test_loads_plugins_and_registers_games() -> None:
    h = host(ok("alpha", "patience-alpha", "alpha"), ok("beta", "patience-beta", "beta", "gamma"))
    assert h.games.names() == ["alpha", "beta", "gamma"]
    assert h.games.provider("gamma") == "patience-beta"
    assert status(h) == {
        "patience-core": "built-in",
        "patience-alpha": "loaded",
        "patience-beta": "loaded",
    }
    assert h.problems == []
    assert set(h.strategies.names()) >= {"random", "greedy"}


def test_import_failure_is_reported_once_and_others_keep_working() -> None:
    h = host(
        FakeEntryPoint("bad", "patience-bad", failing_import),
        ok("alpha", "patience-alpha", "alpha"),
    )
    assert h.games.names() == ["alpha"]
    assert status(h)["patience-bad"] == "broken"
    assert len(h.problems) == 1
    assert "patience-bad" in h.problems[0] and "missing_dependency" in h.problems[0]


def test_unknown_hook_marks_plugin_broken() -> None:
    @hookimpl
    def patience_register_gamez(registry: GameRegistry) -> None:  # typo in the hook name
        raise AssertionError("never called")

    plugin = types.SimpleNamespace(patience_register_gamez=patience_register_gamez)
    h = host(FakeEntryPoint("typo", "patience-typo", lambda: plugin))
    assert status(h)["patience-typo"] == "broken"
    assert "patience_register_gamez" in h.problems[0]


def test_hook_with_wrong_arguments_is_broken() -> None:
    @hookimpl
    def patience_register_games(registry: GameRegistry, extra: int) -> None:
        raise AssertionError("never called")

    plugin = types.SimpleNamespace(patience_register_games=patience_register_games)
    h = host(
        FakeEntryPoint("args", "patience-args", lambda: plugin),
        ok("alpha", "patience-alpha", "alpha"),
    )
    assert status(h)["patience-args"] == "broken"
    assert h.games.names() == ["alpha"]


def test_hook_that_raises_is_broken() -> None:
    @hookimpl
    def patience_register_games(registry: GameRegistry) -> None:
        raise RuntimeError("boom")

    plugin = types.SimpleNamespace(patience_register_games=patience_register_games)
    h = host(FakeEntryPoint("boom", "patience-boom", lambda: plugin))
    assert status(h)["patience-boom"] == "broken"
    assert "RuntimeError: boom" in h.problems[0]


def test_duplicate_game_name_names_both_distributions() -> None:
    h = host(ok("one", "patience-one", "golf"), ok("two", "patience-two", "golf"))
    assert h.games.provider("golf") == "patience-one"
    assert status(h)["patience-two"] == "broken"
    assert "patience-one" in h.problems[0] and "patience-two" in h.problems[0]


def test_registry_rejects_non_games() -> None:
    registry = GameRegistry()
    with pytest.raises(PluginError):
        registry.add(int)  # type: ignore[arg-type]


@pytest.mark.parametrize("blocked", ["alpha", "patience-alpha", " beta , alpha"])
def test_disable_plugins_blocks_by_name(blocked: str) -> None:
    h = host(ok("alpha", "patience-alpha", "alpha"), PATIENCE_DISABLE_PLUGINS=blocked)
    assert status(h)["patience-alpha"] == "blocked"
    assert "alpha" not in h.games


def test_blocked_plugin_is_not_imported() -> None:
    def explode() -> Any:
        raise AssertionError("blocked plugins must not be imported")

    h = host(FakeEntryPoint("x", "patience-x", explode), PATIENCE_DISABLE_PLUGINS="x")
    assert status(h)["patience-x"] == "blocked"


def test_allow_list() -> None:
    h = host(
        ok("alpha", "patience-alpha", "alpha"),
        ok("beta", "patience-beta", "beta"),
        PATIENCE_PLUGINS="beta",
    )
    assert h.games.names() == ["beta"]
    assert status(h)["patience-alpha"] == "blocked"


def test_load_is_explicit_and_idempotent() -> None:
    calls = []

    def loader() -> Any:
        calls.append(1)
        return game_plugin("alpha")

    h = PluginHost(entry_points=[FakeEntryPoint("a", "patience-a", loader)], environ={})
    assert calls == []  # nothing imported before load()
    h.load()
    h.load()
    assert calls == [1]


def test_unknown_game_lists_known() -> None:
    h = host(ok("alpha", "patience-alpha", "alpha"))
    with pytest.raises(UnknownGame, match="alpha"):
        h.game("nope")


def test_plugins_command_shows_broken_plugin() -> None:
    h = PluginHost(
        entry_points=[
            FakeEntryPoint("bad", "patience-bad", failing_import),
            ok("alpha", "patience-alpha", "alpha"),
        ],
        environ={},
    )
    result = CliRunner().invoke(cli, ["plugins"], obj=h)
    assert result.exit_code == 0
    assert "patience-bad 1.0  [broken]" in result.output
    assert "missing_dependency" in result.output
    assert "patience-alpha 1.0  [loaded]  games: alpha" in result.output


def test_list_command_with_broken_plugin_still_lists_games() -> None:
    h = PluginHost(
        entry_points=[
            FakeEntryPoint("bad", "patience-bad", failing_import),
            ok("alpha", "patience-alpha", "alpha"),
        ],
        environ={},
    )
    result = CliRunner().invoke(cli, ["list"], obj=h)
    assert result.exit_code == 0
    assert "alpha" in result.stdout
    assert result.stderr.count("patience-bad") == 1


def test_real_entry_point_discovery_finds_escalator() -> None:
    h = PluginHost(environ={}).load()
    assert "escalator" in h.games
    record = next(r for r in h.records if r.distribution == "patience-escalator")
    assert record.status == "loaded" and record.games == ("escalator",)


@pytest.mark.parametrize(
    ("wanted", "status", "needle"),
    [
        (">=1.0,<2", "loaded", ""),
        ("~=1.0", "loaded", ""),
        (">=2", "incompatible", "needs plugin API >=2; this patience-core provides API 1.1"),
        ("<1.0", "incompatible", "needs plugin API <1.0"),
        ("one point oh", "incompatible", "not a version specifier"),
        (1.0, "incompatible", "must be a version specifier string"),
    ],
)
def test_plugin_api_version_is_checked(wanted: object, status: str, needle: str) -> None:
    plugin = game_plugin("alpha")
    plugin.PATIENCE_API = wanted
    h = host(FakeEntryPoint("alpha", "patience-alpha", lambda: plugin))
    assert status_of(h, "patience-alpha") == status
    if needle:
        assert needle in h.problems[0]
        assert "alpha" not in h.games
    else:
        assert h.problems == [] and "alpha" in h.games


def status_of(h: PluginHost, dist: str) -> str:
    return next(r.status for r in h.records if r.distribution == dist)


def test_outside_plugin_cannot_take_a_shipped_game_name() -> None:
    # patience-aaa sorts before patience-escalator, yet the shipped plugin keeps its name.
    h = host(ok("aaa", "patience-aaa", "escalator"), ok("esc", "patience-escalator", "escalator"))
    assert h.games.provider("escalator") == "patience-escalator"
    assert status_of(h, "patience-aaa") == "broken"
    assert "patience-aaa" in h.problems[0] and "patience-escalator" in h.problems[0]


def test_a_plugin_that_fails_half_way_keeps_nothing() -> None:
    @hookimpl
    def patience_register_games(registry: GameRegistry) -> None:
        registry.add(make_game("half"))
        raise RuntimeError("after registering")

    plugin = types.SimpleNamespace(patience_register_games=patience_register_games)
    h = host(FakeEntryPoint("half", "patience-half", lambda: plugin))
    assert status_of(h, "patience-half") == "broken"
    assert "half" not in h.games
    with pytest.raises(UnknownGame):
        h.game("half")


def test_game_names_ignore_case() -> None:
    h = host(ok("alpha", "patience-alpha", "alpha"))
    assert h.game("Alpha").name == "alpha"
    assert h.game(" ALPHA ").name == "alpha"


def test_a_plugin_that_fails_half_way_keeps_no_strategy() -> None:
    from patience_core.games import StrategyRegistry

    @hookimpl
    def patience_register_strategies(registry: StrategyRegistry) -> None:
        registry.add("lucky", lambda game, seed: None, "a player")  # type: ignore[arg-type,return-value]
        raise RuntimeError("after registering")

    plugin = types.SimpleNamespace(patience_register_strategies=patience_register_strategies)
    h = host(FakeEntryPoint("lucky", "patience-lucky", lambda: plugin))
    assert status_of(h, "patience-lucky") == "broken"
    assert "lucky" not in h.strategies.names()


def test_plugins_command_shows_a_plugin_whose_commands_fail() -> None:
    import click

    @hookimpl
    def patience_register_commands(cli: click.Group) -> None:
        raise RuntimeError("no commands today")

    plugin = types.SimpleNamespace(patience_register_commands=patience_register_commands)
    h = host(FakeEntryPoint("cmds", "patience-cmds", lambda: plugin))
    result = CliRunner().invoke(cli, ["plugins"], obj=h)
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("patience-cmds"))
    assert line.endswith("its commands failed: RuntimeError: no commands today")


# -- a game class declared wrongly is refused when its plugin loads --------------------------


def declared(dist: str, cls: type[Game]) -> FakeEntryPoint:
    """A plugin (distribution ``dist``) that registers the game class ``cls``."""

    @hookimpl
    def patience_register_games(registry: GameRegistry) -> None:
        registry.add(cls)

    plugin = types.SimpleNamespace(patience_register_games=patience_register_games)
    return FakeEntryPoint(dist.removeprefix("patience-"), dist, lambda: plugin)


def alpha_with(**attributes: Any) -> type[Game]:
    """Game ``alpha`` with some class attributes replaced."""
    return type("Alpha", (make_game("alpha"),), attributes)


def _write(game: Game, position: Position) -> str:
    return ""


@pytest.mark.parametrize(
    ("attributes", "said"),
    [
        ({"title": 42}, "title is 42, not one line of text"),
        ({"title": "Alpha\nAlpha"}, "title is 'Alpha?Alpha', not one line of text"),
        ({"title": "  "}, "title is '', not one line of text"),
        ({"rules": None}, "rules is None, not a text"),
        ({"rules": b"A tiny game."}, "rules is b'A tiny game.', not a text"),
        ({"max_score": "1"}, "max_score is '1', not a whole number of 1 or more"),
        ({"max_score": True}, "max_score is True, not a whole number"),
        ({"max_score": 0}, "max_score is 0, not a whole number of 1 or more"),
        ({"name": "Alpha Game"}, "name is 'Alpha Game', not lower-case letters"),
        (
            {"name": "a" * 65},
            "name is '" + "a" * 37 + "...', of 65 characters, not 64 at most",
        ),
        (
            {"title": "T" * 61},
            "title is '" + "T" * 37 + "...', of 61 characters, not 60 at most",
        ),
        (
            {"title": "T" * 5000},
            ", of 5,000 characters, not 60 at most (it is a cell of the `patience list` table)",
        ),
        ({"name": 7}, "name is 7, not lower-case letters"),
        ({"options": GameOption("wrap", ("no", "yes"), "no")}, "options is GameOption("),
        ({"options": ("wrap",)}, "options holds 'wrap', not a GameOption"),
        (
            {"options": (GameOption("wrap", ("no", "yes"), "maybe"),)},
            "option 'wrap' has the default 'maybe', not one of its choices",
        ),
        (
            {"options": (GameOption("wrap", "yes", "yes"),)},  # type: ignore[arg-type]
            "option 'wrap' has choices 'yes', not a tuple of texts",
        ),
        (
            {"options": (GameOption("Wrap", ("no", "yes"), "no"),)},
            "has an option named 'Wrap', not a lower-case hyphenated word",
        ),
        (
            {"options": (GameOption("a", ("x",), "x"), GameOption("a", ("y",), "y"))},
            "options declares a name twice",
        ),
        ({"deal_schemes": "aisleriot"}, "deal_schemes is 'aisleriot', not a tuple of"),
        ({"deal_schemes": ("xyz",)}, "deal_schemes is ('xyz',), not a tuple of"),
        ({"formats": (PositionFormat("text", _write),)}, "has a format named 'text'"),
        ({"formats": (PositionFormat("fcs", "write"),)}, "format 'fcs' has write 'write'"),
        ({"formats": PositionFormat("fcs", _write)}, "formats is PositionFormat("),
        (
            {"formats": (PositionFormat("fcs", _write), PositionFormat("fcs", _write))},
            "formats declares a name twice",
        ),
        ({"tableau_fan": "up"}, "tableau_fan is 'up', not 'down' or 'right'"),
    ],
)
def test_a_wrong_class_attribute_makes_the_plugin_broken_and_the_others_work(
    attributes: dict[str, Any], said: str
) -> None:
    h = host(
        declared("patience-alpha", alpha_with(**attributes)), ok("beta", "patience-beta", "beta")
    )
    assert status_of(h, "patience-alpha") == "broken"
    assert h.games.names() == ["beta"]
    assert len(h.problems) == 1
    assert h.problems[0].startswith(
        "plugin patience-alpha (alpha) is broken and was skipped: game class Alpha: "
    )
    assert said in h.problems[0]


def test_a_game_class_with_abstract_methods_left_is_refused_when_it_loads() -> None:
    half = type(
        "Half", (Game,), {"name": "half", "title": "Half", "max_score": 1, "rules": "A game."}
    )
    h = host(declared("patience-half", half))
    assert h.problems == [
        "plugin patience-half (half) is broken and was skipped: game class Half: it does not "
        "implement is_won, layout, legal_moves, piles, play, score"
    ]


def test_a_title_of_60_characters_is_the_longest_taken() -> None:
    from patience_core.games import TITLE_LIMIT, declaration_problem

    assert TITLE_LIMIT == 60
    assert declaration_problem(alpha_with(title="T" * 60)) is None
    # The shipped games' titles, with room to spare.
    assert all(len(cls.title) <= TITLE_LIMIT // 4 for cls in PluginHost(environ={}).load().games)


def test_a_game_with_a_title_of_5000_characters_does_not_widen_the_list(
    installed: Any, run_patience: Any
) -> None:
    installed(declared("patience-alpha", alpha_with(title="T" * 5000)), ok("b", "patience-b", "b"))
    result = run_patience("list")
    assert (result.code, result.out) == (0, "b  B  patience-b 1.0\n")
    assert result.err.splitlines() == [
        "patience: warning: plugin patience-alpha (alpha) is broken and was skipped: game class "
        f"Alpha: title is '{'T' * 37}...', of 5,000 characters, not 60 at most (it is a cell "
        "of the `patience list` table)",
        NOT_LISTED.format("1 plugin is", "its"),
    ]


def test_every_installed_game_is_declared_rightly() -> None:
    from patience_core.games import declaration_problem

    h = PluginHost(environ={}).load()
    assert h.problems == []
    for cls in h.games:
        assert declaration_problem(cls) is None


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Make the real ``patience`` command line find only the given (fake) entry points."""
    import patience_core.plugins._host as plugins

    def install(*eps: FakeEntryPoint) -> None:
        monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: list(eps))

    return install


def test_list_and_rules_with_a_game_whose_title_or_rules_are_wrong(
    installed: Any, run_patience: Any
) -> None:
    installed(
        declared("patience-alpha", alpha_with(title=42, rules=None)),
        declared("patience-gamma", alpha_with(name="gamma", title="Gamma\nGamma")),
        ok("beta", "patience-beta", "beta"),
    )
    result = run_patience("list")
    assert result.code == 0
    assert result.out == "beta  Beta  patience-beta 1.0\n"
    *warnings, count = result.err.splitlines()
    assert len(warnings) == 2 and count == NOT_LISTED.format("2 plugins are", "their")
    assert warnings[0].startswith("patience: warning: plugin patience-alpha (alpha) is broken")
    assert "title is 42" in warnings[0]
    assert "patience-gamma (gamma) is broken" in warnings[1] and "title is 'Gamma?" in warnings[1]
    result = run_patience("rules", "alpha")
    assert result.code == 1 and not result.out
    # The plugin's own error is in the same line, not only in the warning above it.
    assert result.err.splitlines()[-1] == (
        "patience: error: unknown game 'alpha': its plugin patience-alpha is broken and was "
        "skipped: game class Alpha: title is 42, not one line of text"
    )
    assert "Traceback" not in result.err
    assert run_patience("rules", "beta").out == "A tiny game.\n"


def test_a_blocked_game_is_unknown_and_says_why() -> None:
    h = host(ok("alpha", "patience-alpha", "alpha"), PATIENCE_DISABLE_PLUGINS="alpha")
    with pytest.raises(UnknownGame) as caught:
        h.game("alpha")
    assert str(caught.value) == (
        "unknown game 'alpha': its plugin patience-alpha is blocked: PATIENCE_DISABLE_PLUGINS "
        "names it"
    )


# -- a plugin raising SystemExit, GeneratorExit, ... never ends patience -----------------------


def raising(exc: BaseException) -> Any:
    def loader() -> Any:
        raise exc

    return loader


def hook_raising(exc: BaseException, dist: str = "patience-golf") -> FakeEntryPoint:
    @hookimpl
    def patience_register_games(registry: GameRegistry) -> None:
        raise exc

    plugin = types.SimpleNamespace(patience_register_games=patience_register_games)
    return FakeEntryPoint(dist.removeprefix("patience-"), dist, lambda: plugin)


@pytest.mark.parametrize(
    ("entry_point", "said"),
    [
        (FakeEntryPoint("golf", "patience-golf", raising(SystemExit(3))), "SystemExit: 3"),
        (FakeEntryPoint("golf", "patience-golf", raising(GeneratorExit())), "GeneratorExit"),
        (hook_raising(SystemExit(4)), "SystemExit: 4"),
        (hook_raising(GeneratorExit()), "GeneratorExit"),
        (hook_raising(SystemExit()), "SystemExit"),
    ],
)
def test_a_plugin_raising_a_non_exception_at_load_is_broken_and_the_others_work(
    entry_point: FakeEntryPoint, said: str
) -> None:
    h = host(entry_point, ok("beta", "patience-beta", "beta"))
    assert h.problems == [f"plugin patience-golf (golf) is broken and was skipped: {said}"]
    assert h.games.names() == ["beta"]


def test_a_plugin_module_attribute_raising_systemexit_is_broken() -> None:
    class Module(types.SimpleNamespace):
        def __getattr__(self, name: str) -> Any:
            raise SystemExit(f"no {name}")

    h = host(FakeEntryPoint("odd", "patience-odd", lambda: Module()))
    assert status_of(h, "patience-odd") == "broken"
    assert "SystemExit: no PATIENCE_API" in h.problems[0]


def test_ctrl_c_while_a_plugin_loads_stays_an_interrupt() -> None:
    import os
    import signal
    import time

    def pressed() -> Any:
        os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C, landing in the plugin's code
        time.sleep(5)

    with pytest.raises(KeyboardInterrupt):
        host(FakeEntryPoint("golf", "patience-golf", pressed))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("where", ["import", "hook"])
def test_a_plugin_raising_keyboardinterrupt_itself_is_broken(where: str) -> None:
    """No Ctrl-C came: the plugin's own ``raise KeyboardInterrupt`` is its failure, and the
    other plugins load (before, every command of every game said "interrupted")."""
    import signal

    broken = (
        FakeEntryPoint("golf", "patience-golf", raising(KeyboardInterrupt()))
        if where == "import"
        else hook_raising(KeyboardInterrupt())
    )
    h = host(broken, ok("beta", "patience-beta", "beta"))
    assert h.problems == [
        "plugin patience-golf (golf) is broken and was skipped: KeyboardInterrupt"
    ]
    assert h.games.names() == ["beta"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_commands_hooks_raising_systemexit_are_named_and_skipped() -> None:
    """Adding commands is part of loading a plugin: its failure is named, the others go on."""
    import click

    @hookimpl
    def patience_register_commands(cli: click.Group) -> None:
        raise SystemExit(6)

    plugin = types.SimpleNamespace(patience_register_commands=patience_register_commands)
    h = host(FakeEntryPoint("x", "patience-x", lambda: plugin))
    assert h.add_commands(click.Group()) == [
        "plugin patience-x failed to add commands: SystemExit: 6"
    ]


def test_the_card_hook_is_asked_through_pluggy_and_trusted() -> None:
    """Once loaded, plugin code is trusted: the first text wins, and a failure is the plugin's
    (the command line names it in one line), not skipped in silence."""
    from patience_core.model import Card

    @hookimpl
    def patience_card_text(card: Card, unicode: bool) -> str | None:
        if card.code == "Ks":
            raise RuntimeError("no king today")
        return "A!" if card.code == "Ah" else None

    plugin = types.SimpleNamespace(patience_card_text=patience_card_text)
    h = host(FakeEntryPoint("glyphs", "patience-glyphs", lambda: plugin))
    assert h.card_text(Card.from_code("Ah"), True) == "A!"
    assert h.card_text(Card.from_code("2h"), True) is None
    with pytest.raises(RuntimeError, match="no king today"):
        h.card_text(Card.from_code("Ks"), True)


def test_the_command_line_lists_the_other_games_when_a_plugin_exits_at_import(
    installed: Any, run_patience: Any
) -> None:
    installed(
        FakeEntryPoint("golf", "patience-golf", raising(SystemExit(3))),
        hook_raising(GeneratorExit(), "patience-hole"),
        ok("beta", "patience-beta", "beta"),
    )
    result = run_patience("list")
    assert result.code == 0
    assert result.out == "beta  Beta  patience-beta 1.0\n"
    assert result.err.splitlines() == [
        "patience: warning: plugin patience-golf (golf) is broken and was skipped: SystemExit: 3",
        "patience: warning: plugin patience-hole (hole) is broken and was skipped: GeneratorExit",
        NOT_LISTED.format("2 plugins are", "their"),
    ]
    assert "Traceback" not in result.err


def in_plugin_module(
    source: str, name: str = "broken", module: str = "patience_escalator.game"
) -> Any:
    """A function compiled as if written in a plugin's own ``module`` (Escalator's game module
    unless told)."""
    namespace: dict[str, Any] = {"__name__": module}
    exec(source, namespace)  # test scaffolding: code "inside" the plugin
    return namespace[name]


def test_a_game_method_raising_systemexit_in_play_is_a_broken_plugin_and_the_game_saved(
    run_patience: Any, patience_data_dir: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from patience_escalator import Escalator

    real_play = Escalator.play
    exits = in_plugin_module(
        "def broken(self, position, move):\n"
        "    if position[1]:\n"
        "        raise SystemExit(5)\n"
        "    return real_play(self, position, move)\n"
    )
    exits.__globals__["real_play"] = real_play
    monkeypatch.setattr(Escalator, "play", exits)
    result = run_patience(
        "play", "escalator", "--deal", "3", "--no-dead-check", input="deal\ndeal\nquit\n"
    )
    assert result.code == 1
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1
    assert (
        "escalator plugin (patience-escalator) failed: SystemExit: 5; your game is saved"
        in (lines[0])
    )
    saved = json.loads((patience_data_dir / "saves" / "escalator.json").read_text())
    assert saved["moves"] == ["deal"]


#: Bristol's search module: a search object written in the plugin (not a family's).
BRISTOL_SEARCH = "patience_bristol.search"


@pytest.mark.parametrize("raised", ["SystemExit(6)", "GeneratorExit()"])
def test_a_game_method_raising_a_non_exception_in_solve_is_a_broken_plugin(
    run_patience: Any, monkeypatch: pytest.MonkeyPatch, raised: str
) -> None:
    # Bristol's search object is the plugin's own code (a family's search is the core's).
    from patience_bristol.search import BristolSearch

    monkeypatch.setattr(
        BristolSearch,
        "is_dead",
        in_plugin_module(
            f"def broken(self, position):\n    raise {raised}\n", module=BRISTOL_SEARCH
        ),
    )
    result = run_patience("solve", "bristol", "--deal", "3")
    assert result.code == 1
    assert result.err.startswith("patience: error: the plugin patience-bristol failed: ")
    assert raised.split("(")[0] in result.err and "Traceback" not in result.err
    assert result.err.count("\n") == 1


def _exits_in_the_plugin(monkeypatch: pytest.MonkeyPatch, method: str, status: int) -> None:
    """Escalator's ``method`` raising ``SystemExit(status)`` from the plugin's own module, once
    a card is on the waste (after the first deal: the host's check of deal 1 passes)."""
    from patience_escalator import Escalator

    real = getattr(Escalator, method)
    broken = in_plugin_module(
        "def broken(self, position, *args):\n"
        "    if position[1]:\n"
        f"        raise SystemExit({status})\n"
        "    return real(self, position, *args)\n"
    )
    broken.__globals__["real"] = real
    monkeypatch.setattr(Escalator, method, broken)


@pytest.mark.parametrize(
    ("command", "method"),
    [
        (("solve", "escalator", "--from", "SAVE"), "legal_moves"),
        (("hint", "SAVE"), "legal_moves"),
        # simulate plays from the deal: its failure comes after the first deal
        (("simulate", "escalator", "-n", "2", "-j", "1", "--first-deal", "3"), "play"),
        (("play", "escalator", "--resume"), "legal_moves"),  # in replaying the save
        (("play", "escalator", "--resume", "--no-dead-check"), "play"),  # in a move typed
    ],
    ids=["solve", "hint", "simulate", "play-resume", "play-move"],
)
@pytest.mark.parametrize("status", [0, 7])
def test_debug_shows_the_traceback_of_a_plugin_exiting_and_exits_1(
    run_patience: Any,
    patience_data_dir: Any,
    monkeypatch: pytest.MonkeyPatch,
    command: tuple[str, ...],
    method: str,
    status: int,
) -> None:
    """With PATIENCE_DEBUG=1 a plugin's SystemExit shows its traceback, exit 1: not a silent
    end with the plugin's own status (0 said "success" and printed nothing)."""
    played = run_patience("play", "escalator", "--deal", "3", "--no-dead-check", input="deal\n")
    assert played.code == 3  # piped play ended in progress
    save = str(patience_data_dir / "saves" / "escalator.json")
    _exits_in_the_plugin(monkeypatch, method, status)
    monkeypatch.setenv("PATIENCE_DEBUG", "1")
    result = run_patience(*[save if arg == "SAVE" else arg for arg in command], input="deal\n")
    assert result.code == 1, result
    assert "Traceback (most recent call last):" in result.err
    assert f"SystemExit: {status}" in result.err
    assert ", in broken\n" in result.err  # the plugin's frame


def test_a_plugin_command_keeps_its_own_exit_status(
    installed: Any, run_patience: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import click

    bye = click.Command(
        "bye", callback=in_plugin_module("def bye():\n    raise SystemExit(3)\n", "bye")
    )

    @hookimpl
    def patience_register_commands(cli: click.Group) -> None:
        cli.add_command(bye)

    plugin = types.SimpleNamespace(patience_register_commands=patience_register_commands)
    installed(FakeEntryPoint("bye", "patience-escalator", lambda: plugin))
    # The group asks plugins for commands once per process: make it ask these.
    monkeypatch.setattr(cli, "_plugins_added", False)
    monkeypatch.setattr(cli, "commands", dict(cli.commands))
    result = run_patience("bye")
    assert (result.code, result.out, result.err) == (3, "", "")


def test_a_plugin_registering_one_game_twice_is_broken_and_says_so() -> None:
    h = host(ok("golf", "patience-golf", "golf", "golf"), ok("beta", "patience-beta", "beta"))
    assert h.problems == [
        "plugin patience-golf (golf) is broken and was skipped: it registers the game 'golf' twice"
    ]
    assert h.games.names() == ["beta"]
    # Two classes of one name from one plugin are the same mistake.
    h = host(ok("golf", "patience-golf", "golf", "hole", "golf"))
    assert h.problems[0].endswith("it registers the game 'golf' twice")
    assert h.games.names() == []


def test_a_game_claimed_by_two_plugins_stays_with_the_one_the_message_names() -> None:
    h = host(ok("one", "patience-one", "golf", "hole"), ok("two", "patience-two", "golf", "par"))
    assert h.problems == [
        "plugin patience-two (two) is broken and was skipped: game 'golf' is provided by both "
        "patience-one and patience-two; keeping patience-one"
    ]
    assert h.games.provider("golf") == "patience-one"
    assert h.games.names() == ["golf", "hole"]


# -- messages about a plugin's failure ------------------------------------------------------


@pytest.mark.parametrize(
    ("exc", "line"),
    [
        (GeneratorExit(), "GeneratorExit"),
        (MemoryError(), "MemoryError"),
        (SystemExit(), "SystemExit"),
        (SystemExit(7), "SystemExit: 7"),
        (RuntimeError(""), "RuntimeError"),
        (RuntimeError("  \n"), "RuntimeError"),
        (RuntimeError("boom\nmore"), "RuntimeError: boom"),
        (RuntimeError("\n  boom  "), "RuntimeError: boom"),
        (RuntimeError("bad:"), "RuntimeError: bad:"),
        (RuntimeError("\x1b[2Jred"), "RuntimeError: ?[2Jred"),
        (RuntimeError("x" * 500), "RuntimeError: " + "x" * 197 + "..."),
    ],
    ids=lambda value: None if isinstance(value, str) else type(value).__name__,
)
def test_one_line_says_the_type_alone_when_there_is_no_text(exc: BaseException, line: str) -> None:
    from patience_core.errors import one_line

    assert one_line(exc) == line


@pytest.mark.parametrize("raised", ["GeneratorExit()", "MemoryError()", "SystemExit()"])
@pytest.mark.parametrize("command", ["solve", "hint", "play"])
def test_a_plugin_error_with_no_text_is_named_by_its_type_alone(
    run_patience: Any,
    patience_data_dir: Any,
    monkeypatch: pytest.MonkeyPatch,
    raised: str,
    command: str,
) -> None:
    """``failed: GeneratorExit (set ...)``, not ``failed: GeneratorExit:  (set ...)``."""
    # Bristol: its game and its search object are the plugin's own code.
    from patience_bristol import Bristol
    from patience_bristol.search import BristolSearch

    played = run_patience("play", "bristol", "--deal", "3", "--no-dead-check", input="deal\n")
    assert played.code == 3  # piped play ended in progress
    save = str(patience_data_dir / "saves" / "bristol.json")
    owner, method, module = (
        (Bristol, "play", "patience_bristol.game")
        if command == "play"
        else (BristolSearch, "is_dead", BRISTOL_SEARCH)
    )
    monkeypatch.setattr(
        owner,
        method,
        in_plugin_module(f"def broken(self, *args):\n    raise {raised}\n", module=module),
    )
    name = raised.removesuffix("()")
    if command == "play":
        result = run_patience("play", "bristol", "--resume", "--no-dead-check", input="deal\n")
        expected = (
            f"patience: error: the bristol plugin (patience-bristol) failed: {name}; your "
            "game is saved; resume with: patience play bristol --resume"
        )
    else:
        args = ("solve", "bristol", "--from", save) if command == "solve" else ("hint", save)
        result = run_patience(*args)
        expected = (
            f"patience: error: the plugin patience-bristol failed: {name} (set "
            "PATIENCE_DEBUG=1 for details)"
        )
    assert (result.code, result.err.splitlines()) == (1, [expected])


def test_a_name_no_installed_plugin_has_is_warned_of() -> None:
    """A misspelt name in PATIENCE_PLUGINS used to leave no game and no word of why."""
    h = host(ok("beta", "patience-beta", "beta"), PATIENCE_PLUGINS="nosuch, patience-beta")
    assert h.games.names() == ["beta"]
    assert h.problems == ["PATIENCE_PLUGINS names 'nosuch', which is no installed plugin"]
    h = host(ok("beta", "patience-beta", "beta"), PATIENCE_DISABLE_PLUGINS="bta")
    assert h.problems == ["PATIENCE_DISABLE_PLUGINS names 'bta', which is no installed plugin"]
    assert host(ok("beta", "patience-beta", "beta"), PATIENCE_PLUGINS="beta").problems == []


def test_a_plugin_command_named_like_a_built_in_one_is_warned_of(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import click

    def shadow() -> None:
        click.echo("the plugin's list")

    @hookimpl
    def patience_register_commands(cli: click.Group) -> None:
        cli.add_command(click.Command("list", callback=shadow))

    plugin = types.SimpleNamespace(patience_register_commands=patience_register_commands)
    h = host(FakeEntryPoint("cmds", "patience-cmds", lambda: plugin))
    monkeypatch.setattr(cli, "_plugins_added", False)
    monkeypatch.setattr(cli, "commands", dict(cli.commands))
    result = CliRunner().invoke(cli, ["--help"], obj=h)
    assert result.exit_code == 0
    assert (
        f"patience: warning: a plugin's command 'list' (from {__name__}) was not added: "
        "patience has a command of that name"
    ) in result.stderr
    assert "the plugin's list" not in CliRunner().invoke(cli, ["list"], obj=h).output


def test_a_game_named_after_another_distribution_stays_with_it_whatever_the_order() -> None:
    """patience-zzz loads after patience-aaa, yet keeps the game named after it; other names
    stay first-come."""
    h = host(ok("aaa", "patience-aaa", "zzz", "common"), ok("zzz", "patience-zzz", "zzz"))
    assert h.games.provider("zzz") == "patience-zzz"
    assert status_of(h, "patience-aaa") == "broken"
    assert h.problems == [
        "plugin patience-aaa (aaa) is broken and was skipped: game 'zzz' is provided by both "
        "patience-zzz and patience-aaa; keeping patience-zzz"
    ]


def test_a_search_class_given_by_its_import_path_is_imported_when_first_asked() -> None:
    from patience_core.games import GameSearch

    registry = GameRegistry()
    registry.add(make_game("alpha"), search="patience_core.games:GameSearch")
    registry.add(make_game("beta"), search="patience_core.games:Game")
    assert registry.search("alpha") is GameSearch
    with pytest.raises(PluginError, match="not a GameSearch class"):
        registry.search("beta")


def test_plugin_objects_may_be_given_to_the_host_without_an_entry_point() -> None:
    h = PluginHost(entry_points=[], environ={}, plugins={"patience-fake": game_plugin("fake")})
    h.load()
    assert h.games.provider("fake") == "patience-fake"
    assert status(h)["patience-fake"] == "loaded"


def test_a_second_entry_point_of_one_distribution_is_broken_and_the_first_keeps_its_games() -> None:
    h = host(ok("golf", "patience-golf", "golf"), ok("links", "patience-golf", "links"))
    assert h.games.names() == ["golf"]
    assert [r.status for r in h.records if r.distribution == "patience-golf"] == [
        "loaded",
        "broken",
    ]


def test_list_with_one_broken_plugin_and_no_game_says_1_plugin_is() -> None:
    h = PluginHost(entry_points=[FakeEntryPoint("bad", "patience-bad", failing_import)], environ={})
    result = CliRunner().invoke(cli, ["list"], obj=h)
    assert result.stdout == (
        "No games available: 1 plugin is blocked, broken or incompatible (see `patience "
        "plugins`).\n"
    )


@pytest.mark.parametrize("value", ["", " ", " , ,", ","])
def test_a_plugin_list_naming_nothing_is_no_list(value: str) -> None:
    """PATIENCE_PLUGINS set to only commas and spaces names no plugin: it loads every plugin
    as when unset (it used to load none, without a word)."""
    h = host(ok("beta", "patience-beta", "beta"), PATIENCE_PLUGINS=value)
    assert "beta" in h.games.names()
    assert h.problems == []


@pytest.mark.parametrize(
    ("golf", "why"),
    [
        (None, "its variant file or plugin is gone"),
        (
            FakeEntryPoint("golf", "patience-golf", failing_import),
            "its plugin patience-golf is broken and was skipped: ImportError: No module named "
            "'missing_dependency'",
        ),
    ],
)
def test_a_save_of_a_plugin_game_not_installed_now_says_so_and_is_kept(
    installed: Any, run_patience: Any, tmp_path: Any, golf: Any, why: str
) -> None:
    save = tmp_path / "game.json"
    assert run_patience("play", "golf", "-d", "1", "--file", str(save), input="").code == 3
    before = save.read_bytes()
    installed(*filter(None, [golf, ok("beta", "patience-beta", "beta")]))
    for command in (("score", str(save)), ("play", "golf", "--resume", "--file", str(save))):
        result = run_patience(*command, input="")
        assert result.code == 1 and not result.out
        assert result.err.splitlines()[-1] == (
            f"patience: error: {save}: cannot load the saved golf game: 'golf' is not installed "
            f"now ({why}); the save is kept"
        )
    assert save.read_bytes() == before
