"""Shared test inputs."""

import pytest

#: Ten tokens of dimension 3: wide enough that derivations split matrices into column blocks.
WIDE_X = [
    [1, 0, 2],
    [0, 1, 1],
    [1, 1, 0],
    [2, 0, 1],
    [0, 2, 1],
    [1, 0, 0],
    [0, 0, 1],
    [1, 2, 1],
    [2, 1, 0],
    [1, 1, 1],
]


@pytest.fixture
def wide_x():
    """Ten 3-dimensional tokens (a fresh copy per test)."""
    return [row[:] for row in WIDE_X]


@pytest.fixture(autouse=True)
def _mpmath_precision_does_not_leak():
    """A test that sets ``mpmath.mp.dps`` for its own reference values leaves it as it
    found it, so a later test's independent values keep their digits (test_repr set 30
    and test_cli_importance, run after it, lost its 50)."""
    import mpmath

    saved = mpmath.mp.dps
    yield
    mpmath.mp.dps = saved
