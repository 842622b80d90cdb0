"""Independent true values for the English first-contact documents (round 2).

Only the standard library and mpmath (50 digits) are used.  Decimal text in the
documents is read as an exact decimal (Fraction).  Every listed number is found
programmatically in its document; its status is recomputed from the truth
(rounded half away from zero at the printed number of places) and compared with
the declared status.

    python _truth_en.py            write the *.expect.json files
    python _truth_en.py --check    recompute and compare with the files on disk
    python _truth_en.py --uncovered  list numeric literals not covered (review aid)
"""
import json
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_UP
from fractions import Fraction

import mpmath as mp

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------- helpers
def Q(s):
    """exact decimal text -> Fraction"""
    return Fraction(s)


def M(x):
    """Fraction / int / mpf -> mpf"""
    if isinstance(x, Fraction):
        return mp.mpf(x.numerator) / x.denominator
    return mp.mpf(x)


def softmax(row):
    ex = [mp.exp(M(v)) for v in row]
    s = mp.fsum(ex)
    return [v / s for v in ex]


def matmul(A, B):
    return [[sum((a * b for a, b in zip(r, c)), Fraction(0) if isinstance(r[0], Fraction) and isinstance(c[0], Fraction) else mp.mpf(0))
             for c in zip(*B)] for r in A]


def to_dec(x):
    x = M(x)
    if x == 0:
        return Decimal(0)
    return Decimal(mp.nstr(x, 48, strip_zeros=False, min_fixed=-10 ** 9, max_fixed=10 ** 9))


def places(lit):
    lit = lit.rstrip('%')
    if '.' in lit:
        return len(lit.split('.', 1)[1])
    return 0


def rounds_to(truth, lit):
    p = places(lit)
    q = Decimal(1).scaleb(-p)
    r = to_dec(truth).quantize(q, rounding=ROUND_HALF_UP)
    return r == Decimal(lit.rstrip('%'))


def truth_text(x):
    x = M(x)
    if x == 0:
        return "0"
    if mp.isint(x) and abs(x) < 10 ** 30:
        return str(int(x))
    s = mp.nstr(x, 20, min_fixed=-10 ** 9, max_fixed=10 ** 9)
    return s


NUM_RE = re.compile(r'-?\d+(?:\.\d*)?')


def find_literal(text, lit, start):
    """next occurrence of lit at or after start that is a whole numeric token"""
    i = start
    while True:
        j = text.find(lit, i)
        if j < 0:
            raise AssertionError("literal %r not found after offset %d" % (lit, start))
        before = text[j - 1] if j > 0 else ''
        after = text[j + len(lit)] if j + len(lit) < len(text) else ''
        after2 = text[j + len(lit) + 1] if j + len(lit) + 1 < len(text) else ''
        ok = True
        if before.isdigit() or before == '.':
            ok = False
        if not lit.startswith('-') and before == '-':
            ok = False
        if after.isdigit():
            ok = False
        if after == '.' and after2.isdigit():
            ok = False
        if ok:
            return j
        i = j + 1


def line_col(text, off):
    line = text.count('\n', 0, off) + 1
    col = off - (text.rfind('\n', 0, off) + 1) + 1
    return line, col


# entry: (anchor or None, literal, truth, status, what)  status: 'ok' | kind | (kind, carried_id)
# an entry may carry an id in its `what` via a leading '#id ' tag.
def resolve(docname, entries):
    path = os.path.join(HERE, docname)
    with open(path, encoding='utf-8') as fh:
        text = fh.read()
    lines = text.split('\n')
    cursor = 0
    out = []
    ids = {}
    pending = []
    for ent in entries:
        anchor, lit, truth, status, what = ent
        tag = None
        if what.startswith('#'):
            tag, what = what[1:].split(' ', 1)
        start = cursor
        if anchor is not None:
            skip = anchor.startswith('>')
            if skip:
                anchor = anchor[1:]
            a = text.find(anchor, cursor)
            if a < 0:
                raise AssertionError("%s: anchor %r not found after offset %d" % (docname, anchor, cursor))
            start = a + len(anchor) if skip else a
        off = find_literal(text, lit, start)
        cursor = off + len(lit)
        line, col = line_col(text, off)
        # literal really stands there
        assert lines[line - 1][col - 1:col - 1 + len(lit)] == lit
        good = rounds_to(truth, lit)
        if status == 'ok':
            assert good, "%s line %d col %d: %s declared ok but truth %s" % (docname, line, col, lit, truth_text(truth))
            rec = {"line": line, "column": col, "claimed": lit, "status": "ok",
                   "truth": truth_text(truth), "what": what}
        else:
            assert not good, "%s line %d col %d: %s declared wrong but truth %s" % (docname, line, col, lit, truth_text(truth))
            kind, cf = (status, None) if isinstance(status, str) else status
            rec = {"line": line, "column": col, "claimed": lit, "status": "wrong", "kind": kind,
                   "truth": truth_text(truth), "what": what}
            if cf is not None:
                pending.append((rec, cf))
        if tag:
            ids[tag] = line
        out.append(rec)
    for rec, cf in pending:
        rec["carried_from"] = ids[cf]
        # keep key order readable
        truth = rec.pop("truth"); what = rec.pop("what")
        rec["truth"] = truth; rec["what"] = what
    return text, out


def uncovered(text, recs):
    covered = {(r["line"], r["column"]) for r in recs}
    res = []
    for ln, s in enumerate(text.split('\n'), 1):
        for m_ in NUM_RE.finditer(s):
            c = m_.start() + 1
            if (ln, c) not in covered:
                res.append((ln, c, m_.group()))
    return res


# ============================================================ document 1
def doc_selfattn_latex():
    X = [[Q('1.8'), Q('0.1'), Q('0.5')], [Q('0.3'), Q('1.2'), Q('0.8')], [Q('1.8'), Q('-0.3'), Q('0.8')]]
    S = [[sum(a * b for a, b in zip(r, c)) for c in X] for r in X]
    r3 = mp.sqrt(3)
    Sc = [[M(v) / r3 for v in r] for r in S]
    W = [softmax(r) for r in Sc]
    C = [[mp.fsum(W[i][k] * M(X[k][j]) for k in range(3)) for j in range(3)] for i in range(3)]
    E = []
    a = E.append
    tok = ['I', 'am', 'studying']
    # scores
    a(("3.50 & 1.06", "3.50", S[0][0], 'ok', "#sc scores [I,I]"))
    a((None, "1.06", S[0][1], 'ok', "scores [I,am]"))
    a((None, "3.61", S[0][2], 'ok', "scores [I,studying]"))
    a(("1.06 & 1.70", "1.06", S[1][0], 'ok', "#sc2 scores [am,I]"))
    a((None, "1.70", S[1][1], 'slip', "scores [am,am] (0.09+1.44+0.64)"))
    a((None, "1.12", S[1][2], 'slip', "scores [am,studying] (0.54-0.36+0.64)"))
    a(("3.61 & 1.12", "3.61", S[2][0], 'ok', "scores [studying,I]"))
    a((None, "1.12", S[2][1], 'slip', "#sc3 scores [studying,am]"))
    a((None, "3.97", S[2][2], 'ok', "scores [studying,studying]"))
    a(("**Reading it:** the entry", "1.06", S[1][0], 'ok', "score am->I restated (text calls the cell [row 2, col 0])"))
    a((None, "3.97", S[2][2], 'ok', "largest score restated"))
    a(("sqrt(3) ≈", "1.732", r3, 'ok', "sqrt(3)"))
    # scaled scores
    a(("2.02 & 0.61", "2.02", Sc[0][0], 'ok', "scaled [I,I]"))
    a((None, "0.61", Sc[0][1], 'ok', "scaled [I,am]"))
    a((None, "2.08", Sc[0][2], 'ok', "scaled [I,studying]"))
    a(("0.61 & 0.98", "0.61", Sc[1][0], 'ok', "scaled [am,I]"))
    a((None, "0.98", Sc[1][1], ('carried', 'sc2'), "scaled [am,am] = 1.70/1.732"))
    a((None, "0.65", Sc[1][2], ('carried', 'sc2'), "scaled [am,studying] = 1.12/1.732"))
    a(("2.08 & 0.65", "2.08", Sc[2][0], 'ok', "scaled [studying,I]"))
    a((None, "0.65", Sc[2][1], ('carried', 'sc3'), "scaled [studying,am] = 1.12/1.732"))
    a((None, "2.30", Sc[2][2], 'rounding', "scaled [studying,studying] 3.97/1.732 = 2.292"))
    # weights
    wk = [['rounding', 'rounding', 'ok'], ['slip', 'slip', 'slip'], ['slip', 'slip', 'slip']]
    wl = [["0.44", "0.10", "0.46"], ["0.25", "0.40", "0.35"], ["0.45", "0.18", "0.37"]]

    def weights_block(label, first_anchor):
        for i in range(3):
            for j in range(3):
                anc = (wl[i][0] + " & " + wl[i][1]) if j == 0 else None
                if i == 0 and j == 0:
                    anc = first_anchor
                what = "%sweights row %s col %s" % (label, tok[i], tok[j])
                if j == 0 and label == '':
                    what = "#w%d " % i + what
                note = ''
                if wk[i][j] == 'slip':
                    note = ' (not softmax of the printed scaled row either)'
                a((anc, wl[i][j], W[i][j], wk[i][j], what + note))

    weights_block('', "\\text{Attention Weights} = ")
    # interpretation of studying row
    a(("take the \"studying\" row", "0.45", W[2][0], 'slip', "weights studying->I restated"))
    a((None, "0.18", W[2][1], 'slip', "weights studying->am restated"))
    a((None, "0.37", W[2][2], 'slip', "weights studying->studying restated"))
    a((None, "45", W[2][0] * 100, 'slip', "percent studying->I"))
    a((None, "18", W[2][1] * 100, 'slip', "percent studying->am"))
    a((None, "37", W[2][2] * 100, 'slip', "percent studying->studying"))
    # step 3: weights restated, then context
    weights_block('restated ', "`context_vectors = attention_weights @ Values`")
    a(("1.64 & 0.02", "1.64", C[0][0], 'ok', "context I dim0"))
    a((None, "0.02", C[0][1], 'rounding', "context I dim1 (true 0.0319)"))
    a((None, "0.67", C[0][2], 'ok', "context I dim2"))
    a(("1.20 & 0.39", "1.20", C[1][0], ('carried', 'w1'), "context am dim0 = 0.25*1.8+0.40*0.3+0.35*1.8 from printed weights"))
    a((None, "0.39", C[1][1], 'slip', "context am dim1 (printed weights give 0.40)"))
    a((None, "0.83", C[1][2], 'slip', "context am dim2 (printed weights give 0.725)"))
    a(("1.53 & -0.02", "1.53", C[2][0], ('carried', 'w2'), "context studying dim0 = 0.45*1.8+0.18*0.3+0.37*1.8 from printed weights"))
    a((None, "-0.02", C[2][1], 'rounding', "context studying dim1 (true -0.0122; printed weights give 0.15)"))
    a((None, "0.60", C[2][2], 'slip', "context studying dim2 (printed weights give 0.665)"))
    a(("the result is `[", "1.53", C[2][0], ('carried', 'w2'), "context studying dim0 restated"))
    a((None, "-0.02", C[2][1], 'rounding', "context studying dim1 restated"))
    a((None, "0.60", C[2][2], 'slip', "context studying dim2 restated"))
    meta = {
        "doc": "en_simplified_selfattn_latex_notes.md",
        "source": "github prakash-p-3121/introduction-to-building-llms:03_Simplified_Self_Attention/README.md",
        "source_kind": "GitHub notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "Markdown blog-style notes with LaTeX bmatrix blocks ($$...$$), backticked inline values, percentages",
        "conventions": "Q=K=V=X (no projections), rows are tokens; scores = X X^T; scaled by sqrt(d_k) with d_k=3; row-wise softmax; context = weights @ X. Printed to 2 decimals (sqrt(3) to 3).",
    }
    return meta, E


# ============================================================ document 2
def doc_temperature():
    z = [Q('3.0'), Q('2.5'), Q('1.5')]

    def sm_T(T):
        return softmax([v / T for v in z])

    P1, P05, P2 = sm_T(Q(1)), sm_T(Q('0.5')), sm_T(Q(2))
    e = [mp.exp(M(v)) for v in z]
    s = mp.fsum(e)
    E = []
    a = E.append
    names = ['Paris', 'London', 'Berlin']
    rows = [("0.80", "0.95", "0.65"), ("0.15", "0.04", "0.25"), ("0.05", "0.01", "0.10")]
    for i in range(3):
        a(("| \"%s\"" % names[i], rows[i][0], P1[i], 'slip', "table softmax T=1, %s" % names[i]))
        a((None, rows[i][1], P05[i], 'slip', "table softmax T=0.5, %s" % names[i]))
        a((None, rows[i][2], P2[i], 'slip', "table softmax T=2, %s" % names[i]))
    lits = ["20.0855", "12.1825", "4.4817"]
    for i in range(3):
        a(("e^{%s}" % ["3.0", "2.5", "1.5"][i], lits[i], e[i], 'ok', "exp of logit %s" % names[i]))
    a(("\\text{Sum} = ", "20.0855", e[0], 'ok', "sum line operand e^3"))
    a((None, "12.1825", e[1], 'ok', "sum line operand e^2.5"))
    a((None, "4.4817", e[2], 'ok', "sum line operand e^1.5"))
    a((None, "36.7497", s, 'ok', "sum of exponentials"))
    plits = ["0.5464", "0.3315", "0.1220"]
    for i in range(3):
        a(("P(\\text{%s})" % names[i], lits[i], e[i], 'ok', "numerator restated (%s)" % names[i]))
        a((None, "36.7497", s, 'ok', "denominator restated"))
        a((None, plits[i], P1[i], 'ok' if i else 'rounding',
           "P(%s) at T=1" % names[i] + (" (20.0855/36.7497 = 0.546549)" if i == 0 else "")))
    for i in range(3):
        a(("| %s | **" % names[i].ljust(6), plits[i], P1[i], 'ok' if i else 'rounding',
           "result table P(%s) at T=1" % names[i]))
    meta = {
        "doc": "en_temperature_chat_answer.md",
        "source": "github cpsource/coursera:course11/README-temperature.md + course11/README-temperature-example.md (one chat answer and its follow-up)",
        "source_kind": "Q&A",
        "language": "en",
        "errors_as_published": True,
        "notation": "Q&A chat answer in Markdown: pipe tables, LaTeX display math with aligned/frac, bold values in a table",
        "conventions": "softmax(z/T) over logits [3.0, 2.5, 1.5]; T in {1, 0.5, 2}; probabilities to 2 (first table) or 4 decimals, exponentials to 4 decimals.",
    }
    return meta, E


# ============================================================ document 3
def doc_ffn_worksheet():
    I2 = [[Q(1), Q(0)], [Q(0), Q(1)]]
    Wq = [[Q('0.1'), Q('0.0')], [Q('0.0'), Q('0.1')]]
    W1 = [[Q('0.2'), Q('0.1')], [Q('0.1'), Q('0.2')]]
    W2 = W1
    Qm = matmul(I2, Wq)
    Km = matmul(I2, Wq)
    Vm = matmul(I2, Wq)
    S = [[sum(a * b for a, b in zip(Qm[i], Km[j])) for j in range(2)] for i in range(2)]
    r2 = mp.sqrt(2)
    Sc = [[M(v) / r2 for v in r] for r in S]
    P = [softmax(r) for r in Sc]
    A = [[mp.fsum(P[i][k] * M(Vm[k][j]) for k in range(2)) for j in range(2)] for i in range(2)]
    H = [[mp.fsum(A[i][k] * M(W1[k][j]) for k in range(2)) for j in range(2)] for i in range(2)]
    H = [[max(v, mp.mpf(0)) for v in r] for r in H]  # ReLU (all positive)
    O = [[mp.fsum(H[i][k] * M(W2[k][j]) for k in range(2)) for j in range(2)] for i in range(2)]
    Fo = [[A[i][j] + O[i][j] for j in range(2)] for i in range(2)]
    E = []
    a = E.append
    a(("score[1][0] = ", "0.0", S[1][0], 'ok', "score position1 -> position0"))
    a(("score[1][1] = ", "0.01", S[1][1], 'ok', "score position1 -> position1"))
    a(("Scaled: [", "0.0", Sc[1][0], 'ok', "scaled score [1][0]"))
    a((None, "0.00707", Sc[1][1], 'ok', "scaled score [1][1] = 0.01/sqrt(2)"))
    a(("p₀ ≈", "0.498", P[1][0], 'ok', "attention weight p0 (position 1)"))
    a(("p₁ ≈", "0.502", P[1][1], 'ok', "attention weight p1 (position 1)"))
    a(("attn_output = [", "0.0498", A[1][0], 'ok', "#a1 attention output position 1 dim0"))
    a((None, "0.0502", A[1][1], 'ok', "attention output position 1 dim1"))

    def attn_matrix(anchor, label, tag=None):
        a((anchor, "0.0498", A[0][0], 'slip', ("#%s " % tag if tag else "") + label + " row0 dim0: row 0 copied from row 1 (position 0 attends 0.502/0.498)"))
        a((None, "0.0502", A[0][1], 'slip', label + " row0 dim1"))
        a((None, "0.0498", A[1][0], 'ok', label + " row1 dim0"))
        a((None, "0.0502", A[1][1], 'ok', label + " row1 dim1"))

    attn_matrix("**Whole attention output matrix:**", "attention output matrix", "am")
    attn_matrix("**FFN_hidden = attn_output × W1**", "attention output restated (FFN step 1)")

    # FFN_hidden lines
    a(("FFN_hidden[0][0] = ", "0.0498", A[0][0], 'slip', "operand attn[0][0]"))
    a((None, "0.0502", A[0][1], 'slip', "operand attn[0][1]"))
    a((None, "0.00996", A[0][0] * M(Q('0.2')), ('carried', 'am'), "product attn[0][0]*0.2"))
    a((None, "0.00502", A[0][1] * M(Q('0.1')), ('carried', 'am'), "product attn[0][1]*0.1"))
    a((None, "0.01498", H[0][0], ('carried', 'am'), "#h0 FFN_hidden[0][0]"))
    a(("FFN_hidden[0][1] = ", "0.0498", A[0][0], 'slip', "operand attn[0][0]"))
    a((None, "0.0502", A[0][1], 'slip', "operand attn[0][1]"))
    a((None, "0.00498", A[0][0] * M(Q('0.1')), ('carried', 'am'), "product attn[0][0]*0.1"))
    a((None, "0.01004", A[0][1] * M(Q('0.2')), ('carried', 'am'), "product attn[0][1]*0.2"))
    a((None, "0.01502", H[0][1], ('carried', 'am'), "FFN_hidden[0][1]"))
    a(("FFN_hidden[1][0] = ", "0.0498", A[1][0], 'ok', "operand attn[1][0]"))
    a((None, "0.0502", A[1][1], 'ok', "operand attn[1][1]"))
    a((None, "0.01498", H[1][0], 'ok', "FFN_hidden[1][0]"))
    a(("FFN_hidden[1][1] = ", "0.0498", A[1][0], 'ok', "operand attn[1][0]"))
    a((None, "0.0502", A[1][1], 'ok', "operand attn[1][1]"))
    a((None, "0.01502", H[1][1], 'ok', "FFN_hidden[1][1]"))

    def hidden_matrix(anchor, label, tag=None):
        a((anchor, "0.01498", H[0][0], ('carried', 'am'), ("#%s " % tag if tag else "") + label + " [0][0]"))
        a((None, "0.01502", H[0][1], ('carried', 'am'), label + " [0][1]"))
        a((None, "0.01498", H[1][0], 'ok', label + " [1][0]"))
        a((None, "0.01502", H[1][1], 'ok', label + " [1][1]"))

    hidden_matrix("FFN_hidden = [", "FFN_hidden matrix", "hm")
    hidden_matrix("FFN_activated = [", "FFN_activated (ReLU output) restated")

    a(("FFN_output[0][0] = ", "0.01498", H[0][0], ('carried', 'am'), "operand h[0][0]"))
    a((None, "0.01502", H[0][1], ('carried', 'am'), "operand h[0][1]"))
    a((None, "0.002996", H[0][0] * M(Q('0.2')), ('carried', 'hm'), "product h[0][0]*0.2"))
    a((None, "0.001502", H[0][1] * M(Q('0.1')), ('carried', 'hm'), "product h[0][1]*0.1"))
    a((None, "0.004498", O[0][0], ('carried', 'hm'), "FFN_output[0][0]"))
    a(("FFN_output[0][1] = ", "0.01498", H[0][0], ('carried', 'am'), "operand h[0][0]"))
    a((None, "0.01502", H[0][1], ('carried', 'am'), "operand h[0][1]"))
    a((None, "0.001498", H[0][0] * M(Q('0.1')), ('carried', 'hm'), "product h[0][0]*0.1"))
    a((None, "0.003004", H[0][1] * M(Q('0.2')), ('carried', 'hm'), "product h[0][1]*0.2"))
    a((None, "0.004502", O[0][1], ('carried', 'hm'), "FFN_output[0][1]"))
    a(("FFN_output[1][0] = ", "0.01498", H[1][0], 'ok', "operand h[1][0]"))
    a((None, "0.01502", H[1][1], 'ok', "operand h[1][1]"))
    a((None, "0.004498", O[1][0], 'ok', "FFN_output[1][0]"))
    a(("FFN_output[1][1] = ", "0.01498", H[1][0], 'ok', "operand h[1][0]"))
    a((None, "0.01502", H[1][1], 'ok', "operand h[1][1]"))
    a((None, "0.004502", O[1][1], 'ok', "FFN_output[1][1]"))

    def out_matrix(anchor, label, tag=None):
        a((anchor, "0.004498", O[0][0], ('carried', 'hm'), ("#%s " % tag if tag else "") + label + " [0][0]"))
        a((None, "0.004502", O[0][1], ('carried', 'hm'), label + " [0][1]"))
        a((None, "0.004498", O[1][0], 'ok', label + " [1][0]"))
        a((None, "0.004502", O[1][1], 'ok', label + " [1][1]"))

    out_matrix("FFN_output = [0.004498", "FFN_output matrix", "om")
    attn_matrix("**Output = attn_output + FFN_output**", "attention output restated (residual)")
    out_matrix("FFN_output = [0.004498", "FFN_output restated (residual)")

    a(("Final_output[0][0] = ", "0.0498", A[0][0], 'slip', "operand attn[0][0]"))
    a((None, "0.004498", O[0][0], ('carried', 'hm'), "operand FFN_output[0][0]"))
    a((None, "0.054298", Fo[0][0], ('carried', 'am'), "Final_output[0][0]"))
    a(("Final_output[0][1] = ", "0.0502", A[0][1], 'slip', "operand attn[0][1]"))
    a((None, "0.004502", O[0][1], ('carried', 'hm'), "operand FFN_output[0][1]"))
    a((None, "0.054702", Fo[0][1], ('carried', 'am'), "Final_output[0][1]"))
    a(("Final_output[1][0] = ", "0.0498", A[1][0], 'ok', "operand attn[1][0]"))
    a((None, "0.004498", O[1][0], 'ok', "operand FFN_output[1][0]"))
    a((None, "0.054298", Fo[1][0], ('rounding-carried', 'a1'), "Final_output[1][0]: 0.0498+0.004498 uses attn rounded to 4 places (true 0.054321)"))
    a(("Final_output[1][1] = ", "0.0502", A[1][1], 'ok', "operand attn[1][1]"))
    a((None, "0.004502", O[1][1], 'ok', "operand FFN_output[1][1]"))
    a((None, "0.054702", Fo[1][1], ('rounding-carried', 'a1'), "Final_output[1][1] (true 0.054679)"))
    a(("Final_output = [", "0.054298", Fo[0][0], ('carried', 'am'), "final matrix [0][0]"))
    a((None, "0.054702", Fo[0][1], ('carried', 'am'), "final matrix [0][1]"))
    a((None, "0.054298", Fo[1][0], ('rounding-carried', 'a1'), "final matrix [1][0]"))
    a((None, "0.054702", Fo[1][1], ('rounding-carried', 'a1'), "final matrix [1][1]"))
    a(("### Attention only", "0.0498", A[1][0], 'ok', "attention-only output (position 1) dim0"))
    a((None, "0.0502", A[1][1], 'ok', "attention-only output (position 1) dim1"))
    a(("### Attention + feed-forward", "0.054298", Fo[1][0], ('rounding-carried', 'a1'), "output with FFN+residual (position 1) dim0"))
    a((None, "0.054702", Fo[1][1], ('rounding-carried', 'a1'), "output with FFN+residual (position 1) dim1"))
    a(("went up by about", "0.0045", O[1][0], 'ok', "increase per dimension = FFN_output (0.004498 / 0.004502)"))
    meta = {
        "doc": "en_ffn_residual_worksheet.md",
        "source": "github rpriyadarshi/toyai:worksheets/example5_worksheet.md",
        "source_kind": "course notes",
        "language": "en",
        "errors_as_published": True,
        "notation": "plain-text worksheet: bullet lists and fenced code blocks with row-by-row matrices, x and + written out",
        "conventions": "X = I (tokens A=[1,0], B=[0,1]); Q=K=V=X*0.1I; scores/sqrt(2); row softmax; FFN = ReLU(attn W1) W2 with no biases; residual attn + FFN. Position 1 = token B (0-based rows). The source's own 'simplified, both rows similar' row 0 is taken literally as the attention output for position 0.",
    }
    return meta, E


# ============================================================ document 4
def doc_multihead():
    X = [[Q('1.0'), Q('0.0')], [Q('0.0'), Q('1.0')]]
    Wid = [[Q(1), Q(0)], [Q(0), Q(1)]]
    Wsw = [[Q(0), Q(1)], [Q(1), Q(0)]]
    Q1 = matmul(X, Wid)
    Q2 = matmul(X, Wsw)

    def head(Qm):
        S = [[sum(a * b for a, b in zip(Qm[i], Qm[j])) for j in range(2)] for i in range(2)]
        P = [softmax(r) for r in S]
        O = [[mp.fsum(P[i][k] * M(Qm[k][j]) for k in range(2)) for j in range(2)] for i in range(2)]
        return S, P, O

    S1, P1, O1 = head(Q1)
    S2, P2, O2 = head(Q2)
    Comb = [O1[i] + O2[i] for i in range(2)]
    WO = [[Fraction(1, 2), Q(0)], [Q(0), Fraction(1, 2)], [Fraction(1, 2), Q(0)], [Q(0), Fraction(1, 2)]]  # 4x2 reading of the 1/2-averaging matrix
    Fin = [[mp.fsum(Comb[i][k] * M(WO[k][j]) for k in range(4)) for j in range(2)] for i in range(2)]
    hi, lo = P1[0][0], P1[0][1]
    E = []
    a = E.append
    a((">\\[1, 0] · \\[1, 0] = ", "1", S1[0][0], 'ok', "head1 score I.I"))
    a((">\\[1, 0] · \\[0, 1] = ", "0", S1[0][1], 'ok', "head1 score I.love"))
    a((">\\text{softmax}( [1, 0] ) ≈", "0.73", P1[0][0], 'ok', "head1 weight I->I"))
    a((None, "0.27", P1[0][1], 'ok', "head1 weight I->love"))
    a((">\\text{Attention output}_\\text{head1} = ", "0.73", P1[0][0], 'ok', "weight restated"))
    a(("+ 0.27", "0.27", P1[0][1], 'ok', "weight restated"))
    a(("= [0.73", "0.73", O1[0][0], 'ok', "head1 output I dim0"))
    a((None, "0.27", O1[0][1], 'ok', "head1 output I dim1"))
    a((">Dot products: \\[0, 1] · \\[1, 0] = ", "0", S1[1][0], 'ok', "head1 score love.I"))
    a((">\\[0, 1] · \\[0, 1] = ", "1", S1[1][1], 'ok', "head1 score love.love"))
    a((">softmax(\\[0, 1]) → \\[", "0.27", P1[1][0], 'ok', "head1 weight love->I"))
    a((None, "0.73", P1[1][1], 'ok', "head1 weight love->love"))
    a((">Output: \\[", "0.27", O1[1][0], 'ok', "head1 output love dim0"))
    a((None, "0.73", O1[1][1], 'ok', "head1 output love dim1"))
    a(("\\text{Head1 Output}", "0.73", O1[0][0], 'ok', "head1 matrix [0][0]"))
    a((None, "0.27", O1[0][1], 'ok', "head1 matrix [0][1]"))
    a((None, "0.27", O1[1][0], 'ok', "head1 matrix [1][0]"))
    a((None, "0.73", O1[1][1], 'ok', "head1 matrix [1][1]"))
    a((">\\[\\[0,1],\\[1,0]] = \\[", "0", Q2[0][0], 'ok', "head2 projection of I, dim0"))
    a((None, "1", Q2[0][1], 'ok', "head2 projection of I, dim1"))
    a((">\\[\\[0,1],\\[1,0]] = \\[", "1", Q2[1][0], 'ok', "head2 projection of love, dim0"))
    a((None, "0", Q2[1][1], 'ok', "head2 projection of love, dim1"))
    a((">\\[0, 1] · \\[0, 1] = ", "1", S2[0][0], 'ok', "head2 score I.I"))
    a((">\\[0, 1] · \\[1, 0] = ", "0", S2[0][1], 'ok', "head2 score I.love"))
    a((">softmax(\\[1, 0]) = \\[", "0.73", P2[0][0], 'ok', "head2 weight I->I"))
    a((None, "0.27", P2[0][1], 'ok', "head2 weight I->love"))
    a(("  0.73 \\* ", "0.73", P2[0][0], 'ok', "weight restated"))
    a(("+ 0.27 \\*", "0.27", P2[0][1], 'ok', "weight restated"))
    a(("= \\[0.27", "0.27", O2[0][0], 'ok', "head2 output I dim0"))
    a((None, "0.73", O2[0][1], 'ok', "head2 output I dim1"))
    a(("\\text{Head2 Output}", "0.27", O2[0][0], 'ok', "head2 matrix [0][0]"))
    a((None, "0.73", O2[0][1], 'ok', "head2 matrix [0][1]"))
    a((None, "0.73", O2[1][0], 'ok', "head2 matrix [1][0]"))
    a((None, "0.27", O2[1][1], 'ok', "head2 matrix [1][1]"))
    a(("0.73 & 0.27 & 0.27 & 0.73", "0.73", Comb[0][0], 'ok', "combined [0][0]"))
    a((None, "0.27", Comb[0][1], 'ok', "combined [0][1]"))
    a((None, "0.27", Comb[0][2], 'ok', "combined [0][2]"))
    a((None, "0.73", Comb[0][3], 'ok', "combined [0][3]"))
    a(("0.27 & 0.73 & 0.73 & 0.27", "0.27", Comb[1][0], 'ok', "combined [1][0]"))
    a((None, "0.73", Comb[1][1], 'ok', "combined [1][1]"))
    a((None, "0.73", Comb[1][2], 'ok', "combined [1][2]"))
    a((None, "0.27", Comb[1][3], 'ok', "combined [1][3]"))
    for r, pat in enumerate(["(0.73+0.27)/2 & (0.27+0.73)/2", "(0.27+0.73)/2 & (0.73+0.27)/2"]):
        first = [hi, lo, lo, hi] if r == 0 else [lo, hi, hi, lo]
        lits = ["0.73", "0.27", "0.27", "0.73"] if r == 0 else ["0.27", "0.73", "0.73", "0.27"]
        for k in range(4):
            a((pat if k == 0 else None, lits[k], first[k], 'ok', "averaging operand row %d" % r))
    a(("0.50 & 0.50", "0.50", Fin[0][0], 'ok', "final [0][0]"))
    a((None, "0.50", Fin[0][1], 'ok', "final [0][1]"))
    a(("0.50 & 0.50", "0.50", Fin[1][0], 'ok', "final [1][0]"))
    a((None, "0.50", Fin[1][1], 'ok', "final [1][1]"))
    a((">final embedding \\[", "0.5", Fin[0][0], 'ok', "final embedding dim0"))
    a((None, "0.5", Fin[0][1], 'ok', "final embedding dim1"))
    meta = {
        "doc": "en_multihead_two_heads.md",
        "source": "github yangshiteng/Data-Science-Learning-Path:deep_learning/transformer/multi_head_calculation.md",
        "source_kind": "GitHub notes",
        "language": "en",
        "errors_as_published": False,
        "notation": "Markdown with escaped brackets \\[1, 0], LaTeX bmatrix blocks, inline @ and · products",
        "conventions": "unscaled dot-product attention (softmax of raw dot products, no 1/sqrt(d_k)); Q=K=V per head; concat then W^O as a 1/2 averaging of matching head positions (printed as a 2x4 list, used as its 4x2 transpose). Restated integer query/key/value vectors (copies of X or of the head-2 projection) are treated as given and not listed.",
    }
    return meta, E


# ============================================================ document 5
def doc_pytorch():
    I = [[Q(x) for x in r.split()] for r in
         ['0.43 0.15 0.89', '0.55 0.87 0.66', '0.57 0.85 0.64', '0.22 0.58 0.33', '0.77 0.25 0.10', '0.05 0.80 0.55']]
    S = [[sum(a * b for a, b in zip(r, c)) for c in I] for r in I]
    W = [softmax(r) for r in S]
    C = [[mp.fsum(W[i][k] * M(I[k][j]) for k in range(6)) for j in range(3)] for i in range(6)]
    s2 = sum(S[1])
    naive = [v / s2 for v in S[1]]
    E = []
    a = E.append
    sl = ["0.9544", "1.4950", "1.4754", "0.8434", "0.7070", "1.0865"]
    for j in range(6):
        a(("tensor([0.9544, 1.4950" if j == 0 else None, sl[j], S[1][j], 'ok', "score omega_2%d" % (j + 1)))
    a(("tensor(0.9544)", "0.9544", S[0][1], 'ok', "manual dot product x1.q2"))
    a(("tensor(0.9544)", "0.9544", S[0][1], 'ok', "torch.dot x1.q2"))
    nl = ["0.1455", "0.2278", "0.2249", "0.1285", "0.1077", "0.1656"]
    for j in range(6):
        a(("Attention weights: tensor([0.1455" if j == 0 else None, nl[j], naive[j], 'ok', "sum-normalized weight %d" % (j + 1)))
    a(("Sum: tensor(1.0000)", "1.0000", sum(naive), 'ok', "sum of sum-normalized weights"))
    wl = ["0.1385", "0.2379", "0.2333", "0.1240", "0.1082", "0.1581"]
    for rep, lab in enumerate(["softmax_naive", "torch.softmax"]):
        for j in range(6):
            a(("Attention weights: tensor([0.1385" if j == 0 else None, wl[j], W[1][j], 'ok', "%s weight %d" % (lab, j + 1)))
        a(("Sum: tensor(1.)", "1.", mp.fsum(W[1]), 'ok', "%s sum" % lab))
    cl = [["0.4421", "0.5931", "0.5790"], ["0.4419", "0.6515", "0.5683"], ["0.4431", "0.6496", "0.5671"],
          ["0.4304", "0.6298", "0.5510"], ["0.4671", "0.5910", "0.5266"], ["0.4177", "0.6503", "0.5645"]]
    for j in range(3):
        a(("tensor([0.4419" if j == 0 else None, cl[1][j], C[1][j], 'ok', "context z2 dim %d" % j))
    for i in range(6):
        for j in range(3):
            a(("[" + cl[i][0] + ", " + cl[i][1] if j == 0 else None, cl[i][j], C[i][j], 'ok', "all context vectors row %d dim %d" % (i + 1, j)))
    for j in range(3):
        a(("z^{(2)} = [" if j == 0 else None, cl[1][j], C[1][j], 'ok', "z2 restated in text dim %d" % j))
    for j in range(3):
        a(("Previous 2nd context vector: tensor(" if j == 0 else None, cl[1][j], C[1][j], 'ok', "z2 printout dim %d" % j))
    meta = {
        "doc": "en_simple_attention_pytorch_printout.md",
        "source": "github rasbt/LLMs-from-scratch:ch03/01_main-chapter-code/ch03.ipynb (section 3.3.1 and the all-context-vectors cells of 3.3.2)",
        "source_kind": "notebook",
        "language": "en",
        "errors_as_published": False,
        "notation": "PyTorch REPL transcript: >>> code lines followed by tensor([...]) printouts at 4 decimals, 'tensor(1.)', LaTeX inline math in prose",
        "conventions": "Q=K=V=inputs (no weights, no scaling); scores = dot products; normalization by sum, then softmax over each row (dim=-1 / dim=0 for the single query); context = weights @ inputs. float32 printouts at 4 decimals.",
    }
    return meta, E


DOCS = [doc_selfattn_latex, doc_temperature, doc_ffn_worksheet, doc_multihead, doc_pytorch]


def build():
    mp.mp.dps = 50
    results = {}
    for fn in DOCS:
        meta, entries = fn()
        text, recs = resolve(meta["doc"], entries)
        # no number listed twice
        keys = [(r["line"], r["column"]) for r in recs]
        assert len(keys) == len(set(keys)), meta["doc"] + ": duplicate position"
        data = dict(meta)
        data["numbers"] = recs
        name = os.path.splitext(meta["doc"])[0] + ".expect.json"
        results[name] = (data, text)
    return results


def dump(data):
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def main(argv):
    results = build()
    if "--uncovered" in argv:
        for name, (data, text) in results.items():
            print("==", data["doc"])
            for ln, c, lit in uncovered(text, data["numbers"]):
                print("  %4d:%-3d %s" % (ln, c, lit))
        return 0
    if "--check" in argv:
        bad = 0
        for name, (data, _) in results.items():
            p = os.path.join(HERE, name)
            if not os.path.exists(p):
                print("missing", name)
                bad += 1
                continue
            with open(p, encoding="utf-8") as fh:
                disk = json.load(fh)
            if disk != json.loads(dump(data)):
                print("differs", name)
                bad += 1
        if bad:
            return 1
        print("ok: %d documents, %d numbers" % (len(results), sum(len(d["numbers"]) for d, _ in results.values())))
        return 0
    for name, (data, _) in results.items():
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as fh:
            fh.write(dump(data))
        n_ok = sum(1 for r in data["numbers"] if r["status"] == "ok")
        print("%-45s ok=%d wrong=%d" % (name, n_ok, len(data["numbers"]) - n_ok))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
