"""The plugins package: the hook specifications (:mod:`~patience_core.plugins.hookspecs`), the
plugin host that discovers and loads plugins (:class:`PluginHost`), and patience's own built-in
plugin (the players), which the host registers like any other."""

from __future__ import annotations

from patience_core.plugins._host import CORE, PluginHost
from patience_core.plugins._records import (
    BLOCKED,
    BROKEN,
    BUILTIN,
    ENTRY_POINT_GROUP,
    INCOMPATIBLE,
    LOADED,
    PluginRecord,
    api_problem,
)
from patience_core.plugins._variants import (
    MAX_VARIANT_BYTES,
    VARIANT_FILE,
    VARIANTS_GROUP,
    checked_variant,
    read_variant_file,
    variant_folder,
)

__all__ = [
    "BLOCKED",
    "BROKEN",
    "BUILTIN",
    "CORE",
    "ENTRY_POINT_GROUP",
    "INCOMPATIBLE",
    "LOADED",
    "MAX_VARIANT_BYTES",
    "VARIANTS_GROUP",
    "VARIANT_FILE",
    "PluginHost",
    "PluginRecord",
    "api_problem",
    "checked_variant",
    "read_variant_file",
    "variant_folder",
]
