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
