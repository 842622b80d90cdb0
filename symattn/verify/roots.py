"""Where an error starts, decided once every formula of a document is judged.

A formula is judged when it is read, so what a later formula shows about an earlier
number can only be used afterwards, on the whole list of findings.  This module does
that, and imports nothing heavy (no SymPy): it runs in the parent process of
:func:`symattn.verify.verify_document`, on the findings its worker sent back.

One rule so far (:func:`reroot_doubted`): a number that fits a step which is not
equal to the quantity it names (``u_11 = 0.8(0.1868) − 0.3(−1.3074) + 0.5(1.1206) =
1.1019``, with the bias of u_11 left out of the expansion) is listed when it is read,
because either side of the step may be the right one.  When the same number is used
again later and is wrong there (``max(0, u_1) = (1.1019, 0)``), the document itself has
taken it as that quantity: the error starts at the step, and the later use carries it.
"""

from __future__ import annotations

import dataclasses

from symattn.verify.finding import Finding, Kind, Status

__all__ = ["DOUBTED_REASON", "distinctive", "reroot_doubted"]

#: The reason of a number that fits a step not equal to the side before it (evaluate.py).
DOUBTED_REASON = "fits the side before it, which is not exactly equal to the side before that"
#: How many lines later a restated number may come back and still be the same number.
_NEAR_LINES = 40


def distinctive(text: str) -> bool:
    """A printed number unlikely to recur by chance: two places or more and
    four significant digits or more (``14.3835``, ``0.2860``, not ``0.5``).

    >>> distinctive("1.1019"), distinctive("0.5"), distinctive("0.0049")
    (True, False, False)
    """
    digits = text.lstrip("-").replace(".", "").lstrip("0")
    return "." in text and len(text.split(".")[1]) >= 2 and len(digits) >= 4 and text[-1].isdigit()


def reroot_doubted(findings: list[Finding]) -> list[Finding]:
    """The findings (sorted by position), with each doubted number that is later used
    and found wrong made the root of that error (module docstring).

    The later use becomes ``carried`` from the doubted number's line, and so does every
    number carried from the later use's line when that use was its line's only root.
    """
    out = list(findings)
    for i, doubted in enumerate(out):
        if doubted.status != Status.UNVERIFIED or doubted.reason != DOUBTED_REASON:
            continue
        if not distinctive(doubted.claimed):
            continue
        later = next(
            (
                j
                for j in range(i + 1, len(out))
                if out[j].claimed == doubted.claimed and out[j].line <= doubted.line + _NEAR_LINES
            ),
            None,
        )
        if later is None:
            continue
        use = out[later]
        if not (
            use.status == Status.WRONG
            and use.kind in (Kind.WRONG, Kind.SLIP)
            and use.carried_from is None
            and use.fits is None
        ):
            continue  # the nearest use is right, or its error is of another kind: the step stays doubted
        out[i] = dataclasses.replace(
            doubted,
            status=Status.WRONG,
            kind=Kind.WRONG,
            reason=f"fits its own step, which is not equal to the side before it; line {use.line} uses it as that quantity",
        )
        out[later] = dataclasses.replace(
            use, kind=Kind.CARRIED, carried_from=doubted.line, reason=f"restates line {doubted.line}'s value"
        )
        sole_root = not any(
            k != later and f.line == use.line and f.status == Status.WRONG and f.carried_from is None
            for k, f in enumerate(out)
        )
        if sole_root:
            for k, f in enumerate(out):
                if f.kind == Kind.CARRIED and f.carried_from == use.line and k != later:
                    out[k] = dataclasses.replace(f, carried_from=doubted.line)
    return out
