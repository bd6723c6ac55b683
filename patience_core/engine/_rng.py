"""GLib's ``GRand`` random number generator, rebuilt exactly (RULES.md Part B §0.3).

Aisleriot shuffles with GLib's ``GRand``: MT19937 seeded with ``init_genrand(seed)``, ranged draws
by ``g_rand_int_range``. This module reproduces both bit for bit in pure Python, so a deal number
means the same deck on every platform and in every process; it never touches :mod:`random`.
"""

from __future__ import annotations

__all__ = ["GRand", "MicrosoftRand"]

_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MASK32 = 0xFFFFFFFF


class GRand:
    """MT19937 as GLib's ``GRand``, seeded with the 32-bit ``seed`` by ``init_genrand``.

    :param seed: 0 <= seed < 2**32.
    :raises ValueError: for a seed out of range.
    """

    __slots__ = ("_index", "_state")

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= _MASK32:
            raise ValueError(f"seed {seed} is outside 0..{_MASK32}")
        state = [0] * _N
        state[0] = seed
        for i in range(1, _N):
            prev = state[i - 1]
            state[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK32
        self._state = state
        self._index = _N

    def _twist(self) -> None:
        state = self._state
        for i in range(_N):
            y = (state[i] & _UPPER) | (state[(i + 1) % _N] & _LOWER)
            value = state[(i + _M) % _N] ^ (y >> 1)
            if y & 1:
                value ^= _MATRIX_A
            state[i] = value
        self._index = 0

    def next_uint32(self) -> int:
        """The next raw 32-bit output (``g_rand_int``), 0 <= x < 2**32."""
        if self._index >= _N:
            self._twist()
        y = self._state[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & _MASK32

    def int_range(self, begin: int, end: int) -> int:
        """``g_rand_int_range(begin, end)``: a uniform integer with begin <= x < end.

        Uses GLib's rejection rule exactly (RULES.md Part B §0.3), so the number of raw draws
        consumed matches GLib.

        :raises ValueError: when ``end <= begin``.
        """
        dist = end - begin
        if dist <= 0:
            raise ValueError("empty range")
        leftover = (0x80000000 % dist) * 2
        if leftover >= dist:
            leftover -= dist
        maxvalue = _MASK32 - leftover
        while True:
            value = self.next_uint32()
            if value <= maxvalue:
                return begin + value % dist


class MicrosoftRand:
    """The linear congruential generator of Microsoft's C runtime, as Microsoft FreeCell uses it.

    ``rand() = (seed = seed * 214013 + 2531011) >> 16 & 0x7fff``.

    :param seed: the deal number, 1 <= seed < 2**31.
    """

    __slots__ = ("_seed",)

    def __init__(self, seed: int) -> None:
        self._seed = seed & _MASK32

    def rand(self) -> int:
        """The next value, 0 <= x < 32768."""
        self._seed = (self._seed * 214013 + 2531011) & _MASK32
        return (self._seed >> 16) & 0x7FFF
