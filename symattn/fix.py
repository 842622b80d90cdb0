"""``symattn fix``: replace each number that is certainly wrong by its true value.

Only number literals change, and each keeps the document's style: the same
number of places, the same decimal separator (``.``, ``,`` or ``{,}``), sign
character and notation (``3.0 \\times 10^{-5}`` stays in that form).  The true
value comes from the verifier's finding: a certified decimal with the printed
places + 3 (and the exact closed form when it is a rational number).

A number is edited only when all of these hold (everything else is a note):

* its finding is ``wrong``, ``slip`` or ``rounding``: a fresh error (not
  ``carried``, ``rounding-carried``, ``convention`` or ``ambiguous``);
* the true value at the printed places is decided by the finding's digits and
  differs from the printed text (places are never changed: a row that no
  longer adds up to 1 at its places gets a remark, not more places);
* the number means what it says by itself: no unit, multiplier or percent sign
  right after its span (``$2.36$M``), and it is not the numerator or the
  denominator of a fraction (``9/4``, ``\\frac{9}{4}``).

One run is the fixed point.  Fixing a root error makes the numbers carried from
it fresh errors of the fixed document, so the document is verified again and
the numbers that became certainly wrong are fixed too, until a round finds
nothing new (at most :data:`MAX_ROUNDS` rounds).  A number that the first report
does not call wrong by a fresh or a carried error (``ok``, unverified,
``rounding-carried``, ``convention``, ``ambiguous``) is never edited in any round,
and no number is edited twice.  The result is returned only when it is the fixed
point (``fix`` on it finds nothing to edit); otherwise the document is left
unchanged, with a note.  ``unsafe=True`` adds carried numbers whose root stays as it is (an
assumed weight the verifier cannot fix): every number computed from it changes.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from symattn.rounding import round_half_away
from symattn.verify.finding import Finding, Kind
from symattn.verify.report import Report

__all__ = [
    "MAX_ROUNDS",
    "SAFE_KINDS",
    "Edit",
    "FixResult",
    "corrected_literal",
    "fix_file",
    "fix_text",
    "only_literals_changed",
    "plan_edits",
]

#: Kinds fixed by default (fresh errors); ``carried`` needs ``unsafe``.
SAFE_KINDS = frozenset({Kind.WRONG, Kind.ROUNDING, Kind.SLIP})
#: Verify-and-fix rounds (each fix can turn what was carried into a fresh error).
MAX_ROUNDS = 6

_LITERAL = re.compile(
    r"(?P<sign>[-\u2212]?)(?P<space>\s*)(?P<int>\d+)(?:(?P<sep>\.|,|\{,\})(?P<frac>\d+))?"
    r"(?:(?P<times>\s*(?:\\times|\\cdot|\u00d7|\u00b7)\s*10\^)(?P<open>\{?)(?P<esign>[-+\u2212]?)(?P<exp>\d+)(?P<close>\}?)"
    r"|(?P<e>[eE])(?P<esign2>[-+]?)(?P<exp2>\d+))?"
)


#: An integer printed with thousands separators (``22,026``, ``32{,}768``), as verify reads it.
_GROUPED = re.compile(r"(?P<sign>[-\u2212]?)(?P<int>\d{1,3}(?:(?P<group>,|\{,\})\d{3})+)")


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
    grouping: str = ""  # the thousands separator of an integer printed with one

    def render(self, value: Decimal, places: int) -> str:
        """``value`` (already rounded to ``places - exponent`` places) in this style."""
        mantissa = value.scaleb(-self.exponent) if self.exponent is not None else value
        mantissa = mantissa.quantize(Decimal(1).scaleb(-places))
        if mantissa.is_zero():
            mantissa = abs(mantissa)
        digits = f"{abs(mantissa):f}"
        whole, _, frac = digits.partition(".")
        if self.grouping:
            whole = self.grouping.join(whole[max(0, k - 3) : k] for k in range(len(whole), 0, -3)[::-1])
        body = whole + (self.separator + frac if frac else "")
        sign = (self.sign or "-") + self.space if mantissa < 0 else ""
        if self.exponent is None:
            return sign + body
        exp_sign = self.exp_sign if self.exponent < 0 else ("+" if self.exp_sign == "+" else "")
        if self.exponent < 0 and not exp_sign:
            exp_sign = "-"
        return f"{sign}{body}{self.exp_prefix}{exp_sign}{abs(self.exponent)}{self.exp_suffix}"


def _style(text: str) -> _Style | None:
    grouped = _GROUPED.fullmatch(text.strip())
    if grouped is not None:
        return _Style(
            sign=grouped["sign"],
            space="",
            places=0,
            separator=".",
            exponent=None,
            exp_prefix="",
            exp_sign="",
            exp_suffix="",
            grouping=grouped["group"],
        )
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
    grouped = _GROUPED.fullmatch(text.strip())
    if grouped is not None:
        value = Decimal(grouped["int"].replace("{,}", "").replace(",", ""))
        return -value if grouped["sign"] else value
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


def _rounded(finding: Finding, places: int) -> Decimal | None:
    """The true value of ``finding`` rounded to ``places`` places, or None when the
    finding's digits do not decide that rounding (they end exactly on a midpoint)."""
    exact = _rational(finding.exact)
    if exact is not None:
        return _round_fraction(exact, places)
    value = _decimal(finding.value)
    if value is None:
        return None
    exponent = value.as_tuple().exponent
    known = -exponent if isinstance(exponent, int) else 0
    if places > known:
        return None
    tail = f"{abs(value):f}".partition(".")[2][places:]
    if tail and re.fullmatch(r"50*", tail):
        return None  # exactly a midpoint of the certified digits: they do not decide
    return _round_fraction(Fraction(value), places)


def corrected_literal(finding: Finding) -> str | None:
    """The literal that replaces ``finding.claimed``, in its style and at its places, or None.

    An integer claims an exact value; its replacement is the true value at 0
    places, so a fix never adds places.  None when the finding has no true
    value, the printed text is not a number, or its digits do not decide the
    rounding.

    >>> from symattn.verify.finding import Finding, Kind
    >>> f = Finding(1, 1, "A", (3, 1), "0.3", "0.2483", None, "wrong", "wrong", None, "")
    >>> corrected_literal(f)
    '0.2'
    """
    style = _style(finding.claimed)
    if style is None or finding.value is None:
        return None
    shift = style.exponent or 0
    rounded = _rounded(finding, style.places - shift)
    if rounded is None:
        return None
    return style.render(rounded, style.places)


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


_BREAK = re.compile(r"\r\n|\r|\n")


def _line_starts(text: str) -> list[int]:
    """Offsets where each line starts; CRLF, a lone CR and LF each end a line, as verify reads them."""
    return [0] + [m.end() for m in _BREAK.finditer(text)]


def _locate(text: str, starts: list[int], finding: Finding) -> tuple[int, int] | None:
    """Source offsets of the literal of ``finding``, or None when it is not there."""
    if not 1 <= finding.line <= len(starts):
        return None
    offset = starts[finding.line - 1] + finding.column - 1
    if text.startswith(finding.claimed, offset):
        return offset, offset + len(finding.claimed)
    unit = finding.claimed[-1:]
    if unit in "KMB" and text.startswith(finding.claimed[:-1], offset):  # 2.36$M: the M after the math
        end = offset + len(finding.claimed) - 1
        closers = _CLOSERS.match(text, end)
        if closers and text.startswith(unit, closers.end()):
            return offset, end
    pattern = r"\s*".join(re.escape(part) for part in finding.claimed.split())
    if finding.claimed.startswith("-"):
        pattern = "[-\u2212]" + pattern[2:]
    match = re.compile(pattern).match(text, offset)
    if match is None:
        return None
    return match.start(), match.end()


#: Math delimiters that may close right after a literal (``$2.36$M``: the M is outside the math).
_CLOSERS = re.compile(r"(?:\$\$?|\\\)|\\\]|\})*")
#: Text right after a literal (and its closers) that changes what the literal means.
_QUALIFIER = re.compile(r"\\?%|\u2030|[^\W\d_]|\\(?:,|;|\s)*\\?(?:text|mathrm|mathit|operatorname)\b")
#: A fraction around a literal: ``9/4``, ``\frac{9}{4}``.
_FRACTION_BEFORE = re.compile(r"(?:/\s*|\\[dt]?frac\s*\{\s*|\}\s*\{\s*)$")
_FRACTION_AFTER = re.compile(r"\s*/|\s*\}\s*\{")


def _depends_on_context(text: str, start: int, end: int) -> str | None:
    """Why the literal at ``text[start:end]`` does not mean its value alone, or None."""
    closers = _CLOSERS.match(text, end)
    after = closers.end() if closers else end
    if _QUALIFIER.match(text, after):
        return "a unit, multiplier or percent sign follows it"
    if _FRACTION_BEFORE.search(text, max(0, start - 12), start) or _FRACTION_AFTER.match(text, end):
        return "it is part of a fraction"
    return None


def _sum(literals: list[str]) -> Decimal | None:
    total = Decimal(0)
    for literal in literals:
        value = _decimal(literal)
        style = _style(literal)
        if value is None or style is None or style.exponent is not None:
            return None
        total += value
    return total


def plan_edits(
    report: Report,
    text: str,
    *,
    unsafe: bool = False,
    protected: frozenset[int] = frozenset(),
) -> tuple[list[_Candidate], list[str], list[str]]:
    """The literal replacements for one report of ``text``, and notes on what stays.

    Args:
        report: the verifier's report of ``text``.
        text: the document.
        unsafe: carried numbers are fixed too.
        protected: offsets of literals never to edit (those an earlier report of
            the same document called right, or did not call certainly wrong).

    Returns:
        (candidates, notes, remarks): non-overlapping replacements sorted by
        offset; one line (``line:col: ...``) for every wrong number left
        unchanged; one line for every row of weights that no longer adds up to 1.
    """
    kinds = SAFE_KINDS | ({Kind.CARRIED} if unsafe else set())
    starts = _line_starts(text)
    notes: list[str] = []
    candidates: dict[tuple[int, int], _Candidate] = {}
    for finding in report.wrong:
        where = f"{finding.line}:{finding.column}"
        if finding.kind not in kinds:
            notes.append(f"{where}: {finding.claimed} left unchanged ({_why_kept(finding)})")
            continue
        span = _locate(text, starts, finding)
        if span is None:
            notes.append(
                f"{where}: {finding.claimed} left unchanged (its literal is not where the finding says)"
            )
            continue
        if span[0] in protected:
            continue
        context = _depends_on_context(text, *span)
        new = corrected_literal(finding)
        if context is not None or new is None:
            why = context or "its certified digits do not decide the rounding at its places"
            notes.append(f"{where}: {finding.claimed} left unchanged ({why})")
            continue
        if new != text[span[0] : span[1]]:
            candidates[(finding.line, finding.column)] = _Candidate(finding, span[0], span[1], new)
    kept: list[_Candidate] = []
    for candidate in sorted(candidates.values(), key=lambda c: c.start):
        if kept and candidate.start < kept[-1].end:
            continue
        kept.append(candidate)
    return kept, notes, _rows_not_adding_up(report, kept)


def _why_kept(finding: Finding) -> str:
    if finding.kind == Kind.CARRIED:
        cause = f" from line {finding.carried_from}" if finding.carried_from else ""
        return f"carried{cause}; fixed only with --unsafe-fixes"
    if finding.kind == Kind.ROUNDING_CARRIED:
        return "right by the document's rounded numbers; rounding them is the author's choice"
    if finding.kind == Kind.CONVENTION:
        return (
            f"it follows another convention ({finding.fits})"
            if finding.fits
            else "it follows another convention"
        )
    return f"{finding.kind}: not certainly wrong"


def _rows_not_adding_up(report: Report, kept: list[_Candidate]) -> list[str]:
    """One remark for each printed row of weights that summed to exactly 1 and no longer does."""
    new = {(c.finding.line, c.finding.column): c.new for c in kept}
    rows: dict[tuple[int, str, int], list[Finding]] = defaultdict(list)
    for finding in report.findings:
        if finding.cell is not None and finding.value is not None and finding.status in ("ok", "wrong"):
            rows[(finding.line, finding.subject, finding.cell[0])].append(finding)
    remarks = []
    for (line, subject, row), cells in sorted(rows.items()):
        if len(cells) < 2 or not any((f.line, f.column) in new for f in cells):
            continue
        if _sum([f.claimed for f in cells]) != 1:
            continue
        total = _sum([new.get((f.line, f.column), f.claimed) for f in cells])
        if total is not None and total != 1:
            remarks.append(
                f"{line}:{cells[0].column}: row {row} of {subject} sums to {total} after the fix, not 1: "
                "correctly rounded cells need not add up (places are never changed)"
            )
    return remarks


def _apply(text: str, candidates: list[_Candidate]) -> str:
    parts, last = [], 0
    for candidate in candidates:
        parts.append(text[last : candidate.start])
        parts.append(candidate.new)
        last = candidate.end
    parts.append(text[last:])
    return "".join(parts)


def _shifted(offsets: frozenset[int], candidates: list[_Candidate]) -> frozenset[int]:
    """``offsets`` of the text before ``candidates`` were applied, in the text after."""
    out = set()
    for offset in offsets:
        delta = sum(len(c.new) - (c.end - c.start) for c in candidates if c.end <= offset)
        out.add(offset + delta)
    return frozenset(out)


def _not_certainly_wrong(report: Report, text: str) -> frozenset[int]:
    """Offsets of the literals a first report does not call wrong by a fresh or a carried
    error: ``ok``, unverified, and wrong only by rounding, convention or ambiguity."""
    starts = _line_starts(text)
    offsets = set()
    for finding in report.findings:
        if finding.status == "wrong" and finding.kind in SAFE_KINDS | {Kind.CARRIED}:
            continue
        span = _locate(text, starts, finding)
        if span is not None:
            offsets.add(span[0])
    return frozenset(offsets)


def fix_text(
    text: str, *, name: str = "<text>", tex: bool = False, unsafe: bool = False, options=None
) -> FixResult:
    """Fix the numbers of document ``text`` that are certainly wrong (see the module docstring).

    The document is verified, fixed and verified again until a round finds
    nothing more to fix.  The result is returned only when it is a fixed point
    (``fix`` on it would change nothing); otherwise the text stays as it was.
    """
    from symattn.files import split_line_endings
    from symattn.verify import verify_text

    original = text
    text, endings = split_line_endings(text)  # CR-only and CRLF files: read as LF, written back as they were
    result = FixResult(name=name, original=original, fixed=original)
    current = text
    protected: frozenset[int] = frozenset()
    for round_ in range(MAX_ROUNDS):
        report = verify_text(current, name=name, tex=tex, options=options)
        result.rounds += 1
        if round_ == 0:
            protected = _not_certainly_wrong(report, current)
            result.needed = bool(report.wrong)
        candidates, notes, remarks = plan_edits(report, current, unsafe=unsafe, protected=protected)
        result.notes = notes
        if not candidates:
            if round_ == 0 or not plan_edits(report, current, unsafe=unsafe)[0]:
                result.fixed = endings.restore(current)
                return result
            break  # a number not called wrong at first now looks wrong: not settled
        result.remarks.extend(remarks)
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
        protected = _shifted(protected | {c.start for c in candidates}, candidates)  # each once
        current = _apply(current, candidates)
    # a partial fix would not be the fixed point of fix: nothing changes
    return FixResult(
        name=name,
        original=original,
        fixed=original,
        notes=["the fixes did not settle (a second run would change more); nothing was changed"],
        needed=result.needed,
        rounds=result.rounds,
    )


_NUMBER = re.compile(r"\d+(?:(?:\.|,|\{,\})\d+)?")


def only_literals_changed(before: str, after: str) -> bool:
    """True when ``after`` differs from ``before`` only in number literals (same lines)."""
    old, new = before.splitlines(), after.splitlines()
    return len(old) == len(new) and all(
        _NUMBER.sub("#", a) == _NUMBER.sub("#", b) for a, b in zip(old, new, strict=True)
    )


def fix_file(path: str, unsafe: bool, options: Any) -> tuple[FixResult | None, str | None]:
    """Read and fix one file (nothing is written): its result, or the one-line error that
    stopped it.  Module-level, so ``fix -j`` can run it in a pool of processes."""
    from symattn.errors import SymattnError
    from symattn.verify.document import read_document

    try:
        name, text, tex = read_document(Path(path), options.max_document_bytes)
        return fix_text(text, name=name, tex=tex, unsafe=unsafe, options=options), None
    except SymattnError as error:
        return None, " ".join(str(error).split())
    except OSError as error:  # e.g. no permission to read: the other files are still fixed
        return None, f"{path}: {error.strerror or error}"
