"""This game passes patience's conformance kit (patience_core.testing)."""

from patience_core.testing import GameConformance


class TestConformance(GameConformance):
    game = "diamond-mine"
