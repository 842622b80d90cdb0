"""``symattn fix``: replace each wrong number of a document by its true value.

Only number literals change, and each keeps the document's style: the same
number of places when that is enough to be right, the same decimal separator
(``.``, ``,`` or ``{,}``), sign character and notation (``3.0 \\times 10^{-5}``
stays in that form).  The true value comes from the verifier's finding: a
certified decimal with the printed places + 3 (and the exact closed form when
it is a rational number), so rounding it to the printed places is exact
except when its extra digits are exactly ``500``; then one more place is
printed, which is right whichever side of the midpoint the true value lies.

Safe fixes (the default) are fresh wrong values, roundings and slips.
Carried numbers change only with ``unsafe=True``: fixing an assumed weight
changes every number computed from it, so the document is verified again and
fixed again until nothing is left to fix (at most :data:`MAX_ROUNDS` rounds).

Rows of weights stay consistent: when a row of printed numbers summed to
exactly 1 before the fix and the true row sums to 1, its fixed cells must
still sum to exactly 1; if they do not at the printed places, every cell of
the row (and every fixed number of the same line with those places) gets one,
two or three more places, the first that adds up.  When no places add up
(1/3, 1/3, 1/3 rounds to 0.3333 three times), the cells are fixed at their
places and a note says what the row sums to.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from symattn.rounding import round_half_away
from symattn.verify.finding import Finding
from symattn.verify.report import Report

__all__ = [
    "MAX_ROUNDS",
    "SAFE_KINDS",
    "Edit",
    "FixResult",
    "corrected_literal",
    "fix_text",
    "only_literals_changed",
    "plan_edits",
]

#: Kinds fixed by default; ``carried`` needs ``unsafe``.
SAFE_KINDS = frozenset({"wrong", "rounding", "slip"})
#: Verify-and-fix rounds with ``unsafe`` (each fix can change what is carried).
MAX_ROUNDS = 6
_MAX_EXTRA_PLACES = 3

_LITERAL = re.compile(
    r"(?P<sign>[-\u2212]?)(?P<space>\s*)(?P<int>\d+)(?:(?P<sep>\.|,|\{,\})(?P<frac>\d+))?"
    r"(?:(?P<times>\s*(?:\\times|\\cdot|\u00d7|\u00b7)\s*10\^)(?P<open>\{?)(?P<esign>[-+\u2212]?)(?P<exp>\d+)(?P<close>\}?)"
    r"|(?P<e>[eE])(?P<esign2>[-+]?)(?P<exp2>\d+))?"
)


@dataclass(frozen=True)
class _Style:
    """How a literal is printed, so that its replacement is printed alike."""

    sign: str
    space: str
    places: int
    separator: str
    exponent: int | None
    exp_prefix: str
    exp_sign: str
    exp_suffix: str

    def render(self, value: Decimal, places: int) -> str:
        """``value`` (already rounded to ``places - exponent`` places) in this style."""
        mantissa = value.scaleb(-self.exponent) if self.exponent is not None else value
        mantissa = mantissa.quantize(Decimal(1).scaleb(-places))
        if mantissa.is_zero():
            mantissa = abs(mantissa)
        digits = f"{abs(mantissa):f}"
        whole, _, frac = digits.partition(".")
        body = whole + (self.separator + frac if frac else "")
        sign = (self.sign or "-") + self.space if mantissa < 0 else ""
        if self.exponent is None:
            return sign + body
        exp_sign = self.exp_sign if self.exponent < 0 else ("+" if self.exp_sign == "+" else "")
        if self.exponent < 0 and not exp_sign:
            exp_sign = "-"
        return f"{sign}{body}{self.exp_prefix}{exp_sign}{abs(self.exponent)}{self.exp_suffix}"


def _style(text: str) -> _Style | None:
    match = _LITERAL.fullmatch(text.strip())
    if match is None:
        return None
    frac = match["frac"] or ""
    if match["times"] is not None:
        exp_sign = match["esign"] or ""
        exponent = int(match["exp"]) * (-1 if exp_sign in ("-", "\u2212") else 1)
        prefix, suffix = match["times"] + match["open"], match["close"]
    elif match["e"] is not None:
        exp_sign = match["esign2"] or ""
        exponent = int(match["exp2"]) * (-1 if exp_sign == "-" else 1)
        prefix, suffix = match["e"], ""
    else:
        exp_sign, exponent, prefix, suffix = "", None, "", ""
    return _Style(
        sign=match["sign"],
        space=match["space"],
        places=len(frac),
        separator=match["sep"] or ".",
        exponent=exponent,
        exp_prefix=prefix,
        exp_sign=exp_sign,
        exp_suffix=suffix,
    )


def _decimal(text: str | None) -> Decimal | None:
    """A printed or certified decimal as an exact Decimal (never a float)."""
    if not text:
        return None
    match = _LITERAL.fullmatch(text.strip())
    if match is None:
        return None
    style = _style(text)
    assert style is not None
    digits = match["int"] + ("." + match["frac"] if match["frac"] else "")
    value = Decimal(digits)
    if style.exponent is not None:
        value = value.scaleb(style.exponent)
    return -value if match["sign"] else value


def _rational(exact: str | None) -> Fraction | None:
    """The exact value when the closed form is an integer or a ratio of integers."""
    if exact and re.fullmatch(r"-?\d+(?:/\d+)?", exact.strip()):
        return Fraction(exact.strip())
    return None


def _round_fraction(value: Fraction, places: int) -> Decimal:
    """``value`` at ``places`` places by symattn's one rule (``exact.round_half_away``)."""
    return Decimal(round_half_away(value * 10**places)).scaleb(-places)


def _rounded(finding: Finding, number_places: int) -> tuple[Decimal, int] | None:
    """The true value of ``finding`` rounded to ``number_places`` places of the number
    (raised when the certified digits cannot decide), and the places used."""
    exact = _rational(finding.exact)
    if exact is not None:
        return _round_fraction(exact, number_places), number_places
    value = _decimal(finding.value)
    if value is None:
        return None
    known = -value.as_tuple().exponent if isinstance(value.as_tuple().exponent, int) else 0
    places = min(number_places, known)
    while places < known:
        tail = f"{abs(value):f}".partition(".")[2][places:]
        if not re.fullmatch(r"50*", tail):
            break
        places += 1  # exactly a midpoint of the certified digits: one more place decides
    return _round_fraction(Fraction(value), places), places


def corrected_literal(finding: Finding, extra_places: int = 0) -> str | None:
    """The literal that replaces ``finding.claimed``, in its style, or None.

    An integer claims an exact value, so a wrong integer is replaced by an
    integer only when the true value is one; otherwise by the certified
    decimal.

    >>> from symattn.verify.finding import Finding
    >>> f = Finding(1, 1, "A", (3, 1), "0.3", "0.2483", None, "wrong", "wrong", None, "")
    >>> corrected_literal(f), corrected_literal(f, extra_places=1)
    ('0.2', '0.25')
    """
    style = _style(finding.claimed)
    if style is None or finding.value is None:
        return None
    shift = style.exponent or 0
    places = style.places + extra_places
    exact = _rational(finding.exact)
    if style.places == 0 and style.exponent is None and not (exact is not None and exact.denominator == 1):
        value = _decimal(finding.value)  # not an integer: an integer literal cannot be right
        if value is None:
            return None
        places = max(places, -int(value.as_tuple().exponent))
    rounded = _rounded(finding, places - shift)
    if rounded is None:
        return None
    value, used = rounded
    return style.render(value, used + shift)


@dataclass(frozen=True)
class Edit:
    """One literal replaced: where (1-based line and column of the original), what."""

    line: int
    column: int
    old: str
    new: str
    kind: str
    subject: str

    def describe(self) -> str:
        return f"{self.line}:{self.column}: {self.old} -> {self.new} ({self.kind}, {self.subject})"


@dataclass
class FixResult:
    """What :func:`fix_text` did to one document.

    Attributes:
        name: the document's name.
        original, fixed: the text before and after.
        edits: every literal replaced, in order, over all rounds.
        notes: why wrong numbers were left (one line each, ``line:col: ...``), from
            the last round.
        remarks: what the fixes did that a reader should know (rows that cannot
            add up exactly), from every round.
        needed: the document had wrong numbers (exit code 1 even if none was fixed).
        rounds: how many verify-and-fix rounds ran.
    """

    name: str
    original: str
    fixed: str
    edits: list[Edit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    needed: bool = False
    rounds: int = 0

    @property
    def changed(self) -> bool:
        return self.fixed != self.original

    def diff(self) -> str:
        """A unified diff from the original to the fixed text (``patch`` applies it)."""
        lines = difflib.unified_diff(
            self.original.splitlines(keepends=True),
            self.fixed.splitlines(keepends=True),
            fromfile=self.name,
            tofile=self.name,
        )
        return "".join(
            line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
        )


@dataclass
class _Candidate:
    finding: Finding
    start: int
    end: int
    new: str
    extra: int = 0


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _locate(text: str, starts: list[int], finding: Finding) -> tuple[int, int] | None:
    """Source offsets of the literal of ``finding``, or None when it is not there."""
    if not 1 <= finding.line <= len(starts):
        return None
    offset = starts[finding.line - 1] + finding.column - 1
    if text.startswith(finding.claimed, offset):
        return offset, offset + len(finding.claimed)
    pattern = r"\s*".join(re.escape(part) for part in finding.claimed.split())
    if finding.claimed.startswith("-"):
        pattern = "[-\u2212]" + pattern[2:]
    match = re.compile(pattern).match(text, offset)
    if match is None:
        return None
    return match.start(), match.end()


def _sum(literals: list[str]) -> Decimal | None:
    total = Decimal(0)
    for literal in literals:
        value = _decimal(literal)
        style = _style(literal)
        if value is None or style is None or style.exponent is not None:
            return None
        total += value
    return total


def _is_weight_row(cells: list[Finding]) -> bool:
    """The row printed sums to exactly 1 and its true values sum to 1 as well."""
    if len(cells) < 2 or _sum([f.claimed for f in cells]) != 1:
        return False
    values = [_decimal(f.value) for f in cells]
    if any(v is None for v in values):
        return False
    slack = sum(Decimal(1).scaleb(int(v.as_tuple().exponent)) for v in values if v is not None)
    return abs(sum(v for v in values if v is not None) - 1) <= slack


def plan_edits(
    report: Report, text: str, *, unsafe: bool = False
) -> tuple[list[_Candidate], list[str], list[str]]:
    """The literal replacements for one report of ``text``, and notes on what stays.

    Returns:
        (candidates, notes, remarks): non-overlapping replacements sorted by
        offset; one line (``line:col: ...``) for every wrong number left
        unchanged; one line for every row that cannot add up exactly.
    """
    kinds = SAFE_KINDS | ({"carried"} if unsafe else set())
    starts = _line_starts(text)
    notes: list[str] = []
    remarks: list[str] = []
    candidates: dict[tuple[int, int], _Candidate] = {}
    for finding in report.wrong:
        where = f"{finding.line}:{finding.column}"
        if finding.kind not in kinds:
            cause = f" from line {finding.carried_from}" if finding.carried_from else ""
            notes.append(f"{where}: {finding.claimed} is carried{cause}; fixed only with --unsafe-fixes")
            continue
        span = _locate(text, starts, finding)
        new = corrected_literal(finding)
        if span is None or new is None:
            why = "its literal is not where the finding says" if span is None else "no true value to print"
            notes.append(f"{where}: {finding.claimed} left unchanged ({why})")
            continue
        if new != text[span[0] : span[1]]:
            candidates[(finding.line, finding.column)] = _Candidate(finding, span[0], span[1], new)
    raised = _keep_rows_adding_up(
        report, text, starts=starts, candidates=candidates, kinds=kinds, remarks=remarks
    )
    _raise_lines(candidates, raised)
    kept: list[_Candidate] = []
    for candidate in sorted(candidates.values(), key=lambda c: c.start):
        if kept and candidate.start < kept[-1].end:
            continue
        if text[candidate.start : candidate.end] != candidate.new:
            kept.append(candidate)
    return kept, notes, remarks


def _row_literals(
    cells: list[Finding], candidates: dict[tuple[int, int], _Candidate], extra: int
) -> list[str] | None:
    """The row's literals after the fix, every cell at ``extra`` more places (0: as planned)."""
    out = []
    for f in cells:
        key = (f.line, f.column)
        if extra == 0:
            out.append(candidates[key].new if key in candidates else f.claimed)
            continue
        new = corrected_literal(f, extra)
        if new is None:
            return None
        out.append(new)
    return out


def _keep_rows_adding_up(
    report: Report,
    text: str,
    *,
    starts: list[int],
    candidates: dict[tuple[int, int], _Candidate],
    kinds: frozenset[str] | set[str],
    remarks: list[str],
) -> dict[int, tuple[int, int]]:
    """Rows of weights that summed to 1 still sum to 1: raise their places if needed.

    Returns {line: (places before, extra places)} for the lines raised.
    """
    rows: dict[tuple[int, str, int], list[Finding]] = defaultdict(list)
    for finding in report.findings:
        if finding.cell is not None and finding.value is not None and finding.status in ("ok", "wrong"):
            rows[(finding.line, finding.subject, finding.cell[0])].append(finding)
    raised: dict[int, tuple[int, int]] = {}
    for (line, subject, row), cells in sorted(rows.items()):
        if not any((f.line, f.column) in candidates for f in cells) or not _is_weight_row(cells):
            continue
        where = f"{line}:{cells[0].column}: row {row} of {subject}"
        if any(f.status == "wrong" and f.kind not in kinds for f in cells):
            total = _sum(_row_literals(cells, candidates, 0) or [])
            remarks.append(
                f"{where} sums to {total} after the fix: its carried cells change only with --unsafe-fixes"
            )
            continue
        chosen = next(
            (
                extra
                for extra in range(_MAX_EXTRA_PLACES + 1)
                if _sum(_row_literals(cells, candidates, extra) or ["x"]) == 1
            ),
            None,
        )
        if chosen == 0:
            continue
        if chosen is None:  # e.g. 1/3, 1/3, 1/3: no places add up; rounding explains the rest
            total = _sum(_row_literals(cells, candidates, 0) or [])
            remarks.append(
                f"{where} sums to {total} after the fix, not 1: correctly rounded cells "
                f"cannot add up at up to {_MAX_EXTRA_PLACES} more places"
            )
            continue
        for f, new in zip(cells, _row_literals(cells, candidates, chosen) or [], strict=True):
            span = _locate(text, starts, f)
            if span is not None:
                candidates[(f.line, f.column)] = _Candidate(f, span[0], span[1], new, chosen)
        style = _style(cells[0].claimed)
        if style is not None:
            raised[line] = (style.places, max(chosen, raised.get(line, (0, 0))[1]))
    return raised


def _raise_lines(candidates: dict[tuple[int, int], _Candidate], raised: dict[int, tuple[int, int]]) -> None:
    """The other fixed numbers of a raised line, printed with the same places, get the raise too."""
    for candidate in candidates.values():
        finding = candidate.finding
        if finding.line not in raised or candidate.extra:
            continue
        places, extra = raised[finding.line]
        style = _style(finding.claimed)
        if style is not None and style.places == places:
            new = corrected_literal(finding, extra)
            if new is not None:
                candidate.new, candidate.extra = new, extra


def _apply(text: str, candidates: list[_Candidate]) -> str:
    parts, last = [], 0
    for candidate in candidates:
        parts.append(text[last : candidate.start])
        parts.append(candidate.new)
        last = candidate.end
    parts.append(text[last:])
    return "".join(parts)


def fix_text(
    text: str, *, name: str = "<text>", tex: bool = False, unsafe: bool = False, options=None
) -> FixResult:
    """Fix the wrong numbers of document ``text`` (see the module docstring).

    Without ``unsafe`` one round is made (carried numbers stay, with a note);
    with it, the document is verified and fixed again until no wrong number is
    left, no fix applies, or :data:`MAX_ROUNDS` rounds ran.
    """
    from symattn.verify import verify_text

    result = FixResult(name=name, original=text, fixed=text)
    seen = {text}
    current = text
    for _ in range(MAX_ROUNDS if unsafe else 1):
        report = verify_text(current, name=name, tex=tex, options=options)
        result.rounds += 1
        if not report.wrong:
            result.notes = []
            break
        result.needed = True
        candidates, notes, remarks = plan_edits(report, current, unsafe=unsafe)
        result.notes = notes
        result.remarks.extend(remarks)
        if not candidates:
            break
        result.edits.extend(
            Edit(
                c.finding.line,
                c.finding.column,
                current[c.start : c.end],
                c.new,
                c.finding.kind,
                c.finding.subject,
            )
            for c in candidates
        )
        current = _apply(current, candidates)
        if current in seen:  # the fixes went round in a circle: stop
            result.notes.append("the fixes did not settle; stopped")
            break
        seen.add(current)
    else:
        if unsafe:
            report = verify_text(current, name=name, tex=tex, options=options)
            if report.wrong:
                result.notes.append(f"{len(report.wrong)} wrong number(s) left after {MAX_ROUNDS} rounds")
    result.fixed = current
    return result


_NUMBER = re.compile(r"\d+(?:(?:\.|,|\{,\})\d+)?")


def only_literals_changed(before: str, after: str) -> bool:
    """True when ``after`` differs from ``before`` only in number literals (same lines)."""
    old, new = before.splitlines(), after.splitlines()
    return len(old) == len(new) and all(
        _NUMBER.sub("#", a) == _NUMBER.sub("#", b) for a, b in zip(old, new, strict=True)
    )
