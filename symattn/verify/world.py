"""What the world model's parts share: name tables, patterns and small helpers."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

import sympy

from symattn import registry
from symattn.exact import parse_claim
from symattn.latexparse import (
    Call,
    Div,
    Matrix,
    Mul,
    Name,
    Node,
    Num,
    Sqrt,
    Transpose,
    split_head,
)
from symattn.verify.values import (
    Val,
    exact_cells,
    is_matrix,
    row_deps,
)

#: A cell, row or column of a named matrix: A_{1,2}, A_{12}, A_{3,:}, A_{:,2}.

if TYPE_CHECKING:
    from symattn.verify.evaluate import DocumentState

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
_WEIGHT_NAMES = registry.stage("weights").read_as
#: Names of an additive mask a document may leave undefined (read as causal when it prints the pattern).
_MASK_NAMES = ("M", "\\text{mask}", "M_{causal}", "\\text{Mask}")
#: Names read as the scores QKᵀ when printed as numbers and never defined otherwise.
_SCORE_NAMES = registry.stage("scores").read_as
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
_ALIASES = {d.name: d.aliases for d in registry.ATTENTION if d.aliases}  # from the declarations
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

    def ffn(self, rows: list[list[Any]]) -> list[list[Any]]:
        """The document's FFN of rows of balls (sublayers.py), for a formula that uses numbers
        the document gives only rounded (``n ≈ [...]``, so the exact check can only say
        "undecided"); an FFN of exact or computed rows is judged exactly.  Any error means no
        interval (ball_of)."""
        if not self.state.ref_approximate:
            raise ValueError("an FFN of exact rows is judged exactly")
        return self.state._ffn_ball(rows)

    def tied(self, node: Node) -> Any:
        """The value in truth of a literal that restates a result printed before (its ball is
        that value, not the literal's rounding interval), or None."""
        earlier = self.state.tied.get(id(node))
        if earlier is None or not earlier.truth:  # its truth holds rounded inputs: as they may be
            return None if earlier is None else earlier.ball
        if getattr(earlier.b, "free_symbols", None) or getattr(earlier.b, "is_Matrix", False):
            return None
        return earlier.b

    def expression(self, node: Node) -> tuple[Any, Any] | None:
        if node is self.top:
            return None
        binding = self.state._claimed_binding(node)
        return None if binding is None else (binding.a, exact_cells(binding.a, binding.b, binding.halfwidth))


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


def _display_name(name: str) -> str:
    return name.replace("{", "").replace("}", "")
