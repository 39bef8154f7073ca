"""Seeded dice whose whole state is one integer kept in the game state.

SplitMix64: tiny, fast, well distributed, and defined on 64-bit integers so the
same seed gives the same rolls on every machine and Python version. `random` is
never used by the engine (DESIGN.md, layering).
"""

from __future__ import annotations

from dataclasses import dataclass

_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Rng:
    """An immutable generator: each draw returns the value and the next Rng."""

    state: int

    @staticmethod
    def from_seed(seed: int | str) -> Rng:
        if isinstance(seed, str):
            # FNV-1a so that text seeds are stable across runs (hash() is salted).
            h = 0xCBF29CE484222325
            for b in seed.encode("utf-8"):
                h = ((h ^ b) * 0x100000001B3) & _MASK
            seed = h
        return Rng(seed & _MASK)

    def next_u64(self) -> tuple[int, Rng]:
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in [0, n), unbiased by rejection."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            v, rng = rng.next_u64()
            if v < limit:
                return v % n, rng

    def roll(self, sides: int = 6) -> tuple[int, Rng]:
        """One die, 1..sides."""
        v, rng = self.below(sides)
        return v + 1, rng

    def roll_many(self, count: int, sides: int = 6) -> tuple[tuple[int, ...], Rng]:
        out: list[int] = []
        rng = self
        for _ in range(count):
            v, rng = rng.roll(sides)
            out.append(v)
        return tuple(out), rng
