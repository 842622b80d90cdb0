"""The words of the explanation: what documents write about their numbers, in English and
Chinese.  Words are priors and statements, never switches of a convention; this table is the
one place a new phrase goes."""

from __future__ import annotations

import re

__all__ = ["NOT_COMPUTED", "not_computed"]

#: A statement that the numbers after it were not computed by the formula (made up, assumed,
#: given for illustration): they are givens of the example, not claims about its results.
NOT_COMPUTED = re.compile(
    r"made[- ]up|\bassum(?:e|ed|ing) (?:the )?(?:values|results|numbers|outputs?)|"
    r"\bhypothetical (?:values|numbers|results|outputs?)|\bnot (?:actually )?computed|"
    r"\bnot (?:the )?(?:real|actual|true) (?:output|result|values?)|\bfor illustration only|"
    r"\bplaceholder (?:values|numbers)|"
    r"假设的(?:结果|值|数值|输出)|假定的(?:结果|值|数值)|示意(?:值|数值|数字)|"
    r"(?:并)?不是(?:公式的)?真实(?:输出|结果|值)|随便(?:取|写|编)",
    re.IGNORECASE,
)

#: A line that ends a statement's reach: a heading or a rule.
_BREAK = re.compile(r"\s*(?:#{1,6}\s|---+\s*$|\*\*\*+\s*$|\\(?:sub)*section\b)")

#: Lines a statement reaches back from the block it speaks of.
_REACH = 12
#: An operation written out before an "=" (``x0 + PE(0) =``, ``H = X + PE =``): what follows it
#: is computed, whatever was said before.
_OPERATION = re.compile(r"(?:[+*/@\u00b7\u00d7]|\\cdot|\\times|\\odot| - )[^=\n]*=")


def not_computed(lines: list[str], line: int) -> bool:
    """Whether the text says the block starting at ``line`` (1-based) was not computed: a
    statement in the lines before it, within its section, or on its own line before it."""
    for index in range(line - 1, max(-1, line - 1 - _REACH), -1):
        text = lines[index] if index < len(lines) else ""
        if NOT_COMPUTED.search(text):
            return True
        if _OPERATION.search(text) or (index < line - 1 and (_BREAK.match(text) or _prose(text))):
            return False
    return False


def _prose(text: str) -> bool:
    """A sentence of its own (8 words, or 20 Chinese characters): a statement before it speaks
    of what it came before, not of what this sentence introduces.  A short label
    (``**K（键）:**``) is not one."""
    plain = re.sub(r"\$[^$]*\$|`[^`]*`|\\[A-Za-z]+", " ", text)
    return len(re.findall(r"[A-Za-z]{2,}", plain)) >= 8 or len(re.findall(r"[\u4e00-\u9fff]", plain)) >= 20
