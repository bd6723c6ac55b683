"""Plugin discovery (phase 1: entry-point metadata only) and what the host records per plugin.

Layer 3. Nothing here imports a plugin: :func:`candidates` reads the ``patience`` entry-point
group, and :class:`PluginRecord` is what ``patience plugins`` shows of each plugin.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from patience_core import API_VERSION
from patience_core.errors import shown

__all__ = [
    "BLOCKED",
    "BROKEN",
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "INCOMPATIBLE",
    "LOADED",
    "VARIANT_FILE",
    "Candidate",
    "PluginRecord",
    "api_problem",
    "candidates",
    "left_out_record",
    "names_from_env",
    "own_game_names",
    "why_left_out",
]

#: The entry-point group game plugins declare, e.g. ``[project.entry-points.patience]``.
ENTRY_POINT_GROUP = "patience"

LOADED = "loaded"
BROKEN = "broken"
BLOCKED = "blocked"
BUILTIN = "built-in"
INCOMPATIBLE = "incompatible"

#: The :attr:`PluginRecord.kind` of a variant file of the data folder.
VARIANT_FILE = "variant file"


@attrs.frozen
class PluginRecord:
    """What the host knows of one plugin, for ``patience plugins``.

    :param name: the entry-point name (``"escalator"``), or ``"patience-core"`` for built-ins.
    :param distribution: the distribution that declares it (``"patience-escalator"``).
    :param version: that distribution's version.
    :param status: ``"loaded"``, ``"broken"``, ``"incompatible"`` (built for another plugin API
        version), ``"blocked"`` or ``"built-in"``.
    :param error: for a broken or incompatible plugin, a one-line reason.
    :param games: the game names it registered.
    :param kind: ``"plugin"``, or ``"variant file"`` for a variant file of the data folder (its
        name is the file's stem, its distribution the file's path, its version empty).
    """

    name: str
    distribution: str
    version: str
    status: str
    error: str = ""
    games: tuple[str, ...] = ()
    kind: str = "plugin"


@attrs.frozen
class Candidate:
    """One entry point of the ``patience`` group, not imported yet.

    :param entry_point: the :class:`importlib.metadata.EntryPoint` (or a test's stand-in with
        ``name``, ``dist`` and ``load()``).
    :param group: its entry-point group: ``patience`` (a plugin module) or
        ``patience.variants`` (a package of variant files).
    """

    name: str
    distribution: str
    version: str
    entry_point: Any
    group: str = ENTRY_POINT_GROUP


def candidates(found: Iterable[Any]) -> list[Candidate]:
    """Phase 1: the entry points ``found``, one per (distribution, name, group), in load order: by
    distribution name, then entry-point name (docs/plugin-api.md, "Load order and game names").
    Nothing is imported."""
    seen: set[tuple[str, str, str]] = set()
    result: list[Candidate] = []
    for ep in found:
        dist = getattr(ep, "dist", None)
        dist_name = dist.metadata["Name"] if dist is not None else ep.name
        group = getattr(ep, "group", None) or ENTRY_POINT_GROUP
        key = (dist_name, ep.name, group)
        if key not in seen:
            seen.add(key)
            version = dist.version if dist is not None else "?"
            result.append(Candidate(ep.name, dist_name, version, ep, group))
    result.sort(key=lambda c: (c.distribution.lower(), c.name))
    return result


def left_out_record(records: Iterable[PluginRecord], name: str) -> PluginRecord | None:
    """The record of the plugin or variant file that would provide game ``name`` but was
    skipped (broken, incompatible or blocked), or ``None``: matched by its entry-point name,
    its distribution (``patience-NAME``) or the games it names (a blocked variant
    distribution's files', a blocked or broken variant file's declared one)."""
    wanted = name.strip().lower()
    for record in records:
        if record.status in (BROKEN, INCOMPATIBLE, BLOCKED) and wanted in (
            record.name.lower(),
            record.distribution.lower().removeprefix("patience-"),
            *record.games,
        ):
            return record
    return None


def why_left_out(record: PluginRecord) -> str:
    """Why the plugin or variant file of ``record`` provides no game, for the same line as the
    game: which variable blocked it, or why it failed to load (its variant file's problem, or
    its plugin's error as ``patience plugins`` shows it)."""
    if record.kind == VARIANT_FILE:
        return f"its variant file {record.distribution} is {record.status}: {record.error}"
    if record.status == BLOCKED:
        return f"its plugin {record.distribution} is blocked: {record.error}"
    return f"its plugin {record.distribution} is {record.status} and was skipped: {record.error}"


def own_game_names(loading: Iterable[Candidate]) -> dict[str, str]:
    """The game name each plugin to load owns by its distribution's name: ``NAME`` for
    ``patience-NAME`` (``escalator`` for ``patience-escalator``). Another plugin's claim to that
    name is refused, whatever the load order, so a game plugin named after its game keeps it."""
    return {
        cand.distribution.lower().removeprefix("patience-"): cand.distribution
        for cand in loading
        if cand.distribution.lower().startswith("patience-")
    }


def names_from_env(value: str | None) -> set[str] | None:
    """The comma-separated names of ``PATIENCE_PLUGINS`` or ``PATIENCE_DISABLE_PLUGINS``;
    ``None`` when the variable is unset or names nothing (empty, or only commas and spaces:
    no list, rather than a list that leaves every plugin out)."""
    if value is None:
        return None
    return {part.strip() for part in value.split(",") if part.strip()} or None


def api_problem(plugin: object) -> str | None:
    """Why ``plugin`` cannot be used with this patience's plugin API, or ``None`` when it can.

    A plugin module may declare the API versions it works with as a version specifier string,
    ``PATIENCE_API = ">=1.0,<2"`` (see docs/plugin-api.md); a plugin that declares nothing is
    assumed compatible.
    """
    wanted = getattr(plugin, "PATIENCE_API", None)
    if wanted is None:
        return None
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    if not isinstance(wanted, str):
        return "PATIENCE_API must be a version specifier string such as '>=1.0,<2'"
    try:
        spec = SpecifierSet(wanted)
    except InvalidSpecifier:
        return f"PATIENCE_API {shown(wanted)} is not a version specifier such as '>=1.0,<2'"
    if not spec.contains(API_VERSION, prereleases=True):
        return f"needs plugin API {wanted}; this patience-core provides API {API_VERSION}"
    return None
