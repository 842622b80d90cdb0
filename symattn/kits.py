"""Matrices of numbers under a kit: the one implementation of each operation symattn's
verifier computes with (declared, with their conventions, in :mod:`symattn.registry`).

A *kit* says what a number is.  :class:`Floats` screens candidates in floats; :class:`Exact`
keeps exact rationals (``Fraction``) where the arithmetic keeps them and python-flint arb
balls where a root or an exponential enters.  Each operation is written once, over a kit, so
a screen in floats and a judgement in balls compute the same thing.  A masked score (``-inf``)
is :data:`MASKED`: its exponential is 0.

Why not SymPy or numpy: the verifier judges thousands of small candidates per document;
SymPy per candidate is orders of magnitude too slow, and numpy has no exact or ball dtype.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

__all__ = [
    "EXACT",
    "MASKED",
    "Exact",
    "Floats",
    "affine",
    "alibi",
    "ball",
    "centred",
    "divide",
    "exps",
    "gelu",
    "layernorm",
    "linear",
    "matmul",
    "matmul_t",
    "means",
    "minus_max",
    "normalised",
    "plus",
    "relu",
    "rmsnorm",
    "scale",
    "silu",
    "sinusoidal",
    "softmax",
    "standardised",
    "stds",
    "total",
    "transpose",
    "variances",
]

Matrix = list[list[Any]]


# --- numbers: one declaration, two kinds (floats to screen, exact and balls to judge) -------------


class Floats:
    """Floats, to screen candidates: plain operators, constants as floats."""

    exact = False
    exp = staticmethod(math.exp)
    sqrt = staticmethod(math.sqrt)
    erf = staticmethod(math.erf)
    tanh = staticmethod(math.tanh)
    sin = staticmethod(math.sin)
    cos = staticmethod(math.cos)
    pi = math.pi

    @staticmethod
    def power(a: Fraction, e: Fraction) -> float:
        return float(a) ** float(e)

    @staticmethod
    def c(x: Fraction) -> float:
        return x.numerator / x.denominator

    @staticmethod
    def add(a: float, b: float) -> float:
        return a + b

    @staticmethod
    def mul(a: float, b: float) -> float:
        return a * b

    @staticmethod
    def div(a: float, b: float) -> float:
        return a / b

    @staticmethod
    def positive(x: float) -> bool:
        return x > 0


class Masked:
    """A masked score (``-inf``): its exponential is 0; a sum or a positive scale keeps it."""

    def __repr__(self) -> str:
        return "-inf"


MASKED = Masked()


def ball(x: Any) -> Any:
    from flint import arb, fmpq

    return arb(fmpq(x.numerator, x.denominator)) if isinstance(x, Fraction) else x


def mix(a: Any, b: Any) -> tuple[Any, Any]:
    """Fractions with balls: both as balls (a ball never meets a Fraction in an operation)."""
    if isinstance(a, Fraction) != isinstance(b, Fraction):
        return ball(a), ball(b)
    return a, b


class Exact:
    """Exact rationals where the arithmetic keeps them, arb balls where a root or an
    exponential enters."""

    exact = True

    @staticmethod
    def c(x: Fraction) -> Fraction:
        return x

    @staticmethod
    def add(a: Any, b: Any) -> Any:
        if a is MASKED or b is MASKED:
            return MASKED
        a, b = mix(a, b)
        return a + b

    @staticmethod
    def mul(a: Any, b: Any) -> Any:
        if a is MASKED or b is MASKED:
            other = b if a is MASKED else a
            if other is MASKED or not Exact.positive(other):
                raise ValueError("a masked score times a number that is not positive")
            return MASKED
        a, b = mix(a, b)
        return a * b

    @staticmethod
    def div(a: Any, b: Any) -> Any:
        if b is MASKED or (a is MASKED and not Exact.positive(b)):
            raise ValueError("a division with a masked score")
        if a is MASKED:
            return MASKED
        a, b = mix(a, b)
        return a / b

    @staticmethod
    def positive(x: Any) -> bool:
        return x is not MASKED and (x.mid() if hasattr(x, "mid") else x) > 0

    @staticmethod
    def exp(x: Any) -> Any:
        if x is MASKED:
            return Fraction(0)
        return Fraction(1) if isinstance(x, Fraction) and x == 0 else ball(x).exp()

    @staticmethod
    def sqrt(x: Any) -> Any:
        if x is MASKED:
            raise ValueError("the root of a masked score")
        if isinstance(x, Fraction) and x >= 0:
            n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
            if n * n == x.numerator and d * d == x.denominator:
                return Fraction(n, d)
        return ball(x).sqrt()

    @staticmethod
    def erf(x: Any) -> Any:
        if x is MASKED:
            raise ValueError("erf of a masked score")
        return ball(x).erf()

    @staticmethod
    def tanh(x: Any) -> Any:
        if x is MASKED:
            raise ValueError("tanh of a masked score")
        return ball(x).tanh()

    @staticmethod
    def sin(x: Any) -> Any:
        return Fraction(0) if isinstance(x, Fraction) and x == 0 else ball(x).sin()

    @staticmethod
    def cos(x: Any) -> Any:
        return Fraction(1) if isinstance(x, Fraction) and x == 0 else ball(x).cos()

    @staticmethod
    def power(a: Fraction, e: Fraction) -> Any:
        """a^e for a > 0: exact where e is an integer, a ball otherwise."""
        if e.denominator == 1:
            return a ** int(e)
        return ball(a) ** ball(e)

    @property
    def pi(self) -> Any:
        from flint import arb

        return arb.pi()


def total(k: Any, values: list[Any]) -> Any:
    out = values[0]
    for v in values[1:]:
        out = k.add(out, v)
    return out


# --- the operations, each written once ------------------------------------------------------------


def matmul(k: Any, a: Matrix, b: Matrix) -> Matrix:
    return [
        [total(k, [k.mul(a[i][t], b[t][j]) for t in range(len(b))]) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def matmul_t(k: Any, a: Matrix, b: Matrix) -> Matrix:
    return [[total(k, [k.mul(x, y) for x, y in zip(ra, rb, strict=True)]) for rb in b] for ra in a]


def plus(k: Any, a: Matrix, b: Matrix) -> Matrix:
    rows = b if len(b) == len(a) else b * len(a)  # a bias row is added to every row
    return [[k.add(x, y) for x, y in zip(ra, rb, strict=True)] for ra, rb in zip(a, rows, strict=True)]


def linear(k: Any, a: Matrix, w: Matrix, bias: Matrix) -> Matrix:
    return plus(k, matmul(k, a, w), bias)


def affine(k: Any, a: Matrix, gain: Matrix, bias: Matrix) -> Matrix:
    """``γ ⊙ x + β`` row by row: the affine step of a norm."""
    return [[k.add(k.mul(x, g), b) for x, g, b in zip(row, gain[0], bias[0], strict=True)] for row in a]


def mean(k: Any, row: list[Any]) -> Any:
    return k.div(total(k, row), k.c(Fraction(len(row))))


def variance(k: Any, row: list[Any], sample: bool) -> Any:
    minus_mu = k.mul(mean(k, row), k.c(Fraction(-1)))
    squares = [k.mul(k.add(x, minus_mu), k.add(x, minus_mu)) for x in row]
    return k.div(total(k, squares), k.c(Fraction(len(row) - 1 if sample else len(row))))


def means(k: Any, a: Matrix) -> Matrix:
    return [[mean(k, row)] for row in a]


def variances(k: Any, a: Matrix, *, sample: bool) -> Matrix:
    return [[variance(k, row, sample)] for row in a]


def stds(k: Any, a: Matrix, *, sample: bool) -> Matrix:
    return [[k.sqrt(variance(k, row, sample))] for row in a]


def standardised(
    k: Any, a: Matrix, mu: Matrix, sigma: Matrix, *, eps: Fraction = Fraction(0), sample: bool = False
) -> Matrix:
    """``(x − μ)/√(σ² + ε)`` of each row with the row's μ and σ given (a column or a row of
    one number per row of ``a``).  ``sample`` says which σ it stands for: it is the
    declaration's (``registry.OPS``), which computes a true σ from ``a``; the arithmetic
    here does not depend on it."""
    del sample
    mus = [x for row in mu for x in row]
    sigmas = [x for row in sigma for x in row]
    out = []
    for row, m, s in zip(a, mus, sigmas, strict=True):
        scale = k.sqrt(k.add(k.mul(s, s), k.c(eps))) if eps else s
        minus_mu = k.mul(m, k.c(Fraction(-1)))
        out.append([k.div(k.add(x, minus_mu), scale) for x in row])
    return out


def centred(k: Any, a: Matrix) -> Matrix:
    out = []
    for row in a:
        minus_mu = k.mul(mean(k, row), k.c(Fraction(-1)))
        out.append([k.add(x, minus_mu) for x in row])
    return out


def layernorm(k: Any, a: Matrix, *, eps: Fraction, form: str) -> Matrix:
    """``(x − μ)/√(σ² + ε)`` with the population variance (``pop``) or the sample one
    (``sample``), or ``(x − μ)/(s + ε)`` with the sample standard deviation (``std+eps``,
    the form of ``x.std()`` in hand-written PyTorch)."""
    out = []
    for row in a:
        minus_mu = k.mul(mean(k, row), k.c(Fraction(-1)))
        if form == "std+eps":
            scale = k.add(k.sqrt(variance(k, row, True)), k.c(eps))
        else:
            scale = k.sqrt(k.add(variance(k, row, form == "sample"), k.c(eps)))
        out.append([k.div(k.add(x, minus_mu), scale) for x in row])
    return out


def rmsnorm(k: Any, a: Matrix, *, eps: Fraction) -> Matrix:
    out = []
    for row in a:
        mean_square = k.div(total(k, [k.mul(x, x) for x in row]), k.c(Fraction(len(row))))
        rms = k.sqrt(k.add(mean_square, k.c(eps)))
        out.append([k.div(x, rms) for x in row])
    return out


def relu(k: Any, a: Matrix) -> Matrix:
    zero = k.c(Fraction(0))
    return [[x if k.positive(x) else zero for x in row] for row in a]


def gelu(k: Any, a: Matrix, *, form: str) -> Matrix:
    half, one = k.c(Fraction(1, 2)), k.c(Fraction(1))
    if form == "erf":
        root2 = k.sqrt(k.c(Fraction(2)))

        def inner(x: Any) -> Any:
            return k.erf(k.div(x, root2))
    else:
        factor, cubic = k.sqrt(k.div(k.c(Fraction(2)), k.pi)), k.c(Fraction(44715, 10**6))

        def inner(x: Any) -> Any:
            return k.tanh(k.mul(factor, k.add(x, k.mul(cubic, k.mul(k.mul(x, x), x)))))

    return [[k.mul(k.mul(half, x), k.add(one, inner(x))) for x in row] for row in a]


def silu(k: Any, a: Matrix) -> Matrix:
    one, minus = k.c(Fraction(1)), k.c(Fraction(-1))
    return [[k.div(x, k.add(one, k.exp(k.mul(x, minus)))) for x in row] for row in a]


def softmax(k: Any, a: Matrix, *, causal: bool = False, temperature: Fraction = Fraction(1)) -> Matrix:
    """Row-wise, of ``a / temperature``; ``causal``: each row over its own position and the
    ones before it (the others get 0), as a causal mask of ``-inf`` gives."""
    out = []
    zero = k.c(Fraction(0))
    if temperature != 1:
        t = k.c(temperature)
        a = [[k.div(x, t) for x in row] for row in a]
    if causal and len(a) != len(a[0]):
        raise ValueError("a causal mask needs a square matrix of scores")
    for i, row in enumerate(a):
        if causal:
            exps = [k.exp(x) if j <= i else zero for j, x in enumerate(row)]
            out.append([k.div(e, total(k, exps[: i + 1])) if j <= i else zero for j, e in enumerate(exps)])
            continue
        exps = [k.exp(x) for x in row]
        denominator = total(k, exps)
        out.append([k.div(e, denominator) for e in exps])
    return out


def sinusoidal(k: Any, n: int, d: int, *, base: Fraction, layout: str, start: Fraction) -> Matrix:
    """The sinusoidal positional encoding of n positions from ``start`` and d columns:
    PE(p, 2i) = sin(p / base^{2i/d}), PE(p, 2i+1) = cos(p / base^{2i/d}), interleaved (the
    paper; an odd d ends with a sine), or all the sines then all the cosines
    (``concatenated``, d even)."""
    pairs = (d + 1) // 2
    if layout == "concatenated" and d % 2:
        raise ValueError("a concatenated layout needs an even width")
    divisors = [k.power(base, Fraction(2 * i, d)) for i in range(pairs)]
    rows = []
    for p in range(int(start), int(start) + n):
        angles = [k.div(k.c(Fraction(p)), v) if i else k.c(Fraction(p)) for i, v in enumerate(divisors)]
        sines, cosines = [k.sin(a) for a in angles], [k.cos(a) for a in angles]
        if layout == "interleaved":
            rows.append([sines[j // 2] if j % 2 == 0 else cosines[j // 2] for j in range(d)])
        else:
            rows.append(sines + cosines)
    return rows


def exps(k: Any, a: Matrix) -> Matrix:
    """e to each entry (a softmax's numerators, printed on their own)."""
    return [[k.exp(x) for x in row] for row in a]


def minus_max(k: Any, a: Matrix) -> Matrix:
    """Each row less its largest entry (the step before a stable softmax's exponentials)."""
    out = []
    for row in a:
        if not all(isinstance(x, (Fraction, float, int)) for x in row):
            raise ValueError("the largest of numbers that are not printed ones")
        top = k.mul(k.c(Fraction(-1)), max(row))
        out.append([k.add(x, top) for x in row])
    return out


def normalised(k: Any, a: Matrix) -> Matrix:
    """Each row divided by its sum (exponentials to probabilities)."""
    out = []
    for row in a:
        s = total(k, row)
        if not k.positive(s):
            raise ValueError("a row whose sum is not positive")
        out.append([k.div(x, s) for x in row])
    return out


def over_root(k: Any, a: Matrix, *, d_k: Fraction, causal: bool = False) -> Matrix:
    """Every cell over √d_k (scores scaled as the paper scales them, printed on their own);
    ``causal``: the cells after each row's own position masked (``-inf``), as the masked
    scores are printed before their softmax."""
    if causal and len(a) != len(a[0]):
        raise ValueError("a causal mask needs a square matrix of scores")
    root = k.sqrt(k.c(Fraction(d_k)))
    masked = MASKED if k.exact else -math.inf
    return [
        [masked if x is MASKED or (causal and j > i) else k.div(x, root) for j, x in enumerate(row)]
        for i, row in enumerate(a)
    ]


def transpose(a: Matrix) -> Matrix:
    return [list(col) for col in zip(*a, strict=True)]


def scale(k: Any, a: Matrix, c: Any) -> Matrix:
    """Every cell times ``c`` (a Fraction, or a ball such as 1/√2)."""
    return [[k.mul(x, c) for x in row] for row in a]


def divide(k: Any, a: Matrix, c: Any) -> Matrix:
    """Every cell over ``c`` (logits over a temperature)."""
    return [[k.div(x, c) for x in row] for row in a]


#: The kit the judgements use.
EXACT = Exact()


def alibi(k: Any, scores: Matrix, slope: Any) -> Matrix:
    """The ALiBi bias of a matrix of scores: ``-m·|i - j|`` for slope ``m`` (query i, key j)."""
    return [
        [k.mul(k.c(Fraction(-abs(i - j))), slope) for j in range(len(row))] for i, row in enumerate(scores)
    ]
