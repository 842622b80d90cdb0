"""All report prose, in English and Chinese.

Renderers look every sentence up here by key, so a translation is one table.
"""

from __future__ import annotations

__all__ = ["KIND_TEXT", "LABELS", "kind_text", "label"]

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
        "summary": "{claims} numbers: {ok} ok, {wrong} wrong, {unverified} not checked.",
        "unverified_line": "{count} × {reason}",
        "verdict_ok": "Result: every checked number holds.",
        "verdict_wrong": "Result: {wrong} wrong number(s).",
        "location": "location",
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
        "unverified_line": "{count} 个：{reason}",
        "verdict_ok": "结论：所有核验过的数字都成立。",
        "verdict_wrong": "结论：有 {wrong} 个数字错误。",
        "location": "位置",
    },
}

KIND_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "slip": "arithmetic slip (wrong even by the document's own numbers)",
        "carried": "carried from line {line} (right by the document's numbers, wrong in truth)",
        "rounding": "rounding (the true value truncated instead of rounded)",
        "wrong": "wrong value",
    },
    "zh": {
        "slip": "计算失误（按文中自己的数字也不成立）",
        "carried": "沿用第 {line} 行的错误（按文中数字成立，但与真实值不符）",
        "rounding": "舍入错误（真实值被截断而不是四舍五入）",
        "wrong": "数值错误",
    },
}


def label(key: str, lang: str = "en", **values: object) -> str:
    """The sentence ``key`` in ``lang`` with ``values`` filled in."""
    table = LABELS.get(lang, LABELS["en"])
    return table[key].format(**values)


def kind_text(kind: str, lang: str = "en", carried_from: int | None = None) -> str:
    """A reader's description of a kind of wrong number."""
    table = KIND_TEXT.get(lang, KIND_TEXT["en"])
    return table.get(kind, kind).format(line=carried_from)
