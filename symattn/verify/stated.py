"""What a document states, in words, about the conventions of its block stages.

The positional encoding's layout and first position, the variance of its layer
norm, the form of its GELU and the activation of its FFN are often said only in
prose ("positions 0, 1, 2", "we use the unbiased variance", "the tanh
approximation"), so they are read once from the whole text, before any formula
is judged.  A convention the text does not state is ``None``: the verifier then
accepts whichever of the usual ones the printed numbers follow, and reports a
convention only against one the document stated (docs/verify.md).

Plain regular expressions over the text: no SymPy, cheap enough for the parent
process, and bounded (every pattern is linear; no nested quantifiers).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Stated", "row_name", "row_named", "stated_conventions"]


@dataclass(frozen=True)
class Stated:
    """The conventions a document states (None: not stated).

    Attributes:
        layout: "interleaved" or "concatenated", the positional encoding's columns.
        start: 0 or 1, the first position.
        base: the base of the wavelengths when the formula prints one (10000).
        variance: "population" or "sample", the layer norm's variance.
        gelu: "erf" or "tanh", the form of GELU.
        activation: the FFN's activation ("relu", "gelu", "silu").
        norm: the document speaks of layer (or RMS) normalisation at all; μ and σ
            are read as a row's statistics only then.
        positions: the document speaks of positional encodings at all.
        block: it speaks of any stage of the block beyond attention (norms, positions,
            FFN, ReLU, GELU, residuals): numpy's broadcasting applies to its sums.
    """

    layout: str | None = None
    start: int | None = None
    base: int | None = None
    variance: str | None = None
    gelu: str | None = None
    activation: str | None = None
    norm: bool = False
    positions: bool = False
    block: bool = False
    rms_only: bool = False  # RMSNorm and no layer norm: a bare "mean" may be mean(x²), not μ
    first_row: int = 1  # the number of the first token: 0 when the text names "token 0" or x_0


#: The concatenated layout in words (not "the concatenation of the heads").
_CONCATENATED = re.compile(
    r"concatenated (?:layout|form|order|version|encoding)|concatenat\w*\s+(?:the\s+)?(?:sines?|cosines?|sin|cos)\b"
    r"|(?:sines?|sin)\s+(?:first|then)|all (?:the )?sines|tensor2tensor|rotate_half|GPT-NeoX"
    r"|先.{0,6}sin.{0,10}再|拼接式?(?:排列|方式|布局)|sin\s*和\s*cos\s*拼接",
    re.I,
)
_INTERLEAVED = re.compile(r"interleav|交错|交替", re.I)
#: A sentence that says what the document itself does ("本文全部采用这种拼接式排列", "here we use …").
_OWN_CHOICE = re.compile(r"本文|我们|这里|此处|\bwe\b|this (?:post|note|article|page)|\bhere\b", re.I)
_USES = re.compile(r"采用|使用|选用|\buse[sd]?\b|\bfollow", re.I)
_SENTENCE = re.compile(r"[。！？!?\n]|\.(?:\s|$)")
#: The paper's formula, PE(pos, 2i+1) = cos(...), states the interleaved layout by itself.
_PAPER_FORMULA = re.compile(r"2\s*i\s*\+\s*1")
_START = (
    re.compile(
        r"(?:positions?|pos|位置(?:编号)?|索引)\s*(?:are|is|=|:|：|是|为|从|取)?\s*\(?([01])\s*(?:,|、|，|\.\.|…|to\b|到|至)",
        re.I,
    ),
    re.compile(
        r"(?:from|starting (?:at|from)|start(?:s)? at|counted from|从)\s*(?:position|pos|位置)?\s*([01])\b",
        re.I,
    ),
    re.compile(r"\b([01])[- ](?:based|indexed)\b", re.I),
    re.compile(r"\b(zero|one)[- ](?:based|indexed)\b", re.I),
    re.compile(
        r"first (?:token|word|position)\s+(?:has|is at|is|gets|sits at)\s+\$?\s*(?:pos(?:ition)?\s*=?\s*)?([01])\b",
        re.I,
    ),
    re.compile(r"第一个\s*(?:token|词)?\s*的?\s*(?:pos|位置)\s*(?:=|是|为)\s*([01])\b", re.I),
)
_BASE = re.compile(r"(\d{2,7})\s*\^\s*\{?\s*\(?\s*2\s*\\?,?\s*[ijk]\s*/")  # 10000^{2i/d}, 100^{2k/4}
_SAMPLE = re.compile(
    r"unbiased|sample variance|ddof\s*=\s*1|n\s*[−-]\s*1\)|d\s*[−-]\s*1\)|样本方差|无偏", re.I
)
_POPULATION = re.compile(
    r"population variance|(?<!un)biased variance|unbiased\s*=\s*False|总体方差|有偏", re.I
)
_TANH = re.compile(r"tanh", re.I)
_ERF = re.compile(r"\berf\b|\\Phi|Φ|\\operatorname\{erf\}|\\mathrm\{erf\}", re.I)
_RMS = re.compile(r"RMS ?Norm|\brms\b", re.I)
_LAYER_NORM = re.compile(r"layer ?norm|\bLN\b|层归一化|Add\s*(?:&|\\&|and)\s*Norm", re.I)
_NORM = re.compile(
    r"layer ?norm|\bLN\b|RMS ?Norm|normali[sz]|层归一化|归一化|Add\s*(?:&|\\&|and)\s*Norm", re.I
)
_POSITIONS = re.compile(
    r"\bPE\b|PE_|PE\(|positional|position encoding|位置编码|RoPE|rotary|旋转位置|sinusoid|\\?sin\s*\(\s*pos\b",
    re.I,
)
_BLOCK = re.compile(r"\bFFN\b|feed[- ]forward|ReLU|GELU|SiLU|residual|前馈|残差", re.I)
_ACTIVATION = re.compile(r"FFN[^=\n]{0,40}=\s*\\?(max|relu|gelu|silu|swish)", re.I)


_FIRST = {"zero": "0", "one": "1"}


def _start(text: str) -> int | None:
    """The first position: "from 0" and "0-based" say it outright; a list ("pos = 0, 1")
    only when nothing says it outright.  Both 0 and 1 stated: not decided by prose."""
    for patterns in (_START[1:], _START[:1]):
        found = {
            _FIRST.get(m.group(1).lower(), m.group(1)) for pattern in patterns for m in pattern.finditer(text)
        }
        found = {int(v) for v in found}
        if found:
            return found.pop() if len(found) == 1 else None
    return None


def _own_layout(text: str) -> str | None:
    """The layout a sentence says the document itself uses ("本文全部采用这种拼接式排列"),
    when one sentence names exactly one layout so; else None."""
    found = set()
    for sentence in _own_choices(text):
        concatenated, interleaved = bool(_CONCATENATED.search(sentence)), bool(_INTERLEAVED.search(sentence))
        if concatenated != interleaved:
            found.add("concatenated" if concatenated else "interleaved")
    return found.pop() if len(found) == 1 else None


def _own_choices(text: str, *, bare_use: bool = False) -> Iterator[str]:
    """The sentences in which the document says what it uses itself ("本文采用…", "here we use…";
    with ``bare_use``, "这里用…" too)."""
    for sentence in _SENTENCE.split(text):
        if _OWN_CHOICE.search(sentence) and (_USES.search(sentence) or (bare_use and "用" in sentence)):
            yield sentence


_GELU_HEADING = re.compile(r"GELU\s*[（(]\s*(tanh|erf|exact|精确)", re.I)  # "二、GELU（tanh 近似）"
_EXACT = re.compile(r"精确|\bexact\b", re.I)
_NOT_FORM = re.compile(
    r"(?:不用|不是|而非|\bnot(?:\s+the)?|instead of|rather than)\s*(tanh|erf|精确|exact)", re.I
)


def _gelu_form(word: str) -> str:
    return "tanh" if word.lower() == "tanh" else "erf"


def _own_gelu(text: str) -> str | None:
    """The form of GELU a document that names both says it uses itself: a heading
    "GELU（tanh 近似）", or one sentence of its own choice ("这里用 tanh 近似", "本文用 GELU 的精确形式")
    naming one form and not denying it ("不用 tanh 近似"); None when that is not one form."""
    found = {_gelu_form(m.group(1)) for m in _GELU_HEADING.finditer(text)}
    for sentence in _own_choices(text, bare_use=True):
        forms = {"tanh"} if _TANH.search(sentence) else set()
        if _ERF.search(sentence) or _EXACT.search(sentence):
            forms.add("erf")
        forms -= {_gelu_form(word) for word in _NOT_FORM.findall(sentence)}
        if len(forms) == 1:
            found |= forms
    return found.pop() if len(found) == 1 else None


def stated_conventions(text: str) -> Stated:
    """The conventions ``text`` states in words (see :class:`Stated`).

    >>> stated_conventions("positions 0, 1, 2; all sines, then all cosines").layout
    'concatenated'
    """
    concatenated = bool(_CONCATENATED.search(text))
    interleaved = bool(_INTERLEAVED.search(text)) or (not concatenated and bool(_PAPER_FORMULA.search(text)))
    layout = None if concatenated == interleaved else ("concatenated" if concatenated else "interleaved")
    if concatenated and interleaved:  # both named: the one the document says it uses, if it says so
        layout = _own_layout(text)
    sample, population = bool(_SAMPLE.search(text)), bool(_POPULATION.search(text))
    variance = None if sample == population else ("sample" if sample else "population")
    tanh, erf = bool(_TANH.search(text)), bool(_ERF.search(text))
    gelu = None if tanh == erf else ("tanh" if tanh else "erf")
    if tanh and erf:  # both named: the one the document says it uses, if it says so
        gelu = _own_gelu(text)
    bases = {int(m.group(1)) for m in _BASE.finditer(text)}
    activation = {m.group(1).lower() for m in _ACTIVATION.finditer(text)}
    act = activation.pop() if len(activation) == 1 else None
    norm, positions = bool(_NORM.search(text)), bool(_POSITIONS.search(text))
    return Stated(
        layout=layout,
        start=_start(text),
        base=bases.pop() if len(bases) == 1 else None,
        variance=variance,
        gelu=gelu,
        activation={"max": "relu", "swish": "silu"}.get(act, act) if act else None,
        norm=norm,
        positions=positions,
        block=norm or positions or bool(_BLOCK.search(text)),
        rms_only=bool(_RMS.search(text)) and not _LAYER_NORM.search(text),
        first_row=0 if _ROW_ZERO.search(text) else 1,
    )


#: A token numbered 0 ("token 0", "第 0 个", ``x_0``, ``x0``): the document counts its tokens from 0.
#: Not "row 0", which may be position 0 of a table whose tokens are counted from 1.
_ROW_ZERO = re.compile(
    r"\btoken\s*#?\s*0\b|第\s*0\s*个|(?<![\w\\])(?:\\mathbf\{x\}|x)_?\{?0\}?(?![\w.])", re.I
)


#: Ordinal words and Chinese digits as numbers (also the prose reader's, readers/text.py).
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6}
CHINESE_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ROW_NAMED = re.compile(
    r"(?:\b(?:row|token)\s*#?\s*(\d{1,2})\b"
    r"|\b(first|second|third|fourth|fifth|sixth)\s+(?:row|token)"
    r"|第\s*([一二三四五六七八九]|\d{1,2})\s*(?:行|个)"
    r"|\b(?:for|对于|对)\s*\$?\s*(?:\\(?:mathbf|boldsymbol|vec)\{x\}|\\vx|x)_?\{?(\d{1,2})\}?(?![\d.]))",
    re.I,
)


def row_named(line: str, first: int = 1) -> int | None:
    """The row a line names last before a formula ("row 2:", "the second row", "第二行",
    "For $x_2$:"), 1-based, or None.  ``first`` is the number of the document's first
    token: under 0, "token 2" is the third row (an ordinal word is one all the same).

    >>> row_named("以第二行为例："), row_named("**token 2**：", first=0)
    (2, 3)
    """
    found = None
    for match in _ROW_NAMED.finditer(line):
        digits, ordinal, chinese, subscript = match.groups()
        if digits or subscript:
            found = int(digits or subscript) + 1 - first
        elif ordinal:
            found = ORDINALS[ordinal.lower()]
        elif chinese in CHINESE_DIGITS:
            found = CHINESE_DIGITS[chinese]
        else:
            found = int(chinese) + 1 - first
    return found


_ROW_NAME = re.compile(
    r"(?:\b(?:for|of)|对于|对)\s*\$?\s*(?:\\(?:mathbf|boldsymbol|vec)\{([a-z])\}|\\v([a-z])|\b([a-z]))_?\{?(\d{1,2})\}?(?![\w.])",
    re.I,
)


def row_name(line: str) -> str | None:
    """The vector a line names last before a formula ("对 r1：", "For $x_2$:"), written as
    the core grammar names it (``r_{1}``), or None.

    >>> row_name("    对 r1：")
    'r_{1}'
    """
    found = None
    for match in _ROW_NAME.finditer(line):
        bold, macro, plain, digits = match.groups()
        letter = bold or macro or plain
        found = f"\\mathbf{{{letter}}}_{{{digits}}}" if bold or macro else f"{letter}_{{{digits}}}"
    return found
