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
import math
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn import stages
from symattn.errors import DivisionByZeroError, LatexParseError, ShapeError, SymattnError
from symattn.exact import certified_decimal, parse_claim, safe_power
from symattn.latexparse import (
    Call,
    Chain,
    Div,
    Inf,
    Matrix,
    Mul,
    Name,
    Neg,
    Node,
    Num,
    Pow,
    Sqrt,
    Sum,
    Transpose,
    Unsupported,
    literals,
    scalar_value,
    split_head,
)
from symattn.verify.balls import ball_of, meets
from symattn.verify.claims import Finding, carried_line, claim_fits, exact_text, judge, within_float_rounding
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
from symattn.verify.values import (
    NEG_INF,
    Binding,
    Unverifiable,
    Val,
    add_values,
    bounded_exp,
    entry_of_1x1,
    equal,
    is_matrix,
    multiply,
    row_deps,
    rows_joined,
    scale,
    shape_text,
    within,
)

__all__ = ["DocumentState"]

#: A cell, row or column of a named matrix: A_{1,2}, A_{12}, A_{3,:}, A_{:,2}.
_CELL = re.compile(r"^(.+?)_\{(?:(\d+|:),(\d+|:)|(\d\d))\}$")


#: Q, K, V by the standard convention Q = X W_Q, K = X W_K, V = X W_V, used
#: when a document gives X and the weights but never prints Q, K or V.
_PROJECTIONS = {"Q": "W_{Q}", "K": "W_{K}", "V": "W_{V}"}
#: Names of the identity matrix when it stands for a weight (``W_Q = I``).
_IDENTITY = ("I", "\\mathbf{I}", "\\mathrm{I}")
#: ``I_4``, ``I_{3}``: the identity of a given size.
_SIZED_IDENTITY = re.compile(r"^I_\{(\d{1,2})\}$")
#: Names read as attention weights softmax(QKᵀ/√d_k) when printed as numbers
#: and never defined otherwise (see docs/verify.md, "Conventions").
_WEIGHT_NAMES = ("A", "weights", "attn_weights", "attention_weights", "p_attn", "attn")
#: Names of an additive mask a document may leave undefined (read as causal when it prints the pattern).
_MASK_NAMES = ("M", "\\text{mask}", "M_{causal}", "\\text{Mask}")
#: Names read as the scores QKᵀ when printed as numbers and never defined otherwise.
_SCORE_NAMES = ("scores", "attn_scores", "attention_scores")
#: A letter an input matrix may hold as a symbol: ``X = [[a, 0], [0, b]]`` (not e, Euler's number).
_SYMBOL_NAME = re.compile(
    r"^(?:[a-df-zA-Z]|\\(?:alpha|beta|gamma|delta|theta|lambda|mu|sigma|tau|phi|omega))$"
)
#: An accented lower-case letter, the cell name of an accented matrix: ``\tilde{s}``.
_ACCENTED_LETTER = re.compile(r"^(\\(?:tilde|hat|bar|widetilde|widehat|overline))\{([a-z])\}$")
#: ``q_2``, ``k_{3}``, ``v_1``: row i of Q, K or V (1-based) when the document never binds them.
_ROW_NAME = re.compile(r"^([qkv])_\{(\d{1,3})\}$")
#: The output's row i (o_1) when no O is bound: row i of (weights)·V.
_OUTPUT_ROW = re.compile(r"^o_\{(\d{1,3})\}$")
#: QKᵀ, as the document writes it when it gives the scores without Q and K.
_QKT = Mul(0, (Name(0, "Q"), Transpose(0, Name(0, "K"))))
#: softmax(QKᵀ/√d_k), as a composite head prints it: its printed value is the document's weights.
_SOFTMAX_QKT = Call(0, "softmax", (Div(0, _QKT, Sqrt(0, Name(0, "d_{k}"), None)),))

#: What a document may call a quantity another part of it names otherwise:
#: a printout or table named "attention weights" means the bound ``A`` or
#: ``attn_weights``; ``W_q``, ``Wq`` and ``W_{query}`` mean ``W_{Q}``.
_ALIASES = {
    "weights": ("weights", "attn_weights", "attention_weights", "p_attn", "attn", "A", "alpha", "P"),
    "scores": ("scores", "attn_scores", "attention_scores", "S", "logits"),
    "scaled": ("scaled", "scaled_scores", "scaled_attention_logits", "scores_scaled", "\\tilde{S}"),
    "output": ("output", "out", "Output", "attn_output", "attention_output", "context", "O", "Z"),
    "X": ("X", "x", "inputs", "embeddings", "emb"),
}
_W_SUBSCRIPTS = {"q": "Q", "query": "Q", "k": "K", "key": "K", "v": "V", "value": "V", "o": "O", "out": "O"}


def _aliases(name: str) -> tuple[str, ...]:
    """Other names a document may use for ``name``, most likely first; a head
    tag is kept (``W_q^{(1)}`` may mean ``W_{Q}^{(1)}``)."""
    core, head = split_head(name)
    if head:
        return tuple(alias + head for alias in _plain_aliases(core))
    return _plain_aliases(name)


def _summed_rows(parts: tuple[Val, ...]) -> Any:
    """Per-row deps of a sum of same-shaped matrices (S/√d_k + M), when one has them."""
    if not parts or not all(is_matrix(p.a) for p in parts) or all(p.rows is None for p in parts):
        return None
    n = parts[0].a.rows
    if any(p.a.rows != n for p in parts):
        return None
    return tuple(frozenset().union(*(row_deps(p, i) for p in parts)) for i in range(n))


def _plain_aliases(name: str) -> tuple[str, ...]:
    plain = name.replace("\\text{", "").rstrip("}") if name.startswith("\\text{") else name
    for key, names in _ALIASES.items():
        if plain == key or plain in names:
            return tuple(n for n in names if n != name)
    match = re.fullmatch(r"W_\{(\w+)\}", name) or re.fullmatch(r"W([qkvo])", name)
    if match:
        letter = _W_SUBSCRIPTS.get(match.group(1).lower(), match.group(1).upper())
        return tuple(c for c in (f"W_{{{letter}}}", f"W_{{{letter.lower()}}}") if c != name)
    return ()


class _BallLookup:
    """What :func:`~symattn.verify.balls.ball_of` asks of the document: a name's
    value and half-units, and the claimed value of a sub-expression."""

    def __init__(self, state: DocumentState, top: Node) -> None:
        self.state = state
        self.top = top
        self.has_expressions = bool(state.expressions)

    def __call__(self, name: str) -> tuple[Any, Any]:
        return self.state._ball_lookup(name)

    def expression(self, node: Node) -> tuple[Any, Any] | None:
        if node is self.top:
            return None
        binding = self.state._claimed_binding(node)
        return None if binding is None else (binding.a, binding.halfwidth)


def _blamed_part(node: Node, true: Any) -> Num | None:
    """The one wrong number of a printed fraction ``\frac{7}{11}`` (true 7/10: the
    11), when only one of numerator and denominator can be off; else None."""
    if not (isinstance(node, Div) and isinstance(node.num, Num) and isinstance(node.den, Num)):
        return None
    if not getattr(true, "is_Rational", False) or true == 0:
        return None
    p, q = (parse_claim(n.text).value for n in (node.num, node.den))
    if not (getattr(p, "is_Integer", False) and getattr(q, "is_Integer", False)):
        return None
    numerator_off = (true * q).is_Integer  # p' / q
    denominator_off = (p / true).is_Integer  # p / q'
    if numerator_off and denominator_off:  # 2/2 for 1/2: 1/2 or 2/4; a fraction is written in lowest terms
        numerator_off = math.gcd(int(true * q), int(q)) == 1
        denominator_off = math.gcd(int(p), int(p / true)) == 1
    if numerator_off != denominator_off:
        return node.num if numerator_off else node.den
    return None


def _row_texts(row: tuple[Node, ...]) -> tuple[str, ...]:
    """A printed row's number texts ("" for a cell that is not one number): the key
    under which a row printed before is found again."""
    return tuple(c.text if isinstance(c, Num) else "" for c in row)


def _is_row(value: Any) -> bool:
    return is_matrix(value) and value.rows == 1 and value.cols > 1


def _shape_key(node: Any) -> Any:
    """A syntax tree without its positions: equal for the same expression written again."""
    if isinstance(node, Node):
        fields = (_shape_key(getattr(node, f)) for f in node.__dataclass_fields__ if f != "offset")
        return (type(node).__name__, *fields)
    if isinstance(node, tuple):
        return tuple(_shape_key(item) for item in node)
    return node


def _halfwidth(node: Node) -> Any:
    """Half a unit of the last printed place of a number or of each cell of a block."""

    def half(cell: Node) -> Any:
        if isinstance(cell, Num):
            claim = parse_claim(cell.text)
            if claim.places is None or not (claim.places or claim.scale):
                return sympy.Integer(0)
            return claim.unit() / (2 * 10**claim.places)
        return None

    if isinstance(node, Matrix):
        rows = [[half(c) for c in row] for row in node.rows]
        return None if any(h is None for row in rows for h in row) else rows
    return half(node)


#: A printed text that stands for results with different true values.
_AMBIGUOUS = object()
#: Roundings of a printed result that a bare number may restate (to 2 … this many places).
_MAX_ROUNDED_PLACES = 12


def _distinctive(text: str) -> bool:
    """A printed number unlikely to recur by chance: two places or more and
    four significant digits or more (``14.3835``, ``0.2860``, not ``0.5``)."""
    digits = text.lstrip("-").replace(".", "").lstrip("0")
    return "." in text and len(text.split(".")[1]) >= 2 and len(digits) >= 4 and text[-1].isdigit()


def _display_name(name: str) -> str:
    return name.replace("{", "").replace("}", "")


class DocumentState:
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
    >>> [(f.claimed, f.status, f.kind) for f in state.findings]
    [('2', 'unverified', 'input'), ('1', 'unverified', 'operand'), ('4', 'wrong', 'slip')]
    """

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
        self.scope_line = 0  # where the latest heading or setup sentence stood
        self.bound_line: dict[str, int] = {}  # the line each name was last bound on
        self.last_halfwidth: Any = None  # of the last printed element of the chain being read
        self.row_results: dict[tuple[str, ...], Val] = {}  # printed rows by their texts
        self.recent_wrong: dict[str, tuple[int, Val]] = {}  # wrong printed numbers: formula index, value
        self.expressions: dict[Any, tuple[dict[str, Any], Binding]] = {}  # claimed values of expressions
        self.formula_index = 0
        self.last_dot: tuple[Val, Val] | None = None  # the last dot product of two row vectors
        self.head_factors: tuple[Node, list[Val]] | None = None  # the factors of the last product element
        self.untied_rounded = False
        self.top_element: Node | None = None  # the chain element being read (never its own claimed value)
        self.results: dict[str, Val] = {}  # printed results by their text, for operands that restate them
        self.last_scalar: tuple[int, Val] | None = None  # the last scalar result printed, and its formula
        self.blocks: list[list[list[tuple[str, Val]]]] = []  # printed matrices: each cell's text and value
        self.printed_rows: list[tuple[Any, Val]] = []  # unnamed rows printed on their own: (truth, value)

    # --- findings ------------------------------------------------------------

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
                if equal(a, b) is True:  # computed from printed numbers only: consistent with their rounding
                    verdict = dataclasses.replace(verdict, status="ok", kind="ok")
                    reason = "within the rounding of the printed numbers it is computed from"
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

    # --- chains -------------------------------------------------------------

    def _bind_expression(self, node: Node, value: Val) -> None:
        """``QKᵀ/√d_k = [printed]``: the document's value of that expression,
        used where the same expression comes back (``softmax(QKᵀ/√d_k)``)."""
        used = names_in(node)
        if not used and getattr(value.b, "is_Rational", False):
            return  # \frac{1}{8} = 0.125: exact arithmetic on literals, read afresh each time
        snapshot = {n: self.env.get(n) for n in used}
        binding = Binding(value.a, value.b, value.deps, value.arith, self.last_halfwidth)
        self.expressions[_shape_key(node)] = (snapshot, binding)

    def _claimed_binding(self, node: Node) -> Binding | None:
        entry = self.expressions.get(_shape_key(node))
        if entry is None:
            return None
        snapshot, binding = entry
        if any(self.env.get(n) is not b for n, b in snapshot.items()):
            return None  # a name it uses was bound again since
        return binding

    def _claimed_expression(self, node: Node) -> Val | None:
        binding = self._claimed_binding(node)
        return None if binding is None else Val(binding.a, binding.b, binding.deps, arith=binding.arith)

    def _causal_mask_by_convention(self, chain: Chain) -> None:
        """An undefined ``M`` added to the scores is the causal mask when the chain
        prints its pattern: -∞ (scores) or 0 (weights) exactly above the diagonal."""
        used = {n for e in chain.elements for n in names_in(e)}
        name = next((n for n in _MASK_NAMES if n in used and n not in self.env), None)
        if name is None or (isinstance(chain.elements[0], Name) and chain.elements[0].name == name):
            return  # M = [...] defines M itself
        for element in chain.elements:
            if not (isinstance(element, Matrix) and is_literal(element)):
                continue
            n = len(element.rows)
            if n < 2 or any(len(row) != n for row in element.rows):
                continue
            cells = [[printed_value(c) for c in row] for row in element.rows]
            upper = [cells[i][j] for i in range(n) for j in range(n) if j > i]
            lower = [cells[i][j] for i in range(n) for j in range(n) if j <= i]
            if (all(v == NEG_INF for v in upper) and all(v is not None and v != NEG_INF for v in lower)) or (
                all(v == 0 for v in upper) and all(v is not None and v != 0 for v in lower)
            ):
                pattern = True
            else:
                pattern = False
            if pattern:
                mask = stages.causal_mask(n, n)
                self.env[name] = Binding(mask, mask, frozenset())
                self.inputs.add(name)
                return

    def forget_name(self, name: str) -> None:
        """Drop ``name`` (and what was computed from it): the document set it in a
        way that cannot be followed, so no stale value may judge later numbers."""
        self._forget([self._resolve(name)])

    def new_scope(self, line: int) -> None:
        """A heading or a sentence that sets up data ("Let", "Suppose", "设"):
        a bare value given after it for a bound name may start a new example."""
        self.scope_line = line

    def _resolve(self, name: str) -> str:
        """The bound name a document means by ``name`` (``W_q`` for ``W_{Q}``,
        ``attn_weights`` for the printout "attention weights"), else ``name``."""
        if name in self.env:
            return name
        for candidate in _aliases(name):
            if candidate in self.env:
                return candidate
        return name

    def _resolved(self, chain: Chain) -> Chain:
        elements = tuple(
            Name(e.offset, self._resolve(e.name)) if isinstance(e, Name) and e.name not in self.env else e
            for e in chain.elements
        )
        return chain if elements == chain.elements else dataclasses.replace(chain, elements=elements)

    def _disagreement(self, names: list[str], node: Node) -> float | None:
        """The share of printed cells that fit no bound value of ``names``."""
        try:
            printed = self.literal_value(node).a
        except (Unverifiable, SymattnError):
            return None
        cells = list(literals(node))
        worst = 0.0
        for name in names:
            if name not in self.env:
                continue
            binding = self.env[name]
            a, b = binding.a, binding.b
            if is_matrix(a) != is_matrix(printed) or (is_matrix(a) and a.shape != printed.shape):
                return 1.0
            pairs = list(zip(a, b, strict=True)) if is_matrix(a) else [(a, b)]
            if len(pairs) != len(cells):
                return None
            misses = 0
            for (cell_a, cell_b), num in zip(pairs, cells, strict=True):
                try:
                    fits = claim_fits(num.text, cell_a) or claim_fits(num.text, cell_b)
                    if not fits and self.binary:  # a float32 printout's last digits
                        fits = within_float_rounding(num.text, cell_b)
                except SymattnError:
                    return None
                misses += not fits
            worst = max(worst, misses / max(len(cells), 1))
        return worst

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
            if isinstance(element, Matrix) or printed_value(element) is not None:
                reason = "a number not tied to a named quantity"
            else:
                reason = "not part of an equation, so there is nothing to compare it with"
            self.unverified(literals(element), "no-claim", reason)
            return
        chain = self._resolved(chain)
        if self._given_scores(chain):
            return
        self._causal_mask_by_convention(chain)
        self.chain_start_offset = chain.elements[0].offset
        names = [e.name for e in chain.elements if isinstance(e, Name)]
        self.subject = next((_display_name(n) for n in names), subject_of(0))
        values = [e for e in chain.elements if not isinstance(e, Name)]
        symbolic_input = self._declare_symbols(names, values)
        computed = any(not is_claim_shape(v) for v in values)
        if len(values) == 1 and is_claim_shape(values[0]) and any(n in self.env for n in names):
            share = self._disagreement(names, values[0])
            if share is not None and share > 0.5:
                self._forget(names)  # most cells differ: a new example, not a restatement
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
        self.defined_by_input = False
        self.last_dot = None
        self.head_factors = None
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
        exact_ref = (
            ref is not None
        )  # the element before is exact (a computation, or integers), not a rounding
        ref_is_name = False
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
                if doubted is not None and is_claim_shape(element):
                    value, is_claim = self._after_doubted_step(
                        element, doubted, ref, bool(names), redefines=doubted_is_name
                    )
                else:
                    value, is_claim = self._element(element, ref, bool(names))
                doubted = None
                if value is None:
                    continue
                self.last_halfwidth = _halfwidth(element) if is_claim_shape(element) else None
                exact_link = index > 0 and chain.relations[index - 1] == "=" and exact_ref
                if self.operands and not is_claim and ref is not None and exact_link:
                    # = \frac{\sqrt{2}}{2}: a step of exact algebra; after a name, only a restatement
                    # that holds counts (S = 2·3 may define S anew)
                    verdict = self._judge_step(self.operands, value, ref, after_name=ref_is_name)
                    if verdict is False:  # after a name it may be a new definition: both sides are tried
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
                ref = last = value
                last_is_claim = is_claim
                ref_is_name = isinstance(element, Name)
                exact_ref = not is_claim or all(parse_claim(n.text).places is None for n in literals(element))
            except (Unverifiable, SymattnError) as err:
                del self.findings[mark:]
                self.seen = seen
                kind = "unverifiable" if isinstance(err, Unverifiable) else "bad-input"
                self.unverified(literals(element), kind, str(err))
                failure = failure or str(err)
                ref = None
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
        if last is not None and failure is None:
            self._bind(names, last, last_is_claim and not computed, chain)
            if not names and last_is_claim and not is_claim_shape(chain.elements[0]):
                self._bind_expression(chain.elements[0], last)
                if head_value is not None and _is_row(last.a) and _is_row(head_value.b):
                    self.printed_rows.append((head_value.b, last))  # q_2 Kᵀ/√d_k = [0, 0.5477, 1.1547]
            self._retry_deferred()
        elif failure is not None and names and isinstance(chain.elements[0], Name):
            self._forget([chain.elements[0].name])  # a definition that cannot be followed: no stale value

    def _given_scores(self, chain: Chain) -> bool:
        """``QKᵀ = [numbers]`` in a document that never gives Q or K: the scores,
        given as an input (the weights' convention then starts from them)."""
        if len(chain.elements) != 2 or _shape_key(chain.elements[0]) != _shape_key(_QKT):
            return False
        block = chain.elements[1]
        if not (isinstance(block, Matrix) and is_literal(block)) or any(n in self.env for n in ("Q", "K")):
            return False
        value = self.literal_value(block)
        if not is_matrix(value.a):
            return False
        self.subject = "QKᵀ"
        self.unverified(literals(block), "input", "given as an input")
        self._bind_expression(chain.elements[0], value)
        return True

    def _retry_deferred(self) -> None:
        """Run number-free definitions that waited for a name defined later."""
        if self.retrying:
            return
        self.retrying = True
        saved = (len(self.findings), set(self.seen), self.subject, self.position)
        try:
            for chain in list(self.deferred):
                if self.deferred and chain in self.deferred:
                    before = dict(self.env)
                    self.run_chain(chain, lambda _index: "")
                    del self.findings[saved[0] :]
                    if self.env.keys() != before.keys() or any(
                        self.env[k] is not v for k, v in before.items()
                    ):
                        self.deferred.remove(chain)
        finally:
            self.seen, self.subject, self.position = saved[1], saved[2], saved[3]
            self.retrying = False

    def _element(self, element: Node, ref: Val | None, defines: bool) -> tuple[Val | None, bool]:
        """Evaluate or judge one chain element; returns (value, is_claim)."""
        if isinstance(element, Name):
            if element.name in self.env:
                binding = self.env[element.name]
                return Val(binding.a, binding.b, binding.deps, arith=binding.arith, rows=binding.rows), False
            if element.name in _IDENTITY and ref is None and defines and self._named_before(element):
                return self._identity(), False  # W_Q = W_K = W_V = I
            sized = _SIZED_IDENTITY.match(element.name)
            if sized and ref is None and defines and self._named_before(element):
                return self._identity(int(sized.group(1))), False  # W_Q = I_4
            return self._cell(element.name) or self._output_row(element.name), False
        if is_claim_shape(element) and ref is not None:
            return self.claim(element, ref), True
        if is_claim_shape(element) and isinstance(element, Matrix):
            tied = self._tied_rows(element)
            if tied is not None:
                return tied, True
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
                return expanded, True
        try:
            self.untied_rounded = False
            value = self.evaluate(element)
            ball = ball_of(element, _BallLookup(self, element))
            return dataclasses.replace(value, ball=ball, truth=not self.untied_rounded), False
        except Unverifiable:
            if not wants_scalar_reader(element):
                raise
        return self._scalar_fallback(element), False

    def _scalar_fallback(self, element: Node) -> Val:
        """Hand a scalar formula with \\ln, \\sin ... to latex2sympy2_extended."""
        text = self.element_text
        scalars = {name: b for name, b in self.env.items() if not is_matrix(b.a)}
        symbols = {name: symbol for name, symbol in self.symbols.items() if name not in scalars}
        try:
            value_a, used = scalar_value(text, {**symbols, **{name: b.a for name, b in scalars.items()}})
            value_b, _ = scalar_value(text, {**symbols, **{name: b.b for name, b in scalars.items()}})
        except LatexParseError as err:
            raise Unverifiable(str(err)) from None
        if not (getattr(value_a, "is_number", False) and getattr(value_b, "is_number", False)) and not (
            used & symbols.keys()
        ):
            raise Unverifiable(f"cannot evaluate {text.strip()}")
        self.operands = literals(element)
        deps = frozenset().union(*(scalars[name].deps for name in used if name in scalars))
        return Val(value_a, value_b, deps, arith=False)

    def _cell(self, name: str) -> Val | None:
        """``A_{1,2}``, ``A_{12}`` (a cell), ``A_{3,:}`` (a row) or ``A_{:,2}`` (a
        column) of a bound matrix, 1-based."""
        core, head = split_head(name)
        match = _CELL.match(core)
        if match is None:
            return None
        letter = match.group(1)
        base = letter + head  # s_{11}^{(1)}: a cell of S^{(1)}
        accent = _ACCENTED_LETTER.match(letter)
        if base not in self.env and len(letter) == 1 and letter.islower():
            base = letter.upper() + head  # a_{12} is the cell of A
        elif base not in self.env and accent:  # \tilde{s}_{12}: a cell of \tilde{S}
            base = f"{accent.group(1)}{{{accent.group(2).upper()}}}" + head
        if base not in self.env:
            base = self._resolve(base)  # a_{12} of the weights the document calls "weights"
        if base not in self.env and match.group(1).upper() in ("A", "O"):
            by_convention = (
                self._convention_weights(head) if match.group(1).upper() == "A" else self._convention_output()
            )
            if by_convention is None or (head and match.group(1).upper() == "O"):
                return None
            binding = Binding(
                by_convention.a,
                by_convention.b,
                by_convention.deps,
                by_convention.arith,
                rows=by_convention.rows,
            )
        elif base not in self.env:
            return None
        else:
            binding = self.env[base]
        if not is_matrix(binding.a):
            return None
        pair = match.group(4) or ""
        row, col = (pair[0], pair[1]) if pair else (match.group(2), match.group(3))
        i = int(row) - 1 if row != ":" else None
        j = int(col) - 1 if col != ":" else None
        if (i is not None and not 0 <= i < binding.a.rows) or (j is not None and not 0 <= j < binding.a.cols):
            return None
        if i is None and j is None:
            return None
        if i is None:
            a, b = binding.a.col(j), binding.b.col(j)
        elif j is None:
            a, b = binding.a.row(i), binding.b.row(i)
        else:
            a, b = binding.a[i, j], binding.b[i, j]
        return Val(a, b, row_deps(binding, i), arith=binding.arith)

    def _tied_rows(self, node: Matrix) -> Val | None:
        """A block whose rows restate rows printed before (each row's cells
        written the same): tied to them, so a wrong row carries on."""
        rows = [_row_texts(row) for row in node.rows]
        if not rows or any(not all(r) for r in rows) or len({len(r) for r in rows}) != 1:
            return None
        found = [self.row_results.get(r) for r in rows]
        if not any(v is not None and any(is_wrong for _, is_wrong in v.deps) for v in found):
            return None  # only tie when it matters: a row printed wrong before
        a_rows, b_rows, deps = [], [], set()
        for row_node, value in zip(node.rows, found, strict=True):
            printed = [parse_claim(c.text).value for c in row_node]  # type: ignore[union-attr]
            if value is None:
                a_rows.append(printed)
                b_rows.append(printed)
                self.unverified(list(row_node), "input", "given as an input")  # type: ignore[arg-type]
                continue
            for j, cell in enumerate(row_node):
                self._restated(cell, value.deps, value.b[j])  # type: ignore[arg-type]
            a_rows.append(printed)
            b_rows.append(list(value.b))
            deps |= value.deps
        return Val(ImmutableMatrix(a_rows), ImmutableMatrix(b_rows), frozenset(deps), arith=False)

    def _remember_printed(self, text: str, result: Val) -> None:
        """Keep a printed result by its text, and index its roundings to fewer places
        (so a later bare number finds what it rounds in one lookup)."""
        known = self.printed.get(text)
        if known is None and "." in text and text.lstrip("-")[:1].isdigit():
            digits = text.split(".")[1]
            if digits.isdigit():
                for places in range(2, min(len(digits), _MAX_ROUNDED_PLACES)):
                    key = (places, Decimal(text).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
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
        self._rounded_restatement(num, prose=True)

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
            wrong = [line for line, is_wrong in cell.deps if is_wrong]
            if not wrong:
                self.bare_number(num)
                continue
            self._add(
                num,
                status="wrong",
                kind="carried",
                carried_from=min(wrong),
                exact=exact_text(cell.b),
                reason=f"restates {text}, rounded",
            )

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
            return printed.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) == value

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
        self.findings[mark:] = [
            dataclasses.replace(
                found,
                status="unverified",
                kind="unverifiable",
                reason="the other weight of the row fits neither side",
            )
            if found.status == "wrong" and found.kind in ("wrong", "slip")
            else found
            for found in self.findings[mark:]
        ]
        printed = parse_claim(num.text).value
        ok = not any(f.status == "wrong" for f in self.findings[mark:])
        result = Val(printed, 1 - r.b, r.deps | self._source(num, ok, printed, 1 - r.b))
        if _distinctive(num.text):
            self.results[num.text] = result

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
        copied = (
            not weak and (parse_claim(num.text).places or 0) >= 4 and getattr(value.a, "is_Rational", False)
        )
        if copied:
            reason = f"the prose copies {label} wrong: {self._slip_reason(num, value.a)}"
            change = {"kind": "slip", "reason": reason}
        else:
            reason = f"the prose gives {label}; it fits neither the document's value nor the truth"
            change = {"status": "unverified", "kind": "unverifiable", "reason": reason}
        fixed = [
            dataclasses.replace(found, **change)
            if found.status == "wrong" and found.kind in ("wrong", "slip")
            else found
            for found in self.findings[mark:]
        ]
        self.findings[mark:] = fixed
        return True

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
        self._add(
            num,
            status="wrong",
            kind="carried",
            carried_from=min(wrong),
            exact=exact_text(earlier.b),
            reason=f"restates {text}, rounded",
        )
        return True

    def _restated(self, num: Num, deps: frozenset[tuple[int, bool]], true: Any) -> None:
        """A number written again as it was printed before: ok, or carried from the
        earliest wrong number that printed value depends on."""
        wrong = [line for line, is_wrong in deps if is_wrong]
        if not wrong:
            self._add(num, status="ok", kind="ok", reason="restates an earlier result")
            return
        self._add(
            num,
            status="wrong",
            kind="carried",
            carried_from=min(wrong),
            exact=exact_text(true),
            reason="restates an earlier result",
        )

    def _restates(self, names: list[str], node: Node) -> bool:
        """Whether printed numbers equal the current value of every bound name."""
        try:
            printed = self.literal_value(node).a
        except (Unverifiable, SymattnError):
            return False
        return all(equal(self.env[n].a, printed) is True for n in names if n in self.env)

    def _reshapes(self, names: list[str], node: Node) -> bool:
        """Whether printed numbers have another shape than a bound name (a new
        example that gives Q, K, V directly)."""
        try:
            printed = self.literal_value(node).a
        except (Unverifiable, SymattnError):
            return False
        shape = printed.shape if is_matrix(printed) else None
        return any(
            (self.env[n].a.shape if is_matrix(self.env[n].a) else None) != shape
            for n in names
            if n in self.env
        )

    def _forget(self, names: list[str]) -> None:
        """Drop bindings of ``names`` and of everything computed from them."""
        gone = set(names)
        self.printed.clear()  # a new example: its bare numbers restate its own results only
        self.rounded.clear()
        for name, used in list(self.uses.items()):
            if used & gone:
                gone.add(name)
        for name in gone:
            self.env.pop(name, None)
            self.uses.pop(name, None)
            self.inputs.discard(name)

    def _bind(self, names: list[str], last: Val, is_claim: bool, chain: Chain) -> None:
        used = {n for element in chain.elements for n in names_in(element)} - set(names)
        for other in list(used):
            used |= self.uses.get(other, frozenset())
        for name in names:
            if name not in self.env and self._cell(name) is not None:
                continue  # A_{1,2} = 0.1978 states a cell of A, it does not define a name
            if self.defined_by_input:
                self.inputs.add(name)
            elif not is_claim:
                self.inputs.discard(name)
            if not is_claim or name not in self.env:
                self.uses[name] = frozenset(used)
            old = self.env.pop(name, None)
            self.bound_line[name] = self.position(chain.elements[0].offset)[0]
            if old is not None and is_claim:
                rows = None
                if last.rows is not None and old.rows is not None and len(last.rows) == len(old.rows):
                    rows = tuple(x | y for x, y in zip(old.rows, last.rows, strict=True))
                self.env[name] = Binding(
                    last.a, old.b, old.deps | last.deps, last.arith, self.last_halfwidth, rows
                )
            else:
                self.env[name] = Binding(
                    last.a, last.b, last.deps, last.arith, self.last_halfwidth, last.rows
                )

    # --- claims ---------------------------------------------------------------

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
            result = Val(printed, b, ref.deps | self._source(node, ok, printed, b))
            if distinctive:
                self.results[node.text] = result  # type: ignore[union-attr]
            if (parse_claim(node.text).places or 0) >= 2:  # type: ignore[union-attr]
                self._remember_printed(node.text, result)  # type: ignore[union-attr]
            if not ok and cell is None:  # a wrong scalar result, which the next formula may use at once
                self.recent_wrong[node.text] = (self.formula_index, result)  # type: ignore[union-attr]
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
        result = Val(ImmutableMatrix(out_a), b, deps, rows=rows_out)
        for i, row in enumerate(node.rows):  # each printed row, for a later block that restates it
            texts = _row_texts(row)
            if all(texts) and len(texts) > 1:
                p = (slice(None), i) if transposed else (i, slice(None))
                self.row_results[texts] = Val(  # its own cells' sources, and what the whole came from
                    ImmutableMatrix(out_a).__getitem__(p), b.__getitem__(p), frozenset(own[i] | ref.deps)
                )
        return result

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

    # --- evaluation -----------------------------------------------------------

    def literal_value(self, node: Node) -> Val:
        """The printed value of a numbers-only node (both worlds alike)."""
        if isinstance(node, Sum):
            parts = tuple(self.literal_value(t) for t in node.terms)
            total = add_values([p.a for p in parts])
            return Val(total, total, frozenset(), parts)
        return self._value_of(node, record=False)

    def evaluate(self, node: Node) -> Val:
        """Evaluate a computation in both worlds, tying restated numbers."""
        return self._value_of(node, record=True)

    def _value_of(self, node: Node, record: bool) -> Val:  # noqa: PLR0915 - one branch per node type
        if isinstance(node, (Div, Mul, Call, Sum, Pow, Transpose, Sqrt)) and node is not self.top_element:
            claimed = self._claimed_expression(node)
            if claimed is not None:
                return claimed
        if isinstance(node, Num):
            value = parse_claim(node.text).value
            if record:
                earlier = self.results.get(node.text) if _distinctive(node.text) else None
                recent = self.recent_wrong.get(node.text)
                if earlier is None and recent is not None and self.formula_index - recent[0] <= 2:
                    earlier = recent[1]  # "1/√d_k = 0.25", then "0.25 × QKᵀ" at once: the same wrong number
                if earlier is not None:  # 14.3835 again: the result printed before, with its truth
                    self._restated(node, earlier.deps, earlier.b)
                    return Val(earlier.a, earlier.b, earlier.deps, arith=earlier.arith)
                self.operands.append(node)
                if parse_claim(node.text).places:
                    self.untied_rounded = True  # world (b) now uses a rounded printed number
            return Val(value, value)
        if isinstance(node, Inf):
            return Val(sympy.oo, sympy.oo)
        if isinstance(node, Name):
            return self._lookup(node.name)
        if isinstance(node, Neg):
            inner = self._value_of(node.arg, record)
            return Val(scale(inner.a, -1), scale(inner.b, -1), inner.deps, arith=inner.arith, rows=inner.rows)
        if isinstance(node, Matrix):
            return self._matrix(node, record)
        if isinstance(node, Sum):
            tied = self._weighted_sum(node) if record else None
            parts = tied or tuple(self._value_of(t, record) for t in node.terms)
            return Val(
                add_values([p.a for p in parts]),
                add_values([p.b for p in parts]),
                frozenset().union(*(p.deps for p in parts)),
                parts,
                all(p.arith for p in parts),
                rows=_summed_rows(parts),
            )
        if isinstance(node, Mul):
            term = self._weight_term(node) if record and node is self.top_element else None
            if term is not None:
                return term
            factors = [self._value_of(f, record) for f in node.factors]
            if node is self.top_element:
                self.head_factors = (node, factors)  # softmax(QKᵀ/√d_k) V: the next element may print each
            return self._product(factors)
        if isinstance(node, Div):
            num = self._value_of(node.num, record)
            if record and isinstance(node.num, Matrix) and isinstance(node.den, Num) and _is_row(num.a):
                den = self._normaliser(node.den, num, node.num)  # [e1, e2, e3] / 7.3461: their sum
            else:
                den = self._value_of(node.den, record)
            if is_matrix(den.a):
                raise Unverifiable("division by a matrix")
            if den.a == 0 or den.b == 0:
                raise DivisionByZeroError(f"{self.subject}: division by zero")
            return Val(
                scale(num.a, 1 / den.a),
                scale(num.b, 1 / den.b),
                num.deps | den.deps,
                arith=num.arith and den.arith,
                rows=rows_joined(num.rows, den.deps),
            )
        if isinstance(node, Sqrt):
            arg = self._scalar(self._value_of(node.arg, record), "a square root")
            index = self._scalar(self._value_of(node.index, record), "a root") if node.index else Val(2, 2)
            return Val(
                sympy.root(arg.a, index.a), sympy.root(arg.b, index.b), arg.deps | index.deps, arith=False
            )
        if isinstance(node, Pow):
            base = self._value_of(node.base, record)
            exponent = self._scalar(self._value_of(node.exponent, record), "an exponent")
            if is_matrix(base.a):
                raise Unverifiable("a power of a matrix")
            where = self.subject or "power"
            return Val(
                safe_power(base.a, exponent.a, where),
                safe_power(base.b, exponent.b, where),
                base.deps | exponent.deps,
            )
        if isinstance(node, Transpose):
            inner = self._value_of(node.arg, record)
            if not is_matrix(inner.a):
                return inner
            return Val(stages.transpose(inner.a), stages.transpose(inner.b), inner.deps, arith=inner.arith)
        if isinstance(node, Call):
            return self._call(node, record)
        if isinstance(node, Unsupported):
            raise Unverifiable(f"uses {node.reason}")
        raise Unverifiable(f"cannot evaluate {type(node).__name__}")

    def _scalar(self, value: Val, what: str) -> Val:
        if is_matrix(value.a):
            raise Unverifiable(f"{what} of a matrix")
        return value

    def _ball_lookup(self, name: str) -> tuple[Any, Any]:
        """A name's value by the document's numbers and their half-units (balls.py)."""
        resolved = self._resolve(name)
        if resolved in self.env:
            binding = self.env[resolved]
            return binding.a, binding.halfwidth
        return self._lookup(name).a, None

    def _declare_symbols(self, names: list[str], values: list[Node]) -> bool:
        """``X = [[a, 0], [0, b]]``: an input matrix whose cells are numbers and
        letters the document never defines makes those letters symbols, so
        every later step is checked as algebra (proved equal, or left unverified)."""
        if len(names) != 1 or names[0] in self.env or len(values) != 1 or not isinstance(values[0], Matrix):
            return False
        letters = []
        for cell in (c for row in values[0].rows for c in row):
            inner = cell.arg if isinstance(cell, Neg) else cell
            if isinstance(inner, Num):
                continue
            if not (
                isinstance(inner, Name) and _SYMBOL_NAME.match(inner.name) and inner.name not in self.env
            ):
                return False
            letters.append(inner.name)
        for letter in letters:
            self.symbols.setdefault(letter, sympy.Symbol(letter.lstrip("\\"), real=True))
        return bool(letters)

    def _lookup(self, name: str) -> Val:
        name = self._resolve(name)
        if name in self.env:
            binding = self.env[name]
            return Val(binding.a, binding.b, binding.deps, arith=binding.arith, rows=binding.rows)
        if name in self.symbols:
            return Val(self.symbols[name], self.symbols[name], arith=False)
        if name in ("pi", "\\pi"):
            return Val(sympy.pi, sympy.pi, arith=False)
        if name == "e":  # Euler's number, italic or upright, unless the document binds e
            return Val(sympy.E, sympy.E, arith=False)
        cell = self._cell(name)
        if cell is not None:
            return cell
        if name in _IDENTITY:
            return self._identity()
        sized = _SIZED_IDENTITY.match(name)
        if sized:
            return self._identity(int(sized.group(1)))
        core, head = split_head(name)
        row = _ROW_NAME.match(core)
        if row and self._resolve(row.group(1).upper() + head) in self.env:
            whole = self.env[self._resolve(row.group(1).upper() + head)]
            i = int(row.group(2)) - 1
            if is_matrix(whole.a) and 0 <= i < whole.a.rows:
                return Val(
                    ImmutableMatrix(whole.a.row(i)),
                    ImmutableMatrix(whole.b.row(i)),
                    row_deps(whole, i),
                    arith=whole.arith,
                )
        output_row = self._output_row(name)
        if output_row is not None:
            return output_row
        if name in _PROJECTIONS and "X" in self.env and _PROJECTIONS[name] in self.env:
            return self._product([self._lookup("X"), self._lookup(_PROJECTIONS[name])])
        raise Unverifiable(f"{_display_name(name)} is not defined in the document")

    def _identity(self, size: int | None = None) -> Val:
        """``I`` as a weight matrix: the identity of X's width (``I_4``: of size 4)."""
        if size is not None:
            if not 1 <= size <= 64:
                raise Unverifiable(f"I_{size} is too large an identity")
            eye = ImmutableMatrix(sympy.eye(size))
            return Val(eye, eye)
        x = self.env.get(self._resolve("X"))
        if x is None or not is_matrix(x.a):
            raise Unverifiable("I is not defined in the document (no X gives its size)")
        eye = ImmutableMatrix(sympy.eye(x.a.cols))
        return Val(eye, eye)

    def _named_before(self, element: Name) -> bool:
        """Whether ``element`` follows the first element of the current chain."""
        return element.offset > self.chain_start_offset

    def _known_scores(self, *, scaled: bool, head: str = "") -> Val | None:
        """QKᵀ from the document's Q and K (of one head: ``Q^{(1)}``), divided by
        √d_k when ``scaled`` (d_k known and positive), or None when they are not known."""
        try:
            given = None if head else self._claimed_expression(_QKT)  # QKᵀ printed without Q and K
            if given is not None and is_matrix(given.a):
                scores = given
            else:
                stacked = (
                    None if head or "Q" in self.env else self._stacked("q")
                )  # q_1, q_2, q_3 given, Q never
                if stacked is not None:
                    q = Val(stacked.a, stacked.b, stacked.deps, arith=stacked.arith, rows=stacked.rows)
                else:
                    q = self._lookup("Q" + head)
                k = self._lookup("K" + head)
                if not (is_matrix(q.a) and is_matrix(k.a)) or q.a.cols != k.a.cols:
                    return None
                scores = self._product([q, Val(stages.transpose(k.a), stages.transpose(k.b), k.deps)])
            if not scaled:
                return scores
            d_k = self._lookup("d_{k}" + head if "d_{k}" + head in self.env else "d_{k}")
        except (Unverifiable, SymattnError):
            return None
        if is_matrix(d_k.a) or not all(getattr(v, "is_positive", False) for v in (d_k.a, d_k.b)):
            return None
        return Val(
            scale(scores.a, 1 / sympy.sqrt(d_k.a)),
            scale(scores.b, 1 / sympy.sqrt(d_k.b)),
            scores.deps | d_k.deps,
            arith=False,
            rows=rows_joined(scores.rows, d_k.deps),
        )

    def _convention_weights(self, head: str = "") -> Val | None:
        """softmax of the document's scaled scores S̃ (its mask included) when it
        gives them, else softmax(QKᵀ/√d_k) when Q, K and a positive d_k are known."""
        printed = None if head else self._claimed_expression(_SOFTMAX_QKT)
        if printed is not None and is_matrix(printed.a):
            return printed  # a composite head printed softmax(QKᵀ/√d_k): the document's weights, with their truth
        name = self._resolve("\\tilde{S}" + head)
        bound = self.env.get(name)
        if bound is not None and is_matrix(bound.a) and name not in self.inputs:
            scaled: Val | None = Val(bound.a, bound.b, bound.deps, arith=bound.arith, rows=bound.rows)
        else:
            scaled = self._known_scores(scaled=True, head=head)
            if scaled is not None and not head:
                scaled = self._with_printed_rows(scaled)
        if scaled is None:
            return None
        try:
            return Val(
                stages.softmax_rows(scaled.a),
                stages.softmax_rows(scaled.b),
                scaled.deps,
                arith=False,
                rows=scaled.rows,
            )
        except (Unverifiable, SymattnError):
            return None

    def _with_printed_rows(self, scaled: Val) -> Val:
        """The scaled scores by the document's numbers: a row it printed on its own
        (``\\frac{1}{\\sqrt{3}} q_2 K^T = [0, 0.5477, 1.1547]``) stands in world (a)."""
        if not self.printed_rows or not is_matrix(scaled.a):
            return scaled
        rows_a = [scaled.a.row(i) for i in range(scaled.a.rows)]
        rows = [row_deps(scaled, i) for i in range(scaled.a.rows)]
        changed = False
        for i in range(scaled.a.rows):
            truth = scaled.b.row(i)
            for head_b, printed in reversed(self.printed_rows):
                if head_b.shape == truth.shape and equal(head_b, truth) is True:
                    rows_a[i], rows[i], changed = printed.a, rows[i] | printed.deps, True
                    break
        if not changed:
            return scaled
        return Val(
            ImmutableMatrix.vstack(*rows_a),
            scaled.b,
            frozenset().union(scaled.deps, *rows),
            arith=scaled.arith,
            rows=tuple(rows),
        )

    @staticmethod
    def _bare_block(
        names: list[str], values: list[Node], accepted: tuple[str, ...], shape: Any
    ) -> Matrix | None:
        """The printed block of ``name = [numbers]`` when ``name`` is one of ``accepted``
        and the block has the shape of the value it would claim."""
        if (
            len(names) != 1
            or names[0] not in accepted
            or len(values) != 1
            or not isinstance(values[0], Matrix)
        ):
            return None
        block = values[0]
        if shape is None or len(block.rows) != shape[0] or any(len(row) != shape[1] for row in block.rows):
            return None
        return block

    def _scaled_by_convention(self, names: list[str], values: list[Node]) -> Val | None:
        """``scaled = [numbers]`` (no formula) when Q, K and d_k are known: QKᵀ/√d_k."""
        if not names or names[0] in self.env:
            return None
        scaled = self._known_scores(scaled=True)
        shape = scaled.a.shape if scaled is not None else None
        return scaled if self._bare_block(names, values, _ALIASES["scaled"], shape) is not None else None

    def _output_by_convention(self, names: list[str], values: list[Node]) -> Val | None:
        """``output = [numbers]`` (no formula) when the weights and V are known: a
        claim of (weights) V, by the document's weights (on their rounding
        intervals) and in truth."""
        weights_name, v_name = self._resolve("weights"), self._resolve("V")
        if not names or names[0] in self.env or weights_name not in self.env:
            return None
        if v_name not in self.env and not self._value_rows_as_V(self.env[weights_name]):
            return None
        weights, v = self._lookup(weights_name), self._lookup(v_name)
        if not (is_matrix(weights.a) and is_matrix(v.a)) or weights.a.cols != v.a.rows:
            return None
        if self._bare_block(names, values, _ALIASES["output"], (weights.a.rows, v.a.cols)) is None:
            return None
        product = self._product([weights, v])
        node = Mul(0, (Name(0, weights_name), Name(0, v_name)))
        return dataclasses.replace(product, ball=ball_of(node, _BallLookup(self, node)))

    def _output_row(self, name: str) -> Val | None:
        """``o_1`` when the document binds no O: row 1 of (weights)·V."""
        match = _OUTPUT_ROW.match(name)
        if match is None or self._resolve("O") in self.env:
            return None
        output = self._convention_output()
        i = int(match.group(1)) - 1
        if output is None or not 0 <= i < output.a.rows:
            return None
        return Val(
            ImmutableMatrix(output.a.row(i)),
            ImmutableMatrix(output.b.row(i)),
            row_deps(output, i),
            arith=output.arith,
        )

    def _convention_output(self) -> Val | None:
        """(weights)·V when the document gave both (``o_1`` is its first row)."""
        weights_name, v_name = self._resolve("weights"), self._resolve("V")
        if weights_name not in self.env or v_name not in self.env:
            return None
        weights, v = self._lookup(weights_name), self._lookup(v_name)
        if not (is_matrix(weights.a) and is_matrix(v.a)) or weights.a.cols != v.a.rows:
            return None
        return self._product([weights, v])

    def _weight_term(self, node: Mul) -> Val | None:
        """``0.43 × 10`` or ``0.14 × [4, 8]``: one term of a weighted sum written on
        its own, a printed weight a_ij times (an entry of) v_j.  Tied when exactly
        one printed weight and one row of V fit; then its truth is a_ij · v_j."""
        if len(node.factors) != 2 or not isinstance(node.factors[0], Num):
            return None
        weight, other = node.factors
        claim = parse_claim(weight.text)
        if not claim.places:
            return None
        if isinstance(other, Num):
            cells = [other]
        elif (
            isinstance(other, Matrix)
            and len(other.rows) == 1
            and all(isinstance(c, Num) for c in other.rows[0])
        ):
            cells = list(other.rows[0])
        else:
            return None
        entries = [parse_claim(c.text).value for c in cells]  # type: ignore[union-attr]
        weights_name, v_name = self._resolve("weights"), self._resolve("V")
        weights, v = self.env.get(weights_name), self.env.get(v_name)
        if weights is None or v is None or not (is_matrix(weights.a) and is_matrix(v.a)):
            return None
        if weights.a.cols != v.a.rows or weights_name in self.inputs:
            return None
        fits = []
        for i in range(weights.a.rows):
            for j in range(weights.a.cols):
                if weights.a[i, j] != claim.value:
                    continue
                row = list(v.a.row(j))
                if len(entries) == 1:
                    fits.extend((i, j, c) for c in range(len(row)) if row[c] == entries[0])
                elif row == entries:
                    fits.append((i, j, None))
        if len(fits) != 1:
            return None
        i, j, c = fits[0]
        w_label, v_label, saved = _display_name(weights_name), _display_name(v_name), self.subject
        try:
            self.subject = w_label
            w_deps = row_deps(weights, i)
            self._judge(
                weight,
                weights.a[i, j],
                weights.b[i, j],
                w_deps,
                cell=(i + 1, j + 1),
                reason=f"restates {w_label}",
            )
            self.subject = v_label
            for k, cell in enumerate(cells):
                col = c if c is not None else k
                self._judge(
                    cell,
                    v.a[j, col],
                    v.b[j, col],
                    v.deps,
                    cell=(j + 1, col + 1),
                    reason=f"restates {v_label}",
                )  # type: ignore[arg-type]
        finally:
            self.subject = saved
        picked_a = v.a[j, c] if c is not None else ImmutableMatrix(v.a.row(j))
        picked_b = v.b[j, c] if c is not None else ImmutableMatrix(v.b.row(j))
        return Val(
            scale(picked_a, weights.a[i, j]),
            scale(picked_b, weights.b[i, j]),
            w_deps | v.deps,
            arith=weights.arith and v.arith,
        )

    def _value_rows_as_V(self, weights: Binding) -> bool:
        """``v_1 = [2, 0]`` and ``v_2 = [0, 4]`` given, V never: V is their stack
        (one row per key), bound so the output can be checked by convention."""
        stacked = self._stacked("v", weights.a.cols) if is_matrix(weights.a) else None
        if stacked is None:
            return False
        self.env["V"] = stacked
        return True

    def _stacked(self, letter: str, count: int | None = None) -> Binding | None:
        """``Q`` (``V``) as the stack of ``q_1``, ``q_2``, … when the document gives
        the rows only: ``count`` of them, or (None) every one from 1 on, at least two."""
        if count is None:
            count = 0
            while f"{letter}_{{{count + 1}}}" in self.env and count < 64:
                count += 1
            if count < 2:
                return None
        if f"{letter}_{{{count + 1}}}" in self.env:
            return None
        rows = [self.env.get(f"{letter}_{{{j}}}") for j in range(1, count + 1)]
        if any(r is None or not _is_row(r.a) for r in rows) or len({r.a.cols for r in rows}) != 1:  # type: ignore[union-attr]
            return None
        return Binding(
            ImmutableMatrix.vstack(*(r.a for r in rows)),  # type: ignore[union-attr]
            ImmutableMatrix.vstack(*(r.b for r in rows)),  # type: ignore[union-attr]
            frozenset().union(*(r.deps for r in rows)),  # type: ignore[union-attr]
            all(r.arith for r in rows),  # type: ignore[union-attr]
            rows=tuple(r.deps for r in rows),  # type: ignore[union-attr]
        )

    def _scores_by_convention(self, names: list[str], values: list[Node]) -> Val | None:
        """``scores = [numbers]`` (no formula) when Q and K are known: a claim of
        QKᵀ.  By the document's numbers, a cell is its printed ``q_i · k_j``
        when the document wrote one out (so a wrong dot product carries)."""
        if not names or names[0] in self.env:
            return None
        scores = self._known_scores(scaled=False)
        shape = scores.a.shape if scores is not None else None
        if scores is None or self._bare_block(names, values, _SCORE_NAMES, shape) is None:
            return None
        cells = [list(row) for row in scores.a.tolist()]
        deps = set(scores.deps)
        for i in range(scores.a.rows):
            for j in range(scores.a.cols):
                written = Mul(0, (Name(0, f"q_{{{i + 1}}}"), Name(0, f"k_{{{j + 1}}}")))
                claimed = self._claimed_binding(written)
                if claimed is not None and not is_matrix(claimed.a):
                    cells[i][j] = claimed.a
                    deps |= claimed.deps
        return Val(ImmutableMatrix(cells), scores.b, frozenset(deps), arith=scores.arith)

    def _weights_by_convention(self, names: list[str], values: list[Node]) -> Val | None:
        """The true attention weights for ``A = [numbers]`` when the document
        never defines A otherwise (the convention of docs/verify.md).

        Applies only when the one name is an attention-weights name, Q, K and
        d_k are known, the printed block is n_q × n_k with no exact 0 (a mask),
        every 0.0000 is a weight that rounds to it, and (for a bare ``A``)
        every printed row sums to 1 within its rounding.
        """
        if not names or names[0] in self.env:
            return None
        core, head = split_head(names[0])  # A^{(1)}: the weights of head 1
        names = [core, *names[1:]]
        weights = self._convention_weights(head)
        shape = weights.a.shape if weights is not None else None
        if values and isinstance(values[0], Matrix) and not is_literal(values[0]):
            # A = [closed forms] ≈ [decimals]: a step from the truth
            return weights if self._bare_block(names, values[:1], _WEIGHT_NAMES, shape) is not None else None
        block = self._bare_block(names, values, _WEIGHT_NAMES, shape)
        if block is None or weights is None or not all(isinstance(c, Num) for row in block.rows for c in row):
            return None
        for i, row in enumerate(block.rows):
            claims = [parse_claim(cell.text) for cell in row]  # type: ignore[union-attr]
            if any(c.value == 0 and c.places is None for c in claims):
                return None  # a printed 0 means a mask, which the convention does not guess
            if any(c.value == 0 and not claim_fits(c.text, weights.b[i, j]) for j, c in enumerate(claims)):
                return None  # a 0.0000 must be a tiny weight, not a mask
            slack = sum(sympy.Rational(1, 2 * 10 ** (c.places or 0)) for c in claims if c.places)
            if names[0] == "A" and abs(sum(c.value for c in claims) - 1) > slack:
                return None  # a bare A might be any matrix; one named "weights" is a claim of them
        return weights

    def _call(self, node: Call, record: bool) -> Val:
        name = node.name.lower()
        args = [self._value_of(arg, record) for arg in node.args]
        deps = frozenset().union(*(arg.deps for arg in args))
        if name == "softmax" and len(args) == 1:
            arg = args[0]
            a, b = (
                (arg.a, arg.b)
                if is_matrix(arg.a)
                else (ImmutableMatrix([[arg.a]]), ImmutableMatrix([[arg.b]]))
            )
            return Val(stages.softmax_rows(a), stages.softmax_rows(b), deps, arith=False, rows=arg.rows)
        if (
            name == "causal" and len(args) == 1 and is_matrix(args[0].a)
        ):  # scores.masked_fill(tril == 0, -inf)
            arg = args[0]
            mask = stages.causal_mask(arg.a.rows, arg.a.cols)
            return Val(
                stages.scale_scores(arg.a, 1, mask),
                stages.scale_scores(arg.b, 1, mask),
                deps,
                arith=arg.arith,
                rows=arg.rows,
            )
        if name in ("rows", "cols") and len(args) == 1 and is_matrix(args[0].a):  # K.shape[-1] in code
            count = args[0].a.rows if name == "rows" else args[0].a.cols
            return Val(sympy.Integer(count), sympy.Integer(count))
        if name == "np.exp" and len(args) == 1 and is_matrix(args[0].a):  # code's exp: entry by entry
            arg = args[0]
            return Val(
                arg.a.applyfunc(bounded_exp), arg.b.applyfunc(bounded_exp), deps, arith=False, rows=arg.rows
            )
        if name in ("exp", "np.exp") and len(args) == 1:
            arg = self._scalar(args[0], "exp")
            return Val(bounded_exp(arg.a), bounded_exp(arg.b), deps, arith=False)
        if name == "concat" and all(is_matrix(arg.a) for arg in args):
            return Val(
                stages.hconcat([a.a for a in args]),
                stages.hconcat([a.b for a in args]),
                deps,
                arith=all(a.arith for a in args),
            )
        if node.name in self.env and len(args) == 1:
            return self._product([self._lookup(node.name), args[0]])
        raise Unverifiable(f"the function {_display_name(node.name)} is not defined in the document")

    def _normaliser(self, node: Num, numerators: Val, printed_row: Matrix) -> Val:
        """The denominator of ``[x_1, …, x_n] / S`` claims ``S = x_1 + … + x_n``
        (a softmax row written out): judged on the numerators' rounding, and
        carried into the quotient."""
        total_a = sympy.Add(*numerators.a)
        total_b = sympy.Add(*numerators.b)
        cells = ball_of(printed_row, _BallLookup(self, printed_row))
        ball = sum(cells[0], start=cells[0][0] * 0) if isinstance(cells, list) and len(cells) == 1 else None
        ok = self._judge(
            node,
            total_a,
            total_b,
            numerators.deps,
            cell=None,
            reason="the sum of the numerators",
            ball=ball,
            truth=numerators.truth,
        )
        printed = parse_claim(node.text).value
        return Val(
            printed,
            total_b,
            numerators.deps | self._source(node, ok, printed, total_b),
            arith=numerators.arith,
        )

    def _judge_step(
        self, operands: list[Num], value: Val, ref: Val, *, after_name: bool = False
    ) -> bool | None:
        """The numbers of an exact step (``\frac{1}{\\sqrt{2}} = \frac{\\sqrt{2}}{2}``):
        right when the step's value equals the side before it exactly.  Returns
        the verdict (None: undecided)."""
        verdict = equal(value.b, ref.b)
        if verdict is None or (after_name and not verdict):
            self.unverified(operands, "operand", "a number used in a computation")
            return verdict
        if verdict:
            for num in operands:
                self._add(
                    num, status="ok", kind="ok", reason="part of an exact step equal to the side before"
                )
            return True
        # not equal: an error, or a convention the step leaves implicit (a mask, a transpose);
        # without knowing which, its numbers are listed, never called wrong
        self.unverified(operands, "unverifiable", "this side is not exactly equal to the side before it")
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
                    reason="fits the side before it, which is not exactly equal to the side before that",
                )
                if f.status == "ok"
                else f
                for f in self.findings[mark:]
            ]
        return fitted

    def _composite(self, node: Mul) -> Val | None:
        """``softmax(QKᵀ/√d_k) V = [printed][printed] = …``: each printed factor
        claims the factor of the product before it, and the product goes on
        from the printed factors (by the document's numbers) and the truth."""
        head, values = self.head_factors  # type: ignore[misc]
        self.head_factors = None
        if head is node or len(node.factors) != len(values):
            return None
        if not any(isinstance(f, Matrix) and is_literal(f) for f in node.factors):
            return None
        parts = []
        for factor, value in zip(node.factors, values, strict=True):
            printed = isinstance(factor, Matrix) and is_literal(factor)
            if printed and (
                not is_matrix(value.a) or value.a.shape != (len(factor.rows), len(factor.rows[0]))
            ):  # type: ignore[attr-defined]
                return None
        for head_factor, factor, value in zip(head.factors, node.factors, values, strict=True):
            if isinstance(factor, Matrix) and is_literal(factor):
                saved = self.subject
                if isinstance(head_factor, Name):
                    self.subject = _display_name(head_factor.name)  # [printed] restates A in AV = [A][V]
                try:
                    claimed = self.claim(factor, value)
                finally:
                    self.subject = saved
                parts.append(Val(claimed.a, value.b, claimed.deps, arith=value.arith, rows=claimed.rows))
                if not isinstance(head_factor, Name):  # softmax(QKᵀ/√d_k) printed: the document's weights
                    self._bind_expression(head_factor, parts[-1])
            else:
                parts.append(self._value_of(factor, True))
        product = self._product(parts)
        ball = ball_of(node, _BallLookup(self, node))
        return dataclasses.replace(product, ball=ball)

    def _expanded_dot(self, node: Node, ref: Val) -> Val | None:
        """``[1, 2] · [1, 1] = 1*1 + 2*1``: each factor of the written-out sum
        restates an entry of the two vectors (a copied-wrong entry is a slip);
        the sum carries the truth of the dot product."""
        u, v = self.last_dot  # type: ignore[misc]
        self.last_dot = None
        terms = node.terms if isinstance(node, Sum) else (node,) if isinstance(node, Mul) else ()
        n = u.a.cols
        if len(terms) != n or not all(
            isinstance(t, Mul) and len(t.factors) == 2 and all(isinstance(f, Num) for f in t.factors)
            for t in terms
        ):
            return None
        deps = set(ref.deps)
        printed = []
        for j, term in enumerate(terms):
            factors = term.factors  # type: ignore[attr-defined]
            for factor, vector in zip(factors, (u, v), strict=True):
                ok = self._judge(
                    factor,
                    vector.a[0, j],
                    vector.b[0, j],
                    vector.deps,
                    cell=(1, j + 1),
                    reason="restates an entry",
                )
                deps |= self._source(factor, ok, parse_claim(factor.text).value, vector.b[0, j])
            printed.append(parse_claim(factors[0].text).value * parse_claim(factors[1].text).value)
        return Val(sympy.Add(*printed), ref.b, frozenset(deps), arith=ref.arith)

    def _product(self, values: list[Val]) -> Val:
        result = values[0]
        for value in values[1:]:
            if (
                is_matrix(result.a)
                and is_matrix(value.a)
                and result.a.rows == value.a.rows == 1
                and result.a.cols == value.a.cols
            ):
                self.last_dot = (result, value)  # [1, 2] · [1, 1]: the next element may write it out
            try:
                product_a = multiply(result.a, value.a)
                product_b = multiply(result.b, value.b)
            except ShapeError as err:
                raise ShapeError(f"{self.subject}: {err}") from None
            rows = None
            if is_matrix(product_a) and is_matrix(result.a) and product_a.rows == result.a.rows:
                rows = rows_joined(result.rows, value.deps)  # row i of XY comes from row i of X
            elif is_matrix(product_a) and not is_matrix(result.a):
                rows = rows_joined(value.rows, result.deps)
            result = Val(
                product_a,
                product_b,
                result.deps | value.deps,
                arith=result.arith and value.arith,
                rows=rows,
            )
        return result

    # --- ties -----------------------------------------------------------------

    def _matrix(self, node: Matrix, record: bool) -> Val:
        cols = len(node.rows[0])
        if any(len(row) != cols for row in node.rows):
            raise ShapeError(
                f"{self.subject}: a ragged matrix (row lengths {', '.join(str(len(r)) for r in node.rows)})"
            )
        printed = [[printed_value(cell) for cell in row] for row in node.rows]
        if record and all(v is not None for row in printed for v in row):
            tie = self._find_tie(ImmutableMatrix(printed))
            if tie is not None:
                return self._tied(node, tie)
        cells = [[self._value_of(cell, record) for cell in row] for row in node.rows]
        for row in cells:
            for cell in row:
                if is_matrix(cell.a):
                    raise Unverifiable("a matrix inside a matrix")
        return Val(
            ImmutableMatrix([[c.a for c in row] for row in cells]),
            ImmutableMatrix([[c.b for c in row] for row in cells]),
            frozenset().union(*(c.deps for row in cells for c in row)),
            arith=all(c.arith for row in cells for c in row),
            rows=tuple(frozenset().union(*(c.deps for c in row)) for row in cells),
        )

    def _find_tie(self, printed: ImmutableMatrix) -> tuple[str, Binding, str, int] | None:
        candidates = [(n, b) for n, b in reversed(self.env.items()) if is_matrix(b.a)]
        for name, binding in candidates:
            if binding.a.shape == printed.shape and equal(binding.a, printed) is True:
                return name, binding, "whole", 0
        for name, binding in candidates:
            if binding.a.shape == printed.T.shape and equal(binding.a.T, printed) is True:
                return name, binding, "transpose", 0
        if printed.rows == 1:
            for name, binding in candidates:
                if binding.a.cols == printed.cols and binding.a.rows > 1:
                    for i in range(binding.a.rows):
                        if equal(binding.a.row(i), printed) is True:
                            return name, binding, "row", i
        return None

    def _tied(self, node: Matrix, tie: tuple[str, Binding, str, int]) -> Val:
        name, binding, how, row = tie
        a, b = binding.a, binding.b
        if how == "transpose":
            a, b = stages.transpose(a), stages.transpose(b)
        elif how == "row":
            a, b = ImmutableMatrix(a.row(row)), ImmutableMatrix(b.row(row))
        label = _display_name(name) + ("ᵀ" if how == "transpose" else "")
        saved, self.subject = self.subject, label
        try:
            for i, cells in enumerate(node.rows):
                for j, cell in enumerate(cells):
                    if isinstance(cell, Num):
                        where = (row + 1, j + 1) if how == "row" else (i + 1, j + 1)
                        self._judge(
                            cell, a[i, j], b[i, j], binding.deps, cell=where, reason=f"restates {label}"
                        )
        finally:
            self.subject = saved
        return Val(a, b, binding.deps, arith=binding.arith)

    def _weighted_sum(self, node: Sum) -> tuple[Val, ...] | None:
        """Tie ``w1·v1 + w2·v2 + ...``: the weights to a row of an earlier matrix
        (one of three or more may be copied wrong: a slip), and each printed
        ``v_j`` to row j of V."""
        weights = []
        for term in node.terms:
            if not (isinstance(term, Mul) and len(term.factors) >= 2 and isinstance(term.factors[0], Num)):
                return None
            weights.append(term.factors[0])
        match = self._row_match(weights)
        if match is None:
            return None
        name, binding, i = match
        label = _display_name(name)
        saved, self.subject = self.subject, label
        tied = []
        try:
            for j, weight in enumerate(weights):
                a, b = binding.a[i, j], binding.b[i, j]
                ok = self._judge(weight, a, b, binding.deps, cell=(i + 1, j + 1), reason=f"restates {label}")
                printed = parse_claim(weight.text).value
                source = self._source(weight, ok, printed, b)
                tied.append(Val(printed, b, binding.deps | source, arith=binding.arith))
        finally:
            self.subject = saved
        return tuple(
            self._product([w, *self._value_rows(term.factors[1:], j, len(weights))])
            for j, (w, term) in enumerate(zip(tied, node.terms, strict=True))
        )

    def _row_match(self, weights: list[Num]) -> tuple[str, Binding, int] | None:
        """The bound matrix row the printed weights restate: exactly, or all but
        one of three or more."""
        best = None
        for name, binding in reversed(self.env.items()):
            if not is_matrix(binding.a) or binding.a.cols != len(weights) or binding.a.rows < 2:
                continue
            for i in range(binding.a.rows):
                try:
                    misses = sum(not claim_fits(w.text, binding.a[i, j]) for j, w in enumerate(weights))
                except SymattnError:
                    continue
                if misses == 0:
                    return name, binding, i
                if misses == 1 and len(weights) >= 3 and best is None:
                    best = (name, binding, i)
        return best

    def _value_rows(self, factors: tuple[Node, ...], j: int, n: int) -> list[Val]:
        """The factors after a weight; a printed row vector there is v_j, row j of V."""
        v_name = self._resolve("V")
        v = self.env.get(v_name)
        if (
            v is not None
            and len(factors) == 1
            and isinstance(factors[0], Matrix)
            and len(factors[0].rows) == 1
            and is_matrix(v.a)
            and v.a.rows == n
            and v.a.cols == len(factors[0].rows[0])
            and all(isinstance(c, Num) for c in factors[0].rows[0])
        ):
            cells = factors[0].rows[0]
            deps = set(v.deps)
            label = _display_name(v_name)
            saved, self.subject = self.subject, label
            try:
                for c, cell in enumerate(cells):
                    ok = self._judge(
                        cell, v.a[j, c], v.b[j, c], v.deps, cell=(j + 1, c + 1), reason=f"restates {label}"
                    )  # type: ignore[arg-type]
                    deps |= self._source(cell, ok, parse_claim(cell.text).value, v.b[j, c])  # type: ignore[union-attr]
            finally:
                self.subject = saved
            printed = ImmutableMatrix([[parse_claim(c.text).value for c in cells]])  # type: ignore[union-attr]
            return [Val(printed, ImmutableMatrix(v.b.row(j)), frozenset(deps), arith=v.arith)]
        return [self._value_of(f, True) for f in factors]


# --- arithmetic on values (delegating matrix products to stages) ------------------
