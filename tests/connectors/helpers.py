"""Helpers shared by the connector tests (conftest modules cannot be imported by name)."""

from __future__ import annotations

T0 = 1_800_000_000.0  # a fixed instant (2027-01-15) so model values are reproducible


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
