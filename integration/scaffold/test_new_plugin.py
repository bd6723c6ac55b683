"""`patience new-plugin`: the template makes a working, discoverable plugin distribution."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience_core.cli import cli
from patience_core.errors import PatienceError
from patience_core.scaffold import create_plugin, names_for

ROOT = Path(__file__).resolve().parents[2]


def test_names() -> None:
    values = names_for("forty-thieves")
    assert values["package"] == "patience_forty_thieves"
    assert values["class_name"] == "FortyThieves"
    assert values["title"] == "Forty Thieves"


@pytest.mark.parametrize("name", ["", "Golf", "9golf", "golf_", "go--lf", "-golf", "a" * 41, "g f"])
def test_bad_names(name: str) -> None:
    with pytest.raises(PatienceError, match="bad game name"):
        names_for(name)


def test_a_name_too_long_says_so() -> None:
    with pytest.raises(PatienceError, match=r"\.\.\.: 70 characters, 40 at most$"):
        names_for("a" * 70)
    assert names_for("a" * 40)["name"] == "a" * 40


def test_creates_the_distribution(tmp_path: Path) -> None:
    target = create_plugin("lucky-seven", tmp_path)
    assert target == tmp_path / "patience-lucky-seven"
    files = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    assert files == [
        "README.md",
        "patience_lucky_seven/__init__.py",
        "patience_lucky_seven/game.py",
        "patience_lucky_seven/py.typed",
        "pyproject.toml",
        "tests/test_lucky_seven.py",
    ]
    pyproject = (target / "pyproject.toml").read_text()
    assert '[project.entry-points.patience]\nlucky-seven = "patience_lucky_seven"' in pyproject
    for path in target.rglob("*.py"):
        compile(path.read_text(), str(path), "exec")
        assert "${" not in path.read_text()


def test_never_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "patience-golf"
    target.mkdir()
    (target / "mine.txt").write_text("keep me")
    with pytest.raises(PatienceError, match="not empty"):
        create_plugin("golf", tmp_path)
    assert (target / "mine.txt").read_text() == "keep me"
    assert sorted(p.name for p in target.iterdir()) == ["mine.txt"]


def test_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["new-plugin", "golfish", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "patience-golfish" / "pyproject.toml").exists()
    again = CliRunner().invoke(cli, ["new-plugin", "golfish", "--dir", str(tmp_path)])
    assert again.exit_code == 1


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("escalator", "escalator is the name of an installed game (from patience-escalator)"),
        ("Golf", "Golf is the name of an installed game (from patience-golf)"),
        ("core", "patience-core is the name of an installed distribution"),
    ],
)
def test_the_name_of_an_installed_game_is_refused(name: str, said: str, tmp_path: Path) -> None:
    """Installing a plugin made with that name would replace the game (pip replaces the
    distribution of the same name, or the names clash)."""
    result = CliRunner().invoke(cli, ["new-plugin", name, "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert said in str(result.exception)
    assert not any(tmp_path.iterdir())


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A fresh virtual environment with patience-core, a plugin made from the template, and the
    Golf example, all installed with pip (not editable)."""
    where = tmp_path_factory.mktemp("fresh")
    plugin = create_plugin("demo-golf", where)
    env_dir = where / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    packages = [str(ROOT), str(plugin), str(ROOT / "examples" / "patience-golf")]
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", *packages, "pytest", "hypothesis"],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return env_dir, plugin


def test_template_plugin_in_a_fresh_venv(fresh_venv: tuple[Path, Path], tmp_path: Path) -> None:
    env_dir, plugin = fresh_venv
    patience = str(env_dir / "bin" / "patience")
    env = {"PATH": str(env_dir / "bin"), "PATIENCE_DATA_DIR": str(tmp_path), "NO_COLOR": "1"}
    listing = subprocess.run([patience, "list"], capture_output=True, text=True, env=env)
    assert listing.returncode == 0, listing.stderr
    assert any(
        line.startswith("demo-golf") and "patience-demo-golf" in line
        for line in listing.stdout.splitlines()
    )
    played = subprocess.run(
        [patience, "play", "demo-golf", "--deal", "3"],
        input="deal\nundo\ndeal\nquit\n",
        capture_output=True,
        text=True,
        env=env,
    )
    assert played.returncode == 3, played.stderr  # piped: in progress
    assert "deal 3" in played.stdout
    tests = subprocess.run(
        [
            str(env_dir / "bin" / "python"),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(plugin / "tests"),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=plugin,
    )
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert " passed" in tests.stdout


def test_golf_example_in_a_fresh_venv(fresh_venv: tuple[Path, Path], tmp_path: Path) -> None:
    env_dir, _ = fresh_venv
    patience = str(env_dir / "bin" / "patience")
    env = {"PATH": str(env_dir / "bin"), "PATIENCE_DATA_DIR": str(tmp_path), "NO_COLOR": "1"}
    listing = subprocess.run([patience, "list"], capture_output=True, text=True, env=env)
    assert "patience-golf" in listing.stdout, listing.stdout + listing.stderr
    played = subprocess.run(
        [patience, "play", "golf", "--deal", "1", "--option", "wrap=yes"],
        input="deal\nquit\n",
        capture_output=True,
        text=True,
        env=env,
    )
    assert played.returncode == 3, played.stderr  # piped: in progress
    tests = subprocess.run(
        [
            str(env_dir / "bin" / "python"),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(ROOT / "examples" / "patience-golf" / "tests"),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT / "examples" / "patience-golf",
    )
    assert tests.returncode == 0, tests.stdout[-3000:]


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("the fresh-venv tests use POSIX paths")


@pytest.mark.parametrize("where", ["missing", "missing/deeper", "a-file"])
def test_a_dir_that_is_not_an_existing_folder_is_refused(tmp_path: Path, where: str) -> None:
    """As ``play --file`` refuses a missing folder: a typo in a path must not make folders."""
    (tmp_path / "a-file").write_text("")
    parent = tmp_path / where
    result = CliRunner().invoke(cli, ["new-plugin", "okname", "--dir", str(parent)])
    assert result.exit_code == 1
    what = "it is not a folder" if where == "a-file" else "the folder does not exist"
    assert str(result.exception) == f"cannot create the plugin in {parent}: {what}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
