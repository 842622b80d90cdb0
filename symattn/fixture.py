"""Certified importance fixtures: every measure of one layer, as text, JSON or npz.

    build(layer, methods, jacobians=..., target=..., places=N) -> Fixture
    to_text(fixture)  certified decimals, one matrix a measure, exact ties named
    to_json(fixture)  the "symattn.importance/1" document (docs/importance.md)
    to_npz(fixture)   the same numbers as numpy arrays (bytes; needs numpy)

A fixture is what another library's tests check an implementation against:
the exact inputs (as strings), and each measure's cells as certified
intervals [lower, upper], decimal strings with ``places`` digits that enclose
the true value (lower <= true <= upper, upper − lower <= 2·10^−places).
The intervals come from arb enclosures of the exact values, never from floats.
``symattn importance`` (symattn/cli.py) is the command line door.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from symattn.errors import InputError, UndecidedRoundingError, counted
from symattn.exact import MAX_PREC, START_PREC, _as_expr, _endpoints, _format_scaled, _short, enclose
from symattn.importance import METHODS, importance, jacobian, ranking

__all__ = ["DEFAULT_PLACES", "MAX_TOKENS", "SCHEMA", "Fixture", "build", "interval", "to_json", "to_npz"]

#: The schema name and version every JSON fixture carries.
SCHEMA = "symattn.importance/1"
#: Decimal places of the intervals when --places is not given.
DEFAULT_PLACES = {"text": 6, "json": 30, "npz": 30}
#: Most query or key tokens a fixture is built for (value zeroing grows as n_q · n_k²).
MAX_TOKENS = 16

#: What each cell of a JSON fixture means (written into the file, so it explains itself).
_INTERVAL_NOTE = (
    "each cell is {lower, upper}: decimal strings with `places` digits after the point; "
    "lower <= the exact value <= upper, and upper - lower <= 2 * 10^-places"
)


@dataclass(frozen=True)
class Fixture:
    """One layer's inputs and importance measures, exact (rendered by to_text/to_json/to_npz).

    Attributes:
        title, source: the spec's title and file (or None).
        places: digits after the decimal point of every interval.
        inputs: input name -> exact matrix (X, X_kv, W_Q, ..., or headN.W_Q and W_O).
        scale_factor: c, with scaled scores = c · Q Kᵀ.
        keep: the mask as True (kept) / False (masked) rows, or None.
        labels, kv_labels: token labels, or None.
        target: None for ‖o_i‖², else the linear target w (exact).
        measures: measure name -> exact n_q × n_k matrix ("head1.weights" style
            names for the per-head measures of several heads).
        blocks: (i, j) -> the exact Jacobian block ∂o_i/∂x_j (0-based).
    """

    title: str | None
    source: str | None
    places: int
    inputs: dict[str, sympy.ImmutableMatrix]
    scale_factor: sympy.Expr
    keep: list[list[bool]] | None
    labels: tuple[str, ...] | None
    kv_labels: tuple[str, ...] | None
    target: sympy.ImmutableMatrix | None
    measures: dict[str, sympy.ImmutableMatrix]
    blocks: dict[tuple[int, int], sympy.ImmutableMatrix]


def applicable(layer: Any) -> list[str]:
    """The measures a layer has: per-head "weights"/"norm" for several heads, "norm_output" with W_O.

    >>> import symattn
    >>> applicable(symattn.attention([[1, 0], [0, 1]]))
    ['weights', 'norm', 'value_zeroing', 'grad_input', 'jacobian']
    """
    heads = getattr(layer, "heads", None)
    names = []
    for method in METHODS:
        if method == "norm_output" and getattr(layer, "W_O", None) is None:
            continue
        if heads is not None and method in ("weights", "norm"):
            names.extend(f"head{k}.{method}" for k in range(1, len(heads) + 1))
        else:
            names.append(method)
    return names


def build(
    layer: Any,
    methods: list[str] | None = None,
    *,
    jacobians: list[tuple[int, int]] | str = (),
    target: Any = None,
    places: int = DEFAULT_PLACES["json"],
    title: str | None = None,
    source: str | None = None,
) -> Fixture:
    """Compute every asked measure of ``layer`` exactly.

    Args:
        layer: an Attention or a MultiHead with numeric inputs.
        methods: names of :data:`symattn.importance.METHODS` (default: every
            one that applies, see :func:`applicable`).  On a MultiHead,
            "weights" and "norm" are given per head.
        jacobians: (i, j) pairs of Jacobian blocks to include, or "all".
        target: a linear target w for "grad_input" (default ‖o_i‖²).
        places: digits of the intervals.

    Raises:
        InputError: an unknown method, "norm_output" without W_O, a Jacobian
            index out of range, symbolic inputs, or more than MAX_TOKENS tokens.
    """
    heads = getattr(layer, "heads", None)
    first = heads[0] if heads is not None else layer
    _check_layer(layer, first, source)
    names = applicable(layer) if methods is None else _expand(layer, methods, source)
    if target is not None and "grad_input" not in names:
        raise InputError("--target is the linear target of grad_input, which was not asked for")
    from symattn.importance import _view

    view = _view(layer, "jacobian")
    n_q, n_k = view.n_q, view.n_k
    pairs = [(i, j) for i in range(n_q) for j in range(n_k)] if jacobians == "all" else list(jacobians)
    for i, j in pairs:  # before any work: an index out of range names the range
        view.check_index(i, j)
    w = None if target is None else view.target(target)
    measures = {}
    for name in names:
        head, _, method = name.rpartition(".")
        of = heads[int(head[4:]) - 1] if head else layer
        options = {"target": target} if method == "grad_input" and target is not None else {}
        measures[name] = importance(of, method, **options)
    blocks = {(i, j): jacobian(layer, i, j) for i, j in pairs}
    mask = first.mask
    keep = None if mask is None else [[entry == 0 for entry in row] for row in mask.tolist()]
    return Fixture(
        title=title,
        source=source,
        places=places,
        inputs=_inputs(layer),
        scale_factor=first.factor,
        keep=keep,
        labels=first.labels,
        kv_labels=first.kv_labels,
        target=w,
        measures=measures,
        blocks=blocks,
    )


def _check_layer(layer: Any, first: Any, source: str | None) -> None:
    where = f"{source}: " if source else ""
    for head in getattr(layer, "heads", (layer,)):
        if not head.is_numeric:
            raise InputError(
                f"{where}importance needs numeric inputs for certified intervals, and the spec has symbols "
                "(substitute numbers, or see `symattn derive` for the closed forms)"
            )
    for name, rows in (("X", first.X.rows), ("X_kv" if first.is_cross else "X", first._source.rows)):
        if rows > MAX_TOKENS:
            raise InputError(
                f"{where}{name} has {rows} tokens, more than the {MAX_TOKENS} an importance fixture is built for"
            )


def _expand(layer: Any, methods: list[str], source: str | None) -> list[str]:
    """Asked methods in the order given, per head where they are per head; refusing what does not exist."""
    heads = getattr(layer, "heads", None)
    exists = [m for m in METHODS if m != "norm_output" or getattr(layer, "W_O", None) is not None]
    names: list[str] = []
    for method in methods:
        if method not in METHODS:
            raise InputError(f"unknown importance method {method!r}; the methods are {', '.join(METHODS)}")
        if method == "norm_output" and getattr(layer, "W_O", None) is None:
            where = source or "the reference example"
            has = "one head" if heads is None else counted(len(heads), "head")
            raise InputError(
                f"method 'norm_output' needs W_O, and {where} has {has} and no W_O "
                f"(the methods that apply: {', '.join(exists)})"
            )
        if heads is not None and method in ("weights", "norm"):
            expanded = [f"head{k}.{method}" for k in range(1, len(heads) + 1)]
        else:
            expanded = [method]
        names.extend(name for name in expanded if name not in names)
    return names


def _inputs(layer: Any) -> dict[str, sympy.ImmutableMatrix]:
    heads = getattr(layer, "heads", None)
    first = heads[0] if heads is not None else layer
    inputs = {"X": first.X}
    if first.is_cross:
        inputs["X_kv"] = first.X_kv
    if heads is None:
        inputs.update(W_Q=layer.W_Q, W_K=layer.W_K, W_V=layer.W_V)
        return inputs
    for k, head in enumerate(heads, start=1):
        inputs.update({f"head{k}.W_Q": head.W_Q, f"head{k}.W_K": head.W_K, f"head{k}.W_V": head.W_V})
    if layer.W_O is not None:
        inputs["W_O"] = layer.W_O
    return inputs


# --- certified intervals ---------------------------------------------------------


def interval(value: Any, places: int) -> tuple[str, str]:
    """Decimal strings (lower, upper) with ``places`` digits enclosing an exact value.

    lower <= value <= upper and upper − lower <= 2·10^−places; both are the
    value itself when it has at most ``places`` digits.

    Raises:
        NotNumericError: the value has free symbols.
        ValueTooLargeError: the value is too large to print.
        UndecidedRoundingError: no enclosure narrow enough within the precision limit.

    >>> interval(sympy.sqrt(2), 6), interval(sympy.Rational(1, 4), 6)
    (('1.414213', '1.414214'), ('0.250000', '0.250000'))
    """
    value = _as_expr(value)
    if value.is_Rational:
        scaled = Fraction(int(value.p), int(value.q)) * 10**places
        return _format_scaled(math.floor(scaled), places), _format_scaled(math.ceil(scaled), places)
    prec = START_PREC + int(places * 3.33)
    while prec <= MAX_PREC:
        ball = enclose(value, prec)
        if ball.is_finite():  # a square root of a ball still holding negatives is nan: more bits
            from symattn.exact import _magnitude_check

            _magnitude_check(ball)
            low, high = _endpoints(ball, places)
            if high - low < 1:
                return _format_scaled(math.floor(low), places), _format_scaled(math.ceil(high), places)
        prec *= 2
    raise UndecidedRoundingError(f"cannot enclose {_short(value)} to {places} places")


def _cells(matrix: sympy.ImmutableMatrix, places: int, name: str) -> list[list[dict[str, str]]]:
    from symattn.errors import SymattnError

    rows = []
    for i in range(matrix.rows):
        row = []
        for j in range(matrix.cols):
            try:
                lower, upper = interval(matrix[i, j], places)
            except SymattnError as error:
                raise type(error)(f"{name}[{i},{j}]: {error}") from None
            row.append({"lower": lower, "upper": upper})
        rows.append(row)
    return rows


def _exact(matrix: sympy.ImmutableMatrix) -> list[list[str]]:
    return [[sympy.sstr(entry, order="none") for entry in row] for row in matrix.tolist()]


def _definition(name: str) -> str:
    return METHODS[name.rpartition(".")[2]]


# --- the three renderings -----------------------------------------------------------


def to_json(fixture: Fixture) -> str:
    """The fixture as a "symattn.importance/1" JSON document (schema in docs/importance.md)."""
    from symattn import __version__

    places = fixture.places
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "generator": f"symattn {__version__}",
        "title": fixture.title,
        "spec": fixture.source,
        "indexing": "0-based; measures[m].cells[i][j] is key token j's importance for output i",
        "places": places,
        "interval": _INTERVAL_NOTE,
        "labels": list(fixture.labels) if fixture.labels else None,
        "kv_labels": list(fixture.kv_labels) if fixture.kv_labels else None,
        "inputs": {name: _exact(matrix) for name, matrix in fixture.inputs.items()},
        "scale_factor": {"exact": sympy.sstr(fixture.scale_factor, order="none")}
        | dict(zip(("lower", "upper"), interval(fixture.scale_factor, places), strict=True)),
        "mask_keep": fixture.keep,
        "grad_input_target": (
            "squared_norm"
            if fixture.target is None
            else [sympy.sstr(v, order="none") for v in fixture.target]
        ),
        "measures": {
            name: {
                "definition": _definition(name),
                "shape": [matrix.rows, matrix.cols],
                "exact": _exact(matrix),
                "cells": _cells(matrix, places, name),
                "ranking": [_groups(matrix.row(i)) for i in range(matrix.rows)],
            }
            for name, matrix in fixture.measures.items()
        },
        "jacobian_blocks": [
            {
                "output": i,
                "token": j,
                "shape": [block.rows, block.cols],
                "exact": _exact(block),
                "cells": _cells(block, places, f"jacobian({i}, {j})"),
            }
            for (i, j), block in fixture.blocks.items()
        ],
    }
    return _layout(document) + "\n"


def _layout(document: dict[str, Any]) -> str:
    """JSON with one line per top-level key, per measure and per Jacobian block (json.dumps each)."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in document.items():
        if key in ("measures", "inputs") and value:
            inner = [f"  {dump(name)}: {dump(item)}" for name, item in value.items()]
            lines.append(f" {dump(key)}: {{\n" + ",\n".join(inner) + "\n }")
        elif key == "jacobian_blocks" and value:
            lines.append(f" {dump(key)}: [\n" + ",\n".join(f"  {dump(item)}" for item in value) + "\n ]")
        else:
            lines.append(f" {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _groups(row: Any) -> list[list[int]] | None:
    """Exactly tied groups, largest first; None when two values were neither told apart nor proved equal."""
    try:
        return [list(group) for group in ranking(list(row))]
    except UndecidedRoundingError:  # e.g. a cancelling zero beyond the bounded zero test: no guess
        return None


def to_text(fixture: Fixture) -> str:
    """Certified decimals of every measure, one matrix each, with each output's exact ties."""
    places = fixture.places
    lines = []
    for name, matrix in fixture.measures.items():
        lines.append(f"{name} ({_definition(name)}), certified to {places} places:")
        lines.extend("  [" + ", ".join(_decimals(row, places, name)) + "]" for row in matrix.tolist())
        for i in range(matrix.rows):
            groups = _groups(matrix.row(i))
            if groups is None:
                lines.append(
                    f"  output {_named(i, fixture.labels)}: ties undecided (values neither told apart nor proved equal)"
                )
            for group in groups or ():
                if len(group) > 1:
                    named = [_named(t, fixture.kv_labels) for t in group]
                    tokens = ", ".join(named[:-1]) + f" and {named[-1]}"
                    lines.append(f"  output {_named(i, fixture.labels)}: tokens {tokens} tie exactly")
    for (i, j), block in fixture.blocks.items():
        lines.append(
            f"jacobian {i + 1},{j + 1} = d output {i + 1} / d token {j + 1}, certified to {places} places:"
        )
        lines.extend("  [" + ", ".join(_decimals(row, places, "jacobian")) + "]" for row in block.tolist())
    return "\n".join(lines)


def _named(index: int, labels: tuple[str, ...] | None) -> str:
    """A token as the report shows it: counted from 1, as verify counts cells, with its label."""
    return f"{index + 1} ({labels[index]})" if labels else str(index + 1)


def _decimals(row: list, places: int, name: str) -> list[str]:
    from symattn.importance import certified

    return [certified(value, places) for value in row]


def to_npz(fixture: Fixture) -> bytes:
    """The fixture as an .npz archive (no pickles), loaded with ``numpy.load(path)``.

    Keys: "schema", "places"; "input.NAME" (float64, nearest) and
    "input.NAME.exact" (strings); "MEASURE.lower" / "MEASURE.upper" (float64,
    rounded outward, so lower <= exact value <= upper holds for the floats too)
    and "MEASURE.exact"; "jacobian_block.I.J.lower" / ".upper" / ".exact".

    Raises:
        InputError: numpy is not installed.
    """
    try:
        import numpy as np
    except ImportError:
        raise InputError("--format npz needs numpy, which is not installed (pip install numpy)") from None

    places = fixture.places
    arrays: dict[str, Any] = {"schema": np.array(SCHEMA), "places": np.array(places)}
    for name, matrix in fixture.inputs.items():
        arrays[f"input.{name}"] = np.array([[_nearest(v) for v in row] for row in matrix.tolist()])
        arrays[f"input.{name}.exact"] = np.array(_exact(matrix))
    lower, upper = interval(fixture.scale_factor, places)
    arrays["scale_factor.lower"] = np.array(_outward(lower, -1))
    arrays["scale_factor.upper"] = np.array(_outward(upper, 1))
    arrays["scale_factor.exact"] = np.array(sympy.sstr(fixture.scale_factor, order="none"))
    if fixture.keep is not None:
        arrays["mask_keep"] = np.array(fixture.keep, dtype=bool)
    named = [(name, matrix) for name, matrix in fixture.measures.items()]
    named += [(f"jacobian_block.{i}.{j}", block) for (i, j), block in fixture.blocks.items()]
    for name, matrix in named:
        cells = _cells(matrix, places, name)
        arrays[f"{name}.lower"] = np.array([[_outward(c["lower"], -1) for c in row] for row in cells])
        arrays[f"{name}.upper"] = np.array([[_outward(c["upper"], 1) for c in row] for row in cells])
        arrays[f"{name}.exact"] = np.array(_exact(matrix))
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _outward(text: str, direction: int) -> float:
    """The float64 next to a decimal on its outer side (below for lower, above for upper)."""
    exact = Fraction(text)
    value = float(exact)  # correctly rounded
    if direction < 0 and Fraction(value) > exact:
        value = math.nextafter(value, -math.inf)
    elif direction > 0 and Fraction(value) < exact:
        value = math.nextafter(value, math.inf)
    return value


def _nearest(value: sympy.Expr) -> float:
    """An exact input as the nearest float64 (rationals exactly rounded; others via 60 digits)."""
    value = _as_expr(value)
    if value.is_Rational:
        return float(Fraction(int(value.p), int(value.q)))
    lower, upper = interval(value, 60)
    return float((Fraction(lower) + Fraction(upper)) / 2)
