"""Evaluate a document's chains in two worlds and judge every printed number.

:class:`DocumentState` walks the formulas in document order.  Names are bound
by the document's own definitions (``X = [...]``, ``Q = X W^Q``, ``$d_k = 2$``).
Every binding has two values: world (a) holds the document's printed numbers
(a claim ``A = [...]`` rebinds A there), world (b) the true value computed
from the document's inputs.  Each binding also remembers ``deps``, the lines
of wrong numbers its world-(a) value depends on.

A chain ``e0 = e1 = ... = ek`` is read left to right; each element is

* a bare name (bound: its value; unbound: defined by the chain);
* a *claim* (numbers only), judged cell by cell against the element before it;
* an *input* (numbers only, first value of a chain defining a name);
* a computation, evaluated with :mod:`symattn.stages` in both worlds.  Number
  blocks inside a computation that restate an earlier quantity (the same
  matrix, its transpose, one of its rows, or a row of weights in
  ``w1·v1 + w2·v2 + ...``) are *tied* to it and judged against its true value.

The verifier never computes numerics of its own: products, transposes and
softmax come from :mod:`symattn.stages`, decimals and judgements from
:mod:`symattn.exact` (through :mod:`symattn.verify.claims`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn import stages
from symattn.errors import ShapeError, SymattnError
from symattn.exact import certified_decimal, enclose, parse_claim
from symattn.latexparse import (
    Call,
    Chain,
    Matrix,
    Mul,
    Name,
    Neg,
    Node,
    Num,
    Pow,
    Sum,
    Transpose,
    literals,
)
from symattn.verify.balls import ball_of, meets
from symattn.verify.claims import TIE_DIGITS, Finding, carried_line, exact_text, judge, within_float_rounding
from symattn.verify.conventions import Conventions
from symattn.verify.environment import Environment
from symattn.verify.evaluator import Evaluator
from symattn.verify.finding import Seeds
from symattn.verify.prose import Prose
from symattn.verify.roots import DOUBTED_REASON
from symattn.verify.roots import distinctive as _distinctive
from symattn.verify.shapes import (
    has_matrix,
    is_claim_shape,
    is_literal,
    literals_of,
    names_in,
    wants_scalar_reader,
)
from symattn.verify.shapes import (
    printed as printed_value,
)
from symattn.verify.stated import Stated
from symattn.verify.steps import align
from symattn.verify.sublayers import Sublayers
from symattn.verify.ties import Ties
from symattn.verify.values import (
    NEG_INF,
    Binding,
    Unverifiable,
    Val,
    add_values,
    entry_of_1x1,
    equal,
    is_matrix,
    row_deps,
    scale,
    shape_text,
    within,
)
from symattn.verify.world import (
    _IDENTITY,
    _SIZED_IDENTITY,
    _BallLookup,
    _blamed_part,
    _display_name,
    _halfwidth,
    _is_row,
    _row_texts,
)

__all__ = ["DocumentState"]


#: Relations that say a printed value is rounded ("R_1 ≈ [0.7975, …]").
_APPROX = ("\\approx", "≈")


def _near_matrix(node: Matrix, value: Any) -> bool:
    """Whether a printed matrix has ``value``'s shape and each cell within half the largest of
    its cells' sizes: a calculator trace of that value (its slips included), not another one."""
    if not is_matrix(value) or value.shape != (len(node.rows), len(node.rows[0])):
        return False
    try:
        true = [[float(value[i, j]) for j in range(value.cols)] for i in range(value.rows)]
    except (TypeError, ValueError):
        return False
    size = max((abs(x) for row in true for x in row), default=0.0)
    printed = [[float(parse_claim(c.text).value) for c in row] for row in node.rows]  # type: ignore[union-attr]
    return size > 0 and all(
        abs(p - t) <= size / 2
        for prow, trow in zip(printed, true, strict=True)
        for p, t in zip(prow, trow, strict=True)
    )


class DocumentState(Environment, Conventions, Ties, Prose, Sublayers, Evaluator):
    """The bindings of one document and the findings made so far.

    Attributes:
        env: each name's :class:`~symattn.verify.values.Binding` (both worlds).
        findings: the findings of the formula being read (the driver collects them).
        position: maps an offset inside the current formula to (line, column).
        inputs: names whose binding came from printed numbers (``X = [...]``).
        uses: for each computed name, the names it was computed from (a new
            example that redefines an input forgets what used it).
        deferred: number-free definitions waiting for a name defined later.

    >>> from symattn.latexparse import parse_formula
    >>> state = DocumentState()
    >>> for text in ("a = 2", "b = a + 1 = 4"):
    ...     for chain in parse_formula(text).chains:
    ...         state.run_chain(chain, lambda index: "")
    >>> [(f.claimed, str(f.status), str(f.kind)) for f in state.findings]
    [('2', 'unverified', 'input'), ('1', 'unverified', 'operand'), ('4', 'wrong', 'slip')]
    """

    written_out: bool = False  # the element just read was a dot product written out term by term

    link_approx = False  # the element being read is joined to the one before it by ≈
    #: the dependencies of the last step with numbers put in for parts of the side before (steps.py)
    step_put_in: frozenset[Any] | None = None
    tied: dict[int, Val]
    seeds: Seeds
    seeds_left: list[Any]
    headings: list[tuple[int, int]]  # (line, level) of each heading read so far

    def __init__(self) -> None:
        self.env: dict[str, Binding] = {}
        self.findings: list[Finding] = []
        self.finding_index: dict[tuple[int, int], int] = {}  # (line, column) -> its finding
        self.position: Callable[[int], tuple[int, int]] = lambda offset: (1, offset + 1)
        self.subject = ""
        self.seen: set[Any] = set()  # offsets in the formula, and (line, column) in the source
        self.operands: list[Num] = []
        self.deferred: list[Chain] = []
        self.inputs: set[str] = set()
        self.symbols: dict[str, sympy.Symbol] = {}  # letters an input matrix uses as symbols
        self.printed: dict[str, Any] = {}  # each printed result (2+ places) by its text, or _AMBIGUOUS
        self.rounded: dict[tuple[int, Decimal], set[str]] = {}  # (places, rounding) -> printed texts
        self.uses: dict[str, frozenset[str]] = {}
        self.defined_by_input = False
        self.element_text = ""
        self.retrying = False
        self.chain_start_offset = 0
        self.binary = False  # the current formula is a printout of binary floats
        # where the latest heading or setup sentence stood; (line, level) of each heading so far
        self.scope_line, self.headings = 0, []
        self.bound_line: dict[str, int] = {}  # the line each name was last bound on
        self.last_halfwidth: Any = None  # of the last printed element of the chain being read
        self.row_results: dict[tuple[str, ...], Val] = {}  # printed rows by their texts
        # scalar results printed wrong, and results printed rounded (0.71 for 1/√2), that the next
        # formula may use at once: formula index, value
        self.recent: dict[str, tuple[int, Val]] = {}
        self.expressions: dict[Any, tuple[dict[str, Any], Binding]] = {}  # claimed values of expressions
        self.formula_index = 0
        self.last_dot: tuple[Val, Val] | None = None  # the last dot product of two row vectors
        self.head_factors: tuple[Node, list[Val]] | None = None  # the factors of the last product element
        # the literals of the element being read that are a result printed before, by id: its ball
        # holds their value in truth, not their printed interval
        self.untied_rounded, self.tied = False, {}
        self.top_element: Node | None = None  # the chain element being read (never its own claimed value)
        # ... unless the chain has no numbers: it defines a name by it; the last step was equal to
        # the side before within the rounding of its printed numbers
        self.defining = self.step_rounded = False
        self.element_before: Node | None = None  # the element before it in its chain
        self.results: dict[str, Val] = {}  # printed results by their text, for operands that restate them
        self.output_rows = True  # o_1 in this chain may be row 1 of (weights)·V
        self.last_scalar: tuple[int, Val] | None = None  # the last scalar result printed, and its formula
        self.blocks: list[list[list[tuple[str, Val]]]] = []  # printed matrices: each cell's text and value
        self.printed_rows: list[tuple[Any, Val]] = []  # unnamed rows printed on their own: (truth, value)
        self.stated = Stated()  # the conventions the document states in words (set by the driver)
        self.override = None  # sublayers: one other convention, while a chain is re-read under it
        self.consulted = None
        self.block_elements = None
        self.norm_rows = None
        self.pe_shape = None  # the shape of a printed PE matrix being read
        self.claim_shape = None  # the shape of a printed ReLU table being read
        self.last_concat = None  # the concatenation of the heads, as last printed
        # each printed μ, σ: the rows it was of; a labelled row bound from the rows being normalised
        self.statistic_of, self.row_source = {}, {}
        self.approximate_inputs: set[str] = set()  # names given (or computed) from numbers printed ≈
        self.ref_approximate = False  # the element being judged against uses one of them
        self.families = {}  # h = x W_1 + b_1 with x a token's vector: h -> (x, the formula)
        # the vector the formula's line names ("对 r1："), and the row it names ("row 2:", "第二行")
        self.row_name_hint = self.row_hint = None
        # seeds, on the second reading: each number the explanation identified, its truth, whether
        # wrong, its text; and those not yet passed, the next one last
        self.seeds, self.seeds_left = {}, []

    def _add(self, num: Num, **fields: Any) -> None:
        line, column = self.position(num.offset)
        if num.offset in self.seen or (line, column) in self.seen:
            return  # once per literal, also when a reader wrote it twice (a table's chains)
        self.seen.add(num.offset)
        self.seen.add((line, column))
        self.finding_index[(line, column)] = len(self.findings)
        base = {"subject": self.subject, "cell": None, "value": None, "exact": None, "carried_from": None}
        base.update(fields)
        self.findings.append(Finding(line=line, column=column, claimed=num.text, **base))

    def unverified(self, nums: list[Num], kind: str, reason: str) -> None:
        """Record each number as unverified, with the reason."""
        for num in nums:
            self._add(num, status="unverified", kind=kind, reason=reason)

    def _judge(
        self,
        num: Num,
        a: Any,
        b: Any,
        deps: frozenset[tuple[int, bool]],
        *,
        cell: Any,
        reason: str,
        arith: bool = True,
        ball: Any = None,
        truth: bool = True,
    ) -> bool:
        a, b = entry_of_1x1(a), entry_of_1x1(b)  # q_1 · k_1 of 1-vectors is a number
        try:
            verdict = judge(num.text, a, b, deps, arith=arith)
            if verdict.status == "wrong" and self.link_approx:
                verdict = _approximately(num.text, a, b, deps, verdict)
            only_rounded = not any(is_wrong for _, is_wrong in deps)
            if verdict.kind == "carried" and only_rounded:  # right by correctly rounded numbers only
                verdict = dataclasses.replace(
                    verdict, status="wrong" if truth else "unverified", kind="rounding-carried"
                )
                reason = "right by the document's rounded numbers, off in truth"
            fits_rounded = verdict.status == "wrong" and ball is not None and meets(num.text, ball)
            if (
                fits_rounded and not only_rounded
            ):  # right by the document's (rounded) numbers, one of them wrong
                verdict = dataclasses.replace(verdict, kind="carried", carried_from=carried_line(deps))
            elif fits_rounded:
                if equal(a, b) is True:
                    # computed from printed numbers only, and wrong by them taken as printed (an input
                    # is exact): right only if they were themselves rounded from values the document
                    # does not give.  Rounding never makes a number ok that neither world gives
                    self._add(
                        num,
                        cell=cell,
                        value=verdict.value,
                        exact=verdict.exact,
                        status="unverified",
                        kind="undecided",
                        reason="wrong by the printed numbers it is computed from; right only if they are rounded",
                    )
                    return True
                else:
                    # right by the document's rounded numbers, off in truth: wrong when world (b) is the
                    # truth itself; when it still holds a rounded printed number, listed, never called wrong
                    verdict = dataclasses.replace(
                        verdict,
                        status="wrong" if truth else "unverified",
                        kind="rounding-carried",
                        carried_from=carried_line(deps) if deps else None,
                    )
                    reason = "right by the document's rounded numbers, off in truth"
            if verdict.status == "wrong" and self.ref_approximate and ball is None:
                # LN(R_1) with R_1 given as ≈ [0.7975, …]: world (b) is itself rounded; a stage of the
                # block (no interval evaluation) cannot tell a slip from that rounding
                self._add(
                    num,
                    cell=cell,
                    status="unverified",
                    kind="undecided",
                    reason="computed from numbers the document gives only rounded (≈): the difference may be their rounding",
                )
                return True
            if verdict.status == "wrong" and self.binary and within_float_rounding(num.text, b):
                verdict = dataclasses.replace(verdict, status="ok", kind="float-rounding", carried_from=None)
                reason = "within float32 rounding of the true value"
        except SymattnError as err:  # e.g. a value with free symbols: this cell only
            self._add(num, cell=cell, status="unverified", kind="undecided", reason=str(err))
            return True
        self._add(
            num,
            cell=cell,
            value=verdict.value,
            exact=verdict.exact,
            status=verdict.status,
            kind=verdict.kind,
            carried_from=verdict.carried_from,
            reason=self._slip_reason(num, a) if verdict.kind == "slip" else reason,
        )
        return verdict.status == "ok"

    def _slip_reason(self, num: Num, a: Any) -> str:
        """A slip's reason names the value the document's own numbers give."""
        places = parse_claim(num.text).places or 0
        return f"by the document's numbers: {certified_decimal(a, places + 3)}"

    def _source(self, num: Num, ok: bool, printed: Any, true: Any) -> frozenset[tuple[int, bool]]:
        """``{(line, wrong)}`` when a printed number differs from its true value; a
        number carried from line N passes on line N, the root of its error."""
        if ok and getattr(true, "is_Rational", False) and true == printed:
            return frozenset()
        return self._rerooted(num, frozenset({(self.position(num.offset)[0], not ok)}))

    def _rerooted(self, node: Node, sources: frozenset[tuple[int, bool]]) -> frozenset[tuple[int, bool]]:
        """``sources`` of a printed number, with its own line replaced by the line its
        error was carried from when it was judged carried (its finding may have
        been re-judged after it was read: a row restating a wrong row)."""
        if not isinstance(node, Num):
            return sources
        where = self.position(node.offset)
        index = self.finding_index.get(where)
        if (
            index is None
            or index >= len(self.findings)
            or (self.findings[index].line, self.findings[index].column) != where
        ):
            return sources  # not judged, or its finding was taken back
        found = self.findings[index]
        if found.kind not in ("carried", "rounding-carried") or found.carried_from is None:
            return sources
        own = (found.line, True)
        if own not in sources:
            return sources
        return (sources - {own}) | {(found.carried_from, found.kind == "carried")}

    def run_chain(self, chain: Chain, subject_of: Callable[[int], str]) -> None:  # noqa: PLR0915 - the chain walk, one step per element kind
        """Judge one chain ``e0 = e1 = ...`` and update the bindings.

        Args:
            chain: a parsed statement (its ``error`` set when it did not parse).
            subject_of: the display text of element ``i`` (for findings).

        Every problem (unknown names, 1/0, huge powers, shapes) ends up as an
        unverified finding on the numbers concerned; nothing is raised.
        """
        if chain.error is not None:
            self.unverified(list(chain.numbers), "unparsed", f"cannot parse: {chain.error}")
            return
        if len(chain.elements) == 1:
            element = chain.elements[0]
            self.subject = subject_of(0)
            if isinstance(element, Num) and self._rounded_restatement(element):
                return
            if isinstance(element, Matrix) and self._squares_of_last_row(element):
                return  # "and squaring: [0.2954, 0.0248, …]" (sublayers.py)
            if isinstance(element, Matrix) or printed_value(element) is not None:
                reason = "a number not tied to a named quantity"
            else:
                reason = "not part of an equation, so there is nothing to compare it with"
            self.unverified(literals(element), "no-claim", reason)
            return
        chain = self._in_units(self._resolved(chain))
        self.defining = False
        if self._given_scores(chain) or self._given_call(chain):
            return
        self._causal_mask_by_convention(chain)
        self.chain_start_offset = chain.elements[0].offset
        names = [e.name for e in chain.elements if isinstance(e, Name)]
        self.defining = bool(names) and not literals_of(chain)
        self.subject = next((_display_name(n) for n in names), subject_of(0))
        values = [e for e in chain.elements if not isinstance(e, Name)]
        symbolic_input = self._declare_symbols(names, values)
        self.output_rows = self._output_rows_claimed(names, values)
        computed = any(not is_claim_shape(v) for v in values)
        if len(values) == 1 and is_claim_shape(values[0]) and any(n in self.env for n in names):
            share = self._disagreement(names, values[0])
            if share is not None and (
                (share > 0.5 and self._fit_evidence(names, values[0]) < TIE_DIGITS)
                or (share and self._gives_another_input(names, values[0]))
            ):
                self._forget(names)  # most cells differ (and those that fit are no evidence), or
                # it is another input: a new example
            elif (
                share
                and all(n in self.inputs for n in names if n in self.env)
                and (
                    share > 0.25
                    or any(self.bound_line.get(n, 0) < self.scope_line for n in names if n in self.env)
                )
            ):  # inputs given again with several cells changed, or after a heading or "Let": new example or typo?
                line = min(self.bound_line.get(n, 0) for n in names if n in self.env)
                self.unverified(
                    literals(values[0]), "ambiguous", f"ambiguous: new example or restatement of line {line}"
                )
                self._forget(names)  # what follows is read with the new values
        if (
            len(values) == 1
            and is_claim_shape(values[0])
            and any(n in self.env for n in names)
            and self._reshapes(names, values[0])
        ):
            self._forget(names)  # a new example gives its inputs again: a redefinition, not a claim
        leading = list(itertools.takewhile(lambda e: isinstance(e, Name), chain.elements))
        if 2 <= len(leading) < len(chain.elements) and not is_claim_shape(chain.elements[len(leading)]):
            # d_k = d_v = 512/8 = 64 after d_k = d_v = 2: names the document gave, all of them, are
            # set anew by the computation (X = N_1 = [...] restates the computed N_1, and X takes it)
            known = [e.name for e in leading if e.name in self.env]
            if known and all(name in self.inputs for name in known):
                self._forget(known)
        self.defined_by_input = False
        self.last_dot = None
        self.head_factors = None
        self._block_chain_start(names, values)
        ref: Val | None = (
            self._weights_by_convention(names, values)
            or self._scores_by_convention(names, values)
            or self._scaled_by_convention(names, values)
            or self._output_by_convention(names, values)
        )
        last: Val | None = None
        last_is_claim = False
        failure: str | None = None
        chain_start = len(self.findings)
        chain_approximate = False  # it gives or uses numbers printed only rounded (≈), as inputs
        self.ref_approximate = False
        exact_ref = (
            ref is not None
        )  # the element before is exact (a computation, or integers), not a rounding
        ref_is_name = False
        recovered = False  # a side after the failure was read, and the chain ends on it
        doubted: Val | None = None  # the side before a step that is not equal to it
        doubted_is_name = False  # ... and it is a bound name (the step may define it anew)
        head_value: Val | None = None
        for index, element in enumerate(chain.elements):
            if not names:
                self.subject = subject_of(max(index - 1, 0))
            mark, seen, self.operands = len(self.findings), set(self.seen), []
            try:
                if failure is not None and ref is None and is_claim_shape(element):
                    raise Unverifiable(f"compared with something that could not be checked ({failure})")
                self.element_text = chain.texts[index] if index < len(chain.texts) else ""
                self.top_element = element
                self.element_before = chain.elements[index - 1] if index else None
                self.link_approx = bool(index) and chain.relations[index - 1] in _APPROX
                if doubted is not None and is_claim_shape(element):
                    value, is_claim = self._after_doubted_step(
                        element, doubted, ref, bool(names), redefines=doubted_is_name
                    )
                else:
                    self._begin_block_element()
                    self.written_out = False
                    if not is_claim_shape(element):  # computed from numbers given only rounded (≈)?
                        self.ref_approximate = bool(names_in(element) & self.approximate_inputs)
                        chain_approximate = chain_approximate or self.ref_approximate
                    value, is_claim = self._element(element, ref, bool(names))
                    self._end_block_element(element)
                    if self.defined_by_input and index > 0 and chain.relations[index - 1] in _APPROX:
                        chain_approximate = True  # R_1 ≈ [0.7975, …] as an input: world (b) is rounded
                    elif self.defined_by_input and self.binary and _printed_rounded(element):
                        chain_approximate = True  # print(np.round(A, 4)) of an A the reader could not follow
                doubted = None
                if value is None:
                    continue
                self.last_halfwidth = _halfwidth(element) if is_claim_shape(element) else None
                exact_link = index > 0 and chain.relations[index - 1] == "=" and exact_ref
                if not self.operands and not is_claim and ref is not None and exact_link:
                    value = self._restated_side(value, ref)  # (-0.2, 0.3, 0.5) + b_2 after FFN(x_1)
                if self.operands and not is_claim and ref is not None and exact_link:
                    # = \frac{\sqrt{2}}{2}: a step of exact algebra; after a name, only a restatement
                    # that holds counts (S = 2·3 may define S anew)
                    verdict = self._judge_step(
                        self.operands, value, ref, after_name=ref_is_name, element=element
                    )
                    if verdict and self.step_rounded:  # σ² = ((0.66179609)^2 + …)/4: σ² written rounded
                        value = Val(
                            value.a, ref.b, ref.deps | value.deps, arith=False, rows=ref.rows, truth=ref.truth
                        )
                    elif verdict and self.step_put_in is not None:  # the truth goes on along the chain
                        value = Val(
                            value.a, ref.b, self.step_put_in, arith=False, rows=ref.rows, truth=ref.truth
                        )
                    restated = (
                        self._restated_statistic(index, chain, value, ref) if verdict is False else None
                    )
                    if restated is not None:
                        value = restated  # μ = 5.65 / 3: the row's mean by the document's numbers
                    elif verdict is False:  # after a name it may be a new definition: both sides are tried
                        doubted = ref  # the next printed value may fit the side before this one
                        doubted_is_name = ref_is_name
                elif (
                    self.operands and is_claim and ref is not None and exact_link and isinstance(element, Mul)
                ):
                    # c [printed]: the factor's numbers hold when c times the block is the side before
                    self._judge_step(self.operands, Val(value.a, value.a), ref, after_name=True)
                elif symbolic_input and ref is None:
                    self.unverified(self.operands, "input", "given as an input")  # the 0 of [[a, 0], [0, b]]
                else:
                    self.unverified(self.operands, "operand", "a number used in a computation")
                if index == 0:
                    head_value = value
                recovered = failure is not None  # a side read after one that could not be
                ref = last = value
                last_is_claim = is_claim
                ref_is_name = isinstance(element, Name) and not self._names_a_cell(element)
                exact_ref = (
                    not is_claim
                    or self.written_out
                    or all(parse_claim(n.text).places is None for n in literals(element))
                )
            except (Unverifiable, SymattnError) as err:
                del self.findings[mark:]
                self.seen = seen
                kind = "unverifiable" if isinstance(err, Unverifiable) else "bad-input"
                self.unverified(literals(element), kind, str(err))
                if self._statistic_survives(ref, index, chain, err):
                    continue  # σ² = \frac{1}{3}\sum_j (x_j − μ)^2 ≈ 3.3739: the claim is still σ²'s
                failure = failure or str(err)
                ref = None
                recovered = False
        if failure is not None and recovered:
            failure = None  # Z = N_2 W_1 + b_1 = [numbers] W_1 + b_1 ≈ [...]: Z is what the numbers give
        self._fit_conventions(chain_start)
        last = self._accepted(last)  # under a convention the document allows (sublayers.py)
        if failure is not None and len(self.findings) == chain_start:
            # a general formula without numbers (σ(z_i) = ...): listed, never dropped
            self._add(Num(chain.elements[0].offset, ""), status="unverified", kind="formula", reason=failure)
            if (
                names
                and not literals_of(chain)
                and "is not defined" in failure
                and chain not in self.deferred
            ):
                self.deferred.append(chain)  # "Q = K = V = X" written before X is given
        if failure is not None and names and _general_formula(chain):
            # h = x W_1 + b_1, or y = γ(z − μ)/√(σ^2 + ε) + β: h_1 is x_1 W_1 + b_1 (sublayers.py)
            self._note_family(chain, failure)
        if last is not None and failure is None and is_matrix(last.a) and last.a.rows == 1 and last_is_claim:
            self.last_row = last  # x − μ = [...]: what "and squaring: [...]" squares
            self.last_row_half = self.last_halfwidth
        if last is not None and failure is None:
            if chain_approximate:
                self.approximate_inputs.update(names)
            else:
                self.approximate_inputs.difference_update(names)
            self._bind(names, last, last_is_claim and not computed, chain)
            if not names and last_is_claim and not is_claim_shape(chain.elements[0]):
                self._bind_expression(chain.elements[0], last)
                if head_value is not None and _is_row(last.a) and _is_row(head_value.b):
                    self.printed_rows.append((head_value.b, last))  # q_2 Kᵀ/√d_k = [0, 0.5477, 1.1547]
            self._retry_deferred()
        elif (
            failure is not None
            and names
            and isinstance(chain.elements[0], Name)
            and chain.elements[0].name not in self.families  # h = x W_1 + b_1 defines h_1, h_2, ...
        ):
            self._forget([chain.elements[0].name])  # a definition that cannot be followed: no stale value

    def _restates_results(self, element: Node) -> bool:
        """Whether printed numbers show arithmetic on results the document printed before
        (distinctive ones, ``0.7649``): a block of such cells is a computation."""
        if not isinstance(element, Matrix):
            return False
        cells = [cell for row in element.rows for cell in row]
        if all(isinstance(c, Num) or (isinstance(c, Neg) and isinstance(c.arg, Num)) for c in cells):
            return False  # bare numbers: given, or a claim
        return any(_distinctive(num.text) and num.text in self.results for num in literals(element))

    def _names_a_cell(self, element: Name) -> bool:
        """``u_{11}`` of a bound u: a step after it computes that cell, it does not define a
        new name (a bound name, ``S = 2·3``, may be defined anew)."""
        return element.name not in self.env and self._cell(element.name) is not None

    @staticmethod
    def _restated_side(value: Val, ref: Val) -> Val:
        """A side with no numbers of its own (rows tied to bound matrices, names) after the side
        before it: when it is equal to it by the document's numbers but not in truth (the
        third row of W_2 plus b_2, written for FFN(x_1) where a wrong ReLU zeroed the rest),
        it is the same quantity written out, so it keeps the side before's truth and lines."""
        if equal(value.a, ref.a) is not True or equal(value.b, ref.b) is not False:
            return value
        return Val(value.a, ref.b, ref.deps | value.deps, arith=False, rows=ref.rows, truth=ref.truth)

    def _element(self, element: Node, ref: Val | None, defines: bool) -> tuple[Val | None, bool]:
        """Evaluate or judge one chain element; returns (value, is_claim)."""
        if isinstance(element, Name):
            self._drop_stale_statistic(element.name)  # μ of the token before (sublayers.py)
            if element.name in self.env:
                binding = self.env[element.name]
                return Val(binding.a, binding.b, binding.deps, arith=binding.arith, rows=binding.rows), False
            if element.name in _IDENTITY and ref is None and defines and self._named_before(element):
                return self._identity(), False  # W_Q = W_K = W_V = I
            sized = _SIZED_IDENTITY.match(element.name)
            if sized and ref is None and defines and self._named_before(element):
                return self._identity(int(sized.group(1))), False  # W_Q = I_4
            row = self._output_row(element.name) if self.output_rows else None
            found = self._cell(element.name) or row
            if found is None:  # μ, σ, PE (sublayers.py), with μ's interval when its row was printed rounded
                found = self._block_name(element.name, used=False)
                if found is not None:
                    found = dataclasses.replace(found, ball=ball_of(element, _BallLookup(self, element)))
            return found, False
        if is_claim_shape(element) and ref is not None:
            return self.claim(element, ref), True
        if is_claim_shape(element) and isinstance(element, Matrix):
            tied = self._tied_rows(element)
            if tied is not None:
                return tied, True
        mark = len(self.findings)
        pe = self._printed_pe(element) if defines and is_claim_shape(element) else None
        if pe is not None:  # E = [[0.0000, 1.0000], [0.8415, 0.5403]]: the positional encoding, rounded
            if len(self.findings) == mark:  # every cell fits (else each was judged)
                for num in literals(element):
                    self._add(
                        num, status="ok", kind="ok", reason="the positional encoding at these positions"
                    )
            return pe, True
        if is_claim_shape(element) and (defines or ref is None) and self._restates_results(element):
            # y_1 = (0.8 · 0.9 / 0.7649, …) after rms(r_1) = 0.7649, or [1.0 / 1.414, 0.0] =
            # [0.7071, 0.0] after √2 = 1.414: computed from the document's results, each with
            # its truth, not new data
            return self.evaluate(element), False
        if is_claim_shape(element):
            kind, reason = (
                ("input", "given as an input")
                if defines
                else ("no-claim", "no earlier quantity to compare with")
            )
            value = self.literal_value(element)
            self.unverified(literals(element), kind, reason)
            self.defined_by_input = defines
            return value, False
        if ref is not None and self._scaled_claim(element):
            scaled = self.scaled_claim(element, ref)
            if scaled is not None:
                return scaled, True
        if ref is not None and self.head_factors is not None and isinstance(element, Mul):
            composite = self._composite(element)
            if composite is not None:
                return composite, True
        if ref is not None and self.last_dot is not None:
            expanded = self._expanded_dot(element, ref)
            if expanded is not None:
                self.written_out = True  # the sum of products is exact arithmetic: a step may follow it
                return expanded, True
        try:
            self.untied_rounded = False
            self.tied = {}
            value = self.evaluate(element)
            ball = self._variance_ball(element)  # σ² of a row printed rounded (sublayers.py)
            if ball is None:
                ball = ball_of(element, _BallLookup(self, element))
            return dataclasses.replace(value, ball=ball, truth=not self.untied_rounded), False
        except Unverifiable:
            if not wants_scalar_reader(element):
                raise
        return self._scalar_fallback(element), False

    def claim(self, node: Node, ref: Val, cell: tuple[int, int] | None = None) -> Val:
        """Judge a numbers-only element against the element before it."""
        printed = printed_value(node)
        if printed is not None:
            a, b = entry_of_1x1(ref.a), entry_of_1x1(ref.b)
            if is_matrix(a):
                raise Unverifiable(f"a single number is compared with a {shape_text(a)} matrix")
            if printed == NEG_INF:
                return Val(printed, b, ref.deps)
            ball = ref.ball
            if isinstance(ball, list) and len(ball) == 1 and len(ball[0]) == 1:
                ball = ball[0][0]
            distinctive = _distinctive(node.text)  # type: ignore[union-attr]
            earlier = self.results.get(node.text) if distinctive else None  # type: ignore[union-attr]
            mark = len(self.findings)
            ok = self._judge(
                node,
                a,
                b,
                ref.deps,
                cell=cell,
                reason="claimed value",
                arith=ref.arith,  # type: ignore[arg-type]
                ball=None if isinstance(ball, list) else ball,
                truth=ref.truth,
            )
            if not ok and earlier is not None:
                self._carry_restated(mark, earlier)
            if ok and earlier is not None and cell is None:
                solved = self._solved_operand(node, earlier, mark)  # prose.py
                if solved is not None:
                    return solved
            # a result whose truth holds rounded inputs keeps its interval, for a later literal tied to it
            kept = None if ref.truth or isinstance(ref.ball, list) else ref.ball
            result = Val(
                printed, b, ref.deps | self._source(node, ok, printed, b), ball=kept, truth=ref.truth
            )
            if distinctive:
                self.results[node.text] = result  # type: ignore[union-attr]
            if (parse_claim(node.text).places or 0) >= 2:  # type: ignore[union-attr]
                self._remember_printed(node.text, result)  # type: ignore[union-attr]
            if not ok and cell is None:  # a wrong scalar result, which the next formula may use at once
                self.recent[node.text] = (self.formula_index, result)  # type: ignore[union-attr]
            elif ok and not distinctive and result.deps and equal(printed, b) is False:
                # a result printed rounded (0.71 for 1/√2): the next formula that uses the same
                # literal uses this result, so what it computes is judged against the truth too
                self.recent[node.text] = (self.formula_index, result)  # type: ignore[union-attr]
            if cell is None:
                self.last_scalar = (self.formula_index, result)
            return result
        if isinstance(node, Matrix):
            return self._claim_matrix(node, ref)
        if isinstance(node, Transpose) and is_matrix(ref.a):
            flipped = Val(stages.transpose(ref.a), stages.transpose(ref.b), ref.deps, arith=ref.arith)
            inner = self.claim(node.arg, flipped)
            return Val(stages.transpose(inner.a), ref.b, inner.deps)
        if isinstance(node, Sum) and ref.terms is not None and len(ref.terms) == len(node.terms):
            parts = [self.claim(t, r, cell) for t, r in zip(node.terms, ref.terms, strict=True)]
            total = add_values([p.a for p in parts])
            deps = frozenset().union(*(p.deps for p in parts))
            return Val(total, ref.b, deps | ref.deps, tuple(parts))
        return self._claim_compound(node, ref, cell)

    def _claim_matrix(self, node: Matrix, ref: Val) -> Val:
        a, b = ref.a, ref.b
        rows, cols = len(node.rows), len(node.rows[0])
        if any(len(row) != cols for row in node.rows):
            raise ShapeError(
                f"{self.subject}: a ragged matrix (rows of {sorted({len(r) for r in node.rows})} entries)"
            )
        if not is_matrix(a):
            raise Unverifiable(f"a {rows}×{cols} matrix is compared with a scalar")
        transposed = False
        if a.shape != (rows, cols):
            if a.shape == (cols, rows) and 1 in (rows, cols):
                transposed = True
            else:
                raise ShapeError(f"{self.subject} is {shape_text(a)} but the printed matrix is {rows}×{cols}")
        out_a = []
        block: list[list[tuple[str, Val]]] = []
        own: list[set] = []  # each printed row's own sources
        for i, row in enumerate(node.rows):
            out_row = []
            own.append(set())
            row_mark = len(self.findings)
            contributions = []
            for j, cell_node in enumerate(row):
                p, q = (j, i) if transposed else (i, j)
                terms = None
                if ref.terms and all(is_matrix(t.a) and t.a.shape == a.shape for t in ref.terms):
                    terms = tuple(Val(t.a[p, q], t.b[p, q], t.deps, arith=t.arith) for t in ref.terms)
                ball = None
                if isinstance(ref.ball, list) and len(ref.ball) == a.rows and len(ref.ball[0]) == a.cols:
                    ball = ref.ball[p][q]
                part = self.claim(
                    cell_node,
                    Val(a[p, q], b[p, q], row_deps(ref, p), terms, ref.arith, ball, ref.truth),
                    (i + 1, j + 1),
                )
                out_row.append(part.a)
                contributions.append((cell_node, part.deps - row_deps(ref, p)))
            self._carry_restated_row(row, row_mark)
            block_row = []
            for j, (cell_node, contribution) in enumerate(contributions):
                rerooted = self._rerooted(cell_node, contribution)
                own[i] |= rerooted
                if isinstance(cell_node, Num):
                    p, q = (j, i) if transposed else (i, j)
                    block_row.append((cell_node.text, Val(out_row[j], b[p, q], row_deps(ref, p) | rerooted)))
            block.append(block_row)
            out_a.append(out_row)
        if block and all(len(r) == cols for r in block):
            self.blocks.append(block)
        rows_out = None if transposed else tuple(frozenset(own[i] | row_deps(ref, i)) for i in range(rows))
        deps = frozenset(ref.deps).union(*own)
        result = Val(ImmutableMatrix(out_a), b, deps, rows=rows_out, truth=ref.truth)
        for i, row in enumerate(node.rows):  # each printed row, for a later block that restates it
            texts = _row_texts(row)
            if all(texts) and len(texts) > 1:
                p = (slice(None), i) if transposed else (i, slice(None))
                self.row_results[texts] = Val(  # its own cells' sources, and what the whole came from
                    ImmutableMatrix(out_a).__getitem__(p),
                    b.__getitem__(p),
                    frozenset(own[i] | ref.deps),
                    truth=ref.truth,
                )
        return result

    def _claim_compound(self, node: Node, ref: Val, cell: tuple[int, int] | None) -> Val:
        """Numbers with arithmetic (``0.4\\cdot 1``): judged within the rounding of its parts."""
        nums = literals(node)
        value = self.literal_value(node).a
        a, b = ref.a, ref.b
        if is_matrix(value) or is_matrix(a):
            raise Unverifiable(
                "a computation of printed numbers that does not line up with the one before it"
            )
        places = [parse_claim(n.text).places for n in nums]
        magnitude = max([1] + [abs(parse_claim(n.text).value) for n in nums])
        tolerance = sum(sympy.Rational(1, 2 * 10**p) for p in places if p) * magnitude
        holds_b, holds_a = within(value, b, tolerance), within(value, a, tolerance)
        if holds_b is None or holds_a is None:
            raise Unverifiable("cannot decide whether the printed computation matches")
        if holds_b:
            status, kind, carried = "ok", "ok", None
        elif holds_a and ref.deps:
            status, kind, carried = "wrong", "carried", carried_line(ref.deps)
        else:
            status, kind, carried = (
                "wrong",
                ("slip" if ref.arith and getattr(a, "is_Rational", False) else "wrong"),
                None,
            )
        blamed = _blamed_part(node, b) if status == "wrong" else None
        for num in nums:
            if blamed is not None and num is not blamed:
                self._add(num, cell=cell, status="ok", kind="ok", reason="part of a printed fraction")
                continue
            self._add(
                num,
                cell=cell,
                value=None,
                exact=exact_text(b),
                status=status,
                kind=kind,
                carried_from=carried,
                reason="part of a printed computation",
            )
        return Val(value, b, ref.deps | self._source(nums[0], status == "ok", value, b))

    def _scaled_claim(self, node: Node) -> bool:
        if not isinstance(node, Mul):
            return False
        blocks = [f for f in node.factors if isinstance(f, Matrix)]
        others = [f for f in node.factors if not isinstance(f, Matrix)]
        return len(blocks) == 1 and is_literal(blocks[0]) and not any(has_matrix(f) for f in others)

    def scaled_claim(self, node: Mul, ref: Val) -> Val | None:
        """``c [numbers]``: the numbers claim the value before, divided by c; None
        for ``0 [numbers]``, which is only a step (the block is not recoverable)."""
        block = next(f for f in node.factors if isinstance(f, Matrix))
        mark = len(self.operands)
        factor = self._product([self.evaluate(f) for f in node.factors if not isinstance(f, Matrix)])
        if not is_matrix(factor.a) and factor.a == 0 and factor.b == 0:
            del self.operands[mark:]
            return None
        if is_matrix(factor.a) or factor.b == 0:
            raise Unverifiable("the factor in front of the printed matrix is not a nonzero number")
        ratio, nonzero = self._ratio(block, ref)
        if ratio is not None and equal(ratio, factor.b) is False:
            # the block is the side before up to a factor, and the factor printed is not it:
            # the factor is what is off (a_31 v_1 = \frac{2}{…} [1, 2] with a_31 = \frac{1}{…});
            # with one nonzero cell, the cell or the factor may be off
            return self._wrong_factor(node, block, factor, ratio, ref=ref, mark=mark, sure=nonzero > 1)
        inner = Val(
            scale(ref.a, 1 / factor.a),
            scale(ref.b, 1 / factor.b),
            ref.deps | factor.deps,
            arith=ref.arith and factor.arith,
        )
        claimed = self.claim(block, inner)
        return Val(scale(claimed.a, factor.a), ref.b, claimed.deps, arith=factor.arith)

    def _ratio(self, block: Matrix, ref: Val) -> tuple[Any, int]:
        """λ with ref = λ · block (exactly, in truth), or None when there is none
        or the block holds rounded numbers; and the count of nonzero cells."""
        cells = [c for row in block.rows for c in row]
        if not all(parse_claim(n.text).places is None for c in cells for n in literals(c)):
            return None, 0  # exact cells only (1, \frac{1}{2}): a rounded block fits many factors
        try:
            printed = list(self.literal_value(block).a)
        except (Unverifiable, SymattnError):
            return None, 0
        if not is_matrix(ref.b) or ref.b.shape != (len(block.rows), len(block.rows[0])):
            return None, 0
        ratio = None
        for p, r in zip(printed, ref.b, strict=True):
            if p == 0:
                if equal(r, 0) is not True:
                    return None, 0
                continue
            if ratio is None:
                ratio = r / p
            elif equal(r / p, ratio) is not True:
                return None, 0
        return ratio, sum(1 for p in printed if p != 0)

    def _wrong_factor(
        self, node: Mul, block: Matrix, factor: Val, ratio: Any, *, ref: Val, mark: int, sure: bool
    ) -> Val:
        """``c [block]`` where the block fits and c does not: one printed number c is
        wrong; a factor written as an expression is listed as not equal to it.
        Unless ``sure``, either may be off, and both are listed."""
        operands = self.operands[mark:]
        del self.operands[mark:]
        cells = literals(block)
        result = Val(scale(self.literal_value(block).a, factor.a), ref.b, ref.deps, arith=factor.arith)
        if not sure:
            self.unverified(
                operands + cells,  # type: ignore[arg-type]
                "unverifiable",
                "the factor or the block is off; with one nonzero cell, which one cannot be told",
            )
            return result
        others = [f for f in node.factors if not isinstance(f, Matrix)]
        if len(others) == 1 and isinstance(others[0], Num) and operands == [others[0]]:
            self._judge(
                others[0], factor.a, ratio, ref.deps, cell=None, reason="the factor in front of the block"
            )
        else:
            self.unverified(
                operands,
                "unverifiable",
                "the factor in front of the printed matrix is not the side before over it",
            )
        for cell in cells:
            self._add(cell, status="ok", kind="ok", reason="the block is the side before, up to its factor")  # type: ignore[arg-type]
        return result

    def _judge_step(
        self,
        operands: list[Num],
        value: Val,
        ref: Val,
        *,
        after_name: bool = False,
        element: Node | None = None,
    ) -> bool | None:
        """The numbers of an exact step (``\frac{1}{\\sqrt{2}} = \frac{\\sqrt{2}}{2}``):
        right when the step's value equals the side before it exactly, or, for a step
        written with rounded numbers (``element``), when the side before lies within what
        their rounding allows (``step_rounded`` is then set).  Returns the verdict (None:
        undecided)."""
        self.step_rounded, self.step_put_in = False, None
        verdict = equal(value.b, ref.b)
        if verdict is False and element is not None and self._within_rounding(element, ref):
            self.step_rounded = True
            for num in operands:
                self._add(
                    num,
                    status="ok",
                    kind="ok",
                    reason="part of a step equal to the side before, within the rounding of its numbers",
                )
            return True
        if verdict is None or (after_name and not verdict):
            self.unverified(operands, "operand", "a number used in a computation")
            return verdict
        if verdict:
            for num in operands:
                self._add(
                    num, status="ok", kind="ok", reason="part of an exact step equal to the side before"
                )
            return True
        if element is not None and self._put_in(element, ref, operands):
            return True  # sin(1/10000^{2/512}) = sin(1/1.0027): 1.0027 claims 10000^{2/512}
        # not equal: an error, or a convention the step leaves implicit (a mask, a transpose);
        # without knowing which, its numbers are listed, never called wrong
        self.unverified(operands, "unverifiable", "this side is not exactly equal to the side before it")
        return False

    def _put_in(self, element: Node, ref: Val, operands: list[Num]) -> bool:
        """A step that is the side before with numbers put in for some of its parts (steps.py):
        each such number is judged as that part's value, in both worlds, and the step then
        stands for the side before (``step_put_in`` holds its dependencies); the step's other
        numbers are operands.  False, with nothing recorded, when the sides do not line up."""
        before = self.element_before
        if before is None or isinstance(before, Name) or is_claim_shape(before):
            return False
        pairs = align(before, element)
        if pairs is None:
            return False
        mark, seen, saved = len(self.findings), set(self.seen), self.operands
        deps = set(ref.deps)
        try:
            for part, number in pairs:
                self.operands = []
                world = self.evaluate(part)  # a number judged before keeps its truth (``results``)
                if isinstance(number, Matrix):  # a matrix put in: near the part's value, cell by cell
                    if not _near_matrix(number, world.a):
                        raise Unverifiable("not a value put in")
                elif (
                    is_matrix(world.a)
                    or within(parse_claim(number.text).value, world.a, abs(world.a) / 2) is not True
                ):
                    # a number far from the part it replaces is no calculator trace: the step
                    # cancels or simplifies (e^{√2}/(e^{√2}+e^{√2}) = 1/2), and is judged whole
                    raise Unverifiable("not a value put in")
                deps |= self.claim(number, world).deps
        except (Unverifiable, SymattnError):
            del self.findings[mark:]
            self.seen = seen
            return False
        finally:
            self.operands = saved
        put = {id(number) for _part, number in pairs}
        self.unverified(
            [n for n in operands if id(n) not in put], "operand", "a number used in a computation"
        )
        self.step_put_in = frozenset(deps)
        return True

    def _within_rounding(self, element: Node, ref: Val) -> bool:
        """Whether the side before (its true value) lies within the step ``element`` evaluated on
        the rounding intervals of its printed numbers (balls.py): the same quantity, written with
        rounded numbers.  Only for a step whose rounded numbers all carry guard digits."""
        places = [parse_claim(n.text).places for n in literals(element)]
        if not any(places) or any(p and p < _GUARD_PLACES for p in places):
            return False  # 5.65 / 3 may restate a wrong sum: only guard digits are read so
        ball = ball_of(element, _BallLookup(self, element))
        if ball is None or getattr(ref.b, "free_symbols", None):
            return False
        true = ref.b if is_matrix(ref.b) else ImmutableMatrix([[ref.b]])
        balls = ball if isinstance(ball, list) else [[ball]]
        if [len(row) for row in balls] != [true.cols] * true.rows:
            return False
        try:
            return all(
                balls[i][j].overlaps(enclose(true[i, j], 128))
                for i in range(true.rows)
                for j in range(true.cols)
            )
        except Exception:  # a value arb cannot enclose: not shown equal
            return False

    def _after_doubted_step(
        self, element: Node, before: Val, step: Val, defines: bool, *, redefines: bool
    ) -> tuple[Val | None, bool]:
        """A printed value after a step that is not equal to the side before it
        (``a = [closed form, a digit changed] ≈ 0.4011``).  Either side may be the
        right one (a slip in the step, or a convention it leaves implicit): the
        value is right when it fits the side before the step, not called wrong
        when it fits the step only (right, when the side before is a name the step
        ``redefines``), and wrong when it fits neither."""
        mark, seen = len(self.findings), set(self.seen)
        try:
            result = self._element(element, before, defines)
        except (Unverifiable, SymattnError):  # it does not even line up with the side before
            del self.findings[mark:]
            self.seen = set(seen)
            return self._element(element, step, defines)
        if not any(f.status == "wrong" for f in self.findings[mark:]):
            return result
        first = self.findings[mark:]
        del self.findings[mark:]
        self.seen = set(seen)
        fitted = self._element(element, step, defines)
        if any(f.status == "wrong" for f in self.findings[mark:]):
            self.findings[mark:] = first  # fits neither side
            return result
        if not redefines:  # (after a name, S = 2·3 = 6 defines S anew, and its computation holds)
            self.findings[mark:] = [
                dataclasses.replace(
                    f,
                    status="unverified",
                    kind="unverifiable",
                    carried_from=None,
                    reason=DOUBTED_REASON,
                )
                if f.status == "ok"
                else f
                for f in self.findings[mark:]
            ]
        return fitted


#: A step written with rounded numbers is read as the side before, within their rounding, only
#: when every one carries guard digits (``0.66179609``): a derivation's, not a calculator's.
_GUARD_PLACES = 6


def _general_formula(chain: Chain) -> bool:
    """Whether the only numbers of a formula are exponents 2 (``σ^2``, ``(x − μ)^2``) and the
    0 of ``max(0, h)``: a general formula all the same."""
    general: list[Num] = []
    for element in chain.elements:
        _general_numbers(element, general)
    return {id(n) for n in literals_of(chain)} <= {id(n) for n in general}


def _general_numbers(node: Any, found: list[Num]) -> None:
    """The numbers of a general formula under ``node``: exponents 2, and the 0 of ``max(0, ·)``."""
    if isinstance(node, tuple):
        for item in node:
            _general_numbers(item, found)
        return
    if not isinstance(node, Node):
        return
    if isinstance(node, Pow) and isinstance(node.exponent, Num) and node.exponent.text == "2":
        found.append(node.exponent)
    if isinstance(node, Call) and node.name == "max" and node.args and _is_zero(node.args[0]):
        found.append(node.args[0])  # max(0, h): the ReLU, a general formula too
    for name in node.__dataclass_fields__:
        if name != "offset":
            _general_numbers(getattr(node, name), found)


def _is_zero(node: Any) -> bool:
    return isinstance(node, Num) and node.text == "0"


def _printed_rounded(element: Node) -> bool:
    """Whether a printout shows a number with a decimal point (a float, rounded to print)."""
    return any("." in num.text for num in literals(element))


def _approximately(text: str, a: Any, b: Any, deps: frozenset[tuple[int, bool]], verdict: Any) -> Any:
    """An integer after ≈ (``1.0000002 ≈ 1``, ``sin(0.0001) ≈ 0``) claims the value rounded to
    the unit, not equality, when it is within a twentieth of the integer's size (``≈ 0`` is
    not said of 0.4): judged again at no places."""
    claim = parse_claim(text)
    if claim.places is not None or claim.scale or is_matrix(a) or is_matrix(b):
        return verdict
    tolerance = max(1, abs(claim.value)) / sympy.Integer(20)

    def close(value: Any) -> bool:
        return (
            sympy.Rational(certified_decimal(value, 0)) == claim.value
            and abs(sympy.Rational(certified_decimal(value, 3)) - claim.value) <= tolerance
        )

    if close(b):
        return dataclasses.replace(verdict, status="ok", kind="ok", carried_from=None)
    if deps and close(a):
        return dataclasses.replace(verdict, kind="carried", carried_from=carried_line(deps))
    return verdict
