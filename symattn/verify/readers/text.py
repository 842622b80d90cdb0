"""Plain-text and Unicode math in prose, list items and arithmetic code lines.

``q1 · k1 = [1, 2] · [0, 1] = 1×0 + 2×1 = 2``, ``√(d_k)``, ``e^0.5``,
``softmax([1.5, 0.5]) ≈ [0.731, 0.269]``, ``W_q = [[1, 0], [0, 1]]``,
``0.73 = 73%``: each run is rewritten into the core grammar of
:mod:`symattn.latexparse`, numbers copied verbatim with their offsets.

Runs are found conservatively: a run is a stretch of math characters and
short names, bounded by sentence punctuation, line ends, Chinese text and
prose words, that holds a relation (``=``, ``≈``, ``→``) with something on
both sides and at least one digit.  A prose word (three letters or more, no
digit or underscore) may only stand first, directly before ``=``
(``scores = …``); anywhere else it ends the run, so "step 2 = scaling" is not
read.  Spans from this reader are ``tentative``: a run the parser cannot read
is dropped, not reported.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
import unicodedata

from symattn.latexparse import GREEK_NAMES, UNITS
from symattn.verify.readers.span import Builder, Span
from symattn.verify.stated import CHINESE_DIGITS, ORDINALS

__all__ = ["FUNCTIONS", "core_text", "named_cell", "named_cell_spans", "prose_spans"]

#: Function names read as themselves, in any case.
FUNCTIONS = {
    "softmax": r"\text{softmax}",
    "exp": r"\exp",
    "sqrt": r"\sqrt",
    "concat": r"\text{Concat}",
    "layernorm": r"\mathrm{LayerNorm}",
    "rmsnorm": r"\mathrm{RMSNorm}",
    "relu": r"\mathrm{ReLU}",
    "gelu": r"\mathrm{GELU}",
    "silu": r"\mathrm{SiLU}",
    "ffn": r"\mathrm{FFN}",
    "max": r"\max",
    "sin": r"\sin",
    "cos": r"\cos",
    "tanh": r"\tanh",
}
#: Functions read only as written in lower case (``LN(x)`` is a layer norm, ``ln(0.2)`` the log).
_LOWER_FUNCTIONS = {"ln": r"\ln", "log": r"\log"}
#: Names of block stages read only as written (``ln`` stays the logarithm).
_CASED_FUNCTIONS = {"LN": r"\mathrm{LN}", "PE": r"\mathrm{PE}", "RMS": r"\mathrm{RMS}", **_LOWER_FUNCTIONS}
#: Greek letters spelt out (``mu``, ``sigma^2``, ``eps``) and written (``μ``, ``σ²``, ``ε``).
_GREEK_WORDS = {
    "mu": r"\mu", "sigma": r"\sigma", "eps": r"\epsilon", "epsilon": r"\epsilon", "gamma": r"\gamma",
    "beta": r"\beta",
}  # fmt: skip


def _greek_letters() -> dict[str, str]:
    """Every Greek letter the grammar reads as a name, as its LaTeX command (θ → ``\\theta``),
    by its Unicode name: a letter is never dropped from a formula (``θ_0 = 1`` is not ``0 = 1``)."""
    out = {}
    for code in range(0x391, 0x3CA):
        match = re.fullmatch(r"GREEK (SMALL|CAPITAL) LETTER (\w+)", unicodedata.name(chr(code), ""))
        if match:
            word = match.group(2).lower().replace("lamda", "lambda")
            word = word.capitalize() if match.group(1) == "CAPITAL" else word
            if word in GREEK_NAMES:
                out[chr(code)] = "\\" + word
    return out


#: Greek letters written as themselves; Φ and φ (the normal CDF and density of GELU notes) are
#: names too, so ``2 * Φ(2)`` is read whole (not as ``(2)``), and not evaluated.
_GREEK_CHARS = _greek_letters()
_KEEP_WORDS = {"softmax", "exp", "sqrt", "concat", "attention", "output", "head", "multihead"} | (
    FUNCTIONS.keys() | _LOWER_FUNCTIONS.keys() | _GREEK_WORDS.keys()
)
_NOT_NAMES = {
    "and",
    "the",
    "for",
    "with",
    "from",
    "then",
    "so",
    "is",
    "are",
    "of",
    "to",
    "in",
    "we",
    "get",
    "by",
    "or",
    "as",
    "at",
    "on",
    "it",
    "be",
}
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: A subscript written after a letter: ``_255``, ``_{i}``, ``_i``.
_SUBSCRIPT = re.compile(r"_\{?([A-Za-z0-9]+)\}?")
_NUMBER = re.compile(r"(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+(?![A-Za-z0-9]))?%?")
#: Subscripts written in Unicode (``A₂₃``, ``score₂ⱼ``, ``log₂``), as the subscript each writes.
_SUBSCRIPT_CHARS = dict(zip("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼᵣᵤᵥ", "0123456789aeoxhklmnpstijruv", strict=True))
_SUPERSCRIPT_CHARS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-", strict=True))
_MATH_CHARS = (
    set("0123456789.+-*/^=()[],;_% \t×·⋅−≈→√ᵀ@<>|!'÷")
    | {"\u2009", "\u00a0"}
    | set(_GREEK_CHARS)
    | set(_SUPERSCRIPT_CHARS)
)
_POSITION_ARG = re.compile(r"\(\s*(?:pos|position|p|t|m)\s*=\s*(\d{1,4})\s*\)")
_KWARG = re.compile(r",\s*[A-Za-z_]\w*\s*=(?!=)\s*[-\w.]+\s*(?=[,)])")
#: An index written right after a word (``score[1][1]``).
_INDEX = re.compile(r"(?:\[\s*\d+\s*\])+")
#: A slice after a name (``x[:, :2]``, ``h[1:3]``): Python's, in hand arithmetic.
_SLICE = re.compile(r"\[[-\d\s,]*:[-\d\s,:]*\]")
_LEADING_RELATION = re.compile(r"\s*(?:=|≈|→|->|:=)\s*")
#: A number with a scale suffix (``4.91M``, ``197K``, ``1.2B``): a decimal point or three digits.
_SUFFIXED = re.compile(r"(?:\d+\.\d+|\d{3,})[KMB](?![A-Za-z0-9_])")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")
_RELATION = re.compile(r"=|≈|→|:=")
_UNICODE_OPS = {
    "×": r"\times ", "·": r"\cdot ", "⋅": r"\cdot ", "−": "-", "≈": r"\approx ", "@": r"\cdot ", "÷": "/",
}  # fmt: skip


#: Descriptive names of the rows of Q, K and V: query_1, key_2, value3.
_ROW_WORD = re.compile(r"(query|key|value)_?(\d{1,2})", re.I)
_ROW_WORDS = {"query": "q", "key": "k", "value": "v"}


class _Fail(Exception):
    pass


def _close(text: str, start: int, opener: str, closer: str, limit: int | None = None) -> int:
    """Index of the bracket closing the one at ``start``, before ``limit`` (or raise)."""
    depth = 0
    for index in range(start, len(text) if limit is None else min(limit, len(text))):
        if text[index] == opener:
            depth += 1
        elif text[index] == closer:
            depth -= 1
            if depth == 0:
                return index
    raise _Fail


class _Writer:
    """Rewrite ``piece.text[start:end]`` into the core grammar."""

    def __init__(self, piece: Span) -> None:
        self.piece = piece
        self.text = piece.text
        self.out = Builder()
        self.limit: int | None = None  # brackets are matched only up to the end of the run

    def at(self, index: int) -> int:
        return self.piece.source_offset(index)

    def put(self, text: str, index: int) -> None:
        self.out.put(text, self.at(index))

    def copy(self, start: int, end: int) -> None:
        self.out.copy_span(self.piece, start, end)

    def write(self, start: int, end: int) -> None:
        """Write ``text[start:end]``; brackets inside are matched only up to ``end``."""
        saved = self.limit
        self.limit = end if saved is None else min(saved, end)
        try:
            self._write(start, end)
        finally:
            self.limit = saved

    def _write(self, start: int, end: int) -> None:  # noqa: PLR0915 - one branch per character class
        text = self.text
        i = start
        while i < end:
            char = text[i]
            grouped = _GROUPED.match(text, i)
            if grouped and grouped.end() <= end and (i == 0 or not text[i - 1].isalnum()):
                for digits in re.finditer(r"[\d.]+", grouped.group()):  # 2,359,296 is one number
                    self.copy(i + digits.start(), i + digits.end())
                i = grouped.end()
                continue
            suffixed = _SUFFIXED.match(text, i)
            if suffixed and suffixed.end() <= end and (i == 0 or not text[i - 1].isalnum()):
                self.copy(i, suffixed.end())  # 4.91M, 197K: a number with its scale
                self.put(r"\!", suffixed.end() - 1)
                i = suffixed.end()
                continue
            number = _NUMBER.match(text, i)
            if number and number.end() <= end and (i == 0 or not text[i - 1].isalpha()):
                self.copy(i, number.end())
                i = number.end()
                continue
            if char in _SUBSCRIPT_CHARS or char in _SUPERSCRIPT_CHARS:  # A₂₃: A_{23}; 10⁹: 10^{9}
                scripts, mark = (
                    (_SUBSCRIPT_CHARS, "_") if char in _SUBSCRIPT_CHARS else (_SUPERSCRIPT_CHARS, "^")
                )
                j = i
                while j < end and text[j] in scripts:
                    j += 1
                self.put(mark + "{" + "".join(scripts[c] for c in text[i:j]) + "}", i)
                i = j
                continue
            ident = _IDENT.match(text, i)
            if ident and ident.end() < end and _module_dot(text, ident.end()):
                i = ident.end() + 1  # math.sqrt(2): the function, without its module
                continue
            if ident and ident.end() <= end:
                i = self.identifier(i, ident.group())
                continue
            if char == "." and _transposed(text, i):  # code's q.T
                self.put("^{T}", i)
                i += 2
                continue
            if char == "√":
                i = self.root(i + 1, end)
                continue
            if char == "^" or (char == "*" and text[i : i + 2] == "**"):
                i = self.power(i + (2 if char == "*" else 1), end)
                continue
            if (char == "[" and text[i + 1 : i + 2].lstrip() == "[") or (char == "[" and self.nested(i)):
                i = self.matrix(i, end)
                continue
            if char in "ᵀ":
                self.put("^{T}", i)
            elif char == "→":  # a step to something else (logits → probabilities), not equality
                self.put(r" \Rightarrow ", i)
            elif text.startswith("=>", i) or text.startswith("->", i):  # arrows typed in ASCII
                self.put(r" \Rightarrow ", i)
                i += 2
                continue
            elif text.startswith(":=", i):
                self.put(" = ", i)
                i += 2
                continue
            elif char in _UNICODE_OPS:
                self.put(_UNICODE_OPS[char], i)
            elif char in _GREEK_CHARS:
                self.put(_GREEK_CHARS[char], i)
                script = _SUBSCRIPT.match(text, i + 1)
                if script and script.end() <= end:  # θ_255: one subscript, not θ_2 times 55
                    self.put("_{", i + 1)
                    self.copy(script.start(1), script.end(1))
                    self.put("}", script.end() - 1)
                    i = script.end()
                    continue
                self.put(" ", i)
            elif char in "\u2009\u00a0\t" or (char == "~" and text[i + 1 : i + 2].isdigit()):
                self.put(" ", i)  # a thin space; "~0": about 0, the number as printed
            elif char == "(" and (position := _POSITION_ARG.match(text, i)) and position.end() <= end:
                self.put("(", i)  # PE(pos=1): the position itself
                self.copy(position.start(1), position.end(1))
                self.put(")", position.end() - 1)
                i = position.end()
                continue
            elif (
                char == ","
                and (kwarg := _KWARG.match(text, i))
                and kwarg.end() <= end
                and text.count("(", start, i)
                > text.count(")", start, i)  # inside a call, not "d = 4, eps = 1e-6"
            ):
                i = kwarg.end()  # softmax(scores, axis=-1): keyword arguments are not math
                continue
            elif char in "|<>!'":
                raise _Fail
            else:
                self.copy(i, i + 1)
            i += 1

    def nested(self, i: int) -> bool:
        j = i + 1
        while j < len(self.text) and self.text[j] == " ":
            j += 1
        return j < len(self.text) and self.text[j] == "["

    def greek(self, i: int, word: str) -> int:
        """``mu``, ``sigma_1``, ``eps``: a Greek letter spelt out, with its subscript."""
        end = i + len(word)
        greek, _, script = word.partition("_")
        self.put(_GREEK_WORDS[greek.lower()] + " ", i)
        if script:
            self.put("_{", i + len(greek))
            self.copy(i + len(greek) + 1, end)
            self.put("}", end - 1)
        return end

    def identifier(self, i: int, word: str) -> int:
        end = i + len(word)
        sliced = _SLICE.match(self.text, end)
        if sliced and sliced.end() <= self.limit:  # x[:, :2]: a slice, whose value is not followed
            self.put(r"\text{?}", i)
            return sliced.end()
        lower = word.lower()
        if lower in FUNCTIONS:
            if lower == "sqrt":
                if self.text[end : end + 1] != "(":
                    raise _Fail
                close = _close(self.text, end, "(", ")", self.limit)
                self.put(r"\sqrt{", i)
                self.write(end + 1, close)
                self.put("}", close)
                return close + 1
            self.put(FUNCTIONS[lower], i)
            return end
        if word in _CASED_FUNCTIONS:
            self.put(_CASED_FUNCTIONS[word], i)
            return end
        if word.partition("_")[0].lower() in _GREEK_WORDS:
            return self.greek(i, word)
        if word == "e" and self.text[end : end + 1] in ("^", "*"):
            self.copy(i, end)
            return end
        if len(word) == 1:
            self.copy(i, end)
            return end
        base, sep, sub = word.partition("_")
        if sep and len(base) == 1 and sub:
            self.copy(i, i + 1)
            self.put("_{", i + 1)
            self.copy(i + 2, end)
            self.put("}", end - 1)
            return end
        row = _ROW_WORD.fullmatch(word)
        if row:  # query_1, key2, value_3: row 1 of Q, 2 of K, 3 of V
            self.put(_ROW_WORDS[row.group(1).lower()] + "_{", i)
            self.copy(row.start(2) + i, end)
            self.put("}", end - 1)
            return end
        match = re.fullmatch(r"([A-Za-z])(\d+)", word)
        if match:  # q1, k12, x2
            self.copy(i, i + 1)
            self.put("_{", i + 1)
            self.copy(i + 1, end)
            self.put("}", end - 1)
            return end
        if re.fullmatch(r"W[qkvoQKVO]", word):  # Wq, WK
            self.copy(i, i + 1)
            self.put("_{", i + 1)
            self.copy(i + 1, end)
            self.put("}", end - 1)
            return end
        if word in UNITS and self.text[:i].rstrip()[-1:].isdigit():  # 160 KB: a unit, one name
            return self.as_text(i, end)
        if word.isupper() and len(word) <= 3 and word.isalpha():  # QK, XW: products of names
            for k in range(len(word)):
                self.copy(i + k, i + k + 1)
                self.put(" ", i + k)
            return end
        return self.as_text(i, end)

    def as_text(self, i: int, end: int) -> int:
        """The word at ``i`` as one name, ``\\text{...}``."""
        self.put(r"\text{", i)
        self.copy(i, end)
        self.put("}", end - 1)
        return end

    def root(self, i: int, end: int) -> int:
        if i < end and self.text[i] == "(":
            close = _close(self.text, i, "(", ")", self.limit)
            self.put(r"\sqrt{", i - 1)
            self.write(i + 1, close)
            self.put("}", close)
            return close + 1
        match = _NUMBER.match(self.text, i) or _IDENT.match(self.text, i)
        if match is None:
            raise _Fail
        self.put(r"\sqrt{", i - 1)
        self.write(i, match.end())
        self.put("}", match.end() - 1)
        return match.end()

    def power(self, i: int, end: int) -> int:
        text = self.text
        if i < end and text[i] == "(":
            close = _close(text, i, "(", ")", self.limit)
            self.put("^{", i)
            self.write(i + 1, close)
            self.put("}", close)
            return close + 1
        if i < end and text[i] == "{":
            close = _close(text, i, "{", "}", self.limit)
            self.put("^{", i)
            self.write(i + 1, close)
            self.put("}", close)
            return close + 1
        sign = 1 if i < end and text[i] in "-−" else 0
        match = _NUMBER.match(text, i + sign) or _IDENT.match(text, i + sign)
        if match is None:
            raise _Fail
        stop = match.end()
        if match.re is _IDENT and text[i + sign] in "Tt" and stop == i + sign + 1:
            self.put("^{T}", i)
            return stop
        self.put("^{", i)
        self.write(i, stop)
        self.put("}", stop - 1)
        return stop

    def matrix(self, i: int, end: int) -> int:
        """``[[1, 0], [0, 1]]`` as a bmatrix (rows of equal length)."""
        close = _close(self.text, i, "[", "]", self.limit)
        if close >= end:
            raise _Fail
        rows = []
        j = i + 1
        while j < close:
            while j < close and self.text[j] in " ,\n\t":
                j += 1
            if j >= close:
                break
            if self.text[j] != "[":
                raise _Fail
            row_close = _close(self.text, j, "[", "]", self.limit)
            cells, k = [], j + 1
            for part in self.text[j + 1 : row_close].split(","):
                cells.append((k, k + len(part)))
                k += len(part) + 1
            rows.append(cells)
            j = row_close + 1
        if not rows or len({len(r) for r in rows}) != 1:
            raise _Fail
        self.put(r"\begin{bmatrix}", i)
        for r, cells in enumerate(rows):
            if r:
                self.put(r" \\ ", cells[0][0])
            for c, (lo, hi) in enumerate(cells):
                if c:
                    self.put(" & ", lo)
                if not self.text[lo:hi].strip():
                    raise _Fail
                self.write(lo, hi)
        self.put(r"\end{bmatrix}", close)
        return close + 1


#: Modules whose functions code calls by their qualified name (``math.sqrt(2)``, ``np.exp(x)``,
#: ``F.softmax``): the function is the math, the module is not (the code reader's too).
MODULES = frozenset({"np", "numpy", "torch", "F", "nn", "math", "scipy", "special", "jnp", "jax", "tf"})


def _module_dot(text: str, i: int) -> bool:
    """Whether the ``.`` at ``i`` joins a module to its function (``math.sqrt``)."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] == "_"):
        j -= 1
    return (
        text[j:i] in MODULES
        and (j == 0 or text[j - 1] != ".")
        and i + 1 < len(text)
        and text[i + 1].isalpha()
    )


def _transposed(text: str, i: int) -> bool:
    """Whether the ``.`` at ``i`` is code's transpose, ``q.T`` or ``(Q @ K).T``."""
    return (
        text.startswith(".T", i)
        and i > 0
        and (text[i - 1].isalnum() or text[i - 1] in ")]_")
        and not (i + 2 < len(text) and (text[i + 2].isalnum() or text[i + 2] == "_"))
    )


def core_text(piece: Span, start: int = 0, end: int | None = None, *, reader: str = "text") -> Span | None:
    """``piece.text[start:end]`` rewritten into the core grammar, or None."""
    writer = _Writer(piece)
    try:
        writer.write(start, len(piece.text) if end is None else end)
    except (_Fail, RecursionError, IndexError):
        return None
    return writer.out.build(True, reader, frozenset({"tentative"}))


def _tag_end(text: str, i: int) -> int:
    """Where the HTML tag opening at ``i`` ends (``<br>``, ``</p>``, ``<td class="ms">``), or 0:
    a letter's name after ``<`` or ``</``, then ``>`` on the same line, within 200 characters."""
    j = i + 1 + (text[i + 1 : i + 2] == "/")
    k = j
    while k < len(text) and text[k].isascii() and text[k].isalnum():
        k += 1
    if k == j or not text[j].isalpha() or (k < len(text) and text[k] not in " \t/>"):
        return 0
    close = text.find(">", k, i + 200)
    return close + 1 if close >= 0 and "\n" not in text[k:close] and "<" not in text[k:close] else 0


def _is_math_char(char: str) -> bool:
    return char in _MATH_CHARS or (char.isalnum() and char.isascii()) or char in _SUBSCRIPT_CHARS


def _runs(text: str, *, code: bool = False) -> list[tuple[int, int]]:
    """Stretches of math characters and names, split at prose words."""
    runs: list[tuple[int, int]] = []
    start = None
    depth = 0  # "[" open in the current run: a matrix written over several lines continues it
    i = 0
    n = len(text)
    while i <= n:
        char = text[i] if i < n else "\n"
        if start is None:
            depth = 0
        elif char in "[]":
            depth += 1 if char == "[" else -1
        boundary = not _is_math_char(char) and not (char == ":" and depth > 0)  # x[:, :2]: a slice
        if char == "\n" and depth > 0 and i < n and _continues(text, i + 1):
            boundary = False
        tag = _tag_end(text, i) if char == "<" else 0
        if tag:  # an HTML tag (``<br>``, ``<td class="x">``) ends a run, as a line break does
            if start is not None:
                runs.append((start, i))
            start = None
            i = tag
            continue
        if (
            char == "."
            and not (i + 1 < n and text[i + 1].isdigit())
            and not _transposed(text, i)
            and not _module_dot(text, i)
        ):
            boundary = True  # a full stop, not a decimal point (nor code's ``q.T`` or ``math.sqrt``)
        word = _IDENT.match(text, i) if not boundary and char.isalpha() else None
        if word is not None:
            w = word.group()
            at_start = start is None  # a run starts at its first non-space character
            named = text[word.end() : word.end() + 1] in _SUBSCRIPT_CHARS  # score₂ⱼ, log₂: a name
            if not named and (
                (w.lower() in _NOT_NAMES) if code else _is_prose_word(w, text, word.end(), at_start=at_start)
            ):
                boundary = True
                if start is not None:
                    runs.append((start, i))
                start = None
                i = word.end()
                continue
            if start is None:
                start = i
            i = word.end()
            continue
        if boundary:
            if start is not None:
                runs.append((start, i))
            start = None
        elif start is None and not char.isspace() and char not in _SUBSCRIPT_CHARS:
            start = i  # (a subscript left of a prose word's end starts nothing)
        i += 1
    return [piece for run in runs for piece in _side_by_side(text, *run)]


#: Two statements on one line, side by side: ``x1 = [-0.3, 0.2]     x2 = [-0.6, 0.5]``
#: (a closing bracket or a number, two spaces or more, then a name and "="); or values laid
#: out in columns under the expressions above them: ``≈0.84   ≈0.54`` is two values, not
#: 0.84 ≈ 0.54 (a number, two spaces or more, then "=" or "≈" written against a number that
#: stands alone in its column); and calls laid out in columns (``sin(1)  cos(1)``) are two
#: expressions, not a product.
_SIDE_BY_SIDE = re.compile(
    r"(?<=[\]\d])[ \t]{2,}(?=[A-Za-z_\u0370-\u03ff][\w\u0370-\u03ff]{0,15}[ \t]*=(?!=))"
    r"|(?<=\d)[ \t]{2,}(?=[=\u2248][-\u2212]?[\d.]+(?:[ \t]{2,}|[ \t]*(?:\n|$)))"
    r"|(?<=\))[ \t]{2,}(?=[A-Za-z_]\w*\()"
)


#: A statement beside another on its line: two spaces or more, then a name, "=" and a bracket
#: (``Q = [[1, 0],    K = [[1, 0],``).
_BESIDE = re.compile(r"(?<=\S)[ \t]{2,}(?=[A-Za-z_]\w{0,15}[ \t]*=[ \t]*\[)")
#: Most lines one group of matrices written side by side may take.
_BESIDE_LINES = 40


def side_by_side(lines: list[str]) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """The groups of lines that hold matrices written side by side, over several lines::

        Q = [[1, 0],    K = [[1, 0],    V = [[1, 2, 3],
             [0, 1],         [0, 1],         [4, 5, 6],

    each as ``(first, end, columns)``: lines ``first`` to ``end - 1`` (0-based), and each
    statement's columns ``(lo, hi)`` (0-based, ``hi`` past the longest line).  The lines after
    the first go on their matrices' rows at the same columns: each cut falls in a gap of every
    one of them, and the group ends where every matrix is closed."""
    out = []
    k = 0
    while k < len(lines):
        line = lines[k]
        cuts = [m.end() for m in _BESIDE.finditer(line)]
        pieces = _pieces(line, cuts)
        depth = [p.count("[") - p.count("]") for p in pieces]
        end = k + 1
        while cuts and any(d > 0 for d in depth) and end < len(lines) and end - k < _BESIDE_LINES:
            row = lines[end]
            if not row.strip() or any(0 < c <= len(row) and not row[c - 1].isspace() for c in cuts):
                break
            depth = [d + p.count("[") - p.count("]") for d, p in zip(depth, _pieces(row, cuts), strict=True)]
            end += 1
        if end > k + 1 and all(d == 0 for d in depth) and all("[" in p for p in pieces):
            bounds = [0, *cuts, max(len(row) for row in lines[k:end]) + 1]
            out.append((k, end, list(itertools.pairwise(bounds))))
            k = end
        else:
            k += 1
    return out


def _pieces(line: str, cuts: list[int]) -> list[str]:
    bounds = [0, *cuts, max(len(line), cuts[-1] if cuts else 0)]
    return [line[a:b] for a, b in itertools.pairwise(bounds)]


def _side_by_side(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A run cut where a second statement starts beside the first."""
    pieces, at = [], start
    for gap in _SIDE_BY_SIDE.finditer(text, start, end):
        pieces.append((at, gap.start()))
        at = gap.end()
    pieces.append((at, end))
    return pieces


def _continues(text: str, i: int) -> bool:
    """Whether the line at ``i`` goes on with a matrix's next row (``[1, -0.5, …]``)."""
    rest = text[i : i + 80].lstrip(" \t")
    return rest[:1] == "[" or ((rest[:1].isdigit() or rest[:1] == "-") and "]" in rest)


def _is_prose_word(word: str, text: str, end: int, *, at_start: bool) -> bool:
    lower = word.lower()
    if lower in _KEEP_WORDS or len(word) <= 2 or "_" in word or any(c.isdigit() for c in word):
        return lower in _NOT_NAMES
    if word.isupper() and len(word) <= 3:
        return False
    rest = text[end : end + 12].lstrip(" \t")  # "mean     = 2.925 / 4": aligned columns
    if lower in _STATISTIC_WORDS and rest[:1] in tuple("=+-*/()≈"):
        return False  # sqrt(var + eps): a statistic named in a formula
    if at_start:
        return not (rest.startswith("=") or rest.startswith("≈"))
    return True


#: Statistics spelt out, names in a formula (``sqrt(var + eps)``), words in prose ("the mean of").
_STATISTIC_WORDS = {"mean", "var", "variance", "std"}


#: A part label opening a line of a homework ("(c)  y1 = …", "(ii) x = …"), not a factor.
_PART_LABEL = re.compile(r"\((?:[a-h]|[ivx]{1,4}|\d)\)[ \t]+(?=[A-Za-z\\])")


def _unwrap(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop brackets that hold the whole run ("(d_k = 2)") or close nothing in it, and a part
    label at the start of a line ("(c)  y1 = …")."""
    label = _PART_LABEL.match(text, start, end)
    if label is not None and not text[text.rfind("\n", 0, start) + 1 : start].strip():
        start = label.end()
    for _ in range(4):
        run = text[start:end]
        opens = run.count("(") - run.count(")")
        if run.startswith("(") and (opens > 0 or _close_index(run) == len(run) - 1):
            start += 1
        elif run.endswith(")") and opens < 0:
            end -= 1
        else:
            break
        while start < end and text[start] == " ":
            start += 1
        while end > start and text[end - 1] == " ":
            end -= 1
    return start, end


def _close_index(run: str) -> int:
    depth = 0
    for index, char in enumerate(run):
        depth += (char == "(") - (char == ")")
        if depth == 0:
            return index
    return -1


def _worth_reading(text: str) -> bool:
    sides = [s.strip() for s in _RELATION.split(text)]
    if any(side.lower() in FUNCTIONS or side.lower() in _KEEP_WORDS for side in sides[1:]):
        return False  # "step 3 = softmax": a word, not a value (but "Output = AV" names the output)
    if len(sides) < 2 or not all(sides):
        return False
    return any(c.isdigit() for c in text) or _definition(sides)


#: ``r = x + FFN(x)``, ``h = relu(z)``: a definition of a short name by a formula of names
#: and block functions, read although it holds no digit (later ``r1 = [...]`` is its instance).
_DEFINED = re.compile(r"[A-Za-z]{1,3}")
_FORMULA_OF_NAMES = re.compile(r"(?:[A-Za-z_]\w*\s*\(|[A-Za-z]\w*\s*[-+*@·×]\s*[A-Za-z])")


def _definition(sides: list[str]) -> bool:
    return len(sides) == 2 and bool(_DEFINED.fullmatch(sides[0])) and bool(_FORMULA_OF_NAMES.search(sides[1]))


#: A number on its own in prose that may restate a result rounded: 0.67, 1.11, -2.18, 85%.
_BARE = re.compile(r"(?<![\w.^_])(?:-?\d+\.\d{2,}(?![\w%^]|\.\w)|\d+(?:\.\d+)?%)")  # "ends at -2.18"


def _bare_spans(
    piece: Span, covered: list[tuple[int, int]], context: tuple[str, int] | None = None
) -> list[Span]:
    """Numbers of the prose outside every math run (``the weight is 0.67``), each a
    span of its own, flagged ``bare``: tied only when it rounds one earlier result,
    or, when the clause names the cell ("第四个词对自己的权重约为 0.79"), flagged
    ``cell:a_{44}`` and judged as that cell.  Numbers listed one after another
    ("1.11、0.69 和 0.67") are one span flagged ``list``: a row or column restated."""
    found: list[tuple[re.Match[str], Span]] = []
    starts = [start for start, _ in covered]  # runs come in order: one bisection per number
    for match in _BARE.finditer(piece.text):
        k = bisect.bisect_right(starts, match.start()) - 1
        if k >= 0 and match.start() < covered[k][1]:
            continue
        span = core_text(piece, match.start(), match.end())
        if span is not None:
            found.append((match, span))
    groups: list[list[tuple[re.Match[str], Span]]] = []
    for item in found:  # numbers listed one after another ("1.11、0.69 和 0.67") go together
        if groups and _LIST_GAP.fullmatch(piece.text, groups[-1][-1][0].end(), item[0].start()):
            groups[-1].append(item)
        else:
            groups.append([item])
    spans = []
    for group in groups:
        if len(group) >= 2:
            out = Builder()
            for k, (listed, _) in enumerate(group):
                if k:
                    out.put(" , ", listed.start())
                out.copy_span(piece, listed.start(), listed.end())
            spans.append(out.build(False, "text", frozenset({"tentative", "bare", "list"})))
            continue
        match, span = group[0]
        flags = {"bare"}
        if _OTHER.search(piece.text, max(0, match.start() - _OTHER_REACH), match.start()):
            spans.append(dataclasses.replace(span, flags=span.flags | {"bare", "complement"}))
            continue
        cell = _cell_in_context(piece, match, context)
        if cell is not None:
            flags.add("cell:" + cell)
        spans.append(dataclasses.replace(span, flags=span.flags | flags))
    return spans


#: What stands between the numbers of a list in prose: "0.21, 0.31 and 0.48", "1.11、0.69 和 0.67".
_LIST_GAP = re.compile(r"\s*(?:,|，|、|;|；)?\s*(?:and|or|和|及|以及|与)?\s*")


#: "另一个 = …", "the other one is …": the other weight of a two-key row, just before its number
#: (looked for in the _OTHER_REACH characters before it).
_OTHER_REACH = 40
_OTHER = re.compile(
    r"(?:另一个|另外一个|the other(?: one| weight)?)\s*(?:权重|weight)?\s*(?:是|为|=|is|:|：)?\s*(?:约|about|≈)?\s*$",
    re.I,
)


def _cell_in_context(piece: Span, match: re.Match[str], context: tuple[str, int] | None) -> str | None:
    """:func:`named_cell` of a number, read in its whole paragraph when the reader
    gives it (prose around code spans is cut into pieces; the clause is not)."""
    if context is not None:
        text, base = context
        at = piece.source_offset(match.start()) - base
        if at >= 0 and text[at : at + len(match.group())] == match.group():
            return named_cell(text, at, at + len(match.group()))
    return named_cell(piece.text, match.start(), match.end())


def named_cell_spans(piece: Span) -> list[Span]:
    """Only the prose numbers whose clause names their cell (for .tex prose, where
    other prose numbers are not read)."""
    return [span for span in _bare_spans(piece, []) if any(f.startswith("cell:") for f in span.flags)]


_TOKEN_WORD = r"(?:token|词|单词|字|位置|query|输入|元素)"
_ORDINAL = re.compile(
    rf"第\s*([1-9一二三四五六七八九])\s*个?\s*{_TOKEN_WORD}"
    r"|\btoken\s*#?([1-9])\b|\b(first|second|third|fourth|fifth|sixth)\s+token\b",
    re.I,
)
_SELF = re.compile(r"自己|自身|\bitself\b", re.I)
_WEIGHT_WORD = re.compile(r"权重|注意力|关注|attention|weight|attends?", re.I)
_PASSIVE = re.compile(r"receiv|\bfrom\b|\bby\b|被|得到|获得|来自|收到", re.I)
_CONDITIONAL = re.compile(r"\bif\b|\bwould\b|\bsuppose|\bimagine|\bwere\b|假如|如果|假设|若|要是", re.I)
_OUTPUT_DIM = re.compile(r"输出(?:向量)?(?:的)?第\s*([1-9一二三四五六七八九])\s*(?:维|个分量|个元素)")
_SENTENCE_END = re.compile(r"[。；;！？!?]|\n\s*\n|\.(?:\s|$)")
_CLAUSE_END = re.compile(r"[，,\n]")
#: How far a clause reading looks from its number for the sentence around it (characters).
_SENTENCE_REACH = 400
_PRONOUN = re.compile(r"\bit\b|它")
_ANY_NUMBER = re.compile(r"\d")


def _ordinal_value(match: re.Match[str]) -> int:
    digit, number, word = match.groups()
    if digit:
        return CHINESE_DIGITS.get(digit) or int(digit)
    return int(number) if number else ORDINALS[word.lower()]


def named_cell(text: str, start: int, end: int) -> str | None:
    """The weight or output cell a prose clause names for the number at
    ``text[start:end]``: ``a_{23}`` for "第二个 token 对第三个 token 的权重是 0.67" or
    "token 2 puts 0.67 of its attention on token 3", ``a_{33}`` for "第三个 token
    只关注自己，权重高达 0.9515", ``O_{2,2}`` for "第二个 token 的输出第二维约 2.01".

    Conservative: the number must be the only one in its clause (split at commas
    within the sentence; a clause without a token takes the one before it when
    that one holds no number), and the clause must name exactly the query and the
    key (two tokens, or one and "itself"), without a passive verb ("receives",
    "来自") that would swap them."""
    # the sentence, looked for at most _SENTENCE_REACH characters either side: each
    # number costs a bounded scan, so reading stays linear in the paragraph's length
    lo = max(0, start - _SENTENCE_REACH)
    sentence_start = max((m.end() for m in _SENTENCE_END.finditer(text, lo, start)), default=lo)
    found = _SENTENCE_END.search(text, end, end + _SENTENCE_REACH)
    sentence_end = found.start() if found else min(len(text), end + _SENTENCE_REACH)
    cuts = [sentence_start, *_clause_cuts(text, sentence_start, sentence_end), sentence_end]
    k = max(i for i in range(len(cuts) - 1) if cuts[i] <= start)
    clause = text[cuts[k] : cuts[k + 1]]
    if len(_ANY_NUMBER.findall(clause.replace(text[start:end], "", 1))) - len(
        _ANY_NUMBER.findall(" ".join(m.group() for m in _ORDINAL.finditer(clause)))
    ):
        return None  # another number in the clause
    if not _ORDINAL.search(clause) and _PRONOUN.search(clause):  # "… says 0.1091 for it"
        if _PASSIVE.search(clause) or _CONDITIONAL.search(text[sentence_start:sentence_end]):
            return None
        mentioned = [_ordinal_value(m) for m in _ORDINAL.finditer(text, sentence_start, cuts[k])]
        subject = _subject_before(text, cuts, k)
        if not _WEIGHT_WORD.search(text[sentence_start:end]) or subject is None or len(mentioned) < 2:
            return None
        # "it" is the token named last: a weak reading (only a fit with the truth or with the
        # document's own value of that cell is reported)
        return f"a_{{{subject}{mentioned[-1]}}}?" if mentioned[-1] != subject else None
    context = clause
    if not _ORDINAL.search(clause) and k > 0:
        before = text[cuts[k - 1] : cuts[k]]
        if any(c.isdigit() for c in _ORDINAL.sub("", before)):
            return None
        context = before + clause
    if _PASSIVE.search(context) or _CONDITIONAL.search(text[sentence_start:sentence_end]):
        return None  # "token 3 receives …" swaps query and key; "if token 2 gave …" is not the example
    tokens = [_ordinal_value(m) for m in _ORDINAL.finditer(context)]
    output = _OUTPUT_DIM.search(context)
    if output is not None:
        if len(tokens) != 1:
            return None
        dim = output.group(1)
        return f"O_{{{tokens[0]},{CHINESE_DIGITS.get(dim) or int(dim)}}}"
    if len(tokens) == 1 and not _SELF.search(context) and context is clause:
        first = _ORDINAL.search(clause)
        subject = _subject_before(text, cuts, k)
        if first is None or subject is None or not clause[: first.start()].strip():
            return None  # a clause that starts with its token names a new query ("token 1 gets 0.24")
        if not _WEIGHT_WORD.search(text[sentence_start:end]):
            return None
        return f"a_{{{subject}{tokens[0]}}}"  # "…，明显高于对第一个 token 的 0.24": the key; the query came before
    if not _WEIGHT_WORD.search(context):
        return None
    if len(tokens) == 2:
        return f"a_{{{tokens[0]}{tokens[1]}}}" if max(tokens) < 10 else None
    if len(tokens) == 1 and _SELF.search(context):
        return f"a_{{{tokens[0]}{tokens[0]}}}"
    return None


def _clause_cuts(text: str, start: int, end: int) -> list[int]:
    """Where the clauses of ``text[start:end]`` begin: after each comma or line
    break that stands outside brackets and code spans (``[0, 1]`` is one vector)."""
    cuts, depth, code = [], 0, False
    for index in range(start, end):
        char = text[index]
        if char == "`":
            code = not code
        elif char in "([（":
            depth += 1
        elif char in ")]）":
            depth = max(depth - 1, 0)
        elif not code and depth == 0 and _CLAUSE_END.match(char):
            cuts.append(index + 1)
    return cuts


def _subject_before(text: str, cuts: list[int], k: int) -> int | None:
    """The token a sentence's earlier clause starts with ("第二个 token 对第三个 token
    的权重是 0.67，…"): the query that a later clause naming only a key goes on with."""
    for earlier in range(k - 1, -1, -1):
        before = text[cuts[earlier] : cuts[earlier + 1]]
        first = _ORDINAL.search(before)
        if first is not None:
            lead = before[: first.start()].strip().lower()
            return _ordinal_value(first) if lead in ("", "the", "so", "and", "所以", "而", "其中") else None
    return None


_OPERATORS = "*×·⋅/÷^"


#: Sub- and superscript digits, which end a function's name (``log₂``, ``x²``).
_SCRIPT_DIGITS = frozenset("₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹")


def _past_application(text: str, start: int, end: int) -> int:
    """Where a run that begins with a function the reader stopped at (``log(0.2) = -1.61``,
    ``log₂(0.2)``, ``rms(r1) = sqrt(…) = 0.6325``: a word glued to ``(``) really starts: after
    the application's first relation (its argument alone is not what it equals); ``end``
    when there is none."""
    glued = text[start - 1 : start] if start > 0 else ""
    if text[start : start + 1] != "(" or not (glued.isalnum() or glued in _SCRIPT_DIGITS):
        return start
    try:
        close = _close(text, start, "(", ")", end)
    except _Fail:
        return end
    relation = re.compile(r"=|≈|\\approx").search(text, close, end)
    return relation.end() if relation else end


def _cut_operand(text: str, start: int, end: int) -> bool:
    """Whether the run ``text[start:end]`` begins or ends with a binary operator whose
    other operand is a word outside the run (a name misspelt, or prose): a fragment."""
    head = text[start:end].lstrip(" ")
    before = text[:start].rstrip(" ")
    if head[:1] in _OPERATORS and not head.startswith("**") and before[-1:].isalnum():
        return True
    tail = text[start:end].rstrip(" ")
    after = text[end:].lstrip(" ")
    return tail[-1:] in _OPERATORS and not tail.endswith("**") and after[:1].isalpha()


#: Arrows between the steps of a pipeline written on one line.
_ARROWS = ("->", "\u2192", "\u27f6", "=>")


def _pipelines(piece: Span, reader: str) -> list[tuple[Span, tuple[int, int]]]:
    """Pipelines written with arrows, a function named alone between two of them: ``[80, 70,
    60] -> softmax -> [0.9, 0.1, 0]`` says the last is the function of the first.  Each is read
    as ``softmax([80, 70, 60]) = [0.9, 0.1, 0]``, with the place it covers."""
    text = piece.text
    out: list[tuple[Span, tuple[int, int]]] = []
    if not any(arrow in text for arrow in _ARROWS):
        return out  # most prose has no arrow: no line is walked
    at = 0
    for line in text.split("\n"):
        cuts = []  # (start, end) of each arrow on the line
        i = 0
        while i < len(line):
            arrow = next((a for a in _ARROWS if line.startswith(a, i)), None)
            if arrow is None:
                i += 1
                continue
            cuts.append((i, i + len(arrow)))
            i += len(arrow)
        bounds = [(0, 0), *cuts, (len(line), len(line))]
        for k in range(1, len(cuts)):
            name = line[cuts[k - 1][1] : cuts[k][0]].strip().lower()
            if name not in FUNCTIONS:
                continue
            a0, a1 = bounds[k - 1][1], cuts[k - 1][0]
            b0, b1 = cuts[k][1], bounds[k + 2][0]
            first, second = line[a0:a1], line[b0:b1]
            if "[" not in first or "[" not in second:
                continue  # a pipeline of vectors only: "logits -> softmax -> probabilities" is prose
            a0, b1 = a0 + first.index("["), b0 + second.rindex("]") + 1
            b0 += second.index("[")
            left, right = core_text(piece, at + a0, at + a1), core_text(piece, at + b0, at + b1)
            if left is None or right is None:
                continue
            here = piece.source_offset(at + cuts[k - 1][1])
            built = (
                Builder()
                .put(FUNCTIONS[name] + "(", here)
                .copy_span(left, 0, len(left.text))
                .put(r") \approx " if "~" in second else ") = ", here)  # [0.999, ~0]: about 0
                .copy_span(right, 0, len(right.text))
                .build(True, reader, frozenset({"tentative"}))
            )
            out.append((built, (at + a0, at + b1)))
        at += len(line) + 1
    return out


def prose_spans(piece: Span, *, reader: str = "text", context: tuple[str, int] | None = None) -> list[Span]:
    """The math runs of a piece of prose (or one code line), rewritten; in prose,
    also the numbers outside them (flagged ``bare``).  ``context`` is the whole
    paragraph and its source offset, where a number's clause is looked for."""
    spans = []
    covered: list[tuple[int, int]] = []
    for span, place in _pipelines(piece, reader):
        spans.append(span)
        covered.append(place)
    for run_start, run_end in _runs(piece.text, code=reader == "code"):
        start, end = run_start, run_end
        if any(lo <= run_start < hi for lo, hi in covered):
            continue  # part of a pipeline read whole
        if _cut_operand(piece.text, run_start, run_end):
            continue  # "gama * x_hat + beta = …": a product whose left operand is a word the run stopped at
        while end > start and piece.text[end - 1] in " ,;:*_→=≈([":
            end -= 1  # "x = [2, 0, 1, 5] (same γ)": the bracket opens the prose after it
        while start < end and piece.text[start] in " *_,;:":
            start += 1
        before = piece.text[start - 1] if start else ""
        word_end = before.isascii() and (before.isalnum() or before == "_")
        index = _INDEX.match(piece.text, start, end) if word_end else None
        if index:  # score[1][1] = 0.01: the index of the word the run stopped at, not a matrix
            start = index.end()
        start, end = _unwrap(piece.text, start, end)
        start = _past_application(piece.text, start, end)
        lead = _LEADING_RELATION.match(piece.text, start, end)
        if lead:  # "分母 = 1.6487 + … ≈ 6.0157": the name was prose; the numbers still form a chain
            start = lead.end()
        run = piece.text[start:end]
        if not _RELATION.search(run) or not _worth_reading(run):
            continue
        span = core_text(piece, start, end, reader=reader)
        if span is None and "=" in run:  # P(A|selected) = 0.50/0.90 = 0.556: a name the grammar
            start += run.index("=") + 1  # cannot write; the arithmetic after it still stands
            span = (
                core_text(piece, start, end, reader=reader)
                if _RELATION.search(piece.text, start, end)
                else None
            )
        if span is not None:
            spans.append(span)
            covered.append((start, end))
    if reader == "text":
        spans.extend(_bare_spans(piece, covered, context))
        spans.sort(key=lambda s: s.source_offset(0))
    return spans
