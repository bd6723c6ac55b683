"""The scaffold package."""

from __future__ import annotations

from patience_core.scaffold._new import (
    create_plugin,
    names_for,
)

__all__ = [
    "create_plugin",
    "names_for",
]
