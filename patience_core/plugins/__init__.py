"""The plugins package."""

from __future__ import annotations

from patience_core.plugins._builtins import (
    patience_register_strategies,
)
from patience_core.plugins._host import (
    BLOCKED,
    BROKEN,
    BUILTIN,
    DEFAULT_PLUGINS,
    ENTRY_POINT_GROUP,
    INCOMPATIBLE,
    LOADED,
    SHIPPED,
    PluginHost,
    PluginRecord,
    api_problem,
)

__all__ = [
    "BLOCKED",
    "BROKEN",
    "BUILTIN",
    "DEFAULT_PLUGINS",
    "ENTRY_POINT_GROUP",
    "INCOMPATIBLE",
    "LOADED",
    "SHIPPED",
    "PluginHost",
    "PluginRecord",
    "api_problem",
    "patience_register_strategies",
]
