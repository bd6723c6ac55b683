"""Game families: a variant declared by parameters (a few class attributes or a variant file),
with rules and a fast generic search written once per family. See docs/families.md."""

from __future__ import annotations

from patience_core.families._base import Family, Parameter, VariantError, make_variant
from patience_core.families._fcs import read_fcs, write_fcs
from patience_core.families._freecell import FreeCellFamily
from patience_core.families._freecell_search import FreeCellSearch
from patience_core.families._golf import GolfFamily
from patience_core.families._golf_search import GolfSearch
from patience_core.families._klondike import KlondikeFamily
from patience_core.families._klondike_search import KlondikeSearch
from patience_core.families._policies import (
    POLICIES,
    BuildPolicy,
    Deck,
    EmptyPolicy,
    PileRule,
    PolicyRegistry,
)
from patience_core.families._spider import SpiderFamily, complete_suit
from patience_core.families._spider_search import SpiderSearch
from patience_core.families._variants import (
    VARIANT_KEYS,
    read_variant,
    same_rules,
    variant_from_record,
    variant_problems,
    variant_record,
)

POLICIES.add(GolfFamily)
POLICIES.add(FreeCellFamily)
POLICIES.add(KlondikeFamily)
POLICIES.add(SpiderFamily)

__all__ = [
    "POLICIES",
    "VARIANT_KEYS",
    "BuildPolicy",
    "Deck",
    "EmptyPolicy",
    "Family",
    "FreeCellFamily",
    "FreeCellSearch",
    "GolfFamily",
    "GolfSearch",
    "KlondikeFamily",
    "KlondikeSearch",
    "Parameter",
    "PileRule",
    "PolicyRegistry",
    "SpiderFamily",
    "SpiderSearch",
    "VariantError",
    "complete_suit",
    "make_variant",
    "read_fcs",
    "read_variant",
    "same_rules",
    "variant_from_record",
    "variant_problems",
    "variant_record",
    "write_fcs",
]
