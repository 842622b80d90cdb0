"""exact._tokenize: linear in the entry's length, and bounded in tokens."""

import re

import pytest

from symattn import exact
from symattn.errors import ValueTooLargeError


class _CountingPattern:
    """Wraps the token pattern and counts the matches tried (work, not time)."""

    def __init__(self, pattern: re.Pattern) -> None:
        self.pattern = pattern
        self.calls = 0

    def match(self, text: str, pos: int = 0):
        self.calls += 1
        return self.pattern.match(text, pos)


def test_a_600_kb_entry_is_refused_after_max_tokens(monkeypatch):
    counting = _CountingPattern(exact._TOKEN)
    monkeypatch.setattr(exact, "_TOKEN", counting)
    text = "1+" * 300_000 + "1"
    with pytest.raises(ValueTooLargeError) as error:
        exact.to_exact(text, where="X[1,1]")
    message = str(error.value)
    assert message == (
        f"X[1,1]: an entry of more than {exact.MAX_TOKENS} tokens is too long to read (600001 characters)"
    )
    assert counting.calls == exact.MAX_TOKENS + 1


def test_trailing_whitespace_ends_the_entry_without_a_scan_per_token(monkeypatch):
    counting = _CountingPattern(exact._TOKEN)
    monkeypatch.setattr(exact, "_TOKEN", counting)
    text = " + ".join(["1/2"] * 1000) + " " * 100_000
    assert exact.to_exact(text, where="X[1,1]") == 500
    assert counting.calls == 1000 * 3 + 999  # one match per token, none for the trailing blanks


def test_an_entry_just_under_the_limit_is_read():
    text = "+".join(["1"] * (exact.MAX_TOKENS // 2))  # MAX_TOKENS - 1 tokens
    assert exact.to_exact(text, where="X[1,1]") == exact.MAX_TOKENS // 2
