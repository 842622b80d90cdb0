"""The rest of the transformer block as documents write it, and its conventions.

``LayerNorm(x)`` / ``LN(x)``, ``RMSNorm(x)``, ``ReLU(h)`` and ``\\max(0, h)``,
``GELU``, ``SiLU``, ``FFN(x)`` (with the document's W_1, b_1, W_2, b_2),
sinusoidal ``PE`` (a printed matrix, ``PE_{(pos,i)}`` and ``PE(pos, i)``) and the
statistics ``μ`` and ``σ`` of the row being normalised.  Every value comes from
:mod:`symattn.block`, in both worlds (the document's numbers and the truth).

Conventions.  The document's stated conventions (:mod:`.stated`) fix the truth:
the interleaved layout (the paper's formula) unless it says concatenated,
positions from 0 unless it says 1, the population variance, ε as bound (1e-5 when
the document gives none), GELU's erf form unless it says tanh.  When a chain's
wrong numbers all fit one other convention, they are reported as kind
"convention" with ``Finding.fits`` naming it ("these values match the
concatenated layout").  A convention the document does not state is not held
against it: numbers that fit it are ok, with the reason saying so.

A mixin of :class:`~symattn.verify.evaluate.DocumentState`.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import sympy
from flint import arb
from sympy import ImmutableMatrix, Rational

from symattn import block, registry
from symattn.errors import SymattnError
from symattn.exact import _endpoints, enclose, parse_claim
from symattn.latexparse import Call, Div, Matrix, Name, Node, Num, Pow, literals
from symattn.verify.balls import _lift, _widen
from symattn.verify.claims import claim_fits, judge, larger_than
from symattn.verify.finding import Finding
from symattn.verify.shapes import is_literal, names_in
from symattn.verify.stated import Stated
from symattn.verify.values import Binding, Unverifiable, Val, equal, exact_cells, is_matrix, row_deps, row_of

__all__ = ["Sublayers"]

#: The widest positional encoding a document's PE(pos, i) is evaluated for (a row is d sines and cosines).
MAX_PE_WIDTH = 4096
#: ε when the document binds none: PyTorch's default (ε = 0 is accepted too).
DEFAULT_EPS = Rational(1, 100000)

_LN_NAMES = {"layernorm", "ln", "layer_norm"}
#: The names _block_call evaluates as stages, lower-cased.
_STAGE_CALLS = frozenset(
    {*_LN_NAMES, "rmsnorm", "relu", "gelu", "silu", "swish", "ffn", "rope", "mha", "multihead", "pe"}
)
_EPS_NAMES = ("epsilon", "varepsilon", "eps", "\u03b5")
_GAMMA, _BETA = ("gamma", "\u03b3"), ("beta", "\u03b2")
_STAT = re.compile(r"(mu|sigma|mean|var|variance|std|RMS|rms)(?:_\{?(\d{1,2})\}?)?$")
#: The statistics under their spelt-out names (``mean = 2.925 / 4``, ``var = 3.5729``).
_STAT_WORDS = {"mean": "mu", "var": "variance", "variance": "variance", "std": "sigma", "RMS": "rms"}
#: x̂ (the normalised row, before γ and β): \hat{x}, \hat{\mathbf{x}}_1, x_hat, x_{hat}.
_HAT = re.compile(
    r"(?:\\hat\{(?:\\mathbf\{[a-z]\}|\\boldsymbol\{[a-z]\}|[a-z])\}|[a-z]_\{?hat\}?)(?:_\{?(\d{1,2})\}?)?$"
)  # x̂ and ẑ alike: the row being normalised, normalised
#: x_i, row i of the rows being normalised, when the document never binds it.
_X_ROW = re.compile(r"(?:x|\\mathbf\{x\})_\{(\d{1,2})\}$")
#: x written bare for one token's vector.
_BARE_X = ("x", "\\mathbf{x}", "\\boldsymbol{x}")
#: r_1, h_{2}: row i of the matrix a single lower-case letter names, when the document never binds it.
#: ``x^{(1)}``: token 1's vector, numbered by a superscript (the units take the subscripts, h_1 … h_4).
_TOKEN_SUPERSCRIPT = re.compile(r"([A-Za-z]{1,3})\^\{\((\d{1,2})\)\}")
_ROW_OF_BOUND = re.compile(r"([a-z])_\{(\d{1,2})\}$")
_PE_CELL = re.compile(r"PE_\{?\(?\s*(\d{1,4})\s*,\s*(\d{1,4})\s*\)?\}?$")
_PE_ROW = re.compile(r"PE_\{?\(?(\d{1,4})\)?\}?$")
_PE_NAMES = frozenset(registry.stage("positional", registry.BLOCK).aliases)  # its declaration
_D_MODEL = ("d_{model}", "d_{\\text{model}}", "d_{\\mathrm{model}}", "d_model", "d", "D")
_NOT_NORMALISED = re.compile(r"(W|b|gamma|beta|epsilon|eps|d|PE|A|weights)(_|\^|$)")
#: Each convention a document may follow instead of the true one: the override it sets.
#: Rows of larger closed forms (a layer's nested roots) are not tried as "another row".
_SMALL_ROW_NODES = 200
#: A printed number after a step that is not equal to the side before (evaluate.py): it may
#: follow the step's convention (σ² = 14.8 / 4 = 3.7 for d = 5 is the sample variance).
_DOUBTED = "fits the side before it, which is not exactly equal"
#: A given row with a cell of 4 places or more (half-unit ≤ 5·10^-5) restates computed values, rounded.
_RESTATED_HALF = Rational(1, 20000)
_ANOTHER_ROW = "another row"
_ANOTHER_ROW_IN = "another row, in a formula"  # √(σ² + ε) of a row other than the one read as meant  # μ or σ of a row other than the one read as meant
_OVERRIDES = {
    "concatenated layout": ("layout", "concatenated"),
    "interleaved layout": ("layout", "interleaved"),
    "positions from 1": ("start", 1),
    "positions from 0": ("start", 0),
    "sample variance": ("ddof", 1),
    "population variance": ("ddof", 0),
    "eps = 0": ("eps", sympy.Integer(0)),
    "tanh GELU": ("gelu", "gelu_tanh"),
    "without gamma and beta": ("affine", False),
    "erf GELU": ("gelu", "gelu"),
    "base 10000": ("base", 10000),  # the document states another base, the paper's was used
    "binary units": ("units", "binary"),  # 1 KB = 1024 bytes (KiB), as memory is often counted
    "decimal units": ("units", "decimal"),  # 1 KB = 1000 bytes
}


class Sublayers:
    """Methods of :class:`~symattn.verify.evaluate.DocumentState` (see the module docstring)."""

    stated: Stated = Stated()
    override: dict[str, Any] | None = None  # one other convention, while a chain is re-read under it
    consulted: set[str] | None = None  # the conventions the element being read depends on
    block_elements: list[tuple[Node, frozenset[str]]] | None = None
    norm_rows: tuple[str, Val, Any] | None = None  # the last matrix bound that a norm may apply to
    recent_rows: tuple[tuple[str, Val, Any], ...] = ()  # the last few, for "μ of the second row"
    row_source: dict[str, Any]  # z -> (the rows, its row, its binding); set per document (evaluate.py)
    other_statistics: tuple[Any, ...] = ()  # (μ, σ or RMS, ddof, ε, those rows): the same of other rows
    pe_shape: tuple[int, int] | None = None
    claim_shape: tuple[int, int] | None = None  # of ReLU = [printed]
    last_concat: Val | None = None
    row_name_hint: str | None = None  # the vector the formula's line names ("对 r1：")
    row_hint: int | None = None  # the row the formula's line names ("row 2:", "第二行"), set per span
    section_row: int | None = None  # the row named last in this section (a heading resets it)
    own_row: int | None = None  # the row the formula's own line names ("token1  x = [...]")
    squares_cue: bool = False  # the words before the formula say it squares what came before
    last_row: Val | None = None  # the last row a chain printed
    last_row_half: Any = None  # ... and its cells' half-units
    accepted: tuple[Any, set] | None = None  # a convention the chain's numbers were accepted under
    followed: tuple[Any, set] | None = None  # a convention they follow where the document states another
    top_element: Node | None = None
    binary_units: bool = False  # a result was right only with 1 KB = 1024 bytes: the document's count

    # --- the conventions in force ---------------------------------------------------------

    def _convention(self, key: str, labels: tuple[str, ...]) -> Any:
        """The value of ``key`` (layout, start, ddof, eps, gelu) under the override,
        noting the other conventions the element could have followed."""
        if self.consulted is not None:
            self.consulted.update(labels)
        if self.override is not None and key in self.override:
            return self.override[key]
        stated = self.stated
        if key == "layout":
            return stated.layout or "interleaved"
        if key == "start":
            return stated.start if stated.start is not None else 0
        if key == "ddof":
            return 0
        if key == "gelu":
            return "gelu_tanh" if stated.gelu == "tanh" else "gelu"
        if key == "eps":
            return self._bound_eps()
        if key == "affine":
            return True
        if key == "base":
            return stated.base or 10000
        if key == "units":  # decimal, until a result of the document is right only in binary
            return "binary" if self.binary_units else "decimal"
        raise KeyError(key)  # pragma: no cover - the keys are _OVERRIDES' own

    def _acceptable(self, label: str) -> bool:
        """Whether numbers that follow ``label`` are right by what the document states
        (it did not state the convention, or stated this one)."""
        key, value = _OVERRIDES[label]
        stated = self.stated
        if key == "layout":
            return stated.layout is None or stated.layout == value
        if key == "start":
            return stated.start is None or stated.start == value
        if key == "ddof":
            return stated.variance == ("sample" if value == 1 else "population")
        if key == "gelu":
            return stated.gelu is None or (stated.gelu == "tanh") == (value == "gelu_tanh")
        if key == "eps":
            return self._eps_binding() is None
        if key == "base":
            return stated.base in (None, value)
        if key == "units":  # KB as 1000 or 1024 bytes: both are in use, one per document
            return value == "binary" or not self.binary_units
        return key == "affine"  # a γ, β bound for another norm (an RMSNorm's gain) may not be this one's

    def _eps_binding(self) -> Binding | None:
        return next((self.env[n] for n in _EPS_NAMES if n in self.env and not is_matrix(self.env[n].a)), None)

    def _bound_eps(self) -> Any:
        binding = self._eps_binding()
        return DEFAULT_EPS if binding is None else binding.b

    # --- names: μ, σ, PE ------------------------------------------------------------------

    def _note_family(self, chain: Any, failure: str) -> None:
        """``h = x W_1 + b_1`` (or ``r = x + FFN(x)``) where x names no matrix but x_1, x_2
        are the tokens' vectors: a formula for each h_i (``h1 = [...]`` is x_1 W_1 + b_1)."""
        match = re.match(r"([a-z]) is not defined", failure)
        if not self.stated.block or match is None or len(chain.elements) not in (2, 3):
            return
        head, formula = chain.elements[:2]  # a = ReLU(h) = max(0, h): the first form
        if len(chain.elements) == 3 and list(literals(formula)):
            return
        variable = match.group(1)
        if isinstance(head, Name) and "_" not in head.name and variable in names_in(formula):
            self.families[head.name] = (variable, formula)

    def _family_member(self, name: str) -> Val | None:
        """``h_{1}`` of a family ``h = x W_1 + b_1``: the formula with x := x_1; the family's
        own name, unbound, is its members stacked (``out = [[…], […]]`` for x_1, x_2)."""
        if name in self.families and name not in self.env:
            return self._family_stacked(name)
        match = re.fullmatch(r"([A-Za-z]{1,3})_\{(\d{1,2})\}", name) or _TOKEN_SUPERSCRIPT.fullmatch(name)
        if match is None or match.group(1) not in self.families:
            return None
        variable, formula = self.families[match.group(1)]
        member = name.replace(match.group(1), variable, 1)  # h_{1} -> x_{1}; a^{(1)} -> h^{(1)}
        if variable in self.env:
            return None
        if member not in self.env:
            inner = self._family_member(member) if member != name else None  # a^{(1)} = ReLU(h^{(1)})
            if inner is None:
                return None
            self.env[variable] = Binding(inner.a, inner.b, inner.deps, inner.arith, None, rows=inner.rows)
        else:
            self.env[variable] = self.env[member]
        saved, self.row_hint = self.row_hint, self._row_of(match.group(2))  # its μ and σ are token i's
        try:
            return self._value_of(formula, record=False)  # type: ignore[attr-defined]
        except (Unverifiable, SymattnError):
            return None
        finally:
            self.env.pop(variable, None)
            self.row_hint = saved

    def _family_stacked(self, name: str) -> Val | None:
        """The rows h_1, h_2, … of a family, one per bound x_1, x_2, … (at least two)."""
        variable = self.families[name][0]
        members = []
        for i in range(1, 65):
            if f"{variable}_{{{i}}}" not in self.env:
                break
            member = self._family_member(f"{name}_{{{i}}}")
            if member is None or not is_matrix(member.a) or member.a.rows != 1:
                return None
            members.append(member)
        if len(members) < 2 or len({m.a.cols for m in members}) != 1:
            return None
        return Val(
            ImmutableMatrix([list(m.a) for m in members]),
            ImmutableMatrix([list(m.b) for m in members]),
            frozenset().union(*(m.deps for m in members)),
            arith=False,
            rows=tuple(m.deps for m in members),
        )

    def _drop_stale_statistic(self, name: str) -> None:
        """``μ = 3.2`` printed for token 2 is not token 3's μ: a printed statistic is
        forgotten once the rows it was of are no longer the ones being normalised."""
        if name in self.env and name in self.statistic_of and self.stated.norm:
            rows, row = self.statistic_of[name]
            current = self.norm_rows[1] if self.norm_rows else None
            if rows is not current or (row is not None and self.row_hint not in (None, row)):
                # other rows, or another row named ("**Row 2.** μ = …" after row 1's μ)
                del self.statistic_of[name]
                self.env.pop(name, None)

    def _overridden(self, name: str) -> Val | None:
        """A bound ε in a document about layer norm, read under "eps = 0" when that
        convention is being tried (and noted as one the element depends on)."""
        if name not in _EPS_NAMES or not self.stated.norm:
            return None
        if self.consulted is not None:
            self.consulted.add("eps = 0")
        if self.override is not None and "eps" in self.override:
            return Val(self.override["eps"], self.override["eps"], arith=False)
        return None

    def _statistic_survives(self, ref: Val | None, index: int, chain: Any, err: Exception) -> bool:
        """After ``μ`` or ``σ²`` (a statistic, fixed by the row), a side written in a form
        the grammar does not read (``\\frac{1}{d}\\sum_j (x_j − μ)^2``) leaves the next
        printed number a claim of the statistic, not of nothing."""
        if ref is None or index == 0 or not self.block_elements:
            return False
        element, labels = self.block_elements[-1]
        return (
            element is chain.elements[index - 1]
            and _ANOTHER_ROW in labels
            and isinstance(err, Unverifiable)
            and str(err).startswith("uses ")
        )

    def _restated_statistic(self, index: int, chain: Any, value: Val, ref: Val) -> Val | None:
        """``μ = 5.65 / 3``: a step of printed numbers right by the document's own row
        (world a) but not by the true one: the statistic written out, so what follows is
        judged as the statistic (carried from the row's wrong numbers), not as the step."""
        if index == 0 or not self.block_elements or not ref.deps:
            return None
        element, labels = self.block_elements[-1]
        if element is not chain.elements[index - 1] or _ANOTHER_ROW not in labels:
            return None
        if value.deps or equal(value.a, value.b) is not True:
            return None
        if equal(value.a, ref.a) is not True and not _in_ball(ref.ball, value.a):
            return None  # (3.1917 / 4 for a row printed rounded: within μ's interval by that row)
        step = chain.elements[index]
        if isinstance(step, Div) and isinstance(step.num, Num) and isinstance(step.den, Num):
            self._rejudge(
                step.num, ref.b * parse_claim(step.den.text).value, ref.deps
            )  # 5.65 is the row's sum
        return Val(value.a, ref.b, ref.deps, arith=False)

    def _root_of_variance(self, node: Node) -> Val | None:
        """``σ² = 14.8 / 4 = 3.7``, then ``\\sqrt{3.70001}``: in a document about layer norm, a
        number under a root that is the scalar printed just before plus ε (or that scalar
        again) is σ² + ε written out, judged with that scalar's truth (carried when it was
        off); None otherwise."""
        if not (self.stated.norm and isinstance(node, Num) and self.last_scalar is not None):
            return None
        index, last = self.last_scalar
        if self.formula_index - index > 2 or not last.deps or is_matrix(last.a):
            return None
        value = parse_claim(node.text).value
        eps = self._bound_eps()
        for added in (eps, 0):
            if equal(value, last.a + added) is True:
                self._restated(node, last.deps, last.b + added)
                return Val(value, last.b + added, last.deps, arith=False)
        return None

    def _rejudge(self, num: Num, true: Any, deps: frozenset) -> None:
        """Judge again a number first listed as an operand, now that its truth is known."""
        index = self.finding_index.get(self.position(num.offset))
        if index is None or index >= len(self.findings) or self.findings[index].claimed != num.text:
            return
        try:
            verdict = judge(num.text, parse_claim(num.text).value, true, deps)
        except SymattnError:
            return
        self.findings[index] = dataclasses.replace(
            self.findings[index],
            status=verdict.status,
            kind=verdict.kind,
            value=verdict.value,
            exact=verdict.exact,
            carried_from=verdict.carried_from,
            reason="the row's sum, by the document's numbers" if verdict.status != "ok" else "the row's sum",
        )

    def _chain_row(self, chain_names: set[str]) -> None:
        """A chain that names one row x_i (``LayerNorm(x_2) = (x_2 − μ)/…``): its bare μ
        and σ are that row's."""
        rows = {m.group(1) for n in chain_names if (m := _X_ROW.match(n))}
        if len(rows) == 1:
            self.row_hint = self._row_of(rows.pop())

    def _block_name(self, name: str, *, used: bool = True) -> Val | None:
        """μ, σ (of the row being normalised), PE, PE_{(pos,i)} and, when ``used`` in a
        computation (not ``ε = 0.01``, which gives it), an unbound ε; None for other names."""
        member = self._family_member(name) if self.families else None
        if member is not None:
            return member
        if (
            name in _EPS_NAMES and self.stated.norm and used
        ):  # ε unbound: the default (or 0, under that convention)
            eps = self._convention("eps", ("eps = 0",))
            return Val(eps, eps, arith=False)
        if name == "ReLU" and not used and self.claim_shape is not None:
            return self._relu_of_recent(self.claim_shape)
        stat = _STAT.match(name)
        if stat and self.stated.norm:
            which = _STAT_WORDS.get(stat.group(1), stat.group(1))
            if which == "mu" and stat.group(1) == "mean" and self.stated.rms_only:
                raise Unverifiable("the mean of what? (RMSNorm takes the mean of the squares)")
            return self._statistic(which, self._row_of(stat.group(2)) if stat.group(2) else None)
        hat = _HAT.match(name)
        if hat and self.stated.norm:
            row, _ = self._normalised_row(self._row_of(hat.group(1)) if hat.group(1) else None)
            return self._norm(row, rms=False, plain=True)
        of_bound = _ROW_OF_BOUND.match(name)
        if of_bound and self.stated.norm and used:  # r_1, or x_1 when x is bound
            found = self._row_of_bound(of_bound.group(1), self._row_of(of_bound.group(2)))
            if found is not None:
                return found
        x_row = _X_ROW.match(name)
        if x_row and self.stated.norm and used and self.norm_rows is not None:
            row, _ = self._normalised_row(self._row_of(x_row.group(1)), bound_only=False)
            return row
        if not self.stated.positions:
            return None
        cell = _PE_CELL.match(name)
        if cell:
            return self._pe_cell(int(cell.group(1)), int(cell.group(2)))
        row = _PE_ROW.match(name)
        if row:
            return self._pe_row(int(row.group(1)))
        if name in _PE_NAMES and self.pe_shape is not None:
            return self._pe_matrix(*self.pe_shape)
        if name == "PE" and "X" in self.env and is_matrix(self.env["X"].a):  # X + PE
            rows, cols = self.env["X"].a.shape
            return self._pe_matrix(rows, cols)
        return None

    def _printed_pe(self, element: Node) -> Val | None:
        """A matrix given as an input in a document about positional encodings whose every
        printed cell, some of them rounded, is the rounding of the sinusoidal encoding at
        those positions (``E = [[0.0000, 1.0000], [0.8415, 0.5403]]``): that encoding, exact,
        whatever the document calls it; None otherwise (it stays an input)."""
        if not (self.stated.positions and isinstance(element, Matrix) and is_literal(element)):
            return None
        texts = [[cell.text if isinstance(cell, Num) else "" for cell in row] for row in element.rows]  # type: ignore[attr-defined]
        if not texts or any(not t for row in texts for t in row):
            return None  # a cell written -0.5 (a sign and a number) or not a number: not a printout
        n, d = len(texts), len(texts[0])
        if d % 2 or not 1 <= n <= 64 or d > 64 or any(len(row) != d for row in texts):
            return None
        if not any((parse_claim(t).places or 0) >= 3 for row in texts for t in row):
            return None  # nothing rounded: numbers typed as data
        saved = self.consulted
        self.consulted = None  # trying the encoding is not a convention this element depends on
        try:
            for start in (self.stated.start,) if self.stated.start is not None else (0, 1):
                try:
                    pe = self._pe(n, d, start)
                except Unverifiable:
                    return None
                off = [
                    (i, j)
                    for i, row in enumerate(texts)
                    for j, t in enumerate(row)
                    if not claim_fits(t, pe[i, j])
                ]
                if not off:
                    printed = ImmutableMatrix([[parse_claim(t).value for t in row] for row in texts])
                    return Val(printed, pe, frozenset(), arith=False)
                if n * d >= 6 and len(off) <= max(
                    1, n * d // 6
                ):  # most cells are the encoding: it, with slips
                    self.consulted = saved
                    return self._judged_pe(element, pe, (n, d), start)
        finally:
            self.consulted = saved
        return None

    def _judged_pe(self, element: Node, pe: ImmutableMatrix, shape: tuple[int, int], start: int) -> Val:
        """A printed encoding whose cells are the encoding but for a few: each cell judged as
        the encoding's, and the few named by a convention they all fit (a stated base 100
        computed with the paper's 10000)."""
        mark = len(self.findings)
        result = self.claim(element, Val(pe, pe, frozenset(), arith=False))  # type: ignore[attr-defined]
        wrong = [k for k in range(mark, len(self.findings)) if self.findings[k].status == "wrong"]
        labels = ["base 10000"] if self.stated.base not in (None, 10000) else []
        labels += [lab for lab in ("concatenated layout", "interleaved layout") if not self._acceptable(lab)]
        for label in labels:
            key, value = _OVERRIDES[label]
            saved, self.override = self.override, {key: value}
            try:
                other = self._pe(*shape, start)
            except Unverifiable:
                continue
            finally:
                self.override = saved
            if wrong and all(_fits(self.findings[k], other) for k in wrong):
                for k in wrong:
                    self.findings[k] = _following(self.findings[k], label)
                break
        return result

    def _squares_of_last_row(self, element: Node) -> bool:
        """``x − μ = [0.5435, …]``, and squaring: ``[0.2954, …]``: a printed row on its own after
        such words claims the squares of the row printed just before (of its truth, and by the
        document's numbers); False when there is no such row or the shapes differ."""
        last = self.last_row
        if not (self.stated.norm and self.squares_cue and last is not None and is_literal(element)):
            return False
        if len(element.rows) != 1 or len(element.rows[0]) != last.a.cols:  # type: ignore[attr-defined]
            return False
        half = self.last_row_half[0] if isinstance(self.last_row_half, list) and self.last_row_half else None
        ball = None
        if (
            half is not None
            and len(half) == last.a.cols
            and all(getattr(v, "is_Rational", False) for v in last.a)
        ):
            # a printed v ± h squares into [(|v| − h)², (|v| + h)²]: v² ± h(2|v| + h)
            ball = [
                [
                    _widen(enclose(v**2, 128), h * (2 * abs(v) + h) if h else 0)
                    for v, h in zip(last.a, half, strict=True)
                ]
            ]
        squares = Val(
            last.a.applyfunc(lambda v: v**2),
            last.b.applyfunc(lambda v: v**2),
            last.deps,
            arith=True,
            ball=ball,
        )
        self.claim(element, squares)
        return True

    def _hinted_ball(self, name: str) -> tuple[Any, Any] | None:
        """The row :meth:`_hinted_row` gives, with its cells' half-units when it was printed
        rounded (for the interval check of balls.py); None when no hint applies."""
        hinted = self._hinted_row(name)
        if hinted is None:
            return None
        numbered = self.env.get(self._numbered(name, self.row_hint))
        if numbered is not None and numbered.a == hinted.a:
            return hinted.a, self._half_units(self._numbered(name, self.row_hint), numbered.halfwidth)
        try:
            row, half = self._normalised_row(None)
        except Unverifiable:
            return hinted.a, None
        return row.a, [half] if half else None

    def _hinted_row(self, name: str) -> Val | None:
        """A bare ``x`` that the document never binds (only X, of several rows) in a section
        that named the row being normalised ("Take the second row of X + PE"): that row; and a
        bare ``z`` under "token 1:" when the document bound ``z1`` (and never ``z``): z1."""
        if not self.stated.norm or self.row_hint is None:
            return None
        numbered = self._numbered(name, self.row_hint)
        bound = self.env.get(name)
        source = self.row_source.get(name)
        if (
            source is not None
            and source[2] is bound
            and source[1] != self.row_hint
            and numbered not in self.env
        ):
            rows = source[0][1]  # z was row 1 of X + PE, and this section is token 2's: row 2
            if 1 <= self.row_hint <= rows.a.rows:
                return row_of(rows, self.row_hint - 1)
        if bound is not None and not (is_matrix(bound.a) and bound.a.rows == 1 and numbered in self.env):
            return None  # x bound, and no x_i of the token the section names
        if len(name) == 1 and name.islower() and numbered in self.env and is_matrix(self.env[numbered].a):
            binding = self.env[numbered]
            return Val(binding.a, binding.b, binding.deps, arith=binding.arith, rows=binding.rows)
        if name not in _BARE_X or bound is not None:
            return None
        if self.norm_rows is None or self.norm_rows[1].a.rows < 2:
            return None
        try:
            return self._normalised_row(None)[0]
        except Unverifiable:
            return None

    def _row_of_rows(self, name: str, value: Val) -> bool:
        """``z = (0.1, 1.4, -0.2, 1.3)`` under "token 0": when it is that row of the rows being
        normalised (X + PE, printed before), a bare z in the next token's section is the next row,
        not this one (see :meth:`_hinted_row`).  Returns whether it is."""
        rows = self.norm_rows
        row = self.own_row
        if rows is None or row is None or not 1 <= row <= rows[1].a.rows or rows[1].a.rows < 2:
            return False
        if rows[1].a.shape[1] != value.a.shape[1] or equal(rows[1].a.row(row - 1), value.a) is not True:
            return False
        self.row_source[name] = (rows, row, self.env[name])
        return True

    def _row_of(self, subscript: str) -> int:
        """The row (1-based) a subscript or label names: x_0 is the first row of a document
        that counts its tokens from 0 (Stated.first_row)."""
        return int(subscript) + 1 - self.stated.first_row

    def _sub(self, row: int) -> str:
        """The subscript the document gives row ``row`` (1-based): the inverse of :meth:`_row_of`."""
        return str(row - 1 + self.stated.first_row)

    def _numbered(self, name: str, row: int) -> str:
        """``z`` of row ``row``, as the document numbers it: ``z_{1}`` (``z_{0}`` counting from 0)."""
        return f"{name}_{{{self._sub(row)}}}"

    def _row_of_bound(self, letter: str, i: int) -> Val | None:
        """``r_1`` after ``r = x + FFN(x) = [[…], […]]``: row i of the matrix the letter names
        (or, when it names none, its capital: x_1 of X), 1-based, with that row's dependencies;
        None when there is no such matrix."""
        binding = self.env.get(letter)
        if binding is None:
            binding = self.env.get(letter.upper())  # x_1 of X, h_2 of H: a token's row of the matrix
        if binding is None or not is_matrix(binding.a) or binding.a.rows < 2 or not 1 <= i <= binding.a.rows:
            return None
        return row_of(binding, i - 1)

    def _half_units(self, name: str, halfwidth: Any) -> Any:
        """A row's half-units for interval checks: none for an input the document gives
        exactly (``x = [1.2, 0.4, 2]``: decimal text is exact), its printed ones for a row it
        computed, gives only rounded (``≈``) or restates with 4 places or more."""
        if not isinstance(halfwidth, list):
            return None
        given = name in self.inputs and name not in self.approximate_inputs
        if given and not any(h and h <= _RESTATED_HALF for row in halfwidth for h in row):
            return None  # x = [1.2, 0.4, 2]: typed by hand, exact; [0.8415, 1.0403, …]: a result restated
        binding = self.env.get(name)
        if binding is not None and name not in self.inputs:  # a row the document computed, truth known
            return exact_cells(binding.a, binding.b, halfwidth)
        return halfwidth

    def _normalised_row(self, index: int | None, *, bound_only: bool = True) -> tuple[Val, list[Any] | None]:
        """The row μ_i and σ_i speak of: x_i when bound, else row i of the last matrix
        bound (the only row of a vector for a bare μ, or the row the line names: "row 2:",
        "以第二行为例"); with its cells' half-units when it was printed rounded (None when
        not known)."""
        if self.override is not None and "row" in self.override:
            return self.override["row"], None  # another row, tried for a number that fits no convention
        named = self.row_name_hint
        if index is None and named is not None and named in self.env:
            binding = self.env[named]
            if is_matrix(binding.a) and binding.a.rows == 1:
                half = self._half_units(named, binding.halfwidth)
                return Val(binding.a, binding.b, binding.deps, arith=binding.arith), half[0] if half else None
        hint = self.row_hint
        if (
            index is None
            and hint is not None
            and self.norm_rows is not None
            and (
                self.norm_rows[1].a.rows > 1
                or any(n in self.env for n in _row_names(self._sub(hint)))
                or self._bound_rows(hint)  # r1, r2 given one by one, then "第 1 个 token：RMS = …"
            )
        ):
            index = hint
        if index is not None and bound_only:
            numbered = self._bound_rows(index)
            latest = max(numbered, key=lambda n: self.bound_line.get(n, 0), default=None)
            family = (latest,) if latest else ()  # z1 = x1 + PE(1) bound after x1: token 1's z, not its x
            for name in (*family, *_row_names(self._sub(index))):
                if name in self.env and is_matrix(self.env[name].a) and self.env[name].a.rows == 1:
                    binding = self.env[name]
                    half = self._half_units(name, binding.halfwidth)
                    return Val(binding.a, binding.b, binding.deps, arith=binding.arith), half[
                        0
                    ] if half else None
        if self.norm_rows is None:
            raise Unverifiable("μ and σ of which row? (no vector is given before them)")
        name, value, halves = self.norm_rows
        i = 0 if index is None else index - 1
        if index is None and self.section_closed(self.bound_line.get(name, 0)):
            raise Unverifiable(f"μ and σ of which row? ({name} is given in a section that has ended)")
        if index is None and value.a.rows != 1:
            raise Unverifiable(f"μ and σ of which row of {name}?")
        if not 0 <= i < value.a.rows:
            raise Unverifiable(f"{name} has no row {index}")
        half = halves[i] if isinstance(halves, list) and len(halves) == value.a.rows else None
        return row_of(value, i), half

    def _bound_rows(self, index: int) -> list[str]:
        """The bound one-row names of token ``index`` (``r_{1}``, ``z_{1}``), which a norm may apply to."""
        return [
            n
            for n in self.env
            if (m := _ROW_OF_BOUND.match(n))
            and m.group(2) == self._sub(index)
            and not _NOT_NORMALISED.match(n)
            and is_matrix(self.env[n].a)
            and self.env[n].a.rows == 1
        ]

    def _variance(self, node: Node) -> Val | None:
        """``σ^2``, ``\\sigma_1^2`` in a document about layer norm: the variance itself
        (not the square of a root, which SymPy would have to prove nonnegative)."""
        if not (self.stated.norm and isinstance(node, Pow) and isinstance(node.base, Name)):
            return None
        stat = _STAT.match(node.base.name)
        if not (
            stat and stat.group(1) == "sigma" and isinstance(node.exponent, Num) and node.exponent.text == "2"
        ):
            return None
        if node.base.name in self.env:
            return None
        return self._statistic("variance", self._row_of(stat.group(2)) if stat.group(2) else None)

    def _variance_ball(self, node: Node) -> Any:
        """``σ^2`` of a row printed rounded: its interval from the variance's own bound (the
        square of σ's interval would be twice as wide), or None."""
        if not (isinstance(node, Pow) and isinstance(node.base, Name) and self.stated.norm):
            return None
        stat = _STAT.match(node.base.name)
        if not (
            stat and stat.group(1) == "sigma" and isinstance(node.exponent, Num) and node.exponent.text == "2"
        ):
            return None
        found = self._statistic_ball("variance" + node.base.name[len("sigma") :])
        if found is None or found[1] is None:
            return None
        value, wide = found
        return _widen(enclose(value, 128), wide)

    def _statistic(self, which: str, index: int | None) -> Val:
        row, _ = self._normalised_row(index)
        ddof = self._convention("ddof", ("sample variance",)) if which != "mu" else 0
        top = self.top_element
        bare = isinstance(top, Name) or (isinstance(top, Pow) and isinstance(top.base, Name))
        if self.consulted is not None:  # μ = 1.0979 alone, or √(σ² + ε), may be another row's
            self.consulted.add(_ANOTHER_ROW if bare else _ANOTHER_ROW_IN)
        eps = self._convention("eps", ("eps = 0",)) if which == "rms" else 0  # RMS = √(mean(x²) + ε)
        if self.override is None:  # computed only when a number fits no row
            self.other_statistics = (which, ddof, eps, self.recent_rows)
        return Val(
            _row_statistic(which, row.a, ddof, eps),
            _row_statistic(which, row.b, ddof, eps),
            row.deps,
            arith=False,
        )

    def _statistic_ball(self, name: str) -> tuple[Any, Any] | None:
        """μ, σ or σ² by the document's numbers with a rigorous half-width, when the row was
        printed rounded (half-units h_j), for the interval check of balls.py: |Δμ| ≤ Σ h_j / d,
        and for σ² the Cauchy–Schwarz bound below (tight: a loose one such as Σ h_j would let a
        wrong variance pass as rounding)."""
        stat = _STAT.match(name)
        if not (stat and self.stated.norm):
            return None
        try:
            row, half = self._normalised_row(self._row_of(stat.group(2)) if stat.group(2) else None)
            which = _STAT_WORDS.get(stat.group(1), stat.group(1))
            if which == "rms":
                return None  # no interval rule for the RMS yet: judged exactly
            ddof = self._convention("ddof", ()) if which != "mu" else 0
            value = _row_statistic(which, row.a, ddof)
        except (Unverifiable, SymattnError):
            return None
        if not half or any(h is None for h in half):
            return value, None
        total = sum(half, sympy.Integer(0))
        if which == "mu":
            return value, total / row.a.cols
        if not all(getattr(v, "is_Rational", False) for v in row.a):
            return value, None
        # σ²(x + Δ) − σ²(x) = (2/m) c·Δ + (1/m) ‖Δ'‖² with c the centred row, Δ' the centred Δ and
        # m = d − ddof: |Δσ²| ≤ (2/m)·√(‖c‖²·Σh²) + Σh²/m (Cauchy–Schwarz; centring shortens Δ)
        mean = sum(row.a, sympy.Integer(0)) / row.a.cols
        spread = sum(((v - mean) ** 2 for v in row.a), sympy.Integer(0))
        squares = sum((h**2 for h in half), sympy.Integer(0))
        m = row.a.cols - ddof
        wide = 2 * _sqrt_bounds(spread * squares)[1] / m + squares / m
        if which == "variance":
            return value, wide
        variance = _row_statistic("variance", row.a, ddof)
        if variance <= wide:
            return value, None  # σ near 0: no useful interval
        # |√a − √b| = |a − b|/(√a + √b) ≤ wide / √(σ² − wide)
        return value, wide / _sqrt_bounds(variance - wide)[0]

    def _d_model(self) -> int:
        for name in _D_MODEL:
            binding = self.env.get(name)
            if binding is not None and getattr(binding.b, "is_Integer", False) and binding.b > 0:
                if binding.b > MAX_PE_WIDTH:  # a row of PE is d exact sines and cosines
                    raise Unverifiable(f"d_model = {binding.b} is wider than {MAX_PE_WIDTH} (not evaluated)")
                return int(binding.b)
        raise Unverifiable("the width d_model of the positional encoding is not given")

    def _pe(self, n: int, d: int, start: int) -> ImmutableMatrix:
        layout = self._convention("layout", ("concatenated layout", "interleaved layout"))
        base = self._convention("base", ("base 10000",) if self.stated.base not in (None, 10000) else ())
        try:
            return block.positional_encoding(n, d, base=base, start=start, layout=layout)
        except SymattnError as err:
            raise Unverifiable(str(err)) from None

    def _shift(self) -> int:
        """How far an author counting from the other first position is off: PE(0)
        written for the first token computed at position 1 under "positions from 1"."""
        stated = self.stated.start if self.stated.start is not None else 0
        return self._convention("start", ("positions from 1", "positions from 0")) - stated

    def _pe_cell(self, pos: int, dim: int) -> Val:
        d = self._d_model()
        if dim >= d:
            raise Unverifiable(f"PE has {d} columns (d_model = {d}), not {dim + 1}")
        value = self._pe(1, d, max(pos + self._shift(), 0))[0, dim]
        return Val(value, value, arith=False)

    def _printed_pe_row(self, name: str, pos: int) -> Val | None:
        """``PE(1)`` after a table ``PE = [...]`` of positions: that table's row for position 1
        (its rows counted from the document's first position), the document's numbers in world
        (a), so what is computed from a wrong row is carried from it; None when PE is no such
        matrix."""
        binding = self.env.get(name)
        index = pos - (self.stated.start or 0)
        if (
            binding is None
            or not is_matrix(binding.a)
            or binding.a.rows < 2
            or not 0 <= index < binding.a.rows
        ):
            return None
        try:
            if binding.a.cols != self._d_model():
                return None
        except Unverifiable:
            return None
        return row_of(binding, index)

    def _pe_row(self, pos: int) -> Val:
        row = self._pe(1, self._d_model(), max(pos + self._shift(), 0))
        return Val(row, row, arith=False)

    def _pe_matrix(self, n: int, d: int) -> Val:
        start = self._convention("start", ("positions from 1", "positions from 0"))
        matrix = self._pe(n, d, start)
        return Val(matrix, matrix, arith=False)

    def _block_chain_start(self, names: list[str], values: list[Node]) -> None:
        """A new chain: no block element read yet; ``PE = [printed]`` claims the
        sinusoidal encoding of the printed shape."""
        self.block_elements = []
        self.pe_shape = None
        rows = getattr(values[0], "rows", None) if len(values) == 1 else None
        self.claim_shape = (len(rows), len(rows[0])) if rows and names == ["ReLU"] else None
        if self.stated.norm:
            self._chain_row(set(names) | {n for v in values for n in names_in(v)})
        if not self.stated.positions or not _PE_NAMES & set(names) or len(values) != 1:
            return
        rows = getattr(values[0], "rows", None)
        if rows and len(rows[0]) % 2 == 0 and all(len(r) == len(rows[0]) for r in rows):
            self.pe_shape = (len(rows), len(rows[0]))

    # --- functions ------------------------------------------------------------------------

    def _scaled_by_gamma(self, nodes: tuple[Node, ...], factors: list[Val]) -> list[Val]:
        """``gamma * (r - mu)`` in a document about a norm: γ scales each feature, so its product
        with a row of its width is entry by entry (numpy's ``*``), not a dot product."""
        if not self.stated.norm or len(factors) < 2:
            return factors
        for i, node in enumerate(nodes[:-1]):
            if not (isinstance(node, Name) and node.name in _GAMMA):
                continue
            gamma, other = factors[i], factors[i + 1]
            if (
                is_matrix(gamma.a)
                and is_matrix(other.a)
                and gamma.a.rows == other.a.rows == 1
                and gamma.a.cols == other.a.cols > 1
            ):
                return [*factors[:i], self._entrywise(gamma, other), *factors[i + 2 :]]
        return factors

    def _is_stage_call(self, node: Call) -> bool:
        """``FFN(RMSNorm(x_2))`` after ``FFN = [0.049, 0.464, 0.562]`` printed for token 1: in a
        document about the block, a stage's name applied is the stage, whatever the name was
        last bound to (a token's FFN output), not a product with it."""
        return self.stated.block and node.name.lower() in _STAGE_CALLS

    def _block_call(self, node: Call, args: list[Val]) -> Val | None:
        """LayerNorm, RMSNorm, ReLU, max(0, ·), GELU, SiLU, FFN, PE(pos, i); None for others."""
        name = node.name.lower()
        deps = frozenset().union(*(arg.deps for arg in args))
        if name == "pe" and self.stated.positions and all(not is_matrix(a.b) for a in args):
            numbers = [a.b for a in args]
            if not all(getattr(v, "is_Integer", False) and v >= 0 for v in numbers):
                return None
            if len(numbers) == 2:
                return self._pe_cell(int(numbers[0]), int(numbers[1]))
            if len(numbers) == 1:
                return self._printed_pe_row(node.name, int(numbers[0])) or self._pe_row(int(numbers[0]))
            return None
        if name in ("mha", "multihead") and args and is_matrix(args[0].a):
            return self._attention_output(args[0])  # MHA(E), or MHA(N_1, M) across to the encoder
        if name == "max" and len(args) == 2:
            zero = [i for i, a in enumerate(args) if not is_matrix(a.b) and a.b == 0 and a.a == 0]
            if not zero:
                return None
            args = [args[1 - zero[0]]]
            name = "relu"
        if len(args) != 1:
            return None
        arg = args[0]
        if name == "rope" and is_matrix(arg.a):
            return self._rope(arg)
        if name in _LN_NAMES or name == "rmsnorm":
            return self._norm(arg, rms=name == "rmsnorm")
        if name in ("relu", "gelu", "silu", "swish"):
            activation = {"swish": "silu"}.get(name, name)
            if name == "gelu":
                activation = self._convention("gelu", ("tanh GELU", "erf GELU"))
            return self._activated(arg, activation, deps)
        if name == "ffn":
            return self._ffn(arg)
        return None

    def _rope(self, arg: Val) -> Val:
        """``RoPE(Q)``: each pair of columns of row m rotated by m·θ_i (symattn.block.rope),
        with the document's base, first position and pairing."""
        layout = self._convention("layout", ("concatenated layout", "interleaved layout"))
        start = self._convention("start", ("positions from 1", "positions from 0"))
        base = self.stated.base or 10000
        try:
            a = block.rope(arg.a, base=base, start=start, layout=layout)
            b = block.rope(arg.b, base=base, start=start, layout=layout)
        except SymattnError as err:
            raise Unverifiable(str(err)) from None
        return Val(a, b, arg.deps, arith=False, rows=arg.rows)

    def _relu_of_recent(self, shape: tuple[int, int]) -> Val | None:
        """``ReLU = [printed]`` (a table after "ReLU(h) = max(0, h)"): the ReLU of the last
        matrix of that shape the document computed (the hidden pre-activations), if any."""
        for name in reversed(list(self.env)):
            binding = self.env[name]
            if _NOT_NORMALISED.match(name) or name in self.inputs:
                continue
            if is_matrix(binding.a) and binding.a.shape == shape:
                arg = Val(binding.a, binding.b, binding.deps, arith=binding.arith, rows=binding.rows)
                return self._activated(arg, "relu", binding.deps)
        return None

    def _attention_output(self, arg: Val) -> Val | None:
        """``MHA(E)``: the multi-head output the document computed (``O = Concat(…) W_O``),
        when it has the input's shape."""
        for name in ("O", "MHA", "\\text{MultiHead}"):
            binding = self.env.get(name)
            if binding is not None and is_matrix(binding.a) and binding.a.shape == arg.a.shape:
                return Val(binding.a, binding.b, binding.deps, arith=binding.arith, rows=binding.rows)
        concat = self.last_concat  # no W_O: the heads' concatenation is the output
        if concat is not None and is_matrix(concat.a) and concat.a.shape == arg.a.shape:
            return concat
        return None

    def _matrix_of(self, value: Any) -> ImmutableMatrix:
        return value if is_matrix(value) else ImmutableMatrix([[value]])

    def _shaped(self, result: ImmutableMatrix, original: Any) -> Any:
        return result if is_matrix(original) else result[0, 0]

    def _activated(self, arg: Val, activation: str, deps: frozenset) -> Val:
        a = block.activate(self._matrix_of(arg.a), activation)
        b = block.activate(self._matrix_of(arg.b), activation)
        return Val(self._shaped(a, arg.a), self._shaped(b, arg.b), deps, arith=False, rows=arg.rows)

    def _param(self, names: tuple[str, ...], width: int, world: str) -> Any:
        for name in names:
            binding = self.env.get(name)
            if binding is None:
                continue
            value = getattr(binding, world)
            if is_matrix(value) and 1 in value.shape and len(value) == width:
                return list(value)
            if not is_matrix(value):
                return [value] * width
        return None

    def _norm(self, arg: Val, *, rms: bool, plain: bool = False) -> Val:
        """LayerNorm (or RMSNorm) of ``arg``'s rows with the document's γ, β, ε;
        ``plain``: x̂, before γ and β."""
        if not is_matrix(arg.a):
            raise Unverifiable("a layer norm of a single number")
        eps = self._convention("eps", ("eps = 0",))
        ddof = 0 if rms else self._convention("ddof", ("sample variance",))
        if any(n in self.env for n in _GAMMA + _BETA):
            plain = plain or not self._convention("affine", ("without gamma and beta",))

        def world(x: ImmutableMatrix, which: str) -> ImmutableMatrix:
            gamma = None if plain else self._param(_GAMMA, x.cols, which)
            if rms:
                if eps == 0 and any(all(v == 0 for v in x.row(i)) for i in range(x.rows)):
                    raise Unverifiable("an RMSNorm of a zero row without ε")
                return block.rms_norm(x, gamma, eps=eps if eps != 0 else Rational(1, 10**60))
            beta = None if plain else self._param(_BETA, x.cols, which)
            result = block.layer_norm_under(x, gamma, beta, eps=eps, ddof=ddof)
            if result is None:
                raise Unverifiable("a layer norm of a constant row without ε (0/0)")
            return result[0]

        try:
            return Val(world(arg.a, "a"), world(arg.b, "b"), arg.deps, arith=False, rows=arg.rows)
        except SymattnError as err:
            raise Unverifiable(str(err)) from None

    def _ffn_parts(self) -> tuple[dict[str, Binding], dict[str, Binding | None], str]:
        """The document's W_1, W_2, b_1, b_2 and the FFN's activation (under the conventions)."""
        names = {"W_1": ("W_{1}", "W^{(1)}", "W_{in}"), "W_2": ("W_{2}", "W^{(2)}", "W_{out}")}
        weights = {}
        for key, candidates in names.items():
            found = next(
                (self.env[n] for n in candidates if n in self.env and is_matrix(self.env[n].a)), None
            )
            if found is None:
                raise Unverifiable(f"FFN needs {key}, which the document does not give")
            weights[key] = found
        biases = {key: self.env.get(name) for key, name in (("b_1", "b_{1}"), ("b_2", "b_{2}"))}
        activation = self.stated.activation or "relu"
        if activation == "gelu":
            activation = self._convention("gelu", ("tanh GELU", "erf GELU"))
        if activation not in block.ACTIVATIONS[:4]:
            raise Unverifiable(f"an FFN with {activation}")
        return weights, biases, activation

    def _ffn_ball(self, rows: list[list[Any]]) -> list[list[Any]]:
        """``FFN(x)`` on intervals (balls.py): each row of arb balls through x W_1 + b_1, the
        activation (arb's erf, tanh and exp on balls enclose it) and · W_2 + b_2, with the
        document's weights as printed (and their half-units)."""
        weights, biases, activation = self._ffn_parts()
        named = {id(binding): name for name, binding in self.env.items()}

        def half(binding: Binding) -> Any:  # none for numbers typed as given (0.4 is 4/10)
            return self._half_units(named.get(id(binding), ""), binding.halfwidth)

        lifted = {key: _lift(b.a, half(b)) for key, b in weights.items()}
        shift = {
            key: (_lift(self._matrix_of(b.a), half(b))[0] if b is not None else None)
            for key, b in biases.items()
        }
        out = []
        for row in rows:
            pre = _ball_row(row, lifted["W_1"], shift["b_1"])
            out.append(_ball_row([_ball_activation(activation, p) for p in pre], lifted["W_2"], shift["b_2"]))
        return out

    def _ffn(self, arg: Val) -> Val:
        weights, biases, activation = self._ffn_parts()
        deps = arg.deps.union(*(w.deps for w in weights.values()))
        deps = deps.union(*(b.deps for b in biases.values() if b is not None))

        columns = _column_form(self._matrix_of(arg.a), weights["W_1"].a, weights["W_2"].a)

        def flip(m: Any) -> Any:  # the column form, h = W_1 x + b_1, is the row form transposed
            return m.T if columns and is_matrix(m) else m

        def world(which: str) -> ImmutableMatrix:
            x = flip(self._matrix_of(getattr(arg, which)))
            bias = {k: (list(getattr(b, which)) if b is not None else None) for k, b in biases.items()}
            return flip(
                block.feed_forward(
                    x,
                    flip(getattr(weights["W_1"], which)),
                    bias["b_1"],
                    flip(getattr(weights["W_2"], which)),
                    bias["b_2"],
                    activation,
                )
            )

        try:
            a, b = world("a"), world("b")
            true = block.feed_forward_stages(
                flip(self._matrix_of(arg.b)),
                flip(weights["W_1"].b),
                list(biases["b_1"].b) if biases["b_1"] is not None else None,
                flip(weights["W_2"].b),
                list(biases["b_2"].b) if biases["b_2"] is not None else None,
                activation,
            )
        except SymattnError as err:
            raise Unverifiable(str(err)) from None
        rows = None if columns else arg.rows  # a column's rows are its features, not tokens
        printed = self._printed_hidden(true.activated, columns=columns)
        if printed is not None:  # FFN(x_1) after a = max(0, z) = [printed]: by the document's a
            hidden, hidden_rows = printed
            out = hidden * flip(weights["W_2"].a)
            if biases["b_2"] is not None:
                bias = list(biases["b_2"].a)
                out = out + ImmutableMatrix(out.rows, out.cols, lambda i, j: bias[j])
            a = flip(out)
            if not columns:
                own = arg.rows if arg.rows is not None and len(arg.rows) == len(hidden_rows) else None
                rows = tuple((own[i] if own else arg.deps) | hidden_rows[i] for i in range(len(hidden_rows)))
            deps = deps.union(*hidden_rows)
        return Val(self._shaped(a, arg.a), self._shaped(b, arg.b), deps, arith=False, rows=rows)

    def _printed_hidden(
        self, activated: ImmutableMatrix, *, columns: bool = False
    ) -> tuple[ImmutableMatrix, tuple[frozenset, ...]] | None:
        """The hidden activations the document printed for these rows (``a = max(0, z) =
        [...]``): a bound matrix, not an input, whose true value holds each of these rows'
        true activations, as printed (world a), with each row's lines; None if there is none.
        ``columns``: the document prints each token's activations as a column (``a^{(1)}``)."""
        if larger_than(activated, _SMALL_ROW_NODES):
            return None
        for name in reversed(list(self.env)):
            binding = self.env[name]
            if columns and is_matrix(binding.b) and binding.b.cols == 1:
                binding = Binding(binding.a.T, binding.b.T, binding.deps, binding.arith, None)
            if name in self.inputs or not is_matrix(binding.b) or binding.b.cols != activated.cols:
                continue
            rows = []
            for i in range(activated.rows):
                row = ImmutableMatrix(activated.row(i))
                found = next(
                    (
                        k
                        for k in range(binding.b.rows)
                        if equal(ImmutableMatrix(binding.b.row(k)), row) is True
                    ),
                    None,
                )
                if found is None:
                    break
                rows.append(found)
            else:
                deps = tuple(row_deps(binding, k) for k in rows)
                return ImmutableMatrix([list(binding.a.row(k)) for k in rows]), deps
        return None

    def _broadcast(self, parts: tuple[Val, ...]) -> tuple[Val, ...]:
        """numpy's broadcasting, in a document about the block: a number added to a
        matrix (x − μ) is added to every entry, and a row (a bias) to every row."""
        if not self.stated.block or not any(is_matrix(p.a) for p in parts):
            return parts
        shape = max((p.a.shape for p in parts if is_matrix(p.a)), key=lambda s: s[0] * s[1])

        def spread(value: Any) -> Any:
            if not is_matrix(value):
                return ImmutableMatrix(shape[0], shape[1], lambda i, j: value)
            if value.shape == (1, shape[1]) and shape[0] > 1:
                return ImmutableMatrix(shape[0], shape[1], lambda i, j: value[0, j])
            return value

        return tuple(
            p
            if is_matrix(p.a) and p.a.shape == shape
            else dataclasses.replace(p, a=spread(p.a), b=spread(p.b))
            for p in parts
        )

    # --- the rows a norm applies to ----------------------------------------------------------

    def _normalises(self, chain: Any) -> bool:
        """``out = LayerNorm(H + Sublayer(H))``: a chain whose value is a norm's output, which
        μ and σ never speak of (they are its input's)."""
        return any(
            isinstance(e, Call) and (e.name.lower() in _LN_NAMES or e.name.lower() == "rmsnorm")
            for e in chain.elements
        )

    def _note_rows(self, names: list[str], value: Val, *, normalised: bool = False) -> None:
        """Remember the last matrix or vector bound that μ and σ may speak of (and which
        row a printed μ or σ was of); not a norm's output (``normalised``)."""
        if self.stated.norm:
            for name in names:
                if _STAT.match(name):
                    self.statistic_of[name] = (self.norm_rows[1] if self.norm_rows else None, self.row_hint)
            labelled = self.own_row is not None and len(names) == 1 and re.fullmatch(r"[a-z]", names[0])
            if labelled and is_matrix(value.a) and value.a.rows == 1 and names[0] in self.env:
                numbered = self._numbered(names[0], self.own_row)  # "token2  x = [...]": also x_2
                if numbered not in self.env:
                    self.env[numbered] = self.env[names[0]]
                    self.bound_line[numbered] = self.bound_line.get(names[0], 0)
                    for given in (self.inputs, self.approximate_inputs):  # given exactly, or only rounded
                        if names[0] in given:
                            given.add(numbered)
                if self._row_of_rows(names[0], value):
                    return  # the rows being normalised are still those of X + PE
        if not is_matrix(value.a) or not names or normalised:
            return
        name = names[0]
        if _NOT_NORMALISED.match(name):
            return
        self.norm_rows = (
            name,
            value,
            self._half_units(name, self.last_halfwidth),
        )  # with its cells' half-units
        self.recent_rows = (self.norm_rows, *self.recent_rows[:2])

    # --- other conventions ----------------------------------------------------------------

    def _begin_block_element(self) -> None:
        self.consulted = set()

    def _end_block_element(self, element: Node) -> None:
        if self.consulted and self.block_elements is not None:
            self.block_elements.append((element, frozenset(self.consulted)))
        self.consulted = None

    def _under(self, label: str, element: Node) -> Val | None:
        """The value of ``element`` under convention ``label`` (None if it cannot be read)."""
        key, value = _OVERRIDES[label]
        return self._under_override({key: value}, element)

    def _under_override(self, override: dict[str, Any], element: Node) -> Val | None:
        """The value of ``element`` with ``override`` in force (None if it cannot be read)."""
        saved, self.override = self.override, override
        saved_findings, saved_seen, saved_operands = len(self.findings), set(self.seen), self.operands
        saved_top, self.top_element = self.top_element, element  # read afresh, not as printed before
        try:
            if isinstance(element, Num):
                return None
            return self._value_of(element, record=False)  # type: ignore[attr-defined]
        except (Unverifiable, SymattnError, KeyError):
            return None
        finally:
            self.override, self.top_element = saved, saved_top
            del self.findings[saved_findings:]
            self.seen, self.operands = saved_seen, saved_operands

    def _fit_conventions(self, start: int) -> None:
        """The chain's wrong numbers, when they all fit one other convention: reported as
        following it (or ok, when the document never stated the one they break)."""
        elements, self.block_elements = self.block_elements or [], None
        wrong = [
            i
            for i in range(start, len(self.findings))
            if (
                self.findings[i].status == "wrong"
                and self.findings[i].kind in ("wrong", "slip", "carried", "rounding", "rounding-carried")
            )
            or self.findings[i].reason.startswith(_DOUBTED)
        ]
        if not wrong or not elements:
            return
        element, labels = elements[-1]
        fresh = [
            i for i in wrong if self.findings[i].kind != "carried"
        ]  # carried: this row's, by the document
        if _ANOTHER_ROW in labels and fresh == wrong and self._another_row(wrong):
            return
        if _ANOTHER_ROW_IN in labels and fresh == wrong and self._another_row_in(element, wrong):
            return
        labels = labels - {_ANOTHER_ROW, _ANOTHER_ROW_IN}
        # a row carried from an earlier error and a row of another convention in one matrix: the
        # fresh ones are fitted (the carried ones stay carried)
        targets = fresh if fresh and len(fresh) < len(wrong) else wrong
        stated: Val | None = None
        for label in sorted(labels, key=lambda lab: (not self._acceptable(lab), lab)):
            if self._override_is_truth(label):
                continue
            value = self._under(label, element)
            if value is None or not all(  # by the document's rounded numbers, or by the exact ones
                _fits(self.findings[i], value.a) or _fits(self.findings[i], value.b) for i in targets
            ):
                continue
            stated = stated or self._under_override({}, element)
            if stated is not None and equal(value.b, stated.b) is True:
                continue  # γ = 1, β = 0 given: "without γ and β" changes nothing, so explains nothing
            acceptable = self._acceptable(label)
            if acceptable and any(self.findings[i].kind == "carried" for i in targets):
                continue  # a carried error stays one, whatever else its numbers fit
            cells = {(self.findings[i].line, self.findings[i].column) for i in targets}
            if acceptable:  # what follows is computed under it too (X + PE after a concatenated PE)
                self.accepted = (value, cells)
            else:  # what the author computed next came from these values, unrounded
                self.followed = (value, cells)
            for i in targets:
                found = self.findings[i]
                if acceptable:
                    self.findings[i] = dataclasses.replace(
                        found,
                        status="ok",
                        kind="ok",
                        reason=f"right under {label}, which the document allows",
                    )
                    self._restated_under(found.claimed, value)
                    self.binary_units = self.binary_units or label == "binary units"
                elif found.kind == "carried":  # from an earlier number of the same convention: both said
                    self.findings[i] = dataclasses.replace(found, fits=label)
                else:  # a printed step of the other convention (σ² = 14.8 / 4 for d = 5) included
                    self.findings[i] = _following(found, label)
                    self._last_scalar_off(found, element)
            return
        if _ANOTHER_ROW in elements[-1][1]:
            self._far_statistics(fresh)

    def _restated_under(self, text: str, value: Val) -> None:
        """A scalar result found right under another convention: where it is written again
        (``2.0 MB × 8,192`` after ``… = 2.0 MB``), it restates that value, not a wrong one."""
        if is_matrix(value.b):
            return
        result = Val(value.a, value.b, frozenset(), arith=False)
        for known in (self.results, self.printed):
            if text in known:
                known[text] = result
        if text in self.recent:
            self.recent[text] = (self.recent[text][0], result)

    def _accepted(self, last: Val | None) -> Val | None:
        """The chain's result under the convention its numbers were accepted under (the
        document allows it), so later formulas are judged by it; else ``last`` unchanged.

        When they follow a convention the document does not allow (LN(x_2) by the sample
        variance under σ² = (1/d)Σ), the author's world (a) becomes that convention's exact
        value: the next numbers were computed from it unrounded, so they are carried (the
        rounded printout would put them one digit off, "wrong")."""
        accepted, self.accepted = self.accepted, None
        followed, self.followed = self.followed, None
        if last is None:
            return last
        if accepted is None:
            return self._followed(last, followed)
        value, cells = accepted
        if not _same_shape(value.b, last.b):
            return last
        lines = {line for line, _ in cells}
        if any(f.status == "wrong" and f.line in lines for f in self.findings):
            return last  # a line also holds a real error: its numbers are not all the convention's

        def cleared(deps: frozenset) -> frozenset:
            return frozenset((line, wrong and line not in lines) for line, wrong in deps)

        rows = None if last.rows is None else tuple(cleared(r) for r in last.rows)
        return Val(last.a, value.b, cleared(last.deps), arith=False, rows=rows)

    def _followed(self, last: Val, followed: tuple[Any, set] | None) -> Val:
        if followed is None:
            return last
        value, cells = followed
        if not _same_shape(value.b, last.a):
            return last
        lines = {line for line, _ in cells}
        reported = {(f.line, f.column) for f in self.findings if f.status == "wrong" and f.line in lines}
        if reported != cells:
            return last  # a line also holds another error: not every number is the convention's
        return Val(value.b, last.b, last.deps, arith=False, rows=last.rows)

    def _last_scalar_off(self, found: Finding, element: Node) -> None:
        """The scalar just printed (``σ² = 14.8 / 4 = 3.7``) follows another convention: what
        restates it next (``\\sqrt{3.70001}``) restates an off number, with the stated one's truth."""
        if self.last_scalar is None or self.last_scalar[0] != self.formula_index:
            return
        index, last = self.last_scalar
        truth = self._under_override({}, element)
        if truth is None or is_matrix(truth.b) or equal(parse_claim(found.claimed).value, last.a) is not True:
            return
        self.last_scalar = (index, Val(last.a, truth.b, last.deps | {(found.line, True)}, arith=False))

    def _another_row_in(self, element: Node, wrong: list[int]) -> bool:
        """A formula of μ and σ (``√(σ² + ε)``) whose numbers fit another recent row: which
        row is meant is not certain, so they are listed, not called wrong."""
        for name, value, _ in self.recent_rows:
            for world in (value.a, value.b):
                for i in range(world.rows):
                    if any(larger_than(v, _SMALL_ROW_NODES) for v in world.row(i)):
                        continue
                    row = ImmutableMatrix(world.row(i))
                    other = self._under_override({"row": Val(row, row)}, element)
                    if other is None or not all(_fits(self.findings[k], other.b) for k in wrong):
                        continue
                    self._list_ambiguous(wrong, f"of which row? it fits row {i + 1} of {name}")
                    return True
        return False

    def _far_statistics(self, wrong: list[int]) -> None:
        """A bare μ or σ² far from the row's (off by more than half of it, and by more
        than 1/2): more likely another quantity the author also calls μ (a learning
        rate, a prior) than a slip, so it is listed, not called wrong."""
        for i in wrong:
            found = self.findings[i]
            try:
                claimed, true = Rational(parse_claim(found.claimed).value), Rational(found.value or "")
            except (SymattnError, TypeError, ValueError):
                continue
            if abs(claimed - true) > max(abs(true), 1) / 2:
                self._list_ambiguous([i], f"far from the statistic of the row before it ({found.value})")

    def _list_ambiguous(self, indices: list[int], why: str) -> None:
        """Take back the verdicts of findings ``indices``: listed as ambiguous, with ``why``."""
        for i in indices:
            self.findings[i] = dataclasses.replace(
                self.findings[i],
                status="unverified",
                kind="ambiguous",
                value=None,
                exact=None,
                carried_from=None,
                reason=f"ambiguous: {why}",
            )

    def _another_row(self, wrong: list[int]) -> bool:
        """μ or σ² that fits another row of a recent matrix ("the second row: μ ≈ 1.0979"):
        which row is meant is not certain, so the number is listed, not called wrong."""
        if not self.other_statistics:
            return False
        which, ddof, eps, recent = self.other_statistics
        candidates = (
            (f"row {i + 1} of {name}", _row_statistic(which, ImmutableMatrix(world.row(i)), ddof, eps))
            for name, value, _ in recent
            for world in (value.a, value.b)
            for i in range(world.rows)
            if world.cols > ddof and not any(larger_than(v, _SMALL_ROW_NODES) for v in world.row(i))
        )
        for where, value in candidates:
            if all(_fits(self.findings[i], value) for i in wrong):
                self._list_ambiguous(wrong, f"of which row? it fits {where}")
                return True
        return False

    def _override_is_truth(self, label: str) -> bool:
        key, value = _OVERRIDES[label]
        saved, self.override, consulted = self.override, None, self.consulted
        self.consulted = None
        try:
            return self._convention(key, ()) == value
        finally:
            self.override, self.consulted = saved, consulted


def _following(finding: Finding, label: str) -> Finding:
    """``finding`` reported as following the convention ``label`` (a wrong number it explains)."""
    return dataclasses.replace(
        finding,
        status="wrong",
        kind="convention",
        fits=label,
        carried_from=None,
        reason=f"these values match {label}",
    )


def _in_ball(ball: Any, value: Any) -> bool:
    """Whether an exact scalar lies in a rigorous ball (False for no ball, or a matrix)."""
    if ball is None or isinstance(ball, list) or is_matrix(value):
        return False
    try:
        return bool(ball.contains(enclose(value, 128)))
    except (SymattnError, TypeError, ValueError):
        return False


def _sqrt_bounds(value: Any) -> tuple[Any, Any]:
    """Rational lower and upper bounds of √value (value a nonnegative rational): the exact
    endpoints of its arb ball."""
    low, high = _endpoints(enclose(sympy.sqrt(value), 128), 0)
    return max(Rational(low.numerator, low.denominator), sympy.Integer(0)), Rational(
        high.numerator, high.denominator
    )


def _column_form(x: Any, W_1: Any, W_2: Any) -> bool:
    """Whether an FFN applies to ``x`` as a column (``h = W_1 x + b_1``, W_1 of d_ff rows):
    only when the shapes fit that way and not the paper's (``x W_1``, x a row)."""
    if not (is_matrix(x) and is_matrix(W_1) and is_matrix(W_2)):
        return False
    rows_fit = x.cols == W_1.rows and W_1.cols == W_2.rows
    return not rows_fit and x.cols == 1 and W_1.cols == x.rows and W_2.cols == W_1.rows


def _row_names(index: str) -> tuple[str, ...]:
    """The names a document gives the row it numbers ``index`` of what it normalises."""
    return (f"x_{{{index}}}", "\\mathbf{x}_{" + str(index) + "}", f"h_{{{index}}}", f"z_{{{index}}}")


def _row_statistic(which: str, x: ImmutableMatrix, ddof: int, eps: Any = 0) -> Any:
    """μ ("mu"), σ ("sigma"), σ² ("variance", with ``ddof``) or the RMS ("rms", √(mean(x²) + ε))
    of the row ``x``, by symattn.block."""
    if which == "rms":
        return sympy.sqrt(sympy.Add(*(v**2 for v in x)) / len(x) + eps)
    if which == "mu":
        return block.layer_norm_rows(x, eps=1)[0].mean  # the mean does not depend on ε
    if ddof >= x.cols:
        raise Unverifiable("the sample variance of one number")
    norm = block.layer_norm_under(x, eps=0, ddof=ddof)
    if norm is None:
        return sympy.Integer(0)  # a constant row: σ = 0
    statistics = norm[1][0]
    return statistics.variance if which == "variance" else statistics.root  # √σ², built structurally


def _ball_row(row: list[Any], W: list[list[Any]], b: list[Any] | None) -> list[Any]:
    """x·W + b for one row of arb balls."""
    if len(row) != len(W):
        raise Unverifiable("the FFN's input does not fit W_1")
    out = [sum((row[k] * W[k][j] for k in range(len(W))), arb(0)) for j in range(len(W[0]))]
    return out if b is None else [v + c for v, c in zip(out, b, strict=True)]


def _ball_activation(name: str, p: Any) -> Any:
    """An activation of an arb ball, enclosing its image (ReLU: 0 joined with the ball where it
    straddles 0)."""
    if name == "relu":
        return p if p > 0 else arb(0) if p < 0 else p.union(arb(0))
    if name == "gelu":
        return p * (1 + (p / arb(2).sqrt()).erf()) / 2
    if name == "gelu_tanh":
        inner = (2 / arb.pi()).sqrt() * (p + arb("0.044715") * p**3)
        return p * (1 + inner.tanh()) / 2
    return p / (1 + (-p).exp())  # silu


def _same_shape(x: Any, y: Any) -> bool:
    return is_matrix(x) == is_matrix(y) and (not is_matrix(x) or x.shape == y.shape)


def _fits(finding: Finding, value: Any) -> bool:
    """Whether ``finding``'s printed number is a right reading of ``value`` at its cell."""
    try:
        if not is_matrix(value):
            return finding.cell is None and claim_fits(finding.claimed, value)
        if finding.cell is None:
            return value.shape == (1, 1) and claim_fits(finding.claimed, value[0, 0])
        i, j = finding.cell[0] - 1, finding.cell[1] - 1
        if value.rows == 1 and i > 0 and j == 0:
            i, j = 0, i  # a row printed as a column
        if not (0 <= i < value.rows and 0 <= j < value.cols):
            return False
        return claim_fits(finding.claimed, value[i, j])
    except (SymattnError, ValueError, TypeError):
        return False
