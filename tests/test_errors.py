"""Bad input: one SymattnError per mistake, with its whole message checked.

Every message is matched in full (``re.escape(message) + "$"`` or ``==``),
so a test fails if a message loses its place (matrix, entry, file:line,
shapes).  The second half proves input strings are data: strings that would
create a file or set a global if they were run are rejected and nothing
happens, and eval/exec/sympify/parse_expr are never called.  The last part
drives the CLI: exit code 2, one line on stderr, no traceback, no output file.
"""

from __future__ import annotations

import builtins
import math
import re
import sys
from pathlib import Path

import pytest
import sympy
import sympy.parsing.sympy_parser

import symattn
from symattn.cli import main
from symattn.errors import (
    DivisionByZeroError,
    EmptyMatrixError,
    FullyMaskedRowError,
    InputError,
    MaskError,
    MissingFileError,
    NotExactError,
    NotNumericError,
    RaggedMatrixError,
    ShapeError,
    SpecSyntaxError,
    SymattnError,
    UnknownKeyError,
    UnknownTokenError,
    ValueTooLargeError,
)
from symattn.exact import to_exact
from symattn.spec import load_spec, parse_spec

SPECS = Path(__file__).parent / "specs"
I2 = [[1, 0], [0, 1]]
X3 = [[1, 0], [0, 1], [1, 1]]
TOKEN_HINT = "(expected numbers, names, + - * / ^ and sqrt/exp/log)"


def raises_exactly(error: type[Exception], message: str):
    """pytest.raises matching the whole message, not a part of it."""
    return pytest.raises(error, match="^" + re.escape(message) + "$")


# --- attention(): matrices, entries, masks ---------------------------------------

ATTENTION_ERRORS = [
    pytest.param(
        {"X": [[1, 2], [3]]},
        RaggedMatrixError,
        "X: row 2 has 1 entry but row 1 has 2",
        id="ragged-rows",
    ),
    pytest.param(
        {"X": X3, "W_V": [[1, 0], [0, 1, 2]]},
        RaggedMatrixError,
        "W_V: row 2 has 3 entries but row 1 has 2",
        id="ragged-W_V",
    ),
    pytest.param({"X": []}, EmptyMatrixError, "X is empty (it has no rows)", id="empty-matrix"),
    pytest.param({"X": [[], []]}, EmptyMatrixError, "X is empty (its rows have no entries)", id="empty-rows"),
    pytest.param(
        {"X": [1, 2]},
        RaggedMatrixError,
        "X: row 1 is 1, not a list (write [[...], [...]])",
        id="flat-list",
    ),
    pytest.param(
        {"X": X3, "W_Q": [[1, 0], [0, 1], [1, 1]]},
        ShapeError,
        "W_Q has 3 rows but X has 2 columns (X is 3×2, W_Q is 3×2)",
        id="W_Q-wrong-rows",
    ),
    pytest.param(
        {"X": X3, "W_V": [[1], [2], [3]]},
        ShapeError,
        "W_V has 3 rows but X has 2 columns (X is 3×2, W_V is 3×1)",
        id="W_V-wrong-rows",
    ),
    pytest.param(
        {"X": X3, "W_K": [[1, 0, 0], [0, 1, 0]]},
        ShapeError,
        "W_Q has 2 columns but W_K has 3; queries and keys need the same d_k (W_Q is 2×2, W_K is 2×3)",
        id="d_k-differs",
    ),
    pytest.param(
        {"X": X3, "X_kv": [[1, 2, 3]], "W_K": [[1], [0]]},
        ShapeError,
        "W_K has 2 rows but X_kv has 3 columns (X_kv is 1×3, W_K is 2×1)",
        id="cross-W_K-wrong-rows",
    ),
    pytest.param(
        {"X": [[float("nan"), 1]]}, NotExactError, "X[1,1]: nan is not a finite number", id="nan-float"
    ),
    pytest.param(
        {"X": [[1, "nan"]]}, NotExactError, "X[1,2]: 'nan' is not a finite real number", id="nan-string"
    ),
    pytest.param(
        {"X": [[1, 0], [float("inf"), 1]]},
        NotExactError,
        "X[2,1]: inf is not a finite number",
        id="inf-float",
    ),
    pytest.param(
        {"X": [[1, 0], [0, "inf"]]},
        NotExactError,
        "X[2,2]: 'inf' is infinite; only masks may hold -inf",
        id="inf-string",
    ),
    pytest.param(
        {"X": [[True, 1]]}, NotExactError, "X[1,1]: True is a boolean, not a number", id="boolean-entry"
    ),
    pytest.param(
        {"X": [["__import__('os')", 1]]},
        UnknownTokenError,
        f"X[1,1]: cannot read \"__import__('os')\": unexpected \"__import__('os')\" {TOKEN_HINT}",
        id="import-string",
    ),
    pytest.param(
        {"X": [["x y", 1]]},
        UnknownTokenError,
        "X[1,1]: cannot read 'x y': unexpected 'y'",
        id="two-names",
    ),
    pytest.param({"X": [["", 1]]}, InputError, "X[1,1]: empty entry ''", id="empty-string"),
    pytest.param(
        {"X": [["10^(10^10)", 1]]},
        ValueTooLargeError,
        "X[1,1]: 10^10000000000 is too large to build exactly",
        id="tower-of-powers",
    ),
    pytest.param(
        {"X": [[1, "exp(exp(100))"]]},
        ValueTooLargeError,
        "X[1,2]: exp(exp(100)) is too large to evaluate",
        id="tower-of-exps",
    ),
    pytest.param(
        {"X": [["1/0", 1]]}, DivisionByZeroError, "X[1,1]: division by zero in '1/0'", id="one-over-zero"
    ),
    pytest.param(
        {"X": I2, "mask": [[True, False], [False, False]]},
        FullyMaskedRowError,
        "mask row 2 removes every key, so its softmax is undefined",
        id="fully-masked-row-boolean",
    ),
    pytest.param(
        {"X": I2, "mask": [["-inf", "-inf"], [0, 0]], "labels": ["I", "you"]},
        FullyMaskedRowError,
        "mask row 1 ('I') removes every key, so its softmax is undefined",
        id="fully-masked-row-additive-labelled",
    ),
    pytest.param(
        {"X": I2, "mask": [[0, 1], [0, 0]]},
        MaskError,
        "mask[1,2] is 1; an additive mask holds only 0 and -inf",
        id="bad-mask-value",
    ),
    pytest.param(
        {"X": I2, "mask": [[True, 0], [1, 1]]},
        MaskError,
        "mask mixes booleans and numbers; use all true/false or all 0/-inf",
        id="mixed-mask",
    ),
    pytest.param(
        {"X": I2, "mask": "upper"},
        MaskError,
        "mask: unknown mask 'upper' (expected \"causal\" or a matrix)",
        id="unknown-mask-name",
    ),
    pytest.param(
        {"X": I2, "mask": [[True, False]]},
        ShapeError,
        "mask is 1×2 but the scores are 2×2",
        id="mask-shape",
    ),
    pytest.param(
        {"X": I2, "labels": ["a", "b", "c"]},
        ShapeError,
        "labels has 3 entries but there are 2 tokens",
        id="labels-count",
    ),
    pytest.param(
        {"X": I2, "temperature": 0},
        DivisionByZeroError,
        "temperature is 0; the scores would be divided by zero",
        id="zero-temperature",
    ),
    pytest.param(
        {"X": I2, "scale": "-1"}, InputError, "scale must be positive but is -1", id="negative-scale"
    ),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), ATTENTION_ERRORS)
def test_attention_errors_have_whole_messages(kwargs, error, message) -> None:
    kwargs = dict(kwargs)
    with raises_exactly(error, message) as info:
        symattn.attention(kwargs.pop("X"), **kwargs)
    assert isinstance(info.value, SymattnError)
    assert "\n" not in str(info.value)


def test_complex_string_entry_is_refused() -> None:
    with raises_exactly(NotExactError, "X[1,1]: 'sqrt(-1)' is not a real number"):
        symattn.attention([["sqrt(-1)", 0], [0, 1]])


def test_w_o_with_wrong_rows_names_w_o_and_the_heads() -> None:
    with pytest.raises(ShapeError) as info:
        symattn.multihead(X3, heads=[(None, None, None), (None, None, None)], W_O=[[1, 0], [0, 1], [1, 1]])
    assert str(info.value).startswith("W_O has 3 rows but the concatenated heads have 4 columns (")


def test_w_o_message_names_both_shapes() -> None:
    with raises_exactly(
        ShapeError,
        "W_O has 3 rows but the concatenated heads have 4 columns (the concatenated heads are 3×4, W_O is 3×2)",
    ):
        symattn.multihead(X3, heads=[(None, None, None), (None, None, None)], W_O=[[1, 0], [0, 1], [1, 1]])


def test_multihead_without_heads() -> None:
    with raises_exactly(InputError, "multihead needs at least one head"):
        symattn.multihead(X3, heads=[])


def test_symbolic_entries_have_no_decimals() -> None:
    att = symattn.attention([["a", "b"], ["c", "d"]])
    with pytest.raises(NotNumericError) as info:
        att.decimals("weights", 3)
    assert str(info.value).endswith(" has free symbols (a, b, c, d) and no decimal value")


def test_symbolic_decimals_name_the_entry() -> None:
    att = symattn.attention([["a", "b"], ["c", "d"]])
    with raises_exactly(NotNumericError, "Q[1,1]: a has free symbols (a) and no decimal value"):
        att.decimals("Q", 3)


# --- files and specs ---------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with raises_exactly(MissingFileError, f"{path}: no such file"):
        load_spec(path)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        pytest.param(
            "X = [[1, 0]]\nW_Q = [[1,\nfoo bar\n",
            SpecSyntaxError,
            "s.toml:3: invalid TOML: Invalid value",
            id="syntax-error-line-3",
        ),
        pytest.param(
            'title = "t"\nX = [[1, 0] [0, 1]]\n',
            SpecSyntaxError,
            "s.toml:2: invalid TOML: Unclosed array",
            id="syntax-error-line-2",
        ),
        pytest.param(
            'X = [[1, 0]]\nscale = "none"\ntemprature = 2\n',
            UnknownKeyError,
            "s.toml:3: unknown key 'temprature' in the spec (known keys: title, labels, kv_labels, "
            "X, X_kv, W_Q, W_K, W_V, scale, temperature, mask, heads, W_O, claims, sections)",
            id="unknown-key-line-3",
        ),
        pytest.param(
            "X = [[1, 0]]\n\ntemprature = 2\n",
            UnknownKeyError,
            "s.toml:3: unknown key 'temprature' in the spec (known keys: title, labels, kv_labels, "
            "X, X_kv, W_Q, W_K, W_V, scale, temperature, mask, heads, W_O, claims, sections)",
            id="unknown-key-after-blank-line",
        ),
        pytest.param(
            "X = [[1, 0]]\n[claims]\nweights = [[1]]\nattention = [[1]]\n",
            UnknownKeyError,
            "s.toml:4: unknown key 'attention' in [claims] (known keys: Q, K, V, scores, scaled, "
            "weights, output, concat)",
            id="unknown-claim-key",
        ),
    ],
)
def test_spec_text_errors(text, error, message) -> None:
    with raises_exactly(error, message):
        parse_spec(text, "s.toml")


def test_syntax_error_at_end_of_document_names_a_line() -> None:
    with raises_exactly(SpecSyntaxError, "s.toml:2: invalid TOML: Unclosed array (at end of document)"):
        parse_spec('title = "t"\nX = [[1, 0]\n', "s.toml")


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        pytest.param(
            "ragged.toml", RaggedMatrixError, ":2: X: row 2 has 1 entry but row 1 has 2", id="ragged"
        ),
        pytest.param(
            "fully_masked.toml",
            FullyMaskedRowError,
            ":4: mask row 2 ('b') removes every key, so its softmax is undefined",
            id="fully-masked",
        ),
        pytest.param(
            "code_string.toml",
            UnknownTokenError,
            f":2: X[1,1]: cannot read \"__import__('os').system('true')\": "
            f"unexpected \"__import__('os').sys\" {TOKEN_HINT}",
            id="code-string",
        ),
    ],
)
def test_spec_run_errors_name_the_file(name, error, message) -> None:
    path = SPECS / name
    spec = load_spec(path)
    with raises_exactly(error, f"{path}{message}"):  # file:line when the message names a key
        spec.run()


# --- strings are data, never code ---------------------------------------------------


def _refuse(*args, **kwargs):
    raise AssertionError(f"a code path was called with {args!r}")


def _refuse_text(value, *args, **kwargs):
    if isinstance(value, str):
        raise AssertionError(f"sympify was called on the string {value!r}")
    return _real_sympify(value, *args, **kwargs)


_real_sympify = sympy.sympify


@pytest.fixture
def no_code_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """eval, exec, sympify-of-a-string and parse_expr all raise while the test runs."""
    monkeypatch.setattr(builtins, "eval", _refuse)
    monkeypatch.setattr(builtins, "exec", _refuse)
    monkeypatch.setattr(sympy, "sympify", _refuse_text)
    monkeypatch.setattr(sys.modules["sympy.core.sympify"], "sympify", _refuse_text)
    monkeypatch.setattr(sympy.parsing.sympy_parser, "parse_expr", _refuse)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("3", sympy.Integer(3), id="int"),
        pytest.param("-1/2", sympy.Rational(-1, 2), id="fraction"),
        pytest.param("0.25", sympy.Rational(1, 4), id="decimal"),
        pytest.param("1e-3", sympy.Rational(1, 1000), id="scientific"),
        pytest.param("sqrt(2)", sympy.sqrt(2), id="sqrt"),
        pytest.param("2^3 + exp(1)", 8 + sympy.E, id="power-exp"),
        pytest.param("x_{11}", sympy.Symbol("x_{11}", real=True), id="symbol"),
    ],
)
def test_grammar_reads_entries_without_eval_or_sympify(no_code_paths, text, expected) -> None:
    assert to_exact(text) == expected


def test_attention_and_specs_run_without_eval_or_sympify(no_code_paths) -> None:
    att = symattn.attention([["1/2", "0.25"], ["sqrt(2)", "-1"]], mask="causal")
    # row 2 keeps scores √2/2 - 1/4 and 3, scaled by 1/√2
    first = 1 / (1 + math.exp((3 - (math.sqrt(2) / 2 - 0.25)) / math.sqrt(2)))
    assert att.decimals("weights", 3)[1] == [f"{first:.3f}", f"{1 - first:.3f}"]
    spec = load_spec(SPECS / "strings_and_floats.toml")
    assert spec.run().X[0, 0] == sympy.Rational(1, 10)


@pytest.mark.parametrize(
    "template",
    [
        pytest.param("__import__('pathlib').Path({path!r}).touch()", id="import-touch"),
        pytest.param("open({path!r}, 'w')", id="open"),
        pytest.param("exec(\"open({path!r}, 'w')\")", id="exec"),
    ],
)
def test_strings_that_would_create_a_file_are_not_run(tmp_path: Path, no_code_paths, template) -> None:
    marker = tmp_path / "created-by-input"
    text = template.format(path=str(marker))
    with pytest.raises(UnknownTokenError) as info:
        symattn.attention([[text, 1], [0, 1]])
    assert str(info.value).startswith(f"X[1,1]: cannot read {text!r}: unexpected ")
    assert not marker.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("globals().update(SYMATTN_PWNED=1)", id="globals"),
        pytest.param("setattr(sys, 'SYMATTN_PWNED', 1)", id="setattr"),
        pytest.param("vars(sys).update(SYMATTN_PWNED=1)", id="vars"),
    ],
)
def test_strings_that_would_set_a_global_are_not_run(no_code_paths, text) -> None:
    import symattn.exact

    with pytest.raises(UnknownTokenError):
        to_exact(text, where="X[1,1]")
    assert "SYMATTN_PWNED" not in vars(symattn.exact)
    assert not hasattr(sys, "SYMATTN_PWNED")
    assert not hasattr(builtins, "SYMATTN_PWNED")


def test_a_spec_holding_code_is_not_run(tmp_path: Path, no_code_paths) -> None:
    marker = tmp_path / "created-by-spec"
    spec_path = tmp_path / "evil.toml"
    code = f"__import__('pathlib').Path({str(marker)!r}).touch()"
    spec_path.write_text(f'X = [["{code}", 1], [0, 1]]\n', encoding="utf-8")
    spec = load_spec(spec_path)
    with pytest.raises(UnknownTokenError):
        spec.run()
    assert not marker.exists()


# --- the CLI: one line, exit 2, no traceback, no output file -------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("ragged.toml", "{path}:2: X: row 2 has 1 entry but row 1 has 2", id="ragged"),
        pytest.param("absent.toml", "{path}: no such file", id="missing"),
        pytest.param(
            "unknown_key.toml",
            "{path}:3: unknown key 'temprature' in the spec (known keys: title, labels, kv_labels, "
            "X, X_kv, W_Q, W_K, W_V, scale, temperature, mask, heads, W_O, claims, sections)",
            id="unknown-key",
        ),
        pytest.param("syntax_error.toml", "{path}:3: invalid TOML: Unclosed array", id="syntax"),
        pytest.param(
            "code_string.toml",
            "{path}:2: X[1,1]: cannot read \"__import__('os').system('true')\": "
            f"unexpected \"__import__('os').sys\" {TOKEN_HINT}",
            id="code-string",
        ),
    ],
)
@pytest.mark.parametrize("command", ["derive", "compute"])
def test_cli_errors_are_one_line_exit_2(tmp_path, capsys, command, spec, message) -> None:
    path = SPECS / spec
    out_file = tmp_path / "out.md"
    argv = [command, str(path)] + (["-o", str(out_file)] if command == "derive" else [])
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == f"symattn: error: {message.format(path=path)}\n"
    assert "Traceback" not in captured.err + captured.out
    assert captured.out == ""
    assert not out_file.exists()
    assert list(tmp_path.iterdir()) == []
