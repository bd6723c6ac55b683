"""Loading variant files (:mod:`patience_core.families`, "Variant files") into the game registry:
from plugin distributions (entry-point group ``patience.variants``) and from the user's
``<data dir>/variants/*.toml``.

Layer 3. A variant file is data: reading one runs no code of its own. A distribution's entry
point names a package (``classics = "patience_classics"``) whose ``*.toml`` resources are its
variants, read with :mod:`importlib.resources`; one broken file makes the distribution broken,
as a broken game class makes a plugin broken. Each file of the data folder is on its own: a
broken one is skipped with one line (``patience plugins`` lists it), the others load.
"""

from __future__ import annotations

import importlib.util
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from patience_core.errors import BadSave, PluginError, one_line
from patience_core.families import Family, VariantError, read_variant, variant_problems
from patience_core.files import data_dir
from patience_core.games import GameRegistry, read_file_bytes
from patience_core.plugins._records import (
    BROKEN,
    LOADED,
    VARIANT_FILE,
    Candidate,
    PluginRecord,
)

__all__ = [
    "MAX_VARIANT_BYTES",
    "VARIANTS_GROUP",
    "VARIANT_FILE",
    "checked_variant",
    "declared_name",
    "load_variant_files",
    "load_variant_package",
    "read_variant_file",
    "variant_folder",
    "variant_names",
    "variant_paths",
]

#: The entry-point group of distributions that ship variant files: the value names a package
#: whose ``*.toml`` resources are variants, e.g. ``classics = "patience_classics"``.
VARIANTS_GROUP = "patience.variants"


#: The largest variant file read, in bytes (64 KiB: a variant file is a few hundred bytes).
MAX_VARIANT_BYTES = 64 * 1024


def read_variant_file(path: Path) -> bytes:
    """The bytes of the variant file at ``path``, read like a save: a regular file only (a pipe
    or a device would hang every command), at most :data:`MAX_VARIANT_BYTES`.

    :raises BadSave: ``cannot be read: why`` (one line, without the path) when it cannot be
        read or is too large.
    """
    try:
        data = read_file_bytes(path, MAX_VARIANT_BYTES, regular_only=True)
    except BadSave as exc:
        why = str(exc).removeprefix(f"cannot read {path}: ")
        raise BadSave(f"cannot be read: {why}") from None
    if len(data) > MAX_VARIANT_BYTES:
        raise BadSave(f"cannot be read: larger than {MAX_VARIANT_BYTES} bytes")
    return data


def checked_variant(data: bytes) -> tuple[type[Family] | None, list[str]]:
    """:func:`~patience_core.families.variant_problems` at the boundary of a plugin's code: a
    family or policy that raises while the class is made (a build policy's ``fits`` raising
    in the family's ``__init_subclass__``) is the file's problem, in one line, not a crash."""
    try:
        return variant_problems(data)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # a plugin's policy code, whatever it raised
        return None, [f"making its game failed: {one_line(exc)}"]


#: The variant classes made in this process, by file contents and path: a file loaded again (by
#: another plugin host) gives the same class, so that a game made through one host is an
#: instance of the class another host registered (the conformance kit's search_for).
_MADE: dict[tuple[bytes, str], type[Family]] = {}


def _made_once(variant: type[Family], data: bytes, where: str) -> type[Family]:
    """``variant`` read from ``data`` at ``where``, or the class made from them before when it
    is of the same family."""
    variant.variant_file = where  # its path (a package's file's, when it is on disk)
    made = _MADE.setdefault((data, where), variant)
    if made.__bases__ != variant.__bases__:  # its family's class is another one now
        made = _MADE[data, where] = variant
    return made


def variant_folder(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the user's own variant files: ``<data dir>/variants``."""
    return data_dir(environ) / "variants"


def variant_paths(folder: Path) -> list[Path]:
    """The variant files ``folder/*.toml``, by name; none when the folder is missing or cannot
    be read."""
    try:
        return sorted(folder.glob("*.toml")) if folder.is_dir() else []
    except OSError:
        return []


def variant_names(cand: Candidate) -> tuple[str, ...]:
    """The game names the ``*.toml`` files of a ``patience.variants`` entry point's package
    declare, read as data without importing the package (nothing of a blocked distribution
    runs): what a blocked distribution would provide, so that asking for one of its games says
    why it is unknown. ``()`` when they cannot be told (a package inside another, files that
    cannot be read).
    """
    ep = cand.entry_point
    package = getattr(ep, "module", None) or getattr(ep, "value", None)
    if not isinstance(package, str) or not package or "." in package:
        return ()  # finding a subpackage would import its parent
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return ()
    folders = (spec.submodule_search_locations or []) if spec else []
    names = {declared_name(path) for folder in folders for path in variant_paths(Path(folder))}
    return tuple(sorted(name for name in names if name))


def declared_name(path: Path) -> str:
    """The game name the variant file ``path`` declares, read as data (its ``name``); "" when
    it cannot be read or names none."""
    try:
        name = tomllib.loads(read_variant_file(path).decode()).get("name")
    except (BadSave, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ""
    return name if isinstance(name, str) else ""


def load_variant_package(cand: Candidate, games: GameRegistry) -> PluginRecord:
    """Register the variants of one ``patience.variants`` entry point: every ``*.toml`` resource
    of the package it names, in the order of their names.

    :returns: the distribution's record: loaded with its games, or broken with the first
        problem (naming the file and the key); a broken one keeps none of its games.
    """
    games.current_plugin = cand.distribution
    try:
        ep = cand.entry_point
        package = getattr(ep, "module", None) or ep.value
        found = sorted(
            (item for item in resources.files(package).iterdir() if item.name.endswith(".toml")),
            key=lambda item: item.name,
        )
        if not found:
            raise PluginError(f"its package {package} holds no .toml variant file")
        for item in found:
            data = item.read_bytes()
            games.add(_made_once(read_variant(data, item.name), data, str(item)))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the distribution's failure, whatever it raised
        games.remove_provider(cand.distribution)
        # A variant's problem, or a name clash, is already a message about the distribution.
        reason = str(exc) if isinstance(exc, VariantError | PluginError) else one_line(exc)
        return PluginRecord(cand.name, cand.distribution, cand.version, BROKEN, reason)
    provided = tuple(sorted(n for n in games.names() if games.provider(n) == cand.distribution))
    return PluginRecord(cand.name, cand.distribution, cand.version, LOADED, games=provided)


def load_variant_files(
    folder: Path, games: GameRegistry, skipped: set[str] | None = None
) -> list[PluginRecord]:
    """Register the variant files ``folder/*.toml`` (none when it does not exist), each on its
    own, in the order of their names.

    :param skipped: file stems not to load (blocked by ``PATIENCE_DISABLE_PLUGINS`` or left out
        of ``PATIENCE_PLUGINS``); they get no record.
    :returns: one record per file (kind :data:`VARIANT_FILE`, named by its stem, the path as its
        distribution): loaded with its game, or broken with its first problem and the game
        name it declares, when it can be read (:func:`declared_name`).
    """
    records = []
    for path in variant_paths(folder):
        if path.stem in (skipped or set()):
            continue
        error, name = _load_file(path, games)
        if error:
            # The name it declares, read as data, as a blocked file's: asking for that game
            # then says why it is missing.
            name = declared_name(path)
        records.append(
            PluginRecord(
                path.stem,
                str(path),
                "",
                BROKEN if error else LOADED,
                error,
                (name,) if name else (),
                kind=VARIANT_FILE,
            )
        )
    return records


def _load_file(path: Path, games: GameRegistry) -> tuple[str, str]:
    """Register the variant file ``path``: ``("", its game's name)``, or ``(the problem, "")``."""
    games.current_plugin = str(path)
    try:
        data = read_variant_file(path)
    except BadSave as exc:
        return str(exc), ""
    variant, problems = checked_variant(data)
    if variant is None:
        return problems[0], ""
    variant = _made_once(variant, data, str(path))
    try:
        games.add(variant)
    except PluginError as exc:
        return str(exc), ""
    return "", variant.name
