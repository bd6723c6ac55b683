"""Which plugins and variant files a run loads: phase 1 of loading, the entry points read
(:func:`~patience_core.plugins._records.candidates`) and sorted; nothing imported.

Layer 3. ``PATIENCE_DISABLE_PLUGINS`` blocks the plugins, variant distributions and variant
files it names; ``PATIENCE_PLUGINS``, when set, loads only those it names (docs/cli.md,
"Environment"). A name in either that nothing installed has is a problem line (a misspelt
name).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs

from patience_core.errors import shown
from patience_core.plugins._records import (
    BLOCKED,
    ENTRY_POINT_GROUP,
    Candidate,
    PluginRecord,
    candidates,
    names_from_env,
)
from patience_core.plugins._variants import (
    VARIANT_FILE,
    VARIANTS_GROUP,
    declared_name,
    variant_folder,
    variant_names,
    variant_paths,
)

__all__ = ["Selection", "select"]


@attrs.frozen
class Selection:
    """What a run loads, and what it leaves out.

    :param plugins: the game plugins to import, in load order.
    :param variant_packages: the ``patience.variants`` entry points to read, in load order.
    :param blocked: a ``blocked`` record for each entry point left out, in load order, then
        for each of the data folder's variant files left out (kind ``variant file``); its
        ``error`` says which variable left it out.
    :param folder: the data folder's variant files' folder (``<data dir>/variants``).
    :param skipped_files: the stems of that folder's files left out (not read).
    :param unmatched: one line for each name of the two variables that nothing has.
    """

    plugins: list[Candidate]
    variant_packages: list[Candidate]
    blocked: list[PluginRecord]
    folder: Path
    skipped_files: set[str]
    unmatched: list[str]


def select(
    entry_points: Iterable[Any] | None, given: Iterable[Any], environ: Mapping[str, str]
) -> Selection:
    """Sort the entry points and the data folder's variant files into loaded and left out, by
    ``environ``'s ``PATIENCE_DISABLE_PLUGINS`` and ``PATIENCE_PLUGINS``. A name matches an entry
    point's name, its distribution's name, or a variant file's stem.

    :param entry_points: the entry points to consider; ``None``: the installed ones of the
        ``patience`` and ``patience.variants`` groups.
    :param given: plugin objects in the shape of entry points (``name``, ``dist``, ``load()``),
        considered too.
    """
    if entry_points is None:
        entry_points = [
            *metadata.entry_points(group=ENTRY_POINT_GROUP),
            *metadata.entry_points(group=VARIANTS_GROUP),
        ]
    found = candidates([*entry_points, *given])
    blocked = names_from_env(environ.get("PATIENCE_DISABLE_PLUGINS")) or set()
    allowed = names_from_env(environ.get("PATIENCE_PLUGINS"))
    folder = variant_folder(environ)
    stems = {path.stem for path in variant_paths(folder)}
    known = {n for cand in found for n in (cand.name, cand.distribution)} | stems
    variables = (("PATIENCE_PLUGINS", allowed), ("PATIENCE_DISABLE_PLUGINS", blocked))
    unmatched = [
        f"{variable} names {shown(name)}, which is no installed plugin"
        for variable, names in variables
        for name in sorted((names or set()) - known)
    ]

    def left_out(*names: str) -> str:
        """Why a plugin or variant file of these names is left out ("": it is not)."""
        if blocked.intersection(names):
            return "PATIENCE_DISABLE_PLUGINS names it"
        if allowed is not None and not allowed.intersection(names):
            return "PATIENCE_PLUGINS does not name it"
        return ""

    kept = [c for c in found if not left_out(c.name, c.distribution)]
    files = [path for path in variant_paths(folder) if left_out(path.stem)]
    return Selection(
        plugins=[c for c in kept if c.group != VARIANTS_GROUP],
        variant_packages=[c for c in kept if c.group == VARIANTS_GROUP],
        blocked=[
            PluginRecord(
                c.name,
                c.distribution,
                c.version,
                BLOCKED,
                left_out(c.name, c.distribution),
                # A variant distribution's games are known without running it.
                variant_names(c) if c.group == VARIANTS_GROUP else (),
            )
            for c in found
            if left_out(c.name, c.distribution)
        ]
        + [
            PluginRecord(
                path.stem,
                str(path),
                "",
                BLOCKED,
                left_out(path.stem),
                tuple(filter(None, [declared_name(path)])),  # read, not made into a game
                kind=VARIANT_FILE,
            )
            for path in files
        ],
        folder=folder,
        skipped_files={path.stem for path in files},
        unmatched=unmatched,
    )
