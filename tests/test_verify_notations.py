"""Issue 8: one attention example, four notations, the same findings.

A Hypothesis strategy draws a small example (2–4 tokens, d_model = d_k = 2 or 3, X with
entries -2..2, W_Q, W_K, W_V each the identity or a small integer matrix, scale 1/√d_k).
``tests/notation_docs.py`` computes its true values with ``fractions`` and ``mpmath`` (40
digits, rounded half away from zero; never symattn) and prints it four ways: LaTeX
(Markdown with ``$$…$$`` and bmatrix), plain text (no ``$`` anywhere), a PyTorch program
with its printouts (4 places, aligned as torch prints float32 tensors; the identity is
``torch.eye(d)``) and pipe tables (the tables document starts from the queries, keys and
values, a ``| token | query | key | value |`` table of vector cells; scores, weights and
outputs are tables named by the sentence before them).  Each document prints the inputs, the scaled scores, the weights
(4 places) and the outputs (4 places).

**What "the same findings" means here.**  The quantities compared are the attention
weights and the outputs.  A finding belongs to them when its subject, normalised, is
``weights`` (A, weights, attn, attn_weights, …) or ``output`` (Output, output, out, …).
Its cell is the finding's ``cell`` (1-based row, column), and it must stand at the line
and column where the renderer printed that cell.  For each notation this gives a map
``(quantity, row, column) -> (status, kind)``; the maps must be equal across the four
notations, and each must hold every cell of both matrices (n·n weights and n·d outputs),
so a notation that leaves some weights unverified, or reads a number under the wrong
quantity, differs.  Scores, Q, K, V and the inputs are named too differently across
notations to compare (a table of scores, ``S``, ``QKᵀ/√2``); they count only through
the exit code and "no wrong finding".

Documents are verified with ``VerifyOptions(use_worker=False)``: safe mode gives the
same findings as the forked worker (docs/verify.md, "Limits") and keeps the property fast.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notation_docs import RENDERERS, Doc, Example, Key

from symattn.verify import VerifyOptions, verify_text

OPTIONS = VerifyOptions(use_worker=False)
NOTATIONS = tuple(RENDERERS)
COMPARED = ("weights", "output")

_SUBJECTS = {
    "weights": {"a", "weights", "attn", "attn_weights", "attention_weights", "p_attn", "\\text{weights}"},
    "output": {"output", "out", "\\text{output}", "attn_output", "attention_output", "o"},
}


def quantity(subject: str) -> str | None:
    """The compared quantity a finding's subject names (A → weights, Output → output)."""
    name = subject.strip().lower()
    for q, names in _SUBJECTS.items():
        if name in names:
            return q
    return None


@st.composite
def examples(draw: st.DrawFn) -> Example:
    n = draw(st.integers(2, 4))
    d = draw(st.integers(2, 3))
    X = tuple(tuple(draw(st.integers(-2, 2)) for _ in range(d)) for _ in range(n))
    matrix = st.tuples(*[st.tuples(*[st.integers(-1, 1)] * d)] * d)
    W = tuple(draw(st.none() | matrix) for _ in range(3))  # None: the identity
    return Example(X=X, W=W)


def signature(doc: Doc, findings: list) -> dict[Key, tuple[str, str]]:
    """(quantity, row, column) -> (status, kind) of the weights and outputs, 1-based cells,
    each at the place the renderer printed it (a finding elsewhere is a failure)."""
    out: dict[Key, tuple[str, str]] = {}
    for f in findings:
        q = quantity(f.subject)
        if q is None or f.cell is None:
            continue
        key = (q, f.cell[0] - 1, f.cell[1] - 1)
        assert doc.where.get(key) == (f.line, f.column), (doc.notation, key, f)
        assert key not in out, (doc.notation, "two findings for", key)
        out[key] = (f.status, f.kind)
    return out


def everything_ok(ex: Example) -> dict[Key, tuple[str, str]]:
    cells = [("weights", i, j) for i in range(ex.n) for j in range(ex.n)]
    cells += [("output", i, c) for i in range(ex.n) for c in range(ex.d)]
    return dict.fromkeys(cells, ("ok", "ok"))


def _show(doc: Doc, findings: list) -> str:
    rows = [f"{f.line}:{f.column} {f.subject} {f.cell} {f.claimed} {f.status}/{f.kind}" for f in findings]
    return f"--- {doc.notation}\n{doc.text}\n" + "\n".join(rows)


@pytest.mark.parametrize("notation", NOTATIONS)
@settings(max_examples=25, deadline=None, report_multiple_bugs=False)
@given(ex=examples())
def test_every_notation_verifies_clean(notation: str, ex: Example) -> None:
    """Property 1, one notation at a time: exit code 0, nothing wrong, and every weight
    and output checked ok at the place it is printed."""
    doc = RENDERERS[notation](ex)
    if notation == "plain":
        assert "$" not in doc.text
    report = verify_text(doc.text, options=OPTIONS)
    wrong = [f for f in report.findings if f.status == "wrong"]
    assert report.exit_code == 0 and not wrong, _show(doc, wrong)
    assert signature(doc, report.findings) == everything_ok(ex), _show(doc, report.findings)


@settings(max_examples=25, deadline=None, report_multiple_bugs=False)
@given(ex=examples())
def test_weights_and_outputs_are_found_the_same_in_every_notation(ex: Example) -> None:
    """Property 1 across notations: the (quantity, cell) -> (status, kind) maps are equal."""
    docs = [RENDERERS[n](ex) for n in NOTATIONS]
    signatures = {
        doc.notation: signature(doc, verify_text(doc.text, options=OPTIONS).findings) for doc in docs
    }
    reference = signatures["latex"]
    differ = {
        notation: sorted(set(sig.items()) ^ set(reference.items()))
        for notation, sig in signatures.items()
        if sig != reference
    }
    assert not differ, differ


def _perturbed(claimed: str, shift: Decimal, is_weight: bool) -> str:
    """``claimed`` moved by ``shift`` (at least 0.05, far beyond 4-place rounding), keeping
    a weight inside [0, 1]."""
    old = Decimal(claimed)
    new = old + shift
    if is_weight and new > 1:
        new = old - shift
    return f"{new:.4f}"


@settings(max_examples=25, deadline=None, report_multiple_bugs=False)
@given(ex=examples(), data=st.data())
def test_a_perturbed_number_is_found_in_every_notation(ex: Example, data: st.DataObject) -> None:
    """Property 2: one weight or output, the same cell in each notation, moved by 0.05 to
    0.5; in every notation exactly that number is reported wrong at its line:col, with the
    same kind in all four."""
    q = data.draw(st.sampled_from(COMPARED), label="quantity")
    i = data.draw(st.integers(0, ex.n - 1), label="row")
    j = data.draw(st.integers(0, (ex.n if q == "weights" else ex.d) - 1), label="column")
    shift = Decimal(data.draw(st.integers(500, 5000), label="shift in units of 1e-4")) / 10000
    claimed = ex.decimals(q)[i][j]
    new = _perturbed(claimed, shift, q == "weights")
    kinds: dict[str, str] = {}
    problems: list[str] = []
    for notation in NOTATIONS:
        doc = RENDERERS[notation](ex)
        text = doc.perturbed((q, i, j), new)
        line, col = doc.where[(q, i, j)]
        at = [f for f in verify_text(text, options=OPTIONS).findings if (f.line, f.column) == (line, col)]
        if [(f.claimed, f.status) for f in at] != [(new, "wrong")]:
            problems.append(f"{notation}: {claimed} -> {new} at {line}:{col} gave {at}\n{text}")
        else:
            kinds[notation] = at[0].kind
    assert not problems, "\n".join(problems)
    assert len(set(kinds.values())) == 1, kinds
