"""The engine: deal numbers and the deterministic shuffle, rule building blocks, move notation.

Layer 2 of the architecture: it builds on :mod:`patience_core.model` only.
"""
