"""One finding of the verifier: a printed number and what was concluded about it.

This module imports nothing heavy (no SymPy), so the parent process of
:func:`symattn.verify.verify_document` can receive and report findings while
only the worker process imports SymPy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Finding"]


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
    status: str
    kind: str
    carried_from: int | None
    reason: str

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
            "status": self.status,
            "kind": self.kind,
            "carried_from": self.carried_from,
            "reason": self.reason,
        }
