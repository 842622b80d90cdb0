"""Read the LaTeX math of a document into small syntax trees.

This is the one module that knows LaTeX syntax, and the only one that imports
latex2sympy2_extended (lazily, for scalar formulas outside the attention
grammar).  The attention grammar itself is parsed here by a small
recursive-descent parser, because the verifier needs what a CAS parser throws
away:

* every numeric literal keeps its printed text and its offset in the formula
  (a ``0.4`` never becomes a binary float);
* products keep their order (``Q K^T`` is not ``K Q``);
* names keep their case and their sub/superscripts (``W^Q`` is ``W_{Q}``).

Pipeline: :func:`tokenize` -> :func:`normalise` (drops sizing, spacing,
``\\tag``, label matrices; maps ``\\dfrac`` to ``\\frac`` ...) ->
:func:`parse_formula` (statements, chains, trees).  Text is never executed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from symattn.errors import LatexParseError

if TYPE_CHECKING:  # SymPy is imported only where a scalar formula needs it
    import sympy

__all__ = [
    "Call",
    "Chain",
    "Div",
    "Formula",
    "Inf",
    "Matrix",
    "Mul",
    "Name",
    "Neg",
    "Node",
    "Num",
    "Pow",
    "Sqrt",
    "Sum",
    "Token",
    "Transpose",
    "Unsupported",
    "literals",
    "normalise",
    "parse_formula",
    "scalar_latex",
    "scalar_value",
    "tokenize",
]

# --- tokens -------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """One lexical token: ``kind`` is num, cmd, letter, name, char, rel, sep, mul."""

    kind: str
    text: str
    offset: int
    end: int = -1  # where the token's source ends, when its text is not its source (\text{总和})


_TOKEN = re.compile(
    r"(?P<num>\d{1,3}(?:\{,\}\d{3})+(?!\d)|(?<![\d.,\[(])\d{1,3}(?:,\d{3})+(?!\d|\.\d|,\d)"  # 22{,}026, 22,026
    r"|(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+(?!\d)(?!\.\d))?(?:\\?%|[KMB](?=\\!))?)"
    r"|(?P<pow>\*\*)"
    r"|(?P<cmd>\\(?:[A-Za-z]+\*?|.))"
    r"|(?P<letter>[A-Za-z])"
    r"|(?P<space>\s+)"
    r"|(?P<char>.)",
    re.DOTALL,
)

_UNICODE = {
    "\u2212": "-", "\u00b7": r"\cdot", "\u00d7": r"\times", "\u2248": r"\approx", "\u22c5": r"\cdot",
    "\u2299": r"\odot",
}  # fmt: skip


def tokenize(text: str) -> list[Token]:
    """Split formula text into tokens, keeping each token's offset.

    >>> [t.text for t in tokenize(r"0.4\\cdot[1,0]")]
    ['0.4', '\\\\cdot', '[', '1', ',', '0', ']']
    """
    tokens = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "space":
            continue
        value = match.group()
        if kind == "pow":  # Python's ** (code, plain text): a power whose exponent is a whole operand
            tokens.append(Token("pow", "^", match.start(), match.end()))
            continue
        if kind == "char" and value in _UNICODE:
            value = _UNICODE[value]
            kind = "cmd" if value.startswith("\\") else "char"
        tokens.append(Token(str(kind), value, match.start()))
    return tokens


# --- normalising ----------------------------------------------------------------

_DROP = {
    r"\left", r"\right", r"\middle", r"\big", r"\Big", r"\bigg", r"\Bigg", r"\bigl", r"\bigr", r"\Bigl",
    r"\Bigr", r"\biggl", r"\biggr", r"\Biggl", r"\Biggr", r"\textstyle", r"\displaystyle",
    r"\scriptstyle", r"\limits", r"\nolimits", r"\nonumber", r"\notag", r"\,", r"\;", r"\:", r"\!",
    r"\ ", r"\quad*", r"\hfill", r"\phantom*", r"\mathstrut", r"\strut", r"\hline", r"\midrule",
    r"\toprule", r"\bottomrule",
}  # fmt: skip
_DROP_WITH_ARG = {
    r"\tag",
    r"\tag*",
    r"\label",
    r"\hspace",
    r"\vspace",
    r"\phantom",
    r"\hphantom",
    r"\vphantom",
    r"\cline",
    r"\color",  # \color{red} x and \textcolor{red}{x}: the colour goes, the math stays
    r"\textcolor",
}
_UNWRAP = {
    r"\mathbf", r"\boldsymbol", r"\bm", r"\mathit", r"\mathnormal", r"\pmb", r"\mathbb", r"\mathcal",
    r"\boxed", r"\underline", r"\num",
}  # fmt: skip
#: Frames around a whole statement (``\boxed{y = 2}``, ``\fbox{$X + P = …$}``): the frame and
#: its braces go, what is inside is read as if it stood alone.
_FRAMES = {r"\boxed", r"\fbox", r"\framebox"}
_NAME_CMDS = {
    r"\text", r"\mathrm", r"\operatorname", r"\operatorname*", r"\textrm", r"\textbf", r"\texttt",
    r"\textit", r"\mathsf", r"\mathtt", r"\textsf", r"\mbox",
}  # fmt: skip
#: Accents that make a new name of a letter: \tilde{S}, \hat{A}, \bar{x}.
_ACCENTS = {r"\tilde", r"\hat", r"\bar", r"\widetilde", r"\widehat", r"\overline"}
_FRACS = {r"\frac", r"\dfrac", r"\tfrac", r"\cfrac"}
_RELATIONS = {"=", r"\approx", r"\simeq", r"\equiv", r"\doteq", r"\eqqcolon", r"\coloneqq"}
#: What separates two statements: a space, or an arrow (``(1, 0) \to (0.866, 0.5)``: a step
#: to something else, not an equality).
_SEPARATORS = {
    r"\quad", r"\qquad", r"\Rightarrow", r"\implies", r"\Longrightarrow", r"\iff", r"\text{sep}",
    r"\to", r"\rightarrow", r"\longrightarrow", r"\mapsto", r"\longmapsto", "\u2192", "\u27f6", "\u21a6",
}  # fmt: skip
_MULS = {r"\cdot", r"\times", r"\ast", "*"}
#: The function an entrywise product ``a \odot b`` is read as.
HADAMARD = "hadamard"
_ELLIPSES = {r"\cdots", r"\ldots", r"\dots", r"\vdots", r"\ddots", r"\dotsb", r"\dotsc"}
_MATRIX_ENVS = {"array", "matrix", "bmatrix", "pmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix"}
_LAYOUT_ENVS = {
    "aligned",
    "split",
    "gathered",
    "align",
    "align*",
    "gather",
    "gather*",
    "equation",
    "equation*",
}
_ARROWS = {r"\leftarrow", r"\rightarrow", r"\uparrow", r"\downarrow", r"\longleftarrow", r"\gets"}


def _unframed(tokens: list[Token]) -> list[Token]:
    """The tokens without frames (see ``_FRAMES``) and the ``$`` of math inside a frame's text."""
    if not any(t.text in _FRAMES for t in tokens):
        return tokens
    drop: set[int] = set()
    for index, token in enumerate(tokens):
        if token.text in _FRAMES and index + 1 < len(tokens) and tokens[index + 1].text == "{":
            end = _group_end(tokens, index + 1)
            drop |= {index, index + 1, end - 1}
            drop |= {k for k in range(index + 2, end - 1) if tokens[k].text == "$"}
    return [t for k, t in enumerate(tokens) if k not in drop]


def _group_end(tokens: list[Token], start: int) -> int:
    """Index just past the brace group starting at ``tokens[start]`` ('{')."""
    depth = 0
    for index in range(start, len(tokens)):
        if tokens[index].text == "{":
            depth += 1
        elif tokens[index].text == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    raise LatexParseError("unbalanced braces: a '{' is never closed")


def _env_name(tokens: list[Token], index: int) -> tuple[str, int]:
    """Read ``{name}`` after \\begin/\\end; returns (name, index after)."""
    if index >= len(tokens) or tokens[index].text != "{":
        raise LatexParseError(r"\begin or \end without an environment name")
    end = _group_end(tokens, index)
    return "".join(t.text for t in tokens[index + 1 : end - 1]), end


def _check_balance(tokens: list[Token]) -> None:
    depth = 0
    for token in tokens:
        if token.text == "{":
            depth += 1
        elif token.text == "}":
            depth -= 1
            if depth < 0:
                raise LatexParseError("unbalanced braces: a '}' closes nothing")
    if depth:
        raise LatexParseError(f"unbalanced braces: {depth} '{{' never closed")
    envs: list[str] = []
    for index, token in enumerate(tokens):
        if token.text in (r"\begin", r"\end"):
            name, _ = _env_name(tokens, index + 1)
            if token.text == r"\begin":
                envs.append(name)
            elif not envs or envs.pop() != name:
                raise LatexParseError(f"\\end{{{name}}} does not match its \\begin")
    if envs:
        raise LatexParseError(f"\\begin{{{envs[-1]}}} is never ended")


#: Units of memory written after a number (``160 KB``, ``5.3 GB``, ``2 GiB``): a bare ``B``, ``K``
#: or ``M`` is too often a matrix or a count to be one.
UNITS = frozenset({"KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB"})


def _unit_after_number(tokens: list[Token], index: int, out: list[Token]) -> str:
    """The unit whose letters start at ``index``, right after a number and a space, and end a
    word (``160 KB per token``), or ""."""
    if not out or out[-1].kind != "num" or tokens[index].kind != "letter":
        return ""
    if tokens[index].offset == out[-1].offset + len(out[-1].text):
        return ""  # 2KB: a product as math writes it
    word = ""
    end = index
    while end < len(tokens) and tokens[end].kind == "letter" and len(word) < 3:
        if word and tokens[end].offset != tokens[end - 1].offset + 1:
            break
        word += tokens[end].text
        end += 1
    if word not in UNITS:
        return ""
    after = tokens[end] if end < len(tokens) else None
    if after is not None and after.kind == "letter" and after.offset == tokens[end - 1].offset + 1:
        return ""  # a longer word
    return word


def _words_only(inner: list[Token]) -> bool:
    r"""Whether an environment's cells are words only (``\text{猫} \\ \text{坐}``): no number,
    no letter or operator outside ``\text{}``, so labels beside a matrix, not a factor."""
    index, words = 0, 0
    while index < len(inner):
        text = inner[index].text
        if text in _NAME_CMDS and index + 1 < len(inner) and inner[index + 1].text == "{":
            index = _group_end(inner, index + 1)
            words += 1
            continue
        if text not in ("&", "\\\\") and text not in _DROP and not text.isspace():
            return False
        index += 1
    return words > 0


def normalise(tokens: list[Token]) -> list[Token]:  # noqa: PLR0915 - one branch per construct
    r"""Rewrite tokens into the small core grammar the parser reads.

    Drops sizing (``\left``, ``\Bigg``), spacing, ``\textstyle``, ``\tag{}``,
    label matrices (``\begin{matrix}\leftarrow...``) and layout environments;
    maps ``\dfrac``/``\tfrac`` to ``\frac``, unwraps ``\mathbf{2}``, turns
    ``\text{...}``/``\mathrm{...}``/``\operatorname{...}`` into one ``name`` token
    and ``\\[2pt]`` into ``\\``.

    Raises:
        LatexParseError: unbalanced braces or environments.
    """
    _check_balance(tokens)
    tokens = _unframed(tokens)
    out: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        text = token.text
        if text in _DROP:
            index += 1
            if (
                text in (r"\left", r"\right", r"\middle")
                and index < len(tokens)
                and tokens[index].text == "."
            ):
                index += 1
            continue
        if text in _DROP_WITH_ARG:
            index += 1
            if index < len(tokens) and tokens[index].text == "{":
                index = _group_end(tokens, index)
            continue
        if text in _UNWRAP:
            index += 1
            continue
        if text in _NAME_CMDS:
            index += 1
            if index < len(tokens) and tokens[index].text == "{":
                end = _group_end(tokens, index)
                inner = "".join(t.text for t in tokens[index + 1 : end - 1]).strip()
                closing = tokens[end - 1].offset + 1  # just past the closing brace
                if inner == "sep":
                    out.append(Token("sep", inner, token.offset, closing))
                else:
                    out.append(Token("name", inner, token.offset, closing))
                index = end
            continue
        if text in _ACCENTS and index + 1 < len(tokens) and tokens[index + 1].text == "{":
            end = _group_end(tokens, index + 1)
            inner = "".join(t.text for t in tokens[index + 2 : end - 1]).strip()
            head = re.fullmatch(r"(.+?)\^\{?\((\w{1,3})\)\}?", inner)
            name = f"{text}{{{head.group(1)}}}^{{({head.group(2)})}}" if head else f"{text}{{{inner}}}"
            out.append(Token("name", name, token.offset, tokens[end - 1].offset + 1))  # \tilde{S}
            index = end
            continue
        if text in _FRACS:
            out.append(Token("cmd", r"\frac", token.offset))
            index += 1
            continue
        if text in (r"\begin", r"\end"):
            name, after = _env_name(tokens, index + 1)
            if name in _MATRIX_ENVS and text == r"\begin":
                end = _matching_end(tokens, index)
                inner = tokens[after:end]
                if any(t.text in _ARROWS for t in inner) or (  # a label matrix: drop it all
                    out
                    and out[-1].kind == "end"
                    and (
                        (name == "matrix" and any(t.text == r"\vphantom" for t in inner))
                        or _words_only(inner)
                    )
                ):  # (row labels x_1 ... beside a matrix, aligned with \vphantom, or \text{猫} ...)
                    index = _env_name(tokens, end + 1)[1]
                    continue
                if name == "array" and after < len(tokens) and tokens[after].text == "{":
                    after = _group_end(tokens, after)  # the column spec {cc}
                out.append(Token("begin", "matrix", token.offset))
                index = after
                continue
            if name in _MATRIX_ENVS:
                out.append(Token("end", "matrix", token.offset))
                index = after
                continue
            if name in _LAYOUT_ENVS or name.rstrip("*") in _LAYOUT_ENVS:
                index = after
                continue
            out.append(Token("unsupported", f"\\{text[1:]}{{{name}}}", token.offset))
            index = after
            continue
        if text == "\\\\":
            out.append(Token("rowbreak", text, token.offset))
            index += 1
            if index < len(tokens) and tokens[index].text == "[":  # \\[2pt]
                close = index
                while close < len(tokens) and tokens[close].text != "]":
                    close += 1
                index = close + 1
            continue
        unit = _unit_after_number(tokens, index, out)
        if unit:  # 160 KB: one name, the unit (not K times B)
            out.append(Token("name", unit, token.offset, tokens[index + len(unit) - 1].offset + 1))
            index += len(unit)
            continue
        if text in _RELATIONS:
            out.append(Token("rel", text, token.offset))
        elif text in _SEPARATORS:
            out.append(Token("sep", text, token.offset))
        elif text in _MULS:
            out.append(Token("mul", text, token.offset))
        elif text == r"\odot":  # γ ⊙ x̂: the entrywise (Hadamard) product
            out.append(Token("odot", text, token.offset))
        elif text in _ELLIPSES:
            out.append(Token("ellipsis", text, token.offset))
        elif text in (r"\{", r"\}"):
            out.append(Token("char", text[1], token.offset))
        else:
            out.append(token)
        index += 1
    return out


def _matching_end(tokens: list[Token], begin: int) -> int:
    depth = 0
    for index in range(begin, len(tokens)):
        if tokens[index].text == r"\begin":
            depth += 1
        elif tokens[index].text == r"\end":
            depth -= 1
            if depth == 0:
                return index
    raise LatexParseError(r"\begin is never ended")


# --- syntax trees ---------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    """Base of the syntax tree; ``offset`` is where the node starts in the formula."""

    offset: int


@dataclass(frozen=True)
class Num(Node):
    """A printed numeric literal, e.g. ``0.40`` (sign included when it is unary)."""

    text: str


@dataclass(frozen=True)
class Inf(Node):
    """``\\infty``."""


@dataclass(frozen=True)
class Name(Node):
    """A name such as ``X``, ``W_{Q}``, ``d_{k}`` or ``Output`` (canonical form)."""

    name: str


@dataclass(frozen=True)
class Matrix(Node):
    """A matrix or vector literal; ``rows`` hold nodes."""

    rows: tuple[tuple[Node, ...], ...]


@dataclass(frozen=True)
class Neg(Node):
    arg: Node


@dataclass(frozen=True)
class Sum(Node):
    """A sum of terms (subtraction is ``Neg`` of a term)."""

    terms: tuple[Node, ...]


@dataclass(frozen=True)
class Mul(Node):
    """An ordered product (``\\cdot``, ``\\times`` or juxtaposition)."""

    factors: tuple[Node, ...]


@dataclass(frozen=True)
class Div(Node):
    num: Node
    den: Node


@dataclass(frozen=True)
class Pow(Node):
    base: Node
    exponent: Node


@dataclass(frozen=True)
class Sqrt(Node):
    arg: Node
    index: Node | None = None


@dataclass(frozen=True)
class Transpose(Node):
    arg: Node


@dataclass(frozen=True)
class Call(Node):
    """A function applied to arguments: softmax, exp, Concat, or an unknown f."""

    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Unsupported(Node):
    """Something the verifier cannot evaluate (sums over an index, ellipses...)."""

    reason: str
    inner: tuple[Node, ...] = ()
    scalar: bool = False  # a scalar function latex2sympy2_extended can read (\\ln, \\sin ...)


@dataclass(frozen=True)
class Chain:
    """One statement ``e0 = e1 = ... = ek``: its elements and relations."""

    elements: tuple[Node, ...]
    relations: tuple[str, ...]
    error: str | None = None
    numbers: tuple[Num, ...] = field(default=())
    spans: tuple[tuple[int, int], ...] = field(default=())
    texts: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Formula:
    """The statements of one math span."""

    chains: tuple[Chain, ...]


def literals(node: Node) -> list[Num]:
    """Every numeric literal under ``node``, in order."""
    found: list[Num] = []
    _collect(node, found)
    return found


def _collect(node: Any, found: list[Num]) -> None:
    if isinstance(node, Num):
        found.append(node)
        return
    if isinstance(node, tuple):
        for item in node:
            _collect(item, found)
        return
    if isinstance(node, Node):
        for name in node.__dataclass_fields__:
            if name != "offset":
                _collect(getattr(node, name), found)


# --- the parser ---------------------------------------------------------------

WORDS = (
    "softmax",
    "Softmax",
    "Attention",
    "Output",
    "output",
    "head",
    "Concat",
    "concat",
    "MultiHead",
    "exp",
    "LayerNorm",
    "RMSNorm",
    "ReLU",
    "GELU",
    "SiLU",
)
#: Short names of block stages, read as one name only when the run of letters is
#: exactly the word (``LN(x)``, ``PE_{(1,0)}``; ``PEx`` stays P·E·x).
SHORT_WORDS = ("LN", "PE", "FFN", "MHA", "RMS")
_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "lambda", "mu",
    "nu", "xi", "rho", "sigma", "tau", "phi", "varphi", "chi", "psi", "omega", "Sigma", "Phi", "Omega",
}  # fmt: skip
#: The Greek letters the grammar reads as names (``\theta``, ``\Sigma``).
GREEK_NAMES = frozenset(_GREEK)
#: The function an angle written in degrees is read as (30^\circ, 30°): its value in radians.
DEGREES = "degrees"
_TRANSPOSE = {"T", r"\top", r"\intercal", r"\mathsf{T}", r"\mathrm{T}", "\u22a4", "t"}
#: Scalar functions left to latex2sympy2_extended (unambiguous, no matrices).
SCALAR_FUNCTIONS = {r"\ln", r"\sin", r"\cos", r"\tan"}
_UNSUPPORTED_CMDS = {
    r"\sum",
    r"\prod",
    r"\int",
    r"\lim",
    r"\max",
    r"\min",
    r"\arg",
    r"\log",
    r"\ln",
    r"\sin",
    r"\cos",
}


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    # helpers
    def peek(self, ahead: int = 0) -> Token | None:
        index = self.pos + ahead
        return self.tokens[index] if index < len(self.tokens) else None

    def at(self, *texts: str) -> bool:
        token = self.peek()
        return token is not None and token.text in texts and token.kind in ("char", "mul", "cmd")

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise LatexParseError("the formula ends too early")
        self.pos += 1
        return token

    def expect(self, text: str) -> Token:
        token = self.take()
        if token.text != text:
            raise LatexParseError(f"expected {text!r} but found {token.text!r}")
        return token

    def offset(self) -> int:
        token = self.peek()
        return token.offset if token else (self.tokens[-1].offset if self.tokens else 0)

    # grammar
    def expr(self) -> Node:
        start = self.offset()
        terms: list[Node] = []
        sign = None
        if self.at("+", "-"):
            sign = self.take()
        first = self.term()
        if sign is not None and sign.text == "-":
            first = _negate_product(first, sign.offset)
        terms.append(first)
        while self.at("+", "-"):
            op = self.take()
            term = self.term()
            terms.append(_negate(term, op.offset) if op.text == "-" else term)
        return terms[0] if len(terms) == 1 else Sum(start, tuple(terms))

    def term(self) -> Node:
        start = self.offset()
        factors = [self.unary()]
        while True:
            token = self.peek()
            if token is None:
                break
            if token.kind == "mul":
                self.take()
                factors.append(self.unary())
            elif token.kind == "odot":  # entry by entry: Call("hadamard", (left, right))
                self.take()
                left = factors[0] if len(factors) == 1 else Mul(start, tuple(factors))
                factors = [Call(start, HADAMARD, (left, self.unary()))]
            elif token.kind == "char" and token.text == "/":
                self.take()
                den = self.unary()
                left = factors[0] if len(factors) == 1 else Mul(start, tuple(factors))
                factors = [Div(start, left, den)]
            elif self.starts_atom(token):
                factors.append(self.postfix())
            else:
                break
        return factors[0] if len(factors) == 1 else Mul(start, tuple(factors))

    def starts_atom(self, token: Token) -> bool:
        if token.kind in ("num", "letter", "name", "begin", "ellipsis", "unsupported"):
            return True
        if token.kind == "char":
            return token.text in "([{" or not token.text.isascii()
        if token.kind == "cmd":
            return token.text not in ("\\\\",) and token.text[1:] not in ("to", "in", "leq", "geq", "neq")
        return False

    def unary(self) -> Node:
        if self.at("-"):
            sign = self.take()
            return _negate(self.unary(), sign.offset)
        if self.at("+"):
            self.take()
            return self.unary()
        return self.postfix()

    def postfix(self) -> Node:
        node = self.atom()
        while self.at("^", "_", "'", "\u00b0") or self._at_pow():
            if self.at("\u00b0"):  # 30°: an angle in degrees
                self.take()
                node = Call(node.offset, DEGREES, (node,))
                continue
            if self._at_pow():  # 2**3**2 is 2**(3**2): the exponent is the rest, read the same way
                self.take()
                node = Pow(node.offset, node, self.unary())
                continue
            op = self.take()
            if op.text == "'":  # S' is a name of its own (a derivative f'(x) is never defined)
                node = (
                    Name(node.offset, node.name + "'")
                    if isinstance(node, Name)
                    else Unsupported(node.offset, "a primed name", (node,))
                )
                continue
            script = self.script_tokens()
            script_text = "".join(t.text for t in script)
            if op.text == "_":
                if isinstance(node, Name):
                    node = Name(node.offset, _add_script(node.name, sub=script_text))
                else:
                    node = Unsupported(node.offset, "a subscript on an expression", (node,))
                continue
            if op.text == "^" and script_text in (r"\circ", "\u00b0"):  # 30^\circ: an angle in degrees
                node = Call(node.offset, DEGREES, (node,))
            elif script_text in _TRANSPOSE or (
                len(script) == 1 and script[0].kind == "name" and script[0].text == "T"
            ):
                node = Transpose(node.offset, node)
            elif (
                isinstance(node, Name)
                and len(script) == 1
                and (script[0].kind == "name" or (script[0].kind == "letter" and script[0].text.isupper()))
            ):
                node = Name(node.offset, _add_script(node.name, sup=script_text))
            elif (
                isinstance(node, Name)
                and not split_head(node.name)[1]
                and len(script) == 3
                and script[0].text == "("
                and script[2].text == ")"
                and script[1].kind in ("num", "letter", "name")
                and re.fullmatch(r"\w{1,3}", script[1].text)
            ):
                node = Name(node.offset, f"{node.name}^{{({script[1].text})}}")  # Q^{(1)}: head 1
            else:
                exponents = [_Parser(script).whole()]
                while self.at("^"):  # 2^3^2 (plain text) is 2^(3^2), right to left as in Python
                    self.take()
                    exponents.append(_Parser(self.script_tokens()).whole())
                exponent = exponents.pop()
                while exponents:
                    base = exponents.pop()
                    exponent = Pow(base.offset, base, exponent)
                node = Pow(node.offset, node, exponent)
        return node

    def _at_pow(self) -> bool:
        token = self.peek()
        return token is not None and token.kind == "pow"

    def script_tokens(self) -> list[Token]:
        token = self.take()
        if token.text == "{":
            self.pos -= 1
            end = _group_end(self.tokens, self.pos)
            inner = self.tokens[self.pos + 1 : end - 1]
            self.pos = end
            return inner
        if token.kind == "num" and len(token.text) > 1 and "." not in token.text:
            # TeX reads x^23 as x^{2} 3: the script takes one digit
            self.tokens.insert(self.pos, Token("num", token.text[1:], token.offset + 1))
            return [Token("num", token.text[0], token.offset)]
        if token.kind == "cmd" and token.text in (r"\sqrt", r"\frac"):
            raise LatexParseError(f"write {token.text} in braces after ^ or _")
        return [token]

    def whole(self) -> Node:
        if not self.tokens:
            raise LatexParseError("an empty group")
        node = self.expr()
        if self.pos != len(self.tokens):
            raise LatexParseError(f"unexpected {self.tokens[self.pos].text!r}")
        return node

    def argument(self) -> Node:
        """A command argument: ``{...}``, or one token as in ``\\frac12`` and ``\\sqrt 2``."""
        token = self.peek()
        if token is not None and token.text == "{":
            return self.group()
        if token is not None and token.kind == "num" and len(token.text) > 1 and "." not in token.text:
            self.pos += 1
            self.tokens.insert(self.pos, Token("num", token.text[1:], token.offset + 1))
            return Num(token.offset, token.text[0])
        if token is not None and (token.kind in ("num", "letter", "name") or token.text == r"\infty"):
            return self.atom()
        raise LatexParseError("a command argument is missing its braces")

    def group(self) -> Node:
        self.expect("{")
        node = self.expr()
        self.expect("}")
        return node

    def atom(self) -> Node:
        token = self.take()
        kind, text = token.kind, token.text
        if kind == "num":
            unit = self.peek()
            if unit is not None and unit.kind == "name" and unit.text in UNITS:
                self.take()  # 160 KB: one quantity (90 GB / 160 KB divides by both)
                return Mul(token.offset, (Num(token.offset, text), Name(unit.offset, unit.text)))
            return Num(token.offset, text)
        if kind == "name":
            return self.named(token.offset, text)
        if kind == "letter":
            return self.letters(token)
        if kind == "begin":
            return self.matrix(token)
        if kind == "ellipsis":
            return Unsupported(token.offset, "an ellipsis (…)")
        if kind == "unsupported":
            return Unsupported(token.offset, f"the construct {text}")
        if text == "{":
            self.pos -= 1
            return self.group()
        if text == "(":
            node = self.expr()
            if self.at(","):
                items = [node]
                while self.at(","):
                    self.take()
                    items.append(self.expr())
                self.expect(")")
                return Matrix(token.offset, (tuple(items),))  # (e^{1}, e^{0}): a row vector, as [1, 0] is
            self.expect(")")
            return node
        if text == "[":
            return self.bracket_vector(token)
        if text == "|":
            node = self.expr()
            self.expect("|")
            return Unsupported(token.offset, "an absolute value or determinant", (node,))
        if text == r"\frac":
            num = self.argument()
            den = self.argument()
            return Div(token.offset, num, den)
        if text == r"\sqrt":
            index = None
            if self.at("["):
                self.take()
                index = self.expr()
                self.expect("]")
            return Sqrt(token.offset, self.argument(), index)
        if text == r"\pi":
            return Name(token.offset, "pi")
        if text == r"\infty":
            return Inf(token.offset)
        if text == r"\exp":
            return Call(token.offset, "exp", (self.call_argument(),))
        if text in (r"\sin", r"\cos", r"\tanh") and not self.at("_"):
            trig = self.trig(token)
            if trig is not None:
                return trig
        if text in SCALAR_FUNCTIONS:
            return Unsupported(token.offset, f"{text} (read by latex2sympy2_extended)", scalar=True)
        if text == r"\log":
            return Unsupported(token.offset, r"\log without a base (natural or base 10 is ambiguous)")
        if text in (r"\max", r"\min") and self.at("("):
            return self.call(token.offset, text[1:])  # \max(0, xW_1 + b_1): ReLU
        if text in _UNSUPPORTED_CMDS:
            return Unsupported(token.offset, f"{text} (not part of the attention grammar)")
        if kind == "cmd" and text[1:] in _GREEK:
            return Name(token.offset, text[1:])
        if kind == "char" and not text.isascii():
            return Name(token.offset, text)
        raise LatexParseError(f"unexpected {text!r}")

    def trig(self, token: Token) -> Node | None:
        """``\\sin(1)``, ``\\cos{\\left(\\frac{1}{100}\\right)}``, ``\\sin \\alpha_{(1,0)}``, ``\\sin 1``: a
        call; None (left to latex2sympy2_extended) when a bare argument runs on (``\\sin 2x``)."""
        start = self.pos
        exponent = None
        try:
            if self.at("^"):  # \sin^{2}{\left(1 \right)}, as SymPy prints sin(1)**2
                self.take()
                exponent = _Parser(self.script_tokens()).whole()
            delimited = self.at("(", "{")
            if exponent is not None and not delimited:
                raise LatexParseError("a power of a function needs its argument in brackets")
            argument = self.call_argument()
        except LatexParseError:
            self.pos = start
            return None
        following = self.peek()
        if not delimited and following is not None and self.starts_atom(following):
            self.pos = start
            return None
        call = Call(token.offset, token.text[1:], (argument,))
        return call if exponent is None else Pow(token.offset, call, exponent)

    def call_argument(self) -> Node:
        if self.at("("):
            self.take()
            node = self.expr()
            self.expect(")")
            return node
        if self.at("{"):
            return self.group()
        return self.postfix()

    def named(self, offset: int, text: str) -> Node:
        name = text.replace(" ", "")
        if self.at("("):
            return self.call(offset, name)
        return Name(offset, name)

    def call(self, offset: int, name: str) -> Node:
        self.expect("(")
        args = [self.expr()]
        while self.at(","):
            self.take()
            args.append(self.expr())
        self.expect(")")
        return Call(offset, name, tuple(args))

    def letters(self, first: Token) -> Node:
        # multi-letter words (softmax, head, ...) written without \text
        run = first.text
        index = self.pos
        while index < len(self.tokens) and self.tokens[index].kind == "letter":
            run += self.tokens[index].text
            index += 1
        if run in SHORT_WORDS:
            self.pos += len(run) - 1
            return self.named(first.offset, run)
        for word in WORDS:
            if run.startswith(word):
                self.pos += len(word) - 1
                return self.named(first.offset, word)
        if first.text == "e" and self.at("^"):
            self.take()
            exponent = _Parser(self.script_tokens()).whole()
            return Call(first.offset, "exp", (exponent,))
        return Name(first.offset, first.text)

    def bracket_vector(self, open_token: Token) -> Node:
        items = [self.expr()]
        while self.at(",", ";"):
            self.take()
            items.append(self.expr())
        self.expect("]")
        if len(items) == 1 and not isinstance(items[0], (Num, Neg)):
            return items[0]
        return Matrix(open_token.offset, (tuple(items),))

    def matrix(self, begin: Token) -> Node:
        rows: list[list[Node]] = [[]]
        while True:
            token = self.peek()
            if token is None:
                raise LatexParseError("a matrix is never ended")
            if token.kind == "end":
                self.take()
                break
            if token.kind == "rowbreak":
                self.take()
                rows.append([])
                continue
            if token.text == "&":
                self.take()
                if not rows[-1]:
                    raise LatexParseError("an empty matrix cell")
                continue
            if len(rows[-1]) and self.tokens[self.pos - 1].text != "&":
                raise LatexParseError("two entries in one matrix cell")
            rows[-1].append(self.expr())
        if rows and not rows[-1]:
            rows.pop()
        return Matrix(begin.offset, tuple(tuple(row) for row in rows))


def _negate_product(node: Node, offset: int) -> Node:
    """A leading minus.  Of ``-1.1437 × 2`` it is the printed number's sign (``-1.1437``,
    found at the column of its sign, as a matrix cell's is), not the product's."""
    if (
        isinstance(node, Mul)
        and isinstance(node.factors[0], Num)
        and not node.factors[0].text.startswith("-")
    ):
        return Mul(offset, (Num(offset, "-" + node.factors[0].text), *node.factors[1:]))
    return _negate(node, offset)


def _negate(node: Node, offset: int) -> Node:
    if isinstance(node, Num) and not node.text.startswith("-"):
        return Num(offset, "-" + node.text)
    return Neg(offset, node)


#: A head (or layer) tag written as a superscript in parentheses: ``Q^{(1)}``, ``W_Q^{(h)}``.
_HEAD_TAG = re.compile(r"\^\{\((\w{1,3})\)\}$")


def split_head(name: str) -> tuple[str, str]:
    """``("s_{11}", "^{(1)}")`` for ``s_{11}^{(1)}``; ``(name, "")`` without a head tag."""
    match = _HEAD_TAG.search(name)
    return (name[: match.start()], match.group(0)) if match else (name, "")


def _add_script(name: str, *, sub: str = "", sup: str = "") -> str:
    """Canonical names: W^Q, W_Q, W_{Q}, {W}_Q all become ``W_{Q}``; a head tag
    stays last: W_Q^{(1)} and W^{(1)}_Q become ``W_{Q}^{(1)}``."""
    name, head = split_head(name)
    sub = sub.replace(" ", "").strip("{}")
    sup = sup.replace(" ", "").strip("{}")
    base, _, old = name.partition("_")
    parts = [p for p in old.strip("{}").split(",") if p] if old else []
    parts += [p for p in (sup, sub) if p]
    return (f"{base}_{{{','.join(parts)}}}" if parts else base) + head


# --- statements and chains ------------------------------------------------------


def _depth_change(token: Token) -> int:
    if token.kind == "begin" or (token.kind == "char" and token.text in "{(["):
        return 1
    if token.kind == "end" or (token.kind == "char" and token.text in "})]"):
        return -1
    return 0


def _split_statements(tokens: list[Token]) -> list[list[Token]]:
    """Split on \\quad, \\Rightarrow, top-level ``;``, ``,`` and ``\\\\``."""
    pieces: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        depth += _depth_change(token)
        if depth == 0 and (
            token.kind in {"sep", "rowbreak"} or (token.kind == "char" and token.text in ",;.")
        ):
            pieces.append([])
            if token.kind == "rowbreak":
                pieces[-1].append(Token("rowcont", "", token.offset))
            continue
        if depth == 0 and token.text == "&":
            continue
        pieces[-1].append(token)
    statements: list[list[Token]] = []
    for piece in pieces:
        continuation = bool(piece) and piece[0].kind == "rowcont"
        body = [t for t in piece if t.kind != "rowcont"]
        if not body:
            continue
        if statements and continuation and body[0].kind == "rel":
            statements[-1].extend(body)  # an aligned chain goes on: "&= ..."
        else:
            statements.append(body)
    return statements


def _parse_chain(tokens: list[Token], text: str = "") -> Chain:
    elements: list[list[Token]] = [[]]
    relations: list[str] = []
    depth = 0
    for token in tokens:
        depth += _depth_change(token)
        if token.kind == "rel" and depth == 0:
            relations.append(token.text)
            elements.append([])
        else:
            elements[-1].append(token)
    nodes: list[Node] = []
    spans: list[tuple[int, int]] = []
    for part in elements:
        if not part:
            raise LatexParseError("an empty side of '='")
        nodes.append(_Parser(part).whole())
        last = part[-1]
        spans.append((part[0].offset, last.end if last.end >= 0 else last.offset + len(last.text)))
    texts = tuple(text[start:end] for start, end in spans)
    return Chain(tuple(nodes), tuple(relations), spans=tuple(spans), texts=texts)


def _raw_numbers(tokens: list[Token]) -> tuple[Num, ...]:
    return tuple(Num(t.offset, t.text) for t in tokens if t.kind == "num")


def parse_formula(text: str) -> Formula:
    """Parse one math span into chains of syntax trees.

    A chain that cannot be parsed is kept with ``error`` set and its raw
    numbers, so that each of them can be reported as unverified.

    >>> chain = parse_formula(r"A = \\frac{1}{2}[0.5, 1]").chains[0]
    >>> [type(e).__name__ for e in chain.elements]
    ['Name', 'Mul']
    """
    raw = tokenize(text)
    try:
        tokens = normalise(raw)
    except LatexParseError as err:
        return Formula((Chain((), (), str(err), _raw_numbers(raw)),))
    chains = []
    for statement in _split_statements(tokens):
        try:
            chains.append(_parse_chain(statement, text))
        except LatexParseError as err:
            chains.append(Chain((), (), str(err), _raw_numbers(statement)))
        except RecursionError:
            chains.append(Chain((), (), "the formula is nested too deeply", _raw_numbers(statement)))
    return Formula(tuple(chains))


# --- latex2sympy2_extended for scalar formulas ----------------------------------


@lru_cache(maxsize=1)
def _converter() -> tuple[Any, Any]:
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig, latex2sympy

    config = ConversionConfig(
        interpret_as_mixed_fractions=False,
        interpret_simple_eq_as_assignment=False,
        interpret_contains_as_eq=False,
        lowercase_symbols=False,
    )
    return latex2sympy, config


_PLACEHOLDER = re.compile(r"(?<!_)(?<!_\{)\d+(?:\.\d+)?")  # not subscripts (d_1, W_{2})

#: ``\left`` and ``\right`` before a delimiter (``\left.`` with its dot): sizing only, and
#: a formula's text may hold one of a pair (``(\ln t\right)^{2}``).
_SIZING = re.compile(r"\\(?:left|right)(?![A-Za-z])\s*\.?")

#: Largest integer argument of factorial, binomial and gamma on the scalar path.
MAX_FACTORIAL_ARGUMENT = 1000


@lru_cache(maxsize=1)
def _scalar_functions() -> frozenset[type]:
    """SymPy functions whose automatic evaluation is bounded once their
    arguments are (sizes of powers, exp and factorials are checked apart)."""
    import sympy

    return frozenset(
        {
            sympy.log, sympy.sin, sympy.cos, sympy.tan, sympy.cot, sympy.sec, sympy.csc, sympy.asin,
            sympy.acos, sympy.atan, sympy.acot, sympy.sinh, sympy.cosh, sympy.tanh, sympy.coth,
            sympy.asinh, sympy.acosh, sympy.atanh, sympy.Abs, sympy.sign, sympy.floor, sympy.ceiling,
            sympy.Min, sympy.Max,
        }
    )  # fmt: skip


def _exp_bound(argument: sympy.Expr) -> Any:
    """An arb ball holding |re(argument)|, or None when it cannot be had."""
    import sympy

    from symattn.errors import SymattnError
    from symattn.exact import enclose

    for value in (argument, sympy.re(argument)):
        try:
            return abs(enclose(value, 64))
        except (SymattnError, ValueError, TypeError):
            continue
    return None


def _guarded(node: sympy.Basic, args: list[Any], where: str) -> sympy.Basic:
    """``node`` rebuilt from ``args`` (already rebuilt), refusing what would be
    too large to build: big powers, exp of a big argument, big factorials."""
    import sympy

    from symattn.errors import ValueTooLargeError
    from symattn.exact import MAX_POWER_BITS, safe_power

    if node.is_Pow:
        return safe_power(args[0], args[1], where)
    if isinstance(node, sympy.exp):
        (argument,) = args
        if argument.is_number:  # exp(n log 2) is built as 2**n: bound n first
            bound = _exp_bound(argument)
            if bound is None or not bound <= MAX_POWER_BITS:
                raise ValueTooLargeError(f"{where}: exp({argument}) is too large to build")
        return sympy.exp(argument)
    if isinstance(node, sympy.factorial | sympy.binomial | sympy.gamma):
        if any(a.is_Integer and abs(a) > MAX_FACTORIAL_ARGUMENT for a in args):
            raise ValueTooLargeError(f"{where}: {node.func.__name__} of more than {MAX_FACTORIAL_ARGUMENT}")
        return node.func(*args)
    return node.func(*args)


def _readable(node: sympy.Basic) -> bool:
    import sympy

    return (
        node.is_Add
        or node.is_Mul
        or node.is_Pow
        or isinstance(node, sympy.exp | sympy.factorial | sympy.binomial | sympy.gamma)
        or node.func in _scalar_functions()
    )


def _rebuild(expr: sympy.Basic, values: dict[str, Any], where: str) -> sympy.Basic:
    """``expr`` with the symbols named in ``values`` replaced, built bottom-up
    through :func:`_guarded` (an ``xreplace`` would evaluate ``10**(10**9)``)."""
    done: dict[sympy.Basic, sympy.Basic] = {}

    def walk(node: sympy.Basic) -> sympy.Basic:
        if node in done:
            return done[node]
        if node.is_Symbol:
            result = values.get(node.name, node)
        elif not node.args or node.is_Atom:
            result = node
        elif not _readable(node):
            raise LatexParseError(f"cannot evaluate {node.func.__name__} (not read on the scalar path)")
        else:
            result = _guarded(node, [walk(arg) for arg in node.args], where)
        done[node] = result
        return result

    try:
        return walk(expr)
    except RecursionError:
        raise LatexParseError(f"{where}: the formula is nested too deeply") from None


def _where(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def scalar_latex(text: str) -> sympy.Expr:
    r"""Read a scalar LaTeX formula outside the attention grammar, exactly.

    Every numeric literal is replaced by a placeholder symbol before
    latex2sympy2_extended sees the text (so ``0.1`` never becomes a binary
    float) and put back as an exact rational afterwards, bottom-up, with every
    power, exponential and factorial checked for size before it is built
    (``10^{10^{9}}`` is refused, not computed).  Each call builds a fresh
    converter, so no assignment leaks into the next formula.

    Raises:
        LatexParseError: the text is not a formula latex2sympy2_extended reads.
        ValueTooLargeError: a power, exponential or factorial too large to build.
        DivisionByZeroError: a division by zero.

    >>> scalar_latex(r"\frac{0.1}{2} + 1")
    21/20
    """
    import sympy

    from symattn.exact import parse_claim

    latex2sympy, config = _converter()
    values: dict[str, sympy.Rational] = {}

    def place(match: re.Match[str]) -> str:
        name = f"symattnliteral{len(values)}"
        values[name] = parse_claim(match.group()).value
        return f" \\text{{{name}}} "

    masked = _PLACEHOLDER.sub(place, _SIZING.sub("", text))
    try:
        result = latex2sympy(masked, normalization_config=None, conversion_config=config)
    except Exception as err:  # the ANTLR parser raises many types
        raise LatexParseError(f"cannot read {text!r}: {type(err).__name__}") from None
    if not isinstance(result, sympy.Expr):
        raise LatexParseError(f"{text!r} is not a scalar formula")
    return _rebuild(result, values, _where(text))


def scalar_value(text: str, known: dict[str, Any]) -> tuple[sympy.Expr, set[str]]:
    r"""A scalar formula's exact value, with the document's scalar names filled in.

    Args:
        text: LaTeX of one side of an equation, e.g. ``\ln(d_k)``.
        known: scalar values by canonical name (``d_{k}``).

    Returns:
        The value and the canonical names it used.

    Raises:
        LatexParseError: unreadable, or a name the document does not define.
        ValueTooLargeError: a power, exponential or factorial too large to build.

    >>> import sympy
    >>> scalar_value(r"\ln(d_k) + 1", {"d_{k}": sympy.Integer(1)})
    (1, {'d_{k}'})
    """
    expr = scalar_latex(text)
    plain = {name.replace("{", "").replace("}", ""): name for name in known}
    used: set[str] = set()
    substitutions = {}
    for symbol in expr.free_symbols:
        key = symbol.name.replace("{", "").replace("}", "")
        if key not in plain:
            raise LatexParseError(f"{symbol.name} is not defined in the document")
        used.add(plain[key])
        substitutions[symbol.name] = known[plain[key]]
    return _rebuild(expr, substitutions, _where(text)), used
