"""Game families: a variant declared by parameters (a few class attributes or a variant file),
with rules and a fast generic search written once per family. See docs/families.md."""

from __future__ import annotations

from patience_core.families._base import Family, Parameter, VariantError, make_variant
from patience_core.families._policies import (
    POLICIES,
    BuildPolicy,
    Deck,
    EmptyPolicy,
    PolicyRegistry,
)

__all__ = [
    "POLICIES",
    "BuildPolicy",
    "Deck",
    "EmptyPolicy",
    "Family",
    "Parameter",
    "PolicyRegistry",
    "VariantError",
    "make_variant",
]
