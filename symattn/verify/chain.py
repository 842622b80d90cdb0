"""The third graph of the explanation: each printed block as one declared operation on the
blocks printed before it (a residual sum, a linear layer, an activation, a norm, per-token
statistics), the way a reader follows a worked example from one printed step to the next.

The attention graph (:mod:`symattn.verify.explain`) starts from the document's inputs and
knows the path to the output.  The layers after it (Add & Norm, the feed-forward network)
are written as steps on printed intermediate results, in many orders and with or without
biases, so here the graph grows as the document is read: its nodes are the given blocks and
every block identified so far, and a new block is tried against every declared operation
(:data:`OPS`, each with its conventions) applied to the nodes before it, and against an
activation or norm of such a result (two steps, for ``ReLU(xW₁ + b₁) = [...]``).

Candidates are screened in floats, then the best is computed exactly (fractions, and arb
balls where a square root or an exponential enters) and judged in the two worlds: the truth,
and the document's own printed blocks taken as printed (world a).  A number is wrong only
when every candidate nearly as good as the best calls it off.  The candidates tried per
document are counted and capped (:data:`MAX_CANDIDATES`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symattn.kits import EXACT, MASKED, Floats, Matrix
from symattn.registry import OPS, Op
from symattn.verify.words import OP_WORDS

__all__ = ["MAX_CANDIDATES", "OPS", "Op", "chain"]

#: Most candidate nodes computed for one document (counted, then cut).
MAX_CANDIDATES = 6000
#: The nodes a block is tried against: the most recent ones printed before it.
MAX_POOL = 10
#: Other conventions' truths kept for a block (each tried before a cell after it is called wrong).
MAX_ALTERNATIVES = 4


def _describe(op: Op, convention: dict[str, Any]) -> str:
    if not convention:
        return op.name
    parts = []
    for key, value in convention.items():
        if key == "eps":
            power = len(str(value.denominator)) - 1
            plain = value and value.numerator == 1 and value.denominator == 10**power
            parts.append("ε = 0" if not value else f"ε = 1e-{power}" if plain else f"ε = {value}")
        elif key == "temperature":
            parts.append(f"T = {format(float(value), 'g')}")
        elif key == "d_k":
            parts.append(f"d_k = {value}")
        elif key == "causal":
            if value:
                parts.append("causal mask")
            continue
        elif key == "sample":
            parts.append("sample variance" if value else "population variance")
        elif key == "form":
            parts.append({"pop": "population variance", "sample": "sample variance"}.get(value, value))
    return f"{op.name} ({', '.join(parts)})" if parts else op.name


# --- nodes and candidates --------------------------------------------------------------------------


@dataclass
class Node:
    """A given block, or a printed block identified with a candidate: its truth, its printed
    values (world a), the line of the block and whether it was called wrong."""

    truth: Matrix  # exact or balls
    printed: Matrix  # what the document printed (Fractions)
    line: int
    shape: tuple[int, int]
    given: bool
    wrong: bool = False
    deps: frozenset[int] = frozenset()  # lines of printed blocks upstream that differ from the truth
    floats: list[list[float]] = field(default_factory=list)
    printed_floats: list[list[float]] = field(default_factory=list)
    radius: list[list[Fraction]] = field(default_factory=list)  # a given printout's rounding, per cell
    rounded: Matrix = field(default_factory=list)  # as printed, its wrong cells put right (as printed)
    alternatives: list[Matrix] = field(default_factory=list)  # truths of other fits nearly as good
    data: bool = False  # printed, not given and not explained (or computed from such): truth unknown
    hull: Matrix | None = None  # its truth over the rounding of the printouts it is computed from
    label: str = ""  # what it was identified as ("" for a given block)
    block: Any = None  # the printed block it is


@dataclass
class Candidate:
    op: Op
    convention: dict[str, Any]
    args: tuple[Any, ...]  # Nodes, or (Op, convention, Nodes) for a two-step candidate
    floats: list[list[float]]  # computed from the truth, screened in floats
    floats_a: list[list[float]]  # from the printed blocks
    label: str


def _apply(op: Op, convention: dict[str, Any], kit: Any, values: list[Matrix]) -> Matrix:
    return op.compute(kit, *values, **convention)


def _float_matrix(m: Matrix) -> list[list[float]]:
    return [
        [float("-inf") if x is MASKED else float(x.mid()) if hasattr(x, "mid") else float(x) for x in row]
        for row in m
    ]


# --- scoring ---------------------------------------------------------------------------------------


def _weight(lit: Any) -> int:
    return lit.weight


def _float_score(
    cells: list[Any], values: list[float], restated: list[bool] | None = None
) -> tuple[int, int]:
    """Matched digits (a near miss one digit less) and decided digits, by floats; a cell that
    only restates its argument's number (``restated``) carries none."""
    matched = decided = 0
    for index, (lit, v) in enumerate(zip(cells, values, strict=True)):
        w = 0 if restated is not None and restated[index] else _weight(lit)
        if lit.infinite or not math.isfinite(v):
            if lit.approx != v:  # a masked cell where a number is, or the other way round
                decided += max(w, 1)
            continue
        unit = 10.0 ** -(lit.places or 0)
        gap = abs(lit.approx - v)
        decided += w
        if gap <= unit / 2 * (1 + 1e-9) + 1e-12 * abs(v):
            matched += w
        elif w > 2 and gap <= 2 * unit:
            matched += w - 1
    return matched, decided


#: How far (relative) the ratios of a block's numbers to a norm's may spread and still have
#: the norm's other values of ε computed.
ROUGHLY = 0.01


def _roughly(block: Any, cand: Candidate, shape: tuple[int, int]) -> bool:
    """Whether the block is, row by row, the candidate times a factor of at most 1, in 3/5 of
    its cells (a slip among them): what ε > 0 makes of a norm whose ε = 0 form matches none of
    its digits (ε only divides each row by a larger root)."""
    cells = block.cells()
    width = len(block.rows[0])
    for how, row in _views(block, shape):
        values = _view(cand.floats, how, row)
        near = 0
        for start in range(0, len(values), width):
            pairs = [
                (lit.approx / v, abs(v))
                for lit, v in zip(cells[start : start + width], values[start : start + width], strict=True)
                if math.isfinite(v) and abs(v) > 1e-9 and not lit.infinite
            ]
            ratios, sizes = [r for r, _ in pairs], [a for _, a in pairs]
            if len(ratios) < 2 or max(sizes) - min(sizes) <= 1e-9 * max(1.0, sizes[0]):
                continue  # one size (±a): any scale fits it
            factor = sorted(ratios)[len(ratios) // 2]
            if 0 < factor <= 1 + ROUGHLY:
                near += sum(abs(r - factor) <= ROUGHLY * factor for r in ratios)
        if near >= 2 and near * 5 >= len(cells) * 3:
            return True
    return False


def _views(block: Any, shape: tuple[int, int]) -> list[tuple[str, int | None]]:
    """How a block of its shape can be a node of ``shape``: whole, transposed, or one row."""
    r, c = block.shape
    out: list[tuple[str, int | None]] = []
    if (r, c) == shape:
        out.append(("whole", None))
    if (c, r) == shape and r != c:
        out.append(("transposed", None))
    if r == 1 and c == shape[1] and shape[0] > 1:
        out.extend(("row", i) for i in range(shape[0]))
    return out


def _view(m: list[list[Any]], how: str, row: int | None) -> list[Any]:
    if how == "whole":
        return [x for r in m for x in r]
    if how == "transposed":
        return [x for col in zip(*m, strict=True) for x in col]
    return list(m[row or 0])


def _cell_of(how: str, row: int | None, i: int, j: int) -> tuple[int, int]:
    if how == "whole":
        return i + 1, j + 1
    if how == "transposed":
        return j + 1, i + 1
    return (row or 0) + 1, j + 1


def _restates(values: list[list[float]], arguments: list[list[list[float]]]) -> bool:
    """A candidate equal to one of its own arguments (ReLU of positive numbers) says nothing."""
    return any(
        len(arg) == len(values)
        and len(arg[0]) == len(values[0])
        and all(
            abs(a - b) <= 1e-12 * max(1.0, abs(b))
            for ra, rb in zip(values, arg, strict=True)
            for a, b in zip(ra, rb, strict=True)
        )
        for arg in arguments
    )


@dataclass
class _Found:
    """A candidate's fit to a block: its evidence (matched digits and a name's prior), the
    share of decided digits it matches, how the block sits in it, and the cells it leaves off."""

    evidence: int
    share: Fraction
    cand: Candidate
    how: str
    row: int | None
    off: int

    def value(self, index: int) -> tuple[float, float]:
        return _view(self.cand.floats, self.how, self.row)[index], _view(
            self.cand.floats_a, self.how, self.row
        )[index]


class _Chain:
    """The graph as it grows in reading order: its nodes, the candidates computed (cached and
    counted), and the verdicts."""

    def __init__(
        self,
        given: list[Any],
        identified: dict[int, Matrix],
        trace: list[dict[str, Any]],
        judge: Callable[..., Any],
        *,
        stated: dict[str, tuple[Fraction, ...]] | None = None,
        wrong: frozenset[tuple[int, int]] = frozenset(),
        written: set[int] | None = None,
    ) -> None:
        self.stated: dict[str, tuple[Fraction, ...]] = dict(stated or {})
        self.wrong = wrong
        self.given_ids = {id(b) for b in given}
        self.identified = identified
        self.trace = trace
        self.judge = judge
        self.nodes: list[Node] = []
        self.verdicts: dict[tuple[int, int], Any] = {}
        self.tried = 0
        self.cache: dict[tuple[Any, ...], Candidate | None] = {}
        self.written = written or set()  # lines whose blocks include operands of arithmetic written out

    # --- nodes and candidates

    def add_node(
        self,
        block: Any,
        truth: Matrix,
        *,
        given: bool,
        wrong: bool = False,
        deps: frozenset[int] = frozenset(),
        wrong_cells: frozenset[tuple[int, int]] = frozenset(),
    ) -> None:
        printed = _printed(block)
        node = Node(truth, printed, block.line, block.shape, given, wrong, deps, block=block)
        node.floats = _float_matrix(truth)
        node.printed_floats = _float_matrix(printed)
        node.rounded = _put_right(block, truth, wrong_cells) if wrong_cells else printed
        if given:  # three places or more: perhaps a rounded result, though read as given
            node.radius = [[_half_unit(c) for c in row] for row in block.rows]
        self.nodes.append(node)

    def candidate(
        self, op: Op, convention: dict[str, Any], args: tuple[Any, ...], label: str
    ) -> Candidate | None:
        key = _key(op, convention, args)
        if key not in self.cache and self.tried >= MAX_CANDIDATES:
            return None  # the cap: counted, never passed
        if key not in self.cache:
            self.tried += 1
            try:
                floats = _apply(
                    op,
                    convention,
                    Floats,
                    _derived(op, convention, Floats, [_floats_of(a, False) for a in args]),
                )
                floats_a = _apply(op, convention, Floats, [_floats_of(a, True) for a in args])
            except (ValueError, ZeroDivisionError, OverflowError):
                floats = floats_a = []
            self.cache[key] = Candidate(op, convention, args, floats, floats_a, label) if floats else None
        return self.cache[key]

    def fits(self, block: Any, pool: list[Node]) -> list[_Found]:
        """Every candidate of the block's shape on the pool's nodes, and an activation or norm
        of each product, sum or linear layer; best first (ties: the fewest cells off)."""
        found: list[_Found] = []
        firsts: list[Candidate] = []
        for op in OPS:
            for args in _arguments(op, pool):
                shape = op.shape([a.shape for a in args])
                if shape is None:
                    continue
                if (
                    op.arity >= 2
                    and not op.statistics
                    and any(u.unary and _views(block, u.shape([shape]) or shape) for u in OPS)
                ):
                    first = self.candidate(op, {}, args, op.name)
                    if first is not None:
                        firsts.append(first)
                if _views(block, shape):
                    found.extend(self.conventions(block, op, args, shape, ""))
                if self.tried >= MAX_CANDIDATES:
                    break
        for first in firsts:
            for op in OPS:
                shape = op.shape([(len(first.floats), len(first.floats[0]))]) if op.unary else None
                if shape is None or not _views(block, shape) or self.tried >= MAX_CANDIDATES:
                    continue
                found.extend(self.conventions(block, op, (first,), shape, f" of {first.label}"))
        return sorted(found, key=lambda f: (f.evidence, f.share, -f.off), reverse=True)

    def conventions(
        self, block: Any, op: Op, args: tuple[Any, ...], shape: tuple[int, int], of: str
    ) -> list[_Found]:
        """The fits of ``op`` under each of its conventions.  Conventions that differ only in ε
        differ in the last digits: the others are computed only where the first (ε = 0)
        explains some of the block's digits."""
        out: list[_Found] = []
        screened: dict[tuple[Any, ...], bool] = {}
        stated = [
            {op.stated: value, **variant}
            for value in self.stated.get(op.stated, ())
            if value != 1
            for variant in op.crossed
        ]
        for convention in (*op.conventions, *stated):
            family = tuple(sorted((k, v) for k, v in convention.items() if k != "eps"))
            if screened.get(family) is False:
                continue
            cand = self.candidate(op, convention, args, _describe(op, convention) + of)
            fits = _consider(block, cand, shape, args) if cand is not None else []
            screened.setdefault(
                family,
                bool(fits) or (cand is not None and "eps" in convention and _roughly(block, cand, shape)),
            )
            out.extend(fits)
        return out

    # --- one block

    def restates(self, block: Any, node: Node) -> None:
        """A block with the numbers of one before it: the same quantity printed again (a code
        printout of a matrix worked out by hand).  Confirmed against that block's truth where
        that block was identified; a given one restated says nothing."""
        if not node.label:
            self.trace.append(_note(block, None, f"restates the block at line {node.line}"))
            return
        self.trace.append(_note(block, f"{node.label} (as at line {node.line})", "restates it", 0))
        for i, lits in enumerate(block.rows):
            for j, lit in enumerate(lits):
                true = node.truth[i][j]
                if lit.infinite or true is MASKED:
                    continue
                verdict = self.judge(
                    lit,
                    true,
                    true,
                    deps=set(),
                    carries_wrong=False,
                    stage_name=node.label,
                    cell=(i + 1, j + 1),
                    arithmetic=False,
                )
                if verdict is not None and verdict.status == "ok":  # what it restates is judged there
                    self.verdicts[(lit.line, lit.column)] = dataclasses.replace(
                        verdict, grounded=not node.data
                    )

    @staticmethod
    def rounded_world(best: _Found, block: Any) -> Matrix | None:
        """The candidate computed from the blocks before it with their wrong cells put right
        (world a without its errors); None where it cannot be computed."""
        try:
            return _reshape(_view(_exact(best.cand, "rounded"), best.how, best.row), block.shape)
        except (ValueError, ZeroDivisionError):
            return None

    def read(self, block: Any) -> None:
        from symattn.verify.explain import (
            GIVEN_EVIDENCE,
            GIVEN_SHARE,
            MIN_EVIDENCE,
            MIN_SHARE,
            NEAR_BEST,
            _far,
            _score,
        )

        if id(block) in self.identified:  # its cells found wrong there make what follows carried
            cells = frozenset(
                (i, j)
                for i, row in enumerate(block.rows)
                for j, lit in enumerate(row)
                if (lit.line, lit.column) in self.wrong
            )
            self.add_node(
                block,
                self.identified[id(block)],
                given=False,
                wrong=bool(cells),
                deps=frozenset({block.line}) if cells else frozenset(),
                wrong_cells=cells,
            )
            return
        as_given = id(block) in self.given_ids
        if block.operand and not as_given:
            self.trace.append(_note(block, None, "an operand of an operation written out on its line"))
            return
        pool = _recent(self.nodes, block.line)
        for node in pool:  # the same numbers again (a matrix restated before its product): no new step
            if node.shape == block.shape and all(
                _agrees(lit, v, w)
                for lit, v, w in zip(
                    block.cells(),
                    _view(node.floats, "whole", None),
                    _view(node.printed_floats, "whole", None),
                    strict=True,
                )
            ):
                self.restates(block, node)
                return
        # a block the readers read as given (``h = [...]``) is a result only where an operation on
        # the blocks before it explains it clearly: twice the evidence, and 4/5 of its digits
        need, share = (GIVEN_EVIDENCE, GIVEN_SHARE) if as_given else (MIN_EVIDENCE, MIN_SHARE)
        digits = sum(_weight(c) for c in block.cells())  # a block without the digits cannot be told
        found = self.fits(block, pool) if pool and digits >= need and self.tried < MAX_CANDIDATES else []
        best = found[0] if found and found[0].evidence >= need and found[0].share >= share else None
        truth = in_a = None
        if best is not None:
            truth = _reshape(_view(_exact(best.cand, False), best.how, best.row), block.shape)
            in_a = _reshape(_view(_exact(best.cand, True), best.how, best.row), block.shape)
            holds = any(d and Fraction(m, d) >= share for m, d in (_score(block, truth), _score(block, in_a)))
            if not holds or _far(block, truth, in_a) > max(1, len(block.cells()) // 4):
                if holds and not as_given:
                    why = f"closest to {best.cand.label}, but far off in more than a quarter of its cells"
                    self.trace.append(_note(block, None, why))
                best = None
        if (best is None or truth is None or in_a is None) and not as_given and self.declared(block, pool):
            return
        if best is None or truth is None or in_a is None:
            # what nothing before it explains is data to what comes after (a printed random
            # tensor, a table of scores): read as printed, its rounding kept
            self.add_node(block, _printed(block), given=True)
            # before anything is computed it is an input the readers did not see as one (a
            # tensor passed to a call); after, a result nobody explains: its truth unknown
            self.nodes[-1].data = not as_given and any(not n.given for n in self.nodes[:-1])
            return
        rivals = [
            f
            for f in found[1:]
            if f.evidence >= best.evidence * NEAR_BEST
            and (f.cand is not best.cand or (f.how, f.row) != (best.how, best.row))
        ]
        self.judge_block(block, best, truth=truth, in_a=in_a, rivals=rivals, as_given=as_given)
        if block.line in self.written:  # the result of arithmetic written out on its line: that
            # arithmetic says what it is, and a step found by its digits may confirm, not accuse
            for lit in block.cells():
                verdict = self.verdicts.get((lit.line, lit.column))
                if verdict is not None and verdict.status == "wrong":
                    del self.verdicts[(lit.line, lit.column)]

    def declared(self, block: Any, pool: list[Node]) -> bool:
        """A block the document names as a softmax's output (``weights = [[…]]``), whose rows
        are probabilities, printed after scores of its shape, is that softmax even where its
        digits do not match: its name and its shape declare it, as they declare the attention
        graph's stage.  It is judged against the softmax of the most recent such scores; a
        cell is called wrong only where the softmax of every block of scores in the pool, under
        every convention, misses it.  False where nothing declares it."""
        from symattn.verify.explain import _row_stochastic

        op = next(o for o in OPS if o.name == "softmax")
        name = block.name.lower()
        if not name or not any(w == name or (len(w) > 2 and w in name) for w in OP_WORDS[op.name]):
            return False
        printed = _printed(block)
        if not _row_stochastic(block, printed):
            return False
        scores = [n for n in reversed(pool) if n.shape == block.shape and not _probabilities(n.printed)]
        conventions = (*op.conventions, *({op.stated: v} for v in self.stated.get(op.stated, ()) if v != 1))
        cands = [
            c
            for n in scores
            for convention in conventions
            if (c := self.candidate(op, convention, (n,), _describe(op, convention))) is not None
        ]
        if not cands:
            return False
        first = cands[0]
        truth, in_a = _exact(first, False), _exact(first, True)
        deps, carries = _deps(first)
        label = f"{first.label} (declared by its name and its rows of probabilities)"
        self.trace.append(_note(block, label, "by its name and shape", 0))
        wrong_cells: set[tuple[int, int]] = set()
        for i, lits in enumerate(block.rows):
            for j, lit in enumerate(lits):
                verdict = self.judge(
                    lit,
                    truth[i][j],
                    in_a[i][j],
                    deps=set(deps),
                    carries_wrong=carries,
                    stage_name=first.label,
                    cell=(i + 1, j + 1),
                    arithmetic=False,
                )
                if verdict is None:
                    continue
                if verdict.status == "wrong" and any(
                    _agrees(lit, c.floats[i][j], c.floats_a[i][j]) for c in cands
                ):
                    continue  # another block of scores, or another convention, gives it
                self.verdicts[(lit.line, lit.column)] = verdict
                if verdict.status == "wrong":
                    wrong_cells.add((i, j))
        self.add_node(
            block, truth, given=False, wrong=bool(wrong_cells), deps=deps, wrong_cells=frozenset(wrong_cells)
        )
        self.nodes[-1].label = first.label
        return True

    def judge_block(
        self, block: Any, best: _Found, *, truth: Matrix, in_a: Matrix, rivals: list[_Found], as_given: bool
    ) -> None:
        deps, carries = _deps(best.cand)
        hull_full = _hull(best.cand)
        hull = _reshape(_view(hull_full, best.how, best.row), block.shape) if hull_full is not None else None
        where = (
            ""
            if best.how == "whole"
            else f" ({best.how}{'' if best.row is None else ' ' + str(best.row + 1)})"
        )
        self.trace.append(_note(block, best.cand.label + where, "by its digits", best.evidence))
        exact = best.cand.op.arithmetic and all(isinstance(a, Node) for a in best.cand.args)
        data = any(leaf.data for leaf in _leaves(best.cand))  # its truth rests on numbers nobody explains
        from symattn.verify.explain import _rounds_to

        wrong_cells: set[tuple[int, int]] = set()
        rounded: Any = _UNSET
        for i, lits in enumerate(block.rows):
            for j, lit in enumerate(lits):
                if lit.infinite or truth[i][j] is MASKED or in_a[i][j] is MASKED:
                    continue  # a masked cell says nothing, and nothing is said of it
                verdict = self.judge(
                    lit,
                    truth[i][j],
                    in_a[i][j],
                    deps=set(deps),
                    carries_wrong=carries,
                    stage_name=best.cand.label,
                    cell=_cell_of(best.how, best.row, i, j),
                    arithmetic=exact,
                )
                if verdict is None:
                    continue
                if verdict.kind in ("carried", "rounding-carried"):
                    if rounded is _UNSET:
                        rounded = self.rounded_world(best, block)
                    if rounded is not None and rounded[i][j] is not MASKED and _rounds_to(lit, rounded[i][j]):
                        # the errors before it do not reach it: right by the document's rounded
                        # numbers, off in truth; listed, never called wrong
                        verdict = dataclasses.replace(verdict, status="unverified", kind="rounding-carried")
                if verdict.status == "wrong" and (
                    # typed in as a definition: confirmed, never called wrong, unless it is what the
                    # document's own wrong numbers give (then it was computed from them, not given)
                    (as_given and block.typed and verdict.kind != "carried")
                    or (
                        hull is not None and _overlaps(lit, hull[i][j])
                    )  # right if its printouts are rounded results
                    or any(
                        _rival_explains(lit, r, i * block.shape[1] + j) for r in rivals
                    )  # another fit explains it
                    or _another_truth(best.cand, lit, i * block.shape[1] + j, best.how, best.row)
                ):
                    continue
                self.verdicts[(lit.line, lit.column)] = dataclasses.replace(verdict, grounded=not data)
                if verdict.status == "wrong":
                    wrong_cells.add((i, j))
        if best.cand.op.statistics and best.how == "whole":
            self.judge_statistics(best, rivals)
        # the block is a node a later step may use: the whole result, or the row of it printed
        # (``x − max`` of one row, then ``exp`` of that row)
        whole = best.how == "whole"
        self.add_node(
            block,
            _exact(best.cand, False) if whole else truth,
            given=False,
            wrong=bool(wrong_cells),
            deps=deps,
            wrong_cells=frozenset(wrong_cells),
        )
        self.nodes[-1].label = best.cand.label + where
        self.nodes[-1].data = data
        self.nodes[-1].alternatives = _alternatives(best, rivals) if whole else []
        self.nodes[-1].hull = hull_full if whole else hull

    def judge_statistics(self, best: _Found, rivals: list[_Found]) -> None:
        """The printed statistics a norm was computed with (``mean=0.25, std=0.364`` per token),
        judged as what the declaration says they are: the mean and σ of the rows of its first
        argument.  A number is called wrong only where every convention nearly as good
        (population or sample σ) calls it wrong."""
        cand = best.cand
        others = [r.cand for r in rivals if r.cand.op is cand.op and r.cand.args[0] is cand.args[0]]
        first_a = _exact(cand.args[0], True)
        for k, (arg, name) in enumerate(zip(cand.args[1:], ("mean", "std"), strict=False), start=1):
            if not isinstance(arg, Node) or arg.block is None or (not arg.data and not arg.given):
                continue  # identified before: judged there
            truths = [
                _statistic_truth(
                    arg, _derived(c.op, c.convention, EXACT, [_exact(c.args[0], False), *c.args[1:]])[k]
                )
                for c in (cand, *others)
            ]
            in_a = _statistic_truth(
                arg, _derived(cand.op, cand.convention, EXACT, [first_a, *cand.args[1:]])[k]
            )
            deps, carries = _deps(cand.args[0])
            label = f"{name} of the rows of line {cand.args[0].line}" + (
                f" ({'sample' if cand.convention.get('sample') else 'population'} σ)" if name == "std" else ""
            )
            wrong: set[tuple[int, int]] = set()
            for i, lits in enumerate(arg.block.rows):
                for j, lit in enumerate(lits):
                    if (lit.line, lit.column) in self.verdicts:
                        continue
                    verdict = self.judge(
                        lit,
                        truths[0][i][j],
                        in_a[i][j],
                        deps=set(deps),
                        carries_wrong=carries,
                        stage_name=label,
                        cell=(i + 1, j + 1),
                        arithmetic=False,
                    )
                    if verdict is None:
                        continue
                    if verdict.status == "wrong" and any(
                        _agrees(lit, float(_mid(t[i][j])), float(_mid(t[i][j]))) for t in truths[1:]
                    ):
                        continue  # another σ nearly as good gives it
                    self.verdicts[(lit.line, lit.column)] = verdict
                    if verdict.status == "wrong":
                        wrong.add((i, j))
            self.trace.append(_note(arg.block, label, "by the norm computed with it", 0))
            arg.truth, arg.data, arg.given, arg.label = truths[0], False, False, label
            arg.wrong = bool(wrong)
            arg.floats = _float_matrix(truths[0])


def _mid(x: Any) -> Any:
    return x.mid() if hasattr(x, "mid") else x


_UNSET = object()


def _probabilities(m: Matrix) -> bool:
    """Every row of ``m`` a distribution: cells in [0, 1] summing to 1 within 1/100."""
    return all(
        all(isinstance(x, Fraction) and 0 <= x <= 1 for x in row) and abs(sum(row) - 1) <= Fraction(1, 100)
        for row in m
    )


def _leaves(arg: Any) -> list[Node]:
    """The printed blocks (nodes) a candidate is computed from, through its steps."""
    if isinstance(arg, Node):
        return [arg]
    args = arg.args[:1] if arg.op.statistics else arg.args  # a statistic's truth is its first argument's
    return [leaf for a in args for leaf in _leaves(a)]


def _recent(nodes: list[Node], line: int) -> list[Node]:
    """The nodes a block on ``line`` is tried against: the most recent ones before it, one
    for each set of numbers (a vector restated five times is one node)."""
    out: list[Node] = []
    seen: set[Any] = set()
    for node in reversed(nodes):
        key = (node.shape, tuple(tuple(row) for row in node.floats))
        if node.line > line or key in seen:
            continue
        seen.add(key)
        out.append(node)
        if len(out) == MAX_POOL:
            break
    return out[::-1]


def _floats_of(arg: Any, printed: bool) -> list[list[float]]:
    if isinstance(arg, Node):
        return arg.printed_floats if printed else arg.floats
    return arg.floats_a if printed else arg.floats


def _exact(arg: Any, printed: bool | str, swap: dict[int, Matrix] | None = None) -> Matrix:
    """A node's truth (``False``), printed values (``True``: world a) or printed values with its
    wrong cells put right (``"rounded"``), or a candidate computed exactly from its arguments'
    in that world; ``swap`` gives some nodes another truth (a convention nearly as good)."""
    if isinstance(arg, Node):
        if swap and id(arg) in swap and printed is False:
            return swap[id(arg)]
        return arg.rounded if printed == "rounded" else arg.printed if printed else arg.truth
    values = [_exact(a, printed, swap) for a in arg.args]
    if arg.op.statistics and printed is False:
        values = _derived(arg.op, arg.convention, EXACT, values)
    elif arg.op.statistics and printed == "rounded":  # the statistics as printed, each wrong one put right
        truths = _derived(arg.op, arg.convention, EXACT, [_exact(a, False, swap) for a in arg.args])
        values = [values[0], *(_put_right_as(a, t) for a, t in zip(arg.args[1:], truths[1:], strict=True))]
    return _apply(arg.op, arg.convention, EXACT, values)


def _derived(op: Op, convention: dict[str, Any], kit: Any, values: list[Matrix]) -> list[Matrix]:
    """The arguments of an operation whose later arguments are statistics of its first
    (``Op.statistics``: the μ and σ a norm prints per token), with those computed from the
    first as the truth has them; the arguments as they are for any other operation."""
    if not op.statistics:
        return values
    first = values[0]
    return [first, *(statistic(kit, first, **convention) for statistic in op.statistics)]


def _statistic_truth(node: Node, truth: Matrix) -> Matrix:
    """A statistic computed as a column (one number per row) in the shape its block prints."""
    return truth if node.shape == (len(truth), 1) else [[row[0] for row in truth]]


def _put_right_as(node: Any, truth: Matrix) -> Matrix:
    """A printed statistic with each number that is not its truth rounded put right."""
    if not isinstance(node, Node) or node.block is None:
        return _exact(node, "rounded")
    from symattn.verify.explain import _rounds_to

    shaped = _statistic_truth(node, truth)
    wrong = frozenset(
        (i, j)
        for i, row in enumerate(node.block.rows)
        for j, lit in enumerate(row)
        if _rounds_to(lit, shaped[i][j]) is False
    )
    return _put_right(node.block, shaped, wrong) if wrong else node.printed


def _alternatives(best: _Found, rivals: list[_Found]) -> list[Matrix]:
    """The truths a block could have under conventions nearly as good: its rival fits of the
    same operation, and its own operation on the other truths of the blocks it reads (an ε
    two steps before still decides the last digit)."""
    out: list[Matrix] = []
    for rival in rivals:
        if len(out) < MAX_ALTERNATIVES and rival.how == "whole" and rival.cand.op is best.cand.op:
            try:
                out.append(_exact(rival.cand, False))
            except (ValueError, ZeroDivisionError):
                continue
    for leaf in {id(n): n for n in _leaves(best.cand)}.values():
        for other in leaf.alternatives:
            if len(out) >= MAX_ALTERNATIVES:
                return out
            try:
                out.append(_exact(best.cand, False, {id(leaf): other}))
            except (ValueError, ZeroDivisionError):
                continue
    return out


def _another_truth(best: Any, lit: Any, index: int, how: str, row: int | None) -> bool:
    """Whether the cell is right under a truth another convention nearly as good gives one of
    the blocks it is computed from (ε = 0 or 10⁻⁵ a step before)."""
    from symattn.verify.explain import _rounds_to

    for leaf in {id(n): n for n in _leaves(best)}.values():
        for other in leaf.alternatives:
            try:
                value = _view(_exact(best, False, {id(leaf): other}), how, row)[index]
            except (ValueError, ZeroDivisionError):
                continue
            if value is not MASKED and _rounds_to(lit, value) is not False:
                return True
    return False


def _put_right(block: Any, truth: Matrix, wrong: frozenset[tuple[int, int]]) -> Matrix:
    """The block as printed, with each cell called wrong replaced by its truth rounded at the
    cell's places: the document as it would read with its errors put right."""
    from symattn.verify.explain import _decimal

    out = _printed(block)
    for i, j in wrong:
        lit, value = block.rows[i][j], truth[i][j]
        text = None if lit.infinite or value is MASKED else _decimal(value, lit.places or 0)
        if text is not None:
            out[i][j] = Fraction(text)
    return out


def _hull(arg: Any) -> Matrix | None:
    """A candidate over the rounding intervals of the given printouts it reads (None: it
    reads none)."""
    if isinstance(arg, Node):
        if arg.hull is not None:
            return arg.hull
        if not any(r for row in arg.radius for r in row) or any(MASKED in row for row in arg.printed):
            return None
        from flint import arb, fmpq

        return [
            [
                arb(fmpq(v.numerator, v.denominator), fmpq(r.numerator, r.denominator))
                for v, r in zip(vs, rs, strict=True)
            ]
            for vs, rs in zip(arg.printed, arg.radius, strict=True)
        ]
    if arg.op.statistics:  # its statistics are those of its first argument, whatever was printed
        first = _hull(arg.args[0])
        if first is None:
            return None
        return _apply(
            arg.op, arg.convention, EXACT, _derived(arg.op, arg.convention, EXACT, [first, *arg.args[1:]])
        )
    hulls = [_hull(a) for a in arg.args]
    if all(h is None for h in hulls):
        return None
    values = [h if h is not None else _exact(a, False) for h, a in zip(hulls, arg.args, strict=True)]
    return _apply(arg.op, arg.convention, EXACT, values)


def _deps(arg: Any) -> tuple[frozenset[int], bool]:
    """The lines of printed blocks upstream that differ from the truth, and whether one of them
    was called wrong."""
    if isinstance(arg, Node):
        own = frozenset({arg.line}) if not arg.given and arg.printed != arg.truth else frozenset()
        return own | arg.deps, arg.wrong
    parts = [_deps(a) for a in (arg.args[:1] if arg.op.statistics else arg.args)]
    if arg.op.statistics:  # a printed statistic off its truth is upstream of what divides by it
        truths = _derived(arg.op, arg.convention, EXACT, [_exact(a, False) for a in arg.args])
        parts += [_statistic_deps(a, t) for a, t in zip(arg.args[1:], truths[1:], strict=True)]
    return frozenset().union(*(p[0] for p in parts)), any(p[1] for p in parts)


def _statistic_deps(node: Any, truth: Matrix) -> tuple[frozenset[int], bool]:
    """A printed statistic's line when it differs from its truth, and whether a number of it is
    wrong (not only rounded)."""
    if not isinstance(node, Node) or node.block is None:
        return _deps(node)
    from symattn.verify.explain import _rounds_to

    shaped = _statistic_truth(node, truth)
    fits = [
        _rounds_to(lit, shaped[i][j]) for i, row in enumerate(node.block.rows) for j, lit in enumerate(row)
    ]
    differs = node.printed != shaped
    return (frozenset({node.line}) if differs else frozenset()) | node.deps, any(f is False for f in fits)


def chain(
    blocks: list[Any],
    given: list[Any],
    identified: dict[int, Matrix],
    trace: list[dict[str, Any]],
    *,
    judge: Callable[..., Any],
    stated: dict[str, tuple[Fraction, ...]] | None = None,
    wrong: frozenset[tuple[int, int]] = frozenset(),
) -> tuple[dict[tuple[int, int], Any], int]:
    """Verdicts on the printed blocks that are one declared operation (or an activation or norm
    of one) on blocks printed before them, and the number of candidates computed.

    ``identified`` maps ``id(block)`` to the exact truth of blocks another graph identified;
    they join the nodes as they are reached.  ``judge`` is the explanation's cell judgement;
    ``stated`` the values the text states for a convention (``{"temperature": (0.5, 2)}``),
    each tried as one more convention of the operations that take it; ``wrong`` the places
    already found wrong (a step on an identified block with one of them is carried)."""
    written = {b.line for b in blocks if b.operand}  # lines with arithmetic written out
    graph = _Chain(given, identified, trace, judge, stated=stated, wrong=wrong, written=written)
    for block in sorted(blocks, key=lambda b: (b.line, b.rows[0][0].column)):
        graph.read(block)
    return graph.verdicts, graph.tried


def _half_unit(lit: Any) -> Fraction:
    return Fraction(1, 2 * 10**lit.places) if lit.places is not None and lit.places >= 3 else Fraction(0)


def _overlaps(lit: Any, ball: Any) -> bool:
    """Whether some value in ``ball`` rounds to ``lit`` at its places."""
    if not hasattr(ball, "mid"):
        return False
    half = 0.5 * 10.0 ** -(lit.places or 0)
    return abs(float(ball.mid()) - lit.approx) <= float(ball.rad()) + half * (1 + 1e-9)


def _key(op: Op, convention: dict[str, Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    return (op.name, tuple(sorted(convention.items())), tuple(id(a) for a in args))


def _rival_explains(lit: Any, rival: _Found, index: int) -> bool:
    """Another fit gives the printed number: its truth, or its world (a) where no number it is
    computed from was called wrong (where one was, it calls this one carried too)."""
    value, value_a = rival.value(index)
    return _agrees(lit, value, value) or (_agrees(lit, value_a, value_a) and not _deps(rival.cand)[1])


def _agrees(lit: Any, value: float, value_a: float) -> bool:
    unit = 10.0 ** -(lit.places or 0)
    return any(abs(lit.approx - v) <= unit / 2 * (1 + 1e-6) + 1e-12 for v in (value, value_a))


def _printed(block: Any) -> Matrix:
    return [[MASKED if c.infinite < 0 else c.value for c in row] for row in block.rows]


def _reshape(values: list[Any], shape: tuple[int, int]) -> Matrix:
    r, c = shape
    return [values[i * c : (i + 1) * c] for i in range(r)]


def _note(block: Any, node: str | None, why: str, evidence: int = 0) -> dict[str, Any]:
    return {
        "line": block.line,
        "shape": list(block.shape),
        "name": block.name,
        "node": node,
        "evidence": evidence,
        "why": why,
    }


def _arguments(op: Op, pool: list[Node]) -> list[tuple[Node, ...]]:
    if op.arity == 1:
        return [(n,) for n in pool]
    if op.arity == 2:
        return [(a, b) for a in pool for b in pool if a is not b or op.name == "A·Bᵀ"]
    if op.statistics:  # a matrix and the printed statistics of its rows (one number per row)
        vectors = [n for n in pool if 1 in n.shape]
        return [
            (a, m, s)
            for a in pool
            if a.shape[1] >= 2
            for m in vectors
            for s in vectors
            if m is not s
            and a is not m
            and a is not s
            and a.shape[0] in m.shape
            and a.shape[0] in s.shape
            and min(m.line, s.line) >= a.line  # the statistics of rows printed before them
        ]
    biases = [n for n in pool if n.shape[0] == 1]
    if op.params:  # γ ⊙ x + β: x computed, γ and β given vectors
        results = [n for n in pool if not n.given]
        biases = [n for n in biases if n.given and not n.data]
        return [(a, g, b) for a in results for g in biases for b in biases if g is not b]
    return [(a, w, b) for a in pool for w in pool for b in biases if len({id(a), id(w), id(b)}) == 3]


def _consider(block: Any, cand: Candidate, shape: tuple[int, int], args: tuple[Any, ...]) -> list[_Found]:
    """How well ``cand`` explains ``block``, in each way the block can sit in it."""
    cells = block.cells()
    if _restates(cand.floats, [a.floats for a in args]):
        return []  # the same numbers as one of its arguments (ReLU of positive numbers): no evidence
    same = [  # printed blocks it is computed from, of its shape: a cell equal to theirs restates it
        a.floats
        for a in _leaves(cand)
        if len(a.floats) == len(cand.floats) and len(a.floats[0]) == len(cand.floats[0])
    ]
    name = block.name.lower()
    prior = (
        2
        if name and any(w == name or (len(w) > 2 and w in name) for w in OP_WORDS.get(cand.op.name, ()))
        else 0
    )
    out = []
    for how, row in _views(block, shape):
        values = _view(cand.floats, how, row)
        values_a = _view(cand.floats_a, how, row)
        if any(lit.infinite and not math.isinf(v) for lit, v in zip(cells, values, strict=True)):
            continue  # a masked score printed where the candidate has a number: a mask it lacks
        restated = [
            any(abs(v - x) <= 1e-12 * max(1.0, abs(v)) for x in (_view(a, how, row)[i] for a in same))
            for i, v in enumerate(values)
        ]
        matched, decided = max(_float_score(cells, values, restated), _float_score(cells, values_a, restated))
        if decided and matched:
            off = sum(not _agrees(lit, v, w) for lit, v, w in zip(cells, values, values_a, strict=True))
            out.append(_Found(matched + prior, Fraction(matched, decided), cand, how, row, off))
    return out
