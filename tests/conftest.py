"""Shared test inputs."""

import os

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


# --- the README's "about N minutes on two cores" ------------------------------------------

#: A run of this many tests or more is the whole suite (the README's test command).
WHOLE_SUITE = 2000
#: Where pytest's cache keeps the last whole, passing run's wall time (tests/test_readme.py reads it).
SUITE_SECONDS = "symattn/suite_seconds"


def pytest_sessionstart(session):
    import time

    session.config._symattn_started = time.monotonic()


def pytest_sessionfinish(session, exitstatus):
    import time

    started = getattr(session.config, "_symattn_started", None)
    cache = getattr(session.config, "cache", None)
    if started is None or cache is None or exitstatus != 0 or session.testscollected < WHOLE_SUITE:
        return
    cache.set(SUITE_SECONDS, {"seconds": round(time.monotonic() - started), "cpus": os.cpu_count()})
