"""The world model's environment: scoped bindings in two worlds.

Each name has a :class:`~symattn.verify.values.Binding`: world (a), the value
by the document's printed numbers; world (b), the truth; and the lines of the
printed numbers it depends on (row by row for matrices).  This mixin of
:class:`~symattn.verify.evaluate.DocumentState` binds and forgets names,
detects a new example (scopes, restatements that differ in most cells),
resolves the names documents use (aliases, cells ``a_{12}``, rows ``q_2``,
identities, symbols), and keeps claimed values of whole expressions.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import sympy
from sympy import ImmutableMatrix

from symattn.errors import SymattnError
from symattn.latexparse import (
    UNITS,
    Call,
    Chain,
    Div,
    Matrix,
    Mul,
    Name,
    Neg,
    Node,
    Num,
    Pow,
    Sqrt,
    Sum,
    literals,
    split_head,
)
from symattn.verify.claims import claim_fits, evidence_digits, within_float_rounding
from symattn.verify.shapes import (
    is_literal,
    names_in,
)
from symattn.verify.values import (
    Binding,
    Unverifiable,
    Val,
    equal,
    is_matrix,
    row_deps,
    row_of,
)
from symattn.verify.world import (
    _ACCENTED_LETTER,
    _CELL,
    _IDENTITY,
    _PROJECTIONS,
    _ROW_NAME,
    _SIZED_IDENTITY,
    _SYMBOL_NAME,
    _aliases,
    _display_name,
    _is_row,
    _shape_key,
)


class Environment:
    """Methods of :class:`~symattn.verify.evaluate.DocumentState` (see the module docstring)."""

    def _bind_expression(self, node: Node, value: Val) -> None:
        """``QKᵀ/√d_k = [printed]``: the document's value of that expression,
        used where the same expression comes back (``softmax(QKᵀ/√d_k)``)."""
        used = names_in(node)
        if not used and getattr(value.b, "is_Rational", False):
            return  # \frac{1}{8} = 0.125: exact arithmetic on literals, read afresh each time
        if used & {"mu", "sigma"} and self.stated.norm and isinstance(node, (Pow, Sqrt, Name)):
            return  # σ² is the next token's in the next example: a statistic, never a stale restatement
        snapshot = {n: self.env.get(n) for n in used}
        binding = Binding(value.a, value.b, value.deps, value.arith, self.last_halfwidth, rows=value.rows)
        self.expressions[_shape_key(node)] = (snapshot, binding)
        if isinstance(node, Call) and node.name.lower() == "concat":
            self.last_concat = Val(value.a, value.b, value.deps, arith=value.arith)
        if isinstance(node, Sum) and not used & {"mu", "sigma"}:  # X + PE, a residual sum: μ_1's rows
            self._note_rows(["(sum)"], value)

    def _given_call(self, chain: Chain) -> bool:
        """``Sublayer(H) = [numbers]`` ("I take the self-attention output as given"): a function
        the document never defines, applied to what it has bound, with its value printed.  The
        numbers are an input, and the call stands for them where it comes back
        (``H + Sublayer(H)``), so the residual sum and the norm after it can be checked."""
        if len(chain.elements) != 2 or chain.relations[0] != "=":
            return False
        call, block = chain.elements
        if not (isinstance(call, Call) and isinstance(block, (Matrix, Num)) and is_literal(block)):
            return False
        if call.name in self.env or self._claimed_binding(call) is not None:
            return False
        try:
            self._value_of(call, record=False)
        except Unverifiable as err:
            if str(err) != f"the function {_display_name(call.name)} is not defined in the document":
                return False  # an argument that is not bound, or a known stage it cannot evaluate
        except SymattnError:
            return False
        else:
            return False  # a stage it knows: the numbers are a claim
        value = self.literal_value(block)
        self.subject = _display_name(call.name)
        self.unverified(literals(block), "input", "given as an input")
        self.last_halfwidth = None
        self._bind_expression(call, value)
        return True

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
        if binding is None:
            return None
        return Val(binding.a, binding.b, binding.deps, arith=binding.arith, rows=binding.rows)  # row by row

    def forget_name(self, name: str) -> None:
        """Drop ``name`` (and what was computed from it): the document set it in a
        way that cannot be followed, so no stale value may judge later numbers."""
        self._forget([self._resolve(name)])

    def new_scope(self, line: int, level: int = 0) -> None:
        """A heading or a sentence that sets up data ("Let", "Suppose", "设"):
        a bare value given after it for a bound name may start a new example.  A heading's
        ``level`` (1 for ``#``) also says which sections it closes (:meth:`section_closed`)."""
        self.scope_line = line
        self.section_row = None  # a row named in the section before is not this one's
        if level:
            self.headings.append((line, level))

    def section_closed(self, line: int) -> bool:
        """Whether the section that holds ``line`` has ended: a heading after it of its level
        or above (``## 7.4`` ends ``### 手算`` of 7.3; ``## Steps`` under ``# Cheat sheet``
        does not end what the page gave before it)."""
        level = next((lv for at, lv in reversed(self.headings) if at <= line), 0)
        return level > 0 and any(at > line and lv <= level for at, lv in self.headings)

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

    @staticmethod
    def _in_units(chain: Chain) -> Chain:
        """A result printed in a unit of memory (``2 × 80 × 8 × 128 × 2 = 160 KB per token``)
        read as the number it prints: the side before it divided by the unit (a word after the
        unit is prose), so that ``160`` is judged against 327,680 bytes / 1 KB."""
        elements = list(chain.elements)
        changed = False
        for index in range(1, len(elements)):
            element = elements[index]
            if not (isinstance(element, Mul) and len(element.factors) >= 2):
                continue
            factors = element.factors
            if isinstance(factors[0], Mul) and len(factors[0].factors) == 2:  # (160 KB) per token
                factors = factors[0].factors + factors[1:]
            number, unit, *words = factors
            if not (
                isinstance(number, Num)
                and isinstance(unit, Name)
                and unit.name in UNITS
                and all(isinstance(w, Name) and w.name.isalpha() and w.name.islower() for w in words)
            ):
                continue
            before = elements[index - 1]
            if isinstance(before, Num):
                continue  # 0.16 MB = 160 KB: the same number in two units
            elements[index - 1] = Div(before.offset, before, unit)
            elements[index] = number
            changed = True
        return dataclasses.replace(chain, elements=tuple(elements)) if changed else chain

    def _gives_another_input(self, names: list[str], node: Node) -> bool:
        """Whether a block given again under ``names``, with cells changed, is exactly an input the
        document gave under another name (``V_B = [[-1, 0], [0, 1]]``, then ``Values = [[-1,0],
        [0,1]]`` for prompt B): that input, taken up again, not a slip in restating ``names``."""
        try:
            printed = self.literal_value(node).a
        except (Unverifiable, SymattnError):
            return False
        if not is_matrix(printed) or len(printed) < 2:
            return False
        for other in self.inputs - set(names):
            binding = self.env.get(other)
            if (
                binding is not None
                and is_matrix(binding.a)
                and binding.a.shape == printed.shape
                and all(equal(p, q) is True for p, q in zip(binding.a, printed, strict=True))
            ):
                return True
        return False

    def _fit_evidence(self, names: list[str], node: Node) -> int:
        """The digits of evidence (ties.py's measure) in the printed cells of ``node`` that fit
        the bound value of a computed name of ``names``: ``Q = [[0.37, 0.61, 0.69], …]`` after
        ``Q = X W_Q``, whose first row fits, is Q printed with slips, not a new example."""
        cells = list(literals(node))
        best = 0
        for name in names:
            binding = self.env.get(name)
            if binding is None or name in self.inputs or not is_matrix(binding.a):
                continue
            if len(binding.a) != len(cells):
                continue
            evidence = 0
            for cell_a, cell_b, num in zip(binding.a, binding.b, cells, strict=False):
                try:
                    if claim_fits(num.text, cell_a) or claim_fits(num.text, cell_b):
                        evidence += evidence_digits(num.text)
                except SymattnError:
                    continue
            best = max(best, evidence)
        return best

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

    def _cell(self, name: str) -> Val | None:
        """``A_{1,2}``, ``A_{12}`` (a cell), ``A_{3,:}`` (a row) or ``A_{:,2}`` (a
        column) of a bound matrix, 1-based."""
        found = self._cell_matrix(name)
        if found is None:
            return None
        binding, match = found
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

    def _cell_matrix(self, name: str) -> tuple[Binding, re.Match[str]] | None:
        """The matrix a cell name (``a_{12}``, ``s^{(1)}_{11}``, ``\\tilde{s}_{12}``)
        belongs to, and the name's match; the weights or the output by convention
        when the document binds no A or O."""
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
        if base in self.env:
            binding = self.env[base]
        elif letter.upper() in ("A", "O"):
            by_convention = (
                self._convention_weights(head) if letter.upper() == "A" else self._convention_output()
            )
            if by_convention is None or (head and letter.upper() == "O"):
                return None
            binding = Binding(
                by_convention.a,
                by_convention.b,
                by_convention.deps,
                by_convention.arith,
                rows=by_convention.rows,
            )
        else:
            return None
        return (binding, match) if is_matrix(binding.a) else None

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
        self._note_rows(names, last, normalised=self._normalises(chain))

    def _ball_lookup(self, name: str) -> tuple[Any, Any]:
        """A name's value by the document's numbers and their half-units (balls.py)."""
        hinted = self._hinted_ball(name)  # x of "the second row", printed rounded (sublayers.py)
        if hinted is not None:
            return hinted
        resolved = self._resolve(name)
        if resolved in self.env:
            binding = self.env[resolved]
            return binding.a, binding.halfwidth
        statistic = self._statistic_ball(resolved)  # μ, σ of a row printed rounded (sublayers.py)
        if statistic is not None:
            return statistic
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
        hinted = self._hinted_row(name)  # x of "take the second row": that row (sublayers.py)
        if hinted is not None:
            return hinted
        name = self._resolve(name)
        self._drop_stale_statistic(name)  # μ of the token before (sublayers.py)
        overridden = self._overridden(name)  # ε under "eps = 0" (sublayers.py)
        if overridden is not None:
            return overridden
        if name in self.env:
            binding = self.env[name]
            return Val(binding.a, binding.b, binding.deps, arith=binding.arith, rows=binding.rows)
        if name in self.symbols:
            return Val(self.symbols[name], self.symbols[name], arith=False)
        if name in ("pi", "\\pi"):
            return Val(sympy.pi, sympy.pi, arith=False)
        if name == "e":  # Euler's number, italic or upright, unless the document binds e
            return Val(sympy.E, sympy.E, arith=False)
        if name in UNITS:  # 160 KB: 160·10³ bytes, or 160·2¹⁰ (a convention; KiB is always 2¹⁰)
            power = "KMGTP".index(name[0]) + 1
            binary = (
                name[1] == "i" or self._convention("units", ("binary units", "decimal units")) == "binary"
            )
            scale = sympy.Integer(2) ** (10 * power) if binary else sympy.Integer(10) ** (3 * power)
            return Val(scale, scale, arith=False)
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
                return row_of(whole, i)
        output_row = self._output_row(name)
        if output_row is not None:
            return output_row
        if name in _PROJECTIONS and "X" in self.env and _PROJECTIONS[name] in self.env:
            return self._product([self._lookup("X"), self._lookup(_PROJECTIONS[name])])
        stage = self._block_name(name)  # μ, σ, PE (sublayers.py)
        if stage is not None:
            return stage
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
