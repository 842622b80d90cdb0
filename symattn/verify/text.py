"""All report prose, in English and Chinese.

Renderers look every sentence up here by key, so a translation is one table.
"""

from __future__ import annotations

import re

__all__ = ["KIND_TEXT", "LABELS", "REASONS_ZH", "UNVERIFIED_KIND_TEXT", "kind_text", "label", "reason_text"]

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "title": "symattn verify: {document}",
        "wrong_heading": "Wrong numbers",
        "unverified_heading": "Not checked",
        "none_wrong": "No wrong numbers found.",
        "expression": "expression",
        "cell": "cell",
        "claimed": "claimed",
        "true": "true value",
        "exact": "exact",
        "kind": "kind",
        "reason": "reason",
        "summary": "{claims} number{claims_s}: {ok} ok, {wrong} wrong, {unverified} not checked.",
        "summary_suppressed": " {suppressed} wrong number{suppressed_s} suppressed by symattn: ignore.",
        "unverified_line": "{count} × {reason}",
        "verdict_ok": "Result: every checked number holds.",
        "verdict_none": "Result: no number could be checked.",
        "verdict_wrong": "Result: {wrong} wrong number{wrong_s}.",
        "location": "location",
        "causes": "{roots} error{roots_s}; {carried} number{carried_s} carried from {them}.",
        "carried_under": "carried from it:",
        "carried_from_line": "carried from line {line}:",
        "unverified_where": "where",
    },
    "zh": {
        "title": "symattn 核验：{document}",
        "wrong_heading": "错误的数字",
        "unverified_heading": "未核验",
        "none_wrong": "没有发现错误的数字。",
        "expression": "表达式",
        "cell": "单元格",
        "claimed": "文中数值",
        "true": "真实值",
        "exact": "精确值",
        "kind": "类型",
        "reason": "原因",
        "summary": "共 {claims} 个数字：{ok} 个正确，{wrong} 个错误，{unverified} 个未核验。",
        "summary_suppressed": "其中 {suppressed} 个错误数字按 symattn: ignore 注释忽略。",
        "unverified_line": "{count} 个：{reason}",
        "verdict_ok": "结论：所有核验过的数字都成立。",
        "verdict_none": "结论：没有任何数字能够核验。",
        "verdict_wrong": "结论：有 {wrong} 个数字错误。",
        "location": "位置",
        "causes": "{roots} 处错误；{carried} 个数字沿用了它们。",
        "carried_under": "沿用它的数字：",
        "carried_from_line": "沿用第 {line} 行的数字：",
        "unverified_where": "位置",
    },
}

KIND_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "slip": "arithmetic slip (wrong even by the document's own numbers)",
        "carried": "carried from line {line} (right by the document's numbers, wrong in truth)",
        "rounding": "rounding (the true value truncated instead of rounded)",
        "wrong": "wrong value",
        "rounding-carried": "rounding carried (right by the document's rounded numbers, off in truth)",
        "float-rounding": "float32 rounding (not an error)",
        "convention": "another convention: these values match {fits}",
    },
    "zh": {
        "slip": "计算失误（按文中自己的数字也不成立）",
        "carried": "沿用第 {line} 行的错误（按文中数字成立，但与真实值不符）",
        "rounding": "舍入错误（真实值被截断而不是四舍五入）",
        "wrong": "数值错误",
        "rounding-carried": "沿用舍入（按文中舍入后的数字成立，与真实值不符）",
        "float-rounding": "float32 舍入（不是错误）",
        "convention": "另一种约定：这些数值符合{fits}",
    },
}

#: The conventions a finding of kind "convention" may name (``Finding.fits``), in words.
CONVENTION_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "concatenated layout": "the concatenated layout (all sines, then all cosines)",
        "interleaved layout": "the interleaved layout (sin, cos, sin, cos, …)",
        "positions from 1": "positions counted from 1",
        "positions from 0": "positions counted from 0",
        "sample variance": "the sample variance (divided by d − 1)",
        "population variance": "the population variance (divided by d)",
        "eps = 0": "ε = 0 (ε left out)",
        "tanh GELU": "the tanh approximation of GELU",
        "erf GELU": "the exact (erf) GELU",
    },
    "zh": {
        "concatenated layout": "拼接排列（先全部 sin，再全部 cos）",
        "interleaved layout": "交错排列（sin、cos、sin、cos……）",
        "positions from 1": "位置从 1 开始计数",
        "positions from 0": "位置从 0 开始计数",
        "sample variance": "样本方差（除以 d − 1）",
        "population variance": "总体方差（除以 d）",
        "eps = 0": "ε = 0（漏掉了 ε）",
        "tanh GELU": "GELU 的 tanh 近似",
        "erf GELU": "精确（erf）形式的 GELU",
    },
}


def label(key: str, lang: str = "en", **values: object) -> str:
    """The sentence ``key`` in ``lang`` with ``values`` filled in."""
    table = LABELS.get(lang, LABELS["en"])
    plurals = {
        f"{name}_s": "" if value == 1 else "s" for name, value in values.items() if isinstance(value, int)
    }
    them = "it" if values.get("roots") == 1 else "them"
    return table[key].format(**values, **plurals, them=them)


def kind_text(kind: str, lang: str = "en", carried_from: int | None = None, fits: str | None = None) -> str:
    """A reader's description of a kind of wrong number (``fits``: the convention
    the numbers follow, for kind "convention")."""
    table = KIND_TEXT.get(lang, KIND_TEXT["en"])
    conventions = CONVENTION_TEXT.get(lang, CONVENTION_TEXT["en"])
    return table.get(kind, kind).format(line=carried_from, fits=conventions.get(fits or "", fits))


#: The kinds of unverified numbers (docs/verify.md), used when a reason has no
#: translation of its own: the Chinese kind, then the English detail.
UNVERIFIED_KIND_TEXT: dict[str, str] = {
    "input": "作为输入给出",
    "operand": "计算中使用的数字",
    "no-claim": "没有与之对应的量",
    "unparsed": "无法解析",
    "bad-input": "输入有误",
    "unverifiable": "无法核验",
    "formula": "不含数字的一般公式",
    "undecided": "无法确定舍入",
    "error": "内部错误",
    "skipped": "未核验（超出限制）",
    "ambiguous": "不确定是新例子还是重述",
    "rounding-carried": "沿用舍入",
    "suppressed": "按 symattn: ignore 注释忽略",
}

#: Chinese for each reason the verifier gives: (English pattern, Chinese
#: template with the pattern's groups).  Nested reasons are translated inside.
REASONS_ZH: tuple[tuple[str, str], ...] = (
    (r"suppressed by the symattn: ignore comment on line (\d+)", "按第 {0} 行的 symattn: ignore 注释忽略"),
    (r"restates an earlier result", "重述前面算出的结果"),
    (
        r"restates an earlier result, right by the document's rounded numbers, off in truth",
        "重述前面算出的结果：按文中舍入后的数字成立，与真实值不符",
    ),
    (r"restates an entry", "重述向量中的一个元素"),
    (r"the sum of the numerators", "分子之和"),
    (r"given as an input", "作为输入给出"),
    (r"a number used in a computation", "计算中使用的数字"),
    (r"no earlier quantity to compare with", "前面没有可以比较的量"),
    (r"a number not tied to a named quantity", "没有对应到有名字的量"),
    (r"not part of an equation, so there is nothing to compare it with", "不在等式中，没有可比较的对象"),
    (r"claimed value", "文中给出的值"),
    (r"part of a printed computation", "文中算式的一部分"),
    (r"part of a printed fraction", "文中分数的一部分"),
    (
        r"restates (.+), rounded, which is off \(from line (\d+)\); prose may quote an error",
        "重述 {0}（四舍五入），该值有误（源自第 {1} 行）；正文可能是在有意引用错误",
    ),
    (r"restates (.+), rounded", "重述 {0}（四舍五入）"),
    (
        r"the prose gives (.+); it fits neither the document's value nor the truth",
        "正文给出的 {0}；既不符合文中的值，也不符合真值",
    ),
    (r"the prose gives (.+)", "正文给出的 {0}"),
    (r"the prose copies (.+) wrong: (.+)", "正文抄错了 {0}：{1}"),
    (r"the other weight of the row: 1 − the one before", "同一行的另一个权重：1 − 前一个权重"),
    (r"the other weight of the row fits neither side", "同一行的另一个权重，与文中的值和真值都不符"),
    (
        r"fits the side before it, which is not exactly equal to the side before that",
        "与前一边相符，但前一边与再前一边并不严格相等",
    ),
    (
        r"the factor or the block is off; with one nonzero cell, which one cannot be told",
        "系数或矩阵有误；矩阵只有一个非零元素，无法判断是哪一个",
    ),
    (
        r"the factor in front of the printed matrix is not the side before over it",
        "矩阵前的系数不等于前一边除以该矩阵",
    ),
    (r"the block is the side before, up to its factor", "该矩阵与前一边只差一个系数"),
    (r"the factor in front of the block", "矩阵前的系数"),
    (r"these values match (.+)", "这些数值符合另一种约定：{0}"),
    (r"right under (.+), which the document allows", "按文中允许的约定（{0}）成立"),
    (r"ambiguous: of which row\? it fits (.+)", "不确定是哪一行：它符合 {0}"),
    (
        r"ambiguous: far from the statistic of the row before it \((.+)\)",
        "不确定：与前一行的统计量（{0}）相差太远，可能是另一个量",
    ),
    (r"the row's sum, by the document's numbers", "按文中数字，这一行的和"),
    (r"the row's sum", "这一行的和"),
    (r"μ and σ of which row\? \(no vector is given before them\)", "μ 和 σ 是哪一行的？（前面没有给出向量）"),
    (r"μ and σ of which row of (.+)\?", "μ 和 σ 是 {0} 的哪一行？"),
    (r"the width d_model of the positional encoding is not given", "没有给出位置编码的宽度 d_model"),
    (r"FFN needs (.+), which the document does not give", "FFN 需要 {0}，文中没有给出"),
    (r"restates (.+)", "重述 {0}"),
    (r"by the document's numbers: (.+)", "按文中数字：{0}"),
    (r"compared with something that could not be checked \((.+)\)", "与无法核验的量比较（{0}）"),
    (r"I is not defined in the document \(no X gives its size\)", "文中没有定义 I（没有 X 给出它的大小）"),
    (r"the function (.+) is not defined in the document", "文中没有定义函数 {0}"),
    (r"(.+) is not defined in the document", "文中没有定义 {0}"),
    (r"cannot parse: (.+)", "无法解析：{0}"),
    (r"cannot parse \((.+)\)", "无法解析（{0}）"),
    (r"cannot evaluate (.+)", "无法计算 {0}"),
    (r"uses (.+)", "使用了{0}"),
    (r"a primed name", "带撇号的名字"),
    (r"a subscript on an expression", "表达式上的下标"),
    (r"an ellipsis \(…\)", "省略号（…）"),
    (r"the construct (.+)", "结构 {0}"),
    (r"a tuple", "元组"),
    (r"an absolute value or determinant", "绝对值或行列式"),
    (r"(.+) \(read by latex2sympy2_extended\)", "{0}（由 latex2sympy2_extended 读取）"),
    (
        r"\\log without a base \(natural or base 10 is ambiguous\)",
        "没有底数的 \\log（自然对数还是以 10 为底不明确）",
    ),
    (r"(.+) \(not part of the attention grammar\)", "{0}（不属于注意力公式的语法）"),
    (r"a single number is compared with a (.+) matrix", "单个数字与 {0} 矩阵比较"),
    (r"a (.+) matrix is compared with a scalar", "{0} 矩阵与标量比较"),
    (
        r"a computation of printed numbers that does not line up with the one before it",
        "文中数字的算式与前一项对不上",
    ),
    (r"cannot decide whether the printed computation matches", "无法确定文中算式是否相符"),
    (r"the factor in front of the printed matrix is not a nonzero number", "矩阵前的系数不是非零数"),
    (r"division by a matrix", "除以矩阵"),
    (r"a power of a matrix", "矩阵的幂"),
    (r"(.+) of a matrix", "对矩阵取 {0}"),
    (r"a matrix inside a matrix", "矩阵中嵌套矩阵"),
    (r"0 times infinity", "0 乘以无穷大"),
    (r"(not checked: .+) \((\d+) numbers?\)", "{0}（共 {1} 个数字）"),  # a skipped formula
    (r"not checked: took longer than (.+) s", "未核验：用时超过 {0} 秒"),
    (r"not checked: the worker process stopped", "未核验：工作进程意外停止"),
    (r"not checked: the document has too many formulas", "未核验：文档中的公式太多"),
    (r"not checked: the formula is too long", "未核验：公式太长"),
    (r"not checked: the time for the document ran out", "未核验：文档的核验时间已用完"),
    (r"not read: (.+) \((symattn\.limits\.\w+)\)", "未读取：{0}（{1}）"),  # a document over a reading limit
    (r"the document has more lines than (\d+)", "文档超过 {0} 行"),
    (r"a line has more characters than (\d+)", "有一行超过 {0} 个字符"),
    (r"the document has more table rows than (\d+)", "文档中的表格行超过 {0} 行"),
    (r"a line has more '\|' than (\d+)", "有一行的 '|' 超过 {0} 个"),
    (r"the document has more '\[' than (\d+)", "文档中的 '[' 超过 {0} 个"),
    (r"the document has more backticks than (\d+)", "文档中的反引号超过 {0} 个"),
    (r"the document has more '\|' than (\d+)", "文档中的 '|' 超过 {0} 个"),
    (r"the document has more markup characters than (\d+)", "文档中的标记字符超过 {0} 个"),
    (r"the document has more formulas with numbers than (\d+)", "文档中含数字的公式超过 {0} 个"),
    (r"could not be checked \((.+)\)", "无法核验（{0}）"),
    (r"a general formula without numbers", "不含数字的一般公式"),
    (r"within float32 rounding of the true value", "在 float32 舍入误差之内"),
    (r"identified by its digits as (\S+) \(scale (.+)\)", "按其数字认定为 {0}（缩放 {1}）"),
    (
        r"wrong by the printed numbers it is computed from; right only if they are rounded",
        "按其所依据的文中数字计算并不成立；只有当这些数字本身是舍入值时才成立",
    ),
    (r"right by the document's rounded numbers, off in truth", "按文中舍入后的数字成立，但与真实值不符"),
    (r"part of an exact step equal to the side before", "精确推导的一步，与前一项完全相等"),
    (
        r"part of a step equal to the side before, within the rounding of its numbers",
        "推导的一步，在其中数字的舍入范围内与前一项相等",
    ),
    (r"this side is not exactly equal to the side before it", "这一项与前一项不完全相等"),
    (r"ambiguous: new example or restatement of line (\d+)", "不确定：是新的例子，还是第 {0} 行的重述"),
    (
        r"fits its own step, which is not equal to the side before it; line (\d+) uses it as that quantity",
        "与它自己的算式相符，但该算式与前一项不相等；第 {0} 行把它当作那个量来用",
    ),
    (r"restates line (\d+)'s value", "重述第 {0} 行的值"),
    # the explanation's reasons, and the names of the nodes it identifies (translated in turn)
    (r"identified by its digits as (.+) \(((?:T|scale) .+)\)", "按其数字认定为 {0}（{1}）"),
    (r"identified by its digits as (.+)\[(\d+),(\d+)\]", "按其数字认定为 {0}[{1},{2}]"),
    (
        r"the text says these values were not computed by the formula: a given",
        "文中说明这些数值并非由公式算出：按给定值处理",
    ),
    (
        r"follows from the values of line (\d+), which the text says were not computed",
        "由第 {0} 行的数值得出，而文中说明那些数值并非算出",
    ),
)


#: The words in the names of the explanation's nodes (``LayerNorm (ε = 0, population variance)``,
#: ``GELU (tanh) of A·W+b``): the rest of a name is symbols.
NODE_WORDS_ZH = (
    (re.compile(r"(.+) of (.+)"), lambda m: f"{_node_zh(m.group(2))} 的 {_node_zh(m.group(1))}"),
    (re.compile(r"population variance"), lambda m: "总体方差"),
    (re.compile(r"sample variance"), lambda m: "样本方差"),
)


def _node_zh(name: str) -> str:
    for pattern, render in NODE_WORDS_ZH:
        if pattern.fullmatch(name):
            return render(pattern.fullmatch(name))
    words = (
        name.replace("population variance", "总体方差")
        .replace("sample variance", "样本方差")
        .replace("causal mask", "因果掩码")
    )
    match = re.fullmatch(r"(.+?) \((.+)\)", words)
    return f"{match.group(1)}（{match.group(2).replace(', ', '，')}）" if match else words


def _translate(reason: str) -> str | None:
    for pattern, template in REASONS_ZH:
        match = re.fullmatch(pattern, reason)
        if match:
            if pattern.startswith("identified by its digits as"):
                return template.format(_node_zh(match.group(1)), *match.groups()[1:])
            return template.format(*(_translate(g) or g for g in match.groups()))
    return None


def reason_text(reason: str, lang: str = "en", kind: str = "") -> str:
    """A reason in ``lang``: translated by :data:`REASONS_ZH`, or, for a reason
    with no entry (an error message), the Chinese kind followed by the detail.

    >>> reason_text("compared with something that could not be checked (Q is not defined in the document)", "zh")
    '与无法核验的量比较（文中没有定义 Q）'
    """
    if lang != "zh" or not reason:
        return reason
    for label, words in CONVENTION_TEXT["zh"].items():  # the convention in words, not its key
        reason = reason.replace(f"match {label}", f"match {words}").replace(
            f"under {label},", f"under {words},"
        )
    translated = _translate(reason)
    if translated is not None:
        return translated
    return f"{UNVERIFIED_KIND_TEXT.get(kind, '无法核验')}：{reason}"
