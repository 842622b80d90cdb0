"""The issue 11 block corpus (a package only so that its _build.py and _truth.py do not collide with tests/corpus's
under pytest --doctest-modules)."""
