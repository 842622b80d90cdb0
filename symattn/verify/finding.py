"""One finding of the verifier: a printed number and what was concluded about it.

This module imports nothing heavy (no SymPy), so the parent process of
:func:`symattn.verify.verify_document` can receive and report findings while
only the worker process imports SymPy.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["SEED_DIGITS", "Finding", "Kind", "Seeds", "Status"]


class Status(StrEnum):
    """What was concluded about a printed number."""

    OK = "ok"
    WRONG = "wrong"
    UNVERIFIED = "unverified"


class Kind(StrEnum):
    """Why: the kind of a finding (docs/verify.md has the meaning of each).

    A ``StrEnum``: each kind equals its JSON text (``Kind.CARRIED == "carried"``),
    so reports and the JSON contract ``symattn.verify/1`` see plain strings.
    """

    # judged (status ok or wrong)
    OK = "ok"
    WRONG = "wrong"
    SLIP = "slip"
    CARRIED = "carried"
    ROUNDING = "rounding"
    ROUNDING_CARRIED = "rounding-carried"
    FLOAT_ROUNDING = "float-rounding"
    # left unverified, with the reason
    INPUT = "input"
    OPERAND = "operand"
    NO_CLAIM = "no-claim"
    UNVERIFIABLE = "unverifiable"
    UNPARSED = "unparsed"
    BAD_INPUT = "bad-input"
    FORMULA = "formula"
    UNDECIDED = "undecided"
    ERROR = "error"
    SKIPPED = "skipped"
    AMBIGUOUS = "ambiguous"
    SUPPRESSED = "suppressed"  # wrong, but a symattn: ignore comment says it is on purpose
    # judged wrong, and the numbers fit another convention (``Finding.fits`` names it)
    CONVENTION = "convention"


@dataclass(frozen=True)
class Finding:
    """One printed number and what the verifier concluded about it.

    Attributes mirror the JSON contract ``symattn.verify/1`` (see docs/verify.md).
    """

    line: int
    column: int
    subject: str
    cell: tuple[int, int] | None
    claimed: str
    value: str | None
    exact: str | None
    status: Status
    kind: Kind
    carried_from: int | None
    reason: str
    fits: str | None = None  # kind "convention": the convention the printed numbers follow

    def __post_init__(self) -> None:
        # a closed set: a kind or status that is not one of the enums is a bug, caught here
        object.__setattr__(self, "status", Status(self.status))
        object.__setattr__(self, "kind", Kind(self.kind))

    def as_dict(self) -> dict[str, Any]:
        """The finding as a JSON-ready dict (keys in contract order)."""
        return {
            "line": self.line,
            "column": self.column,
            "subject": self.subject,
            "cell": list(self.cell) if self.cell else None,
            "claimed": self.claimed,
            "value": self.value,
            "exact": self.exact,
            "status": str(self.status),
            "kind": str(self.kind),
            "carried_from": self.carried_from,
            "reason": self.reason,
            "fits": self.fits,
        }


#: The true values of printed numbers the explanation identified, by (line, column): a
#: ``Fraction``, or a ball as the texts of its midpoint and radius (:class:`symattn.exact.Known`);
#: whether the printed number is wrong; and its text.  The readers' second pass takes them
#: as world (b).
Seeds = dict[tuple[int, int], tuple[Any, bool, str]]
#: A ball's midpoint is handed on as a decimal of this many digits, when its radius is far below them.
SEED_DIGITS = 40
