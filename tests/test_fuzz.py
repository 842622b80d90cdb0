"""A seeded fuzz campaign over ``verify_text`` (issue 10).

Three kinds of documents, from one seed:

- **generated**: documents written from a small grammar (scalar chains with
  ``+ - \\cdot``, ``\\frac``, ``\\sqrt``, powers, ``e^{…}``, ``\\ln``; attention
  chains X, W_Q, W_K, W_V, Q, K, V, QKᵀ, softmax, output; Chinese labels and
  prose), every printed value computed here with ``fractions`` (rational values,
  rounded exactly) or ``mpmath`` at 60 digits (irrational ones), never by
  symattn;
- **perturbed**: a generated document with one printed result changed by one or
  more units in its last place;
- **mutated**: a document of ``tests/docs`` or ``tests/corpus`` with a few random edits (cuts,
  copies, stray braces, dollars, ``\\frac``, monsters such as ``10^{10^{9}}``).

Results required: no exception other than :class:`~symattn.errors.SymattnError`;
no document over its budget; no wrong finding on a generated document; the
perturbed number found (wrong, or ``rounding-carried``: off in truth) in every
perturbed document.  The perturbed number is one the verifier checked ``ok`` on
the correct document; printed results it left unverified there are counted
("unchecked on correct", a recall figure) and printed, not asserted.

CI runs a short campaign; the long one is

    SYMATTN_FUZZ=10000 .venv/bin/python -m pytest tests/test_fuzz.py -q -s

(``SYMATTN_FUZZ`` documents in all; ``SYMATTN_FUZZ_SEED`` picks the seed), which
prints the figures recorded in docs/verify.md.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import mpmath
import sympy

from symattn.errors import SymattnError
from symattn.exact import claim_kind
from symattn.latexparse import scalar_latex
from symattn.verify import VerifyOptions, verify_text

DOCS = Path(__file__).parent / "docs"
mpmath.mp.dps = 60
_TIE = mpmath.mpf(10) ** -30

# --- values: exact when rational, mpmath otherwise ------------------------------------------


@dataclass(frozen=True)
class Value:
    exact: Fraction | None  # None when irrational
    approx: mpmath.mpf

    @staticmethod
    def of(q: Fraction) -> Value:
        return Value(q, mpmath.mpf(q.numerator) / q.denominator)


def _rounded(value: Value, places: int) -> str | None:
    """The value rounded half away from zero, or None too near a tie to decide here."""
    if value.exact is not None:
        scaled = abs(value.exact) * 10**places
        units = int(scaled + Fraction(1, 2))
        negative = value.exact < 0
    else:
        scaled = abs(value.approx) * mpmath.mpf(10) ** places
        if abs(scaled - mpmath.floor(scaled) - mpmath.mpf(1) / 2) < _TIE:
            return None
        units = int(mpmath.floor(scaled + mpmath.mpf(1) / 2))
        negative = value.approx < 0
    text = str(units).rjust(places + 1, "0")
    body = f"{text[:-places]}.{text[-places:]}" if places else text
    return f"-{body}" if negative and units else body


def _shifted(printed: str, units: int) -> str:
    """``printed`` moved by ``units`` in its last place (0.4011 + 1 -> 0.4012)."""
    places = len(printed.split(".")[1]) if "." in printed else 0
    value = Fraction(printed) + Fraction(units, 10**places)
    return _rounded(Value.of(value), places) or printed


# --- the grammar --------------------------------------------------------------------------

SCALAR_NAMES = ["u", "v", "w", "m", "r", "t", "\\text{甲}", "\\text{乙}", "\\text{总和}", "\\text{结果}"]
PROSE = ["Then", "So we get", "Next,", "因此", "于是", "代入得到", "We compute", "计算可得"]


@dataclass
class Claim:
    line: int
    column: int  # 1-based, in characters
    text: str
    slack: int = 0  # units of the last place the document's own rounding allows (A V from a rounded A)


@dataclass
class Doc:
    lines: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)

    def add(self, before: str, printed: list[str] | None = None, after: str = "") -> None:
        """Add a line ``before + printed[0] + sep + ...`` and record the printed results."""
        line = before
        for k, text in enumerate(printed or []):
            if k:
                line += " & "
            self.claims.append(Claim(len(self.lines) + 1, len(line) + 1, text))
            line += text
        self.lines.append(line + after)
        self.lines.append("")

    def text(self) -> str:
        return "\n".join(self.lines)


def _literal(rng: random.Random) -> tuple[str, Value]:
    """An exact literal: an integer or a ``\\frac`` of integers.  (A printed decimal
    such as 2.3 may stand for a rounded value, so verify judges what is computed
    from it within its rounding; exact inputs keep every perturbation visible.)"""
    if rng.random() < 0.7:
        n = rng.randint(1, 9)
        return str(n), Value.of(Fraction(n))
    p, q = rng.randint(1, 9), rng.choice([2, 3, 4, 5, 7])
    return f"\\frac{{{p}}}{{{q}}}", Value.of(Fraction(p, q))


def _expression(rng: random.Random, env: dict[str, Value], depth: int) -> tuple[str, Value, bool]:
    """(LaTeX, value, is_atom) of a random scalar expression."""
    if depth == 0 or rng.random() < 0.25:
        if env and rng.random() < 0.6:
            name = rng.choice(sorted(env))
            return name, env[name], True
        text, value = _literal(rng)
        return text, value, True
    op = rng.choice(["+", "-", "cdot", "frac", "sqrt", "pow", "exp", "ln"])
    left, lv, latom = _expression(rng, env, depth - 1)
    if op in ("sqrt", "pow", "exp", "ln"):
        if op == "sqrt" and lv.approx > 0:
            root = _exact_sqrt(lv.exact)
            return f"\\sqrt{{{left}}}", Value(root, mpmath.sqrt(lv.approx)), True
        if op == "pow" and abs(lv.approx) < 20:
            power = rng.choice([2, 3])
            base = left if latom else f"\\left({left}\\right)"
            exact = lv.exact**power if lv.exact is not None else None
            return f"{base}^{{{power}}}", Value(exact, lv.approx**power), False
        if op == "exp" and latom and abs(lv.approx) <= 3:
            return (
                f"e^{{{left}}}",
                Value(None if lv.approx != 0 else Fraction(1), mpmath.exp(lv.approx)),
                True,
            )
        if op == "ln" and latom and lv.approx > 0 and lv.approx != 1:
            return f"\\ln({left})", Value(None, mpmath.log(lv.approx)), False
        return left, lv, latom
    right, rv, ratom = _expression(rng, env, depth - 1)
    wrap_l = left if latom else f"({left})"
    wrap_r = right if ratom else f"({right})"
    if op == "+":
        return f"{left} + {wrap_r}", _combine(lv, rv, lambda a, b: a + b), False
    if op == "-":
        return f"{left} - {wrap_r}", _combine(lv, rv, lambda a, b: a - b), False
    if op == "cdot":
        return f"{wrap_l} \\cdot {wrap_r}", _combine(lv, rv, lambda a, b: a * b), False
    if rv.approx == 0:
        return left, lv, latom
    return f"\\frac{{{left}}}{{{right}}}", _combine(lv, rv, lambda a, b: a / b), True


def _combine(a: Value, b: Value, op) -> Value:
    exact = op(a.exact, b.exact) if a.exact is not None and b.exact is not None else None
    return Value(exact, op(a.approx, b.approx))


def _exact_sqrt(q: Fraction | None) -> Fraction | None:
    if q is None or q <= 0:
        return None
    p, r = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(int(p), int(r)) if p * p == q.numerator and r * r == q.denominator else None


def _printed(value: Value, places: int) -> str | None:
    if value.exact is not None and value.exact.denominator == 1:
        return str(value.exact.numerator)
    return _rounded(value, places)


def _substituted(expr: str, env: dict[str, str]) -> str:
    """``expr`` with each name replaced by its printed (exact) value, in braces
    (a letter inside a command such as ``\\cdot`` is not a name)."""
    names = "|".join(re.escape(name) for name in sorted(env, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\\A-Za-z])(?:{names})(?![A-Za-z])")
    return pattern.sub(lambda m: "{" + env[m.group()] + "}", expr)


def _scalar_section(rng: random.Random, doc: Doc) -> None:
    """Inputs (exact), then results computed from them only: a result printed
    rounded is not an exact input of a later one."""
    env: dict[str, Value] = {}
    printed_inputs: dict[str, str] = {}
    names = rng.sample(SCALAR_NAMES, 6)
    for name in names[:3]:
        text, value = _literal(rng)
        env[name] = value
        printed_inputs[name] = text
        doc.add(f"{rng.choice(PROSE)} $${name} = {text}$$")
    for name in names[3:]:
        for _ in range(20):
            expr, value, _atom = _expression(rng, env, rng.randint(1, 2))
            printed = _printed(value, rng.choice([2, 3, 4]))
            if printed is not None and abs(value.approx) < 10**6 and expr not in env:
                break
        else:
            continue
        relation = "=" if value.exact is not None and value.exact.denominator == 1 else "\\approx"
        middle = ""
        if rng.random() < 0.3 and "\\ln" not in expr and "e^" not in expr:
            middle = f"= {_substituted(expr, printed_inputs)} "  # a chain: a + b = 2 + 3 = 5
        doc.add(f"$${name} = {expr} {middle}{relation} ", [printed], "$$")


def _matrix(rows: list[list[str]]) -> str:
    return "\\begin{bmatrix} " + " \\\\ ".join(" & ".join(r) for r in rows) + " \\end{bmatrix}"


def _matmul(a: list[list], b: list[list]) -> list[list]:
    return [[sum(x * y for x, y in zip(row, col, strict=True)) for col in zip(*b, strict=True)] for row in a]


def _attention_section(rng: random.Random, doc: Doc) -> None:
    n, d = rng.choice([2, 3]), rng.choice([2, 3])
    X = [[rng.randint(0, 2) for _ in range(d)] for _ in range(n)]
    eye = [[int(i == j) for j in range(d)] for i in range(d)]
    W = {
        k: eye if rng.random() < 0.5 else [[rng.randint(0, 1) for _ in range(d)] for _ in range(d)]
        for k in "QKV"
    }
    doc.add("$$X = " + _matrix([[str(x) for x in r] for r in X]) + "$$")
    for k in "QKV":
        doc.add(f"$$W_{k} = " + _matrix([[str(x) for x in r] for r in W[k]]) + "$$")
    doc.add(f"Let $d_k = {d}$.")
    Q, K, V = (_matmul(X, W[k]) for k in "QKV")
    for name, M in (("Q", Q), ("K", K), ("V", V)):
        _matrix_claim(doc, f"$${name} = X W_{name} = ", [[str(x) for x in r] for r in M])
    S = _matmul(Q, [list(c) for c in zip(*K, strict=True)])
    _matrix_claim(doc, "$$Q K^T = ", [[str(x) for x in r] for r in S])
    scale = mpmath.sqrt(d)
    weights = []
    for row in S:
        exps = [mpmath.exp(mpmath.mpf(s) / scale) for s in row]
        total = mpmath.fsum(exps)
        weights.append([e / total for e in exps])
    places = rng.choice([3, 4])
    printed_w = [[_rounded(Value(None, w), places) for w in row] for row in weights]
    output = [
        [mpmath.fsum(w * v for w, v in zip(row, col, strict=True)) for col in zip(*V, strict=True)]
        for row in weights
    ]
    printed_o = [[_rounded(Value(None, o), places) for o in row] for row in output]
    if any(p is None for row in printed_w + printed_o for p in row):
        return
    label = rng.choice(["A", "\\text{注意力权重}"]) if False else "A"
    _matrix_claim(
        doc,
        f"$${label} = \\text{{softmax}}\\left(\\frac{{Q K^T}}{{\\sqrt{{d_k}}}}\\right) \\approx ",
        printed_w,
    )
    out_name = rng.choice(["\\text{Output}", "\\text{输出}"]) if rng.random() < 0.5 else "\\text{Output}"
    unit = Fraction(1, 10**places)
    slack = [int(sum(abs(v[j]) for v in V) * unit / 2 / unit) + 1 for j in range(len(V[0]))]
    _matrix_claim(doc, f"$${out_name} = A V \\approx ", printed_o, slack)


def _matrix_claim(doc: Doc, before: str, rows: list[list[str]], slack: list[int] | None = None) -> None:
    line = before + "\\begin{bmatrix} "
    for i, row in enumerate(rows):
        if i:
            line += " \\\\ "
        for j, text in enumerate(row):
            if j:
                line += " & "
            doc.claims.append(Claim(len(doc.lines) + 1, len(line) + 1, text, slack[j] if slack else 0))
            line += text
    doc.lines.append(line + " \\end{bmatrix}$$")
    doc.lines.append("")


def generate(rng: random.Random) -> Doc:
    doc = Doc()
    doc.add(rng.choice(["# A worked example", "# 注意力机制的一个例子", "# Scalars and attention"]))
    sections = rng.choice([["scalar"], ["attention"], ["scalar", "attention"], ["attention", "scalar"]])
    for section in sections:
        (_scalar_section if section == "scalar" else _attention_section)(rng, doc)
    return doc


# --- mutations of the corpus ----------------------------------------------------------------

NOISE = [
    "{", "}", "$", "$$", "\\frac", "\\sqrt", "^", "_", "\\\\", "&", "\\begin{bmatrix}", "\\end{bmatrix}",
    "10^{10^{9}}", "\\ln(", "e^{e^{e^{10}}}", "中文", "\\text{", "= 0.5", "\\approx", "0", "9.99", "(", ")",
    "\\left(", "\\right)", "\n", "\n\n", "```", "`", "\\begin{align}", "\\end{align}", "%", "1/0",
]  # fmt: skip


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 6)):
        if not text:
            break
        i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        op = rng.random()
        if op < 0.25:
            text = text[:i] + text[j : j + 200] + text[j + 200 :] if j - i < 400 else text[:i] + text[j:]
        elif op < 0.45:
            text = text[:j] + text[i : min(j, i + 300)] + text[j:]
        elif op < 0.8:
            text = text[:i] + rng.choice(NOISE) + text[i:]
        else:
            digits = [k for k, c in enumerate(text) if c.isdigit()]
            if digits:
                k = rng.choice(digits)
                text = text[:k] + str(rng.randint(0, 9)) + text[k + 1 :]
    return text


# --- the campaign -----------------------------------------------------------------------------


@dataclass
class Results:
    documents: Counter = field(default_factory=Counter)
    findings: int = 0
    claims_ok: int = 0
    exceptions: list[str] = field(default_factory=list)
    over_budget: list[str] = field(default_factory=list)
    wrong_on_correct: list[str] = field(default_factory=list)
    unchecked_on_correct: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    found: Counter = field(default_factory=Counter)
    timeouts: int = 0

    def summary(self) -> dict:
        return {
            "documents": dict(self.documents),
            "findings": self.findings,
            "generated claims ok": self.claims_ok,
            "exceptions": len(self.exceptions),
            "over budget": len(self.over_budget),
            "wrong on correct": len(self.wrong_on_correct),
            "unchecked on correct": len(self.unchecked_on_correct),
            "perturbed found": dict(self.found),
            "perturbed missed": len(self.missed),
            "formula timeouts": self.timeouts,
        }


#: One document in four goes through the forked worker; the others run in safe
#: mode (in this process), which must be just as bounded and gives the same findings.
WORKER, SAFE = VerifyOptions(budget=60), VerifyOptions(budget=60, use_worker=False)


def _verify(results: Results, label: str, text: str, tex: bool = False, worker: bool = False):
    try:
        report = verify_text(text, tex=tex, options=WORKER if worker else SAFE)
        json.loads(report.to_json())
        report.to_text(lang="zh")
        report.to_markdown()
    except SymattnError:
        return None
    except Exception as err:
        results.exceptions.append(f"{label}: {type(err).__name__}: {err}"[:300])
        return None
    results.findings += len(report.findings)
    if any(f.reason.startswith("not checked: the time for the document ran out") for f in report.findings):
        results.over_budget.append(label)
    results.timeouts += sum(f.reason.startswith("not checked: took longer") for f in report.findings)
    return report


def campaign(total: int, seed: int) -> Results:
    """``total`` documents: one in five mutated from the corpus; the others
    generated, each followed by a copy with one printed result perturbed."""
    rng = random.Random(seed)
    results = Results()
    corpus = sorted(  # the LaTeX corpus, and the real-notation one (code, plain text, tables, HTML, images)
        p
        for folder in (DOCS, DOCS.parent / "corpus")
        for p in folder.glob("*")
        if p.suffix in (".md", ".txt", ".tex") and p.name != "README.md"
    )
    sources = [(p.name, p.read_text(encoding="utf-8"), p.suffix == ".tex") for p in corpus]
    k = 0
    while k < total:
        worker = k % 4 == 0
        if k % 5 == 4:
            name, text, tex = rng.choice(sources)
            _count(results, "mutated", worker)
            _verify(
                results, f"seed {seed} document {k} (mutated from {name})", mutate(rng, text), tex, worker
            )
            k += 1
            continue
        doc = generate(rng)
        label = f"seed {seed} document {k}"
        _count(results, "generated", worker)
        report = _verify(results, label, doc.text(), worker=worker)
        k += 1
        if report is None:
            continue
        for f in report.wrong:
            results.wrong_on_correct.append(f"{label}: {f.line}:{f.column} {f.claimed} ({f.kind})")
        ok = {(f.line, f.column) for f in report.findings if f.status == "ok"}
        checked = []
        for claim in doc.claims:
            if (claim.line, claim.column) in ok:
                checked.append(claim)
            else:
                results.unchecked_on_correct.append(f"{label}: {claim.line}:{claim.column} {claim.text}")
        results.claims_ok += len(checked)
        if not checked or k >= total or k % 5 == 4:
            continue
        claim = rng.choice(checked)  # a number the verifier checks: a change of it must be found
        units = rng.choice([-3, -2, -1, 1, 2, 3, 10])
        units += claim.slack if units > 0 else -claim.slack  # beyond what the printed rounding allows
        changed = _shifted(claim.text, units)
        row = doc.lines[claim.line - 1]
        start = claim.column - 1
        assert row[start : start + len(claim.text)] == claim.text
        doc.lines[claim.line - 1] = row[:start] + changed + row[start + len(claim.text) :]
        label = f"seed {seed} document {k} (document {k - 1} perturbed)"
        worker = k % 4 == 0
        _count(results, "perturbed", worker)
        report = _verify(results, label, doc.text(), worker=worker)
        k += 1
        if report is None:
            continue
        kinds = [f.kind for f in report.findings if (f.line, f.column) == (claim.line, claim.column)]
        if kinds and kinds[0] in ("wrong", "slip", "carried", "rounding", "rounding-carried"):
            results.found[kinds[0]] += (
                1  # rounding-carried: right by the printed rounded numbers, off in truth
            )
        else:
            results.missed.append(f"{label}: {claim.line}:{claim.column} {claim.text} -> {changed} {kinds}")
    return results


def _count(results: Results, kind: str, worker: bool) -> None:
    results.documents[kind] += 1
    results.documents["through the worker"] += worker


def test_fuzz_campaign() -> None:
    import symattn.verify.evaluate  # noqa: F401 - imported once here, so each forked worker starts at once

    total = int(os.environ.get("SYMATTN_FUZZ", "150"))
    seed = int(os.environ.get("SYMATTN_FUZZ_SEED", "20261201"))
    results = campaign(total, seed)
    print(f"\nfuzz campaign, seed {seed}: {json.dumps(results.summary(), ensure_ascii=False)}")
    for line in results.unchecked_on_correct[:5]:  # a recall figure, not a requirement: printed, not asserted
        print(f"unchecked on a correct document: {line}")
    assert results.exceptions == []
    assert results.over_budget == []
    assert results.wrong_on_correct == []
    assert results.missed == []
    assert (
        results.documents["generated"] + results.documents["perturbed"] + results.documents["mutated"]
        == total
    )


# --- what the campaign found, kept as fixed cases -------------------------------------------


def test_a_wrong_claim_on_a_whole_number_in_disguise_is_wrong_not_undecided() -> None:
    """Output = A V with a constant column of V is exactly 2, written as a sum of
    softmax terms: its truncation cannot be decided, but 1.9996 is wrong."""
    s = sympy.exp(sympy.sqrt(2)) + sympy.exp(sympy.sqrt(3) / 3)
    two = 2 * sympy.exp(sympy.sqrt(2)) / s + 2 * sympy.exp(sympy.sqrt(3) / 3) / s
    assert [claim_kind(c, two) for c in ("1.9996", "1.9999", "2.0000", "2")] == ["wrong", "wrong", "ok", "ok"]


def test_half_of_a_left_right_pair_is_still_read_on_the_scalar_path() -> None:
    r"""The text of ``\left(\ln t\right)^{2}`` reaches the scalar reader without its ``\left``."""
    assert scalar_latex("(\\ln(3)\\right)^{2}") == sympy.log(3) ** 2
    report = verify_text("$$t = 3$$\n\n$$w = \\left(\\ln(t)\\right)^{2} \\approx 1.207$$\n")
    truth = _rounded(Value(None, mpmath.log(3) ** 2), 3)
    assert truth == "1.207"
    assert [(f.claimed, f.status) for f in report.findings if f.line == 3] == [
        ("2", "unverified"),
        ("1.207", "ok"),
    ]
