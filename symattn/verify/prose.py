"""Numbers written again: restatements of earlier results, and prose numbers.

A printed result used again carries its truth and the lines it depends on; a
number of the prose is judged as the cell its clause names, as a row or
column when several are listed together, as the other weight of a two-key
row, or only when it rounds exactly one earlier result.  A mixin of
:class:`~symattn.verify.evaluate.DocumentState`.
"""

from __future__ import annotations

import dataclasses
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from symattn.errors import SymattnError
from symattn.exact import certified_decimal, parse_claim
from symattn.latexparse import (
    Mul,
    Node,
    Num,
)
from symattn.verify.claims import claim_fits, exact_text
from symattn.verify.roots import distinctive as _distinctive
from symattn.verify.values import (
    Val,
    equal,
    is_matrix,
    row_deps,
)
from symattn.verify.world import (
    _AMBIGUOUS,
    _MAX_ROUNDED_PLACES,
    _display_name,
    _row_texts,
)


class Prose:
    """Methods of :class:`~symattn.verify.evaluate.DocumentState` (see the module docstring)."""

    def _remember_printed(self, text: str, result: Val) -> None:
        """Keep a printed result by its text, and index its roundings to fewer places
        (so a later bare number finds what it rounds in one lookup)."""
        known = self.printed.get(text)
        if known is None and "." in text and text.lstrip("-")[:1].isdigit():
            digits = text.split(".")[1]
            if digits.isdigit():
                for places in range(2, min(len(digits), _MAX_ROUNDED_PLACES)):
                    key = (places, _rounded(Decimal(text), places))
                    self.rounded.setdefault(key, set()).add(text)
        same = known is None or (known is not _AMBIGUOUS and equal(known.b, result.b) is True)
        self.printed[text] = result if same else _AMBIGUOUS

    def bare_number(self, num: Num, cell: str | None = None) -> None:
        """A number of the prose (``the weight is 0.67``): judged as the cell its
        clause names (``cell``, e.g. ``a_{23}``), else only when it restates one
        earlier result, rounded; otherwise not reported."""
        self.subject = ""
        if cell is not None and self._prose_cell(num, cell):
            return
        if self._quoted_restatement(num):
            return
        self._rounded_restatement(num, prose=True)

    def _quoted_restatement(self, num: Num) -> bool:
        """A number of the prose written exactly as one printed before with three places or
        more (``only give 0.725?`` after ``LN(x) ≈ [..., 0.725, ...]``): the same number, so
        carried when that one is off, in this section (a fix of the printed one would leave it
        stale)."""
        places = parse_claim(num.text).places or 0
        earlier = self.printed.get(num.text) if places >= 3 else None
        if earlier is None or earlier is _AMBIGUOUS or claim_fits(num.text, earlier.b):
            return False
        if any(line < self.scope_line for line, is_wrong in earlier.deps if is_wrong):
            return False  # off before the latest heading: perhaps another example's number
        return self._carried_restatement(num, num.text, earlier)

    def bare_list(self, nums: list[Num]) -> None:
        """Numbers the prose lists together ("分别约为 1.11、0.69 和 0.67"): when they are,
        in order, the roundings of consecutive cells of one row or column of exactly
        one printed matrix, each is judged as that cell (ok, or carried from the
        wrong number it restates); otherwise each is a bare number."""
        self.subject = ""
        match = self._listed_cells(nums)
        if match is None:
            for num in nums:
                self.bare_number(num)
            return
        for num, (text, cell) in zip(nums, match, strict=True):
            if claim_fits(num.text, cell.b):
                self._add(num, status="ok", kind="ok", reason=f"restates {text}, rounded")
                continue
            if not self._carried_restatement(num, text, cell):
                self.bare_number(num)

    def _listed_cells(self, nums: list[Num]) -> list[tuple[str, Val]] | None:
        """The one run of printed cells (a row or column, in order) that ``nums`` round."""
        claims = []
        for num in nums:
            parsed = parse_claim(num.text)
            if not parsed.places or parsed.scale or not getattr(parsed.value, "is_Rational", False):
                return None
            claims.append((parsed.places, Decimal(int(parsed.value.p)) / Decimal(int(parsed.value.q))))

        def rounds(cell_text: str, places: int, value: Decimal) -> bool:
            if "." not in cell_text or len(cell_text.split(".")[1]) < places or not cell_text[-1].isdigit():
                return False
            try:
                printed = Decimal(cell_text)
            except ArithmeticError:
                return False
            return _rounded(printed, places) == value

        found = []
        n = len(nums)
        for block in self.blocks:
            lines = [list(row) for row in block] + [list(col) for col in zip(*block, strict=True)]
            for line in lines:
                for start in range(len(line) - n + 1):
                    window = line[start : start + n]
                    if all(rounds(t, p, v) for (t, _), (p, v) in zip(window, claims, strict=True)):
                        found.append(window)
        return found[0] if len(found) == 1 else None

    def complement(self, num: Num) -> None:
        """ "另一个 = 0.2689" or "the other is 0.27" right after a weight r of a two-key
        row: a claim of 1 − r (by the document's r, and in truth).  Reported when it
        fits the truth, is its truncation, or carries r's error; otherwise listed."""
        self.subject = ""
        last = self.last_scalar
        if last is None or last[0] != self.formula_index or is_matrix(last[1].a):
            self.bare_number(num)
            return
        r = last[1]
        if not (0 < r.a < 1 and getattr(r.b, "is_positive", False)):
            self.bare_number(num)
            return
        mark = len(self.findings)
        self._judge(
            num, 1 - r.a, 1 - r.b, r.deps, cell=None, reason="the other weight of the row: 1 − the one before"
        )
        self._recast_fresh(
            mark,
            status="unverified",
            kind="unverifiable",
            reason="the other weight of the row fits neither side",
        )
        printed = parse_claim(num.text).value
        ok = not any(f.status == "wrong" for f in self.findings[mark:])
        result = Val(printed, 1 - r.b, r.deps | self._source(num, ok, printed, 1 - r.b))
        if _distinctive(num.text):
            self.results[num.text] = result

    def _fits_another_cell(self, num: Num, name: str) -> bool:
        """Whether a prose number fits some cell of the matrix its clause names (in
        either world): then the clause may count tokens from 0, or name the wrong
        pair, and the number is not a fresh slip."""
        found = self._cell_matrix(name)
        if found is None:
            return False
        binding = found[0]
        try:
            return any(
                claim_fits(num.text, a) or claim_fits(num.text, b)
                for a, b in zip(binding.a, binding.b, strict=True)
            )
        except SymattnError:
            return True

    def _prose_cell(self, num: Num, name: str) -> bool:
        """A prose number for the cell its clause names: ok when it fits the truth,
        carried when it fits the document's (wrong) value of that cell.  One that
        fits neither is a slip when it has four places or more (the prose copies
        the document's number wrong, 0.5670 for 0.5760); with fewer it may be a
        loose figure, and is listed, never called wrong."""
        weak = name.endswith("?")  # a pronoun's reading: only ok or carried are reported
        name = name.rstrip("?")
        value = self._cell(name)
        if value is None or is_matrix(value.a):
            return False
        label = _display_name(name)
        self.subject = label
        mark = len(self.findings)
        deps = row_deps(value, None)
        self._judge(num, value.a, value.b, deps, cell=None, reason=f"the prose gives {label}")
        if not any(_fresh(found) for found in self.findings[mark:]):
            return True  # ok, carried or a truncation: reported as judged
        copied = (
            not weak
            and (parse_claim(num.text).places or 0) >= 4
            and getattr(value.a, "is_Rational", False)
            and not self._fits_another_cell(num, name)
        )
        if copied:
            self._recast_fresh(
                mark, kind="slip", reason=f"the prose copies {label} wrong: {self._slip_reason(num, value.a)}"
            )
        elif (earlier := self.results.get(num.text) if _distinctive(num.text) else None) is not None and any(
            wrong for _, wrong in earlier.deps
        ):
            self._carry_restated(mark, earlier)  # the very number printed wrong before, said again
        else:
            reason = f"the prose gives {label}; it fits neither the document's value nor the truth"
            self._recast_fresh(mark, status="unverified", kind="unverifiable", reason=reason)
        return True

    def _recast_fresh(self, mark: int, **change: Any) -> None:
        """Change the fresh errors (``wrong``, ``slip``) found since ``mark``: a prose
        reading that is not sure of its cell lists them, or calls them a slip."""
        self.findings[mark:] = [
            dataclasses.replace(found, **change) if _fresh(found) else found for found in self.findings[mark:]
        ]

    def _rounded_restatement(self, num: Num, *, prose: bool = False) -> bool:
        """A number on its own (``the third token attends to itself ($0.80$)``) that is
        the rounding of exactly one number printed before (0.804): ok when it fits
        that number's truth, carried when that number was computed from a wrong one."""
        parsed = parse_claim(num.text)
        places = parsed.places or 0
        if places < 2 or not getattr(parsed.value, "is_Rational", False):
            return False
        claimed = Decimal(int(parsed.value.p)) / Decimal(int(parsed.value.q))  # 85% is 0.85
        found = self.rounded.get((places, claimed), set())
        if len(found) != 1:
            return False
        text = next(iter(found))
        earlier = self.printed.get(text)
        if earlier is None or earlier is _AMBIGUOUS:
            return False
        if claim_fits(num.text, earlier.b):
            self._add(num, status="ok", kind="ok", reason=f"restates {text}, rounded")
            return True
        wrong = [line for line, is_wrong in earlier.deps if is_wrong]
        if not wrong:
            return False
        if prose:  # prose may quote the error on purpose ("yet its row puts about 0.09 on …")
            self._add(
                num,
                status="unverified",
                kind="unverifiable",
                reason=f"restates {text}, rounded, which is off (from line {min(wrong)}); prose may quote an error",
            )
            return True
        return self._carried_restatement(num, text, earlier)

    def _carried_restatement(self, num: Num, text: str, earlier: Val) -> bool:
        """``num`` restates ``text`` (printed before), or its rounding, and that number was
        computed from a wrong one: carried from the earliest (False when none is)."""
        wrong = [line for line, is_wrong in earlier.deps if is_wrong]
        if not wrong:
            return False
        self._add(
            num,
            status="wrong",
            kind="carried",
            carried_from=min(wrong),
            exact=exact_text(earlier.b),
            reason=f"restates {text}, rounded" if text != num.text else f"restates {text}, printed before",
        )
        return True

    def _solved_operand(self, num: Num, earlier: Val, mark: int) -> Val | None:
        """``-1.1437 × 2 ≈ -2.2874`` where -2.2874 was printed before and is off (its truth is
        -2.5574): the step holds by its own numbers, so what is off is its one rounded
        operand.  When the step is that operand times exact numbers (integers), the operand's
        truth is the earlier truth divided by them: both are judged as restatements of the
        earlier number's quantity (carried from where it went wrong).  None otherwise."""
        step = self.element_before
        wrong = [line for line, is_wrong in earlier.deps if is_wrong]
        if not wrong or not isinstance(step, Mul) or claim_fits(num.text, earlier.b):
            return None
        factors = step.factors
        if not all(isinstance(f, Num) for f in factors):
            return None
        rounded = [f for f in factors if "." in f.text]  # type: ignore[union-attr]
        exact = [f for f in factors if "." not in f.text]  # type: ignore[union-attr]
        if len(rounded) != 1 or not exact:
            return None
        divisor = 1
        for factor in exact:
            divisor *= parse_claim(factor.text).value  # type: ignore[union-attr]
        if divisor == 0:
            return None
        operand = rounded[0]
        index = self.finding_index.get(self.position(operand.offset))
        if index is None or index >= mark or self.findings[index].claimed != operand.text:  # type: ignore[union-attr]
            return None
        line, column = self.position(num.offset)
        del self.findings[mark:]
        self.seen.discard(num.offset)
        self.seen.discard((line, column))
        self.findings[index] = dataclasses.replace(
            self.findings[index],
            status="wrong",
            kind="carried",
            carried_from=min(wrong),
            exact=exact_text(earlier.b / divisor),
            reason=f"times {divisor} it gives {num.text}, printed before: that number is off",
        )
        self._restated(num, earlier.deps, earlier.b)
        return Val(parse_claim(num.text).value, earlier.b, earlier.deps)

    def _restated(
        self, num: Num, deps: frozenset[tuple[int, bool]], true: Any, *, truth: bool = True
    ) -> None:
        """A number written again as it was printed before: ok, or carried from the
        earliest wrong number that printed value depends on (rounding-carried when it depends
        only on correctly rounded numbers and is off in truth, as the number it restates)."""
        wrong = [line for line, is_wrong in deps if is_wrong]
        # a right cell of a row with a wrong one stays right; with no wrong number and no rounded
        # one behind it, or a world (b) of untied rounded numbers, it restates what was said
        if _fits(num.text, true) or (not wrong and (not deps or not truth)):
            self._add(num, status="ok", kind="ok", reason="restates an earlier result")
            return
        try:
            value = certified_decimal(true, (parse_claim(num.text).places or 0) + 3)
        except SymattnError:
            value = None
        if not wrong:
            self._add(
                num,
                status="wrong",
                kind="rounding-carried",
                carried_from=min(line for line, _ in deps),
                value=value,
                exact=exact_text(true),
                reason="restates an earlier result, right by the document's rounded numbers, off in truth",
            )
            return
        self._add(
            num,
            status="wrong",
            kind="carried",
            carried_from=min(wrong),
            value=value,
            exact=exact_text(true),
            reason="restates an earlier result",
        )

    def _carry_restated(self, mark: int, earlier: Val) -> None:
        """A wrong number written as a result printed before (0.2860 again), which
        was itself computed from a wrong number: carried from there, not fresh."""
        wrong_lines = [line for line, is_wrong in earlier.deps if is_wrong]
        if not wrong_lines:
            return
        self.findings[mark:] = [
            dataclasses.replace(f, kind="carried", carried_from=min(wrong_lines))
            if f.status == "wrong" and f.kind in ("wrong", "slip") and f.line > min(wrong_lines)
            else f
            for f in self.findings[mark:]
        ]

    def _carry_restated_row(self, row: tuple[Node, ...], mark: int) -> None:
        """A printed row that restates a row printed before (cell for cell), which
        was computed from a wrong number: its wrong cells are carried from there."""
        texts = _row_texts(row)
        earlier = self.row_results.get(texts) if all(texts) and len(texts) > 1 else None
        if earlier is not None:
            self._carry_restated(mark, earlier)


def _fresh(found: Any) -> bool:
    """A wrong number that is not explained by an earlier one."""
    return found.status == "wrong" and found.kind in ("wrong", "slip")


def _rounded(printed: Decimal, places: int) -> Decimal:
    """A printed decimal rounded half away from zero to fewer places (what a later
    restatement of it would print)."""
    return printed.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _fits(text: str, true: Any) -> bool:
    """Whether a printed number is a right reading of ``true`` (False when undecided)."""
    try:
        return claim_fits(text, true)
    except SymattnError:
        return False
