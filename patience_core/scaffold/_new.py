"""Creating a new game plugin distribution from the template (``patience new-plugin``).

The template lives in ``patience_core/scaffold/templates/plugin/``: a ``pyproject.toml`` with the
``patience`` entry point, a package with one small example game, a README, and a first test that
proves the plugin is discovered through its entry point, then runs the conformance kit.
"""

from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path

from patience_core import API_VERSION, __version__
from patience_core.errors import PatienceError
from patience_core.games import shown_path

__all__ = ["create_plugin", "names_for"]

_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


def names_for(name: str) -> dict[str, str]:
    """The template's substitutions for game ``name`` (lower case, hyphenated).

    :raises PatienceError: for a name that is not lower-case letters, digits and single hyphens,
        starting with a letter, at most 40 characters.
    """
    if len(name) > 40:
        raise PatienceError(f"bad game name {name[:40]!r}...: {len(name)} characters, 40 at most")
    if not _NAME.match(name):
        raise PatienceError(
            f"bad game name {name!r}: use lower-case letters, digits and hyphens, "
            "starting with a letter (e.g. 'golf' or 'forty-thieves')"
        )
    words = name.split("-")
    major = int(API_VERSION.split(".")[0])
    return {
        "name": name,
        "package": "patience_" + "_".join(words),
        "title": " ".join(word.capitalize() for word in words),
        "class_name": "".join(word.capitalize() for word in words) or "Game",
        "core_version": __version__,
        "api_version": API_VERSION,
        "next_api_major": str(major + 1),
    }


def create_plugin(name: str, parent: Path) -> Path:
    """Write a new plugin distribution ``patience-NAME`` under ``parent``.

    :param parent: an existing folder: a missing one is refused, not made (a typo in a path
        must not make folders, as ``patience play --file`` refuses one too).
    :returns: the new distribution's folder.
    :raises PatienceError: for a bad name, a ``parent`` that does not exist or is not a folder,
        or when the folder exists and is not empty (nothing is ever overwritten).
    """
    values = names_for(name)
    if not parent.is_dir():
        what = "it is not a folder" if parent.exists() else "the folder does not exist"
        raise PatienceError(f"cannot create the plugin in {shown_path(parent)}: {what}")
    target = parent / f"patience-{name}"
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise PatienceError(
            f"{shown_path(target)} already exists and is not empty; nothing was written"
        )
    files = {
        "pyproject.toml.tmpl": "pyproject.toml",
        "README.md.tmpl": "README.md",
        "__init__.py.tmpl": f"{values['package']}/__init__.py",
        "game.py.tmpl": f"{values['package']}/game.py",
        "test_game.py.tmpl": f"tests/test_{values['package'].removeprefix('patience_')}.py",
    }
    template = resources.files("patience_core.scaffold") / "templates" / "plugin"
    rendered = {
        out: string.Template((template / src).read_text(encoding="utf-8")).substitute(values)
        for src, out in files.items()
    }
    try:
        for out, text in rendered.items():
            path = target / out
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        (target / values["package"] / "py.typed").write_text("", encoding="utf-8")
    except OSError as exc:
        raise PatienceError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
