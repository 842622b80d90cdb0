"""derive(), Derivation and regenerate(): the reference must-shows, formats, errors."""

import json
import shutil
from pathlib import Path

import pytest
from conftest import WIDE_X

from symattn import examples
from symattn.cli import main
from symattn.derivation import Derivation, derive, regenerate
from symattn.errors import InputError, MissingFileError, RaggedMatrixError
from symattn.render import steps as st

ROOT = Path(__file__).resolve().parent.parent
E = r"e^{\frac{\sqrt{2}}{2}}"


@pytest.fixture(scope="module")
def reference():
    return derive(examples.reference())


@pytest.fixture(scope="module")
def reference_md(reference):
    return reference.to_markdown()


# --- the reference example must show ------------------------------------------------


@pytest.mark.parametrize(
    "fragment",
    [
        pytest.param(
            rf"a_{{31}} & = \frac{{{E}}}{{{E} + {E} + e^{{\sqrt{{2}}}}}} = \frac{{1}}{{2 + {E}}} \approx 0.2483",
            id="a31-exact-and-decimal",
        ),
        pytest.param(
            rf"a_{{32}} & = \frac{{{E}}}{{{E} + {E} + e^{{\sqrt{{2}}}}}} = \frac{{1}}{{2 + {E}}} \approx 0.2483",
            id="a32",
        ),
        pytest.param(rf"= \frac{{{E}}}{{2 + {E}}} \approx 0.5035", id="a33"),
        pytest.param(r"\approx \begin{bmatrix} 0.7517 & 0.7517 \end{bmatrix}", id="output-row-3"),
        pytest.param(
            rf"a_{{31}} + a_{{32}} + a_{{33}} = \frac{{1 + 1 + {E}}}{{2 + {E}}} = 1", id="row-3-sums-to-1"
        ),
        pytest.param("| $a_{31}$ | **0.3** |", id="a31-marked-wrong"),
        pytest.param("| $a_{32}$ | **0.3** |", id="a32-marked-wrong"),
        pytest.param("| $a_{33}$ | **0.4** |", id="a33-marked-wrong"),
        pytest.param("| $o_{31}$ | **0.7** |", id="o31-marked-wrong"),
        pytest.param("| $o_{32}$ | **0.7** |", id="o32-marked-wrong"),
        pytest.param(
            "| 3 ($x_{3}$) | 0.7, 0.7 | 0.7000, 0.7000 | 0.7517, 0.7517 |", id="recomputed-next-to-true"
        ),
        pytest.param(
            "3 of the 9 claimed entries are wrong: $a_{31}, a_{32}, a_{33}$; the other 6 are correct roundings.",
            id="weights-summary",
        ),
        pytest.param(
            "2 of the 6 claimed entries are wrong: $o_{31}, o_{32}$; the other 4 are correct roundings.",
            id="output-summary",
        ),
    ],
)
def test_reference_shows(reference_md, fragment):
    assert fragment in reference_md


@pytest.mark.parametrize(
    ("name", "row", "kinds"),
    [
        pytest.param("weights", 0, ["ok", "ok", "ok"], id="weights-row-1-correct-roundings"),
        pytest.param("weights", 1, ["ok", "ok", "ok"], id="weights-row-2-correct-roundings"),
        pytest.param("weights", 2, ["wrong", "wrong", "wrong"], id="weights-row-3-wrong"),
        pytest.param("output", 0, ["ok", "ok"], id="output-row-1"),
        pytest.param("output", 1, ["ok", "ok"], id="output-row-2"),
        pytest.param("output", 2, ["carried", "carried"], id="output-row-3-follows-from-wrong-weights"),
    ],
)
def test_reference_verdicts(reference, name, row, kinds):
    (table,) = [s for s in reference.steps if isinstance(s, st.ClaimTable) and s.name == name]
    assert [cell.kind for cell in table.cells[row]] == kinds


def test_reference_rows_one_and_two_say_correct_rounding(reference_md):
    rows = [line for line in reference_md.splitlines() if line.startswith(("| $a_{1", "| $a_{2"))]
    assert len(rows) == 6
    assert all(line.endswith("| correct rounding |") for line in rows)


def test_steps_come_in_the_issue_order(reference):
    kinds = [type(step).__name__ for step in reference.steps]
    assert kinds == [
        "Setup",
        "Projection",
        "Projection",
        "Projection",
        "Scores",
        "Softmax",
        "Output",
        "Analysis",
        "Importance",
        "ClaimTable",
        "ClaimTable",
        "Recomputed",
    ]


def test_headings_in_order(reference_md):
    headings = [line for line in reference_md.splitlines() if line.startswith("## ")]
    assert headings == [
        "## 1. Setup",
        "## 2. Queries, keys and values",
        "## 3. Scores",
        "## 4. Softmax, row by row",
        "## 5. Output: weighted sums of the values",
        "## 6. What each output vector is made of",
        "## 7. How important is each token?",
        "## 8. Checking the claimed numbers",
    ]


def test_chinese_derivation_has_the_same_numbers():
    md = derive(examples.reference(), lang="zh").to_markdown()
    assert "## 4. 逐行 Softmax" in md
    assert "| $a_{31}$ | **0.3** |" in md
    assert "0.7517" in md
    assert "correct" not in md


@pytest.mark.parametrize(
    ("digits", "shown"),
    [pytest.param(2, r"\approx 0.25 \\", id="2"), pytest.param(6, r"\approx 0.248255 \\", id="6")],
)
def test_digits(digits, shown):
    assert shown in derive(examples.reference(), digits=digits).to_markdown()


# --- the other kinds of attention ---------------------------------------------------------


def test_causal_mask_shows_minus_infinity_and_zero_weights():
    md = derive(ROOT / "derivations" / "causal.toml").to_markdown()
    assert r"-\infty" in md
    # the masked weights of a row on one line; a row with one weight left needs no sum
    assert r"a_{12} & = a_{13} = a_{14} = 0 \quad \left(e^{-\infty} = 0\right)" in md
    assert "The weights of row 1 share" not in md and "The weights of row 2 share" in md
    assert "A causal mask applies" in md


def test_symbolic_input_has_no_decimals_and_says_so():
    derivation = derive(ROOT / "derivations" / "symbolic.toml")
    md = derivation.to_markdown()
    assert "closed form only; no decimals are printed" in md
    assert r"\approx" not in md
    assert "depends on the values of the symbols" in md


def test_cross_attention_takes_keys_from_x_kv():
    md = derive(ROOT / "derivations" / "cross.toml").to_markdown()
    assert r"K = X_{kv} W_K = " in md
    assert "(cross-attention)" in md
    assert r"\text{chat}" in md


def test_two_heads_show_each_head_and_the_projection():
    md = derive(ROOT / "derivations" / "two_heads.toml").to_markdown()
    assert [line for line in md.splitlines() if line.startswith("## ")][:2] == ["## Head 1", "## Head 2"]
    assert r"Q^{(2)} = X W_Q^{(2)}" in md
    # each head: setup, projections, scores, softmax, output (its explanations left out by default)
    assert "## 6. Concatenating the heads" in md and "## 7. Output projection" in md
    full = derive(ROOT / "derivations" / "two_heads.toml", sections="all").to_markdown()
    assert "## 8. Concatenating the heads" in full and "## 9. Output projection" in full


def test_accepts_an_attention_without_claims():
    from symattn.pipeline import attention

    derivation = derive(attention([[1, 0], [0, 1]]))
    assert not any(isinstance(s, st.ClaimTable) for s in derivation.steps)
    assert "## 8." not in derivation.to_markdown()


# --- formats -------------------------------------------------------------------------------


def test_json_carries_exact_values_and_decimals(reference):
    data = json.loads(reference.to_json())
    assert (data["lang"], data["digits"]) == ("en", 4)
    softmax = next(step for step in data["steps"] if step["step"] == "Softmax")
    assert softmax["rows"][2]["weights"][0] == {
        "latex": rf"\frac{{1}}{{2 + {E}}}",
        "sympy": "1/(2 + exp(sqrt(2)/2))",
    }
    assert softmax["decimals"][2] == ["0.2483", "0.2483", "0.5035"]


def test_jupyter_reprs(reference):
    assert reference._repr_markdown_() == reference.to_markdown()
    assert reference._repr_latex_() == reference.to_latex()


def test_standalone_latex_is_a_document(reference):
    assert reference.to_latex(standalone=True).startswith("\\documentclass{article}\n")
    assert reference.to_latex().startswith("\\section*{")


def test_output_is_deterministic():
    first = derive(examples.reference(), lang="zh").to_latex(standalone=True)
    assert derive(examples.reference(), lang="zh").to_latex(standalone=True) == first


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"lang": "fr"}, "unknown language 'fr' (expected en or zh)", id="language"),
        pytest.param({"digits": -1}, "digits must be 0 or more, not -1", id="digits"),
    ],
)
def test_derive_rejects_bad_options(kwargs, message):
    with pytest.raises(InputError, match=f"^{message.replace('(', '[(]').replace(')', '[)]')}$"):
        derive(examples.reference(), **kwargs)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("X = [[1, 0], [0]]\n", "{path}:1: X: row 2 has 1 entry but row 1 has 2", id="ragged"),
        pytest.param(
            "X = [[1]]\nfoo = 1\n",
            "{path}:2: unknown key 'foo' in the spec (known keys: title, labels, kv_labels, X, X_kv, W_Q, W_K, W_V, "
            "scale, temperature, mask, heads, W_O, claims, sections)",
            id="unknown-key",
        ),
        pytest.param(None, "{path}: no such file", id="missing-file"),
    ],
)
def test_bad_specs_give_one_line_exit_2_and_no_file(tmp_path, capsys, spec, message):
    path = tmp_path / "spec.toml"
    if spec is not None:
        path.write_text(spec, encoding="utf-8")
    out = tmp_path / "out.md"
    assert main(["derive", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"symattn: error: {message.format(path=path)}\n"
    assert not out.exists()
    assert list(tmp_path.iterdir()) == ([path] if spec is not None else [])


# --- regenerate ------------------------------------------------------------------------------------


def test_checked_in_derivations_are_fresh():
    assert regenerate(ROOT / "derivations", check=True) == []


@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "derivations"
    target.mkdir()
    shutil.copy(ROOT / "derivations" / "reference.toml", target)
    return target


def test_regenerate_writes_then_check_passes(copy):
    written = regenerate(copy)
    assert [p.name for p in written] == [
        "reference.en.claims-output.svg",
        "reference.en.claims-weights.svg",
        "reference.en.importance.svg",
        "reference.en.md",
        "reference.en.tex",
        "reference.zh.claims-output.svg",
        "reference.zh.claims-weights.svg",
        "reference.zh.importance.svg",
        "reference.zh.md",
        "reference.zh.tex",
    ]
    assert (copy / "reference.en.md").read_bytes() == (ROOT / "derivations" / "reference.en.md").read_bytes()
    assert regenerate(copy, check=True) == []
    assert regenerate(copy) == []


@pytest.mark.parametrize(
    ("change", "name"),
    [
        pytest.param(lambda p: p.write_text(p.read_text() + "x"), "reference.zh.md", id="edited"),
        pytest.param(lambda p: p.unlink(), "reference.en.tex", id="deleted"),
    ],
)
def test_check_reports_a_stale_file_and_writes_nothing(copy, change, name):
    regenerate(copy)
    change(copy / name)
    before = {p.name: p.read_bytes() for p in copy.iterdir()}
    assert regenerate(copy, check=True) == [copy / name]
    assert {p.name: p.read_bytes() for p in copy.iterdir()} == before


def test_cli_regen_check_exits_1_on_a_stale_file(copy, capsys):
    regenerate(copy)
    (copy / "reference.en.md").write_text("stale\n", encoding="utf-8")
    assert main(["regen", str(copy), "--check"]) == 1
    assert capsys.readouterr().err == f"{copy / 'reference.en.md'}: differs from a fresh generation\n"


def test_regenerate_missing_directory(tmp_path):
    with pytest.raises(MissingFileError, match=f"^{tmp_path / 'nope'}: no such directory$"):
        regenerate(tmp_path / "nope")


def test_derivation_is_frozen(reference):
    assert isinstance(reference, Derivation)
    with pytest.raises(AttributeError):
        reference.lang = "zh"


# --- layout of wide inputs -------------------------------------------------------------------------

WIDE = dict(
    X=WIDE_X,
    mask="causal",
    scale="1/2",
    temperature=2,
)


@pytest.fixture(scope="module")
def wide_md():
    from symattn.pipeline import attention

    return derive(attention(**WIDE)).to_markdown()


@pytest.mark.parametrize(
    "fragment",
    [
        pytest.param("Columns 1 to 2 of 10 of $A$:", id="weights-split-into-column-blocks"),
        pytest.param(r"a_{10,1} & = ", id="two-digit-indices-get-a-comma"),
        pytest.param(r"\sum_{j} a_{10,j} = 1", id="long-row-sum-summarised"),
        pytest.param(r"o_{10} & = \sum_{j} a_{10,j} v_{j} = ", id="long-output-sum-summarised"),
        pytest.param("the scores are multiplied by $c = \\frac{1}{4}$.", id="custom-scale-and-temperature"),
    ],
)
def test_wide_layout(wide_md, fragment):
    assert fragment in wide_md


def test_wide_exponential_lists_wrap():
    from symattn.pipeline import attention

    md = derive(attention([[1]] * 20), full=True).to_markdown()
    lines = md.splitlines()
    start = lines.index("Row 20. The exponentials of the scaled scores:")
    assert lines[start + 3].startswith(r"\begin{aligned} & e^{1},\ e^{1},\ ")
    assert r" \\ & ,\ e^{1}" in lines[start + 3]


def test_output_does_not_depend_on_the_hash_seed():
    import subprocess
    import sys

    code = (
        "from symattn.derivation import derive; from symattn.pipeline import attention; "
        "print(derive(attention([['a', 1], [1, 'b'], ['c', 'a']]), lang='zh').to_latex(), end='')"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1
    assert r"\frac{" in outputs.pop()


def test_files_of_a_removed_spec_are_stale(copy):
    regenerate(copy)
    (copy / "old.en.md").write_text("left over\n", encoding="utf-8")
    (copy / "notes.md").write_text("not generated\n", encoding="utf-8")
    assert regenerate(copy, check=True) == [copy / "old.en.md"]
    assert (copy / "old.en.md").exists()
    assert regenerate(copy) == [copy / "old.en.md"]
    assert sorted(p.name for p in copy.iterdir()) == [
        "notes.md",
        "reference.en.claims-output.svg",
        "reference.en.claims-weights.svg",
        "reference.en.importance.svg",
        "reference.en.md",
        "reference.en.tex",
        "reference.toml",
        "reference.zh.claims-output.svg",
        "reference.zh.claims-weights.svg",
        "reference.zh.importance.svg",
        "reference.zh.md",
        "reference.zh.tex",
    ]


def test_a_stale_picture_is_removed(copy):
    regenerate(copy)
    (copy / "old.en.importance-head3.svg").write_text("<svg/>\n", encoding="utf-8")
    (copy / "logo.svg").write_text("<svg/>\n", encoding="utf-8")  # not a generated name
    assert regenerate(copy, check=True) == [copy / "old.en.importance-head3.svg"]
    assert regenerate(copy) == [copy / "old.en.importance-head3.svg"]
    assert (copy / "logo.svg").exists() and not (copy / "old.en.importance-head3.svg").exists()


def test_an_invalid_spec_writes_nothing(copy):
    (copy / "bad.toml").write_text("X = [[1, 0], [0]]\n", encoding="utf-8")
    with pytest.raises(
        RaggedMatrixError, match=rf"^{copy / 'bad.toml'}:1: X: row 2 has 1 entry but row 1 has 2$"
    ):
        regenerate(copy)
    assert sorted(p.name for p in copy.iterdir()) == ["bad.toml", "reference.toml"]
