"""derive's size policy: refuse above the documented size before any work, unless --full."""

from pathlib import Path

import pytest

from symattn import derivation
from symattn.cli import main
from symattn.derivation import MAX_COLUMNS, MAX_TOKENS, DerivationTooLargeError, check_size, derive
from symattn.pipeline import attention
from symattn.spec import AttentionSpec, parse_spec


def _spec_text(n: int, d: int) -> str:
    rows = ", ".join("[" + ", ".join(str((i * 7 + j * 3) % 5 - 2) for j in range(d)) + "]" for i in range(n))
    return f"X = [{rows}]\n"


@pytest.fixture
def big_spec(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(_spec_text(200, 200), encoding="utf-8")
    return path


def test_the_200_by_200_spec_is_refused_in_one_line_pointing_to_compute(big_spec, tmp_path, capsys):
    out = tmp_path / "big.md"
    assert main(["derive", str(big_spec), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"symattn: error: {big_spec}: X has 200 tokens, more than the {MAX_TOKENS} a derivation shows in full;"
        f" `symattn compute {big_spec}` prints every stage's certified decimals, and `symattn derive --full`"
        " (derive(..., full=True)) writes the whole derivation anyway\n"
    )
    assert not out.exists()


def test_the_refusal_comes_before_any_work(big_spec, monkeypatch):
    def no_work(self):
        raise AssertionError("the spec was run")

    monkeypatch.setattr(AttentionSpec, "run", no_work)
    with pytest.raises(DerivationTooLargeError):
        derive(big_spec)


@pytest.mark.parametrize(
    ("spec_text", "problem"),
    [
        pytest.param(_spec_text(MAX_TOKENS + 1, 2), f"X has {MAX_TOKENS + 1} tokens", id="tokens"),
        pytest.param(_spec_text(2, MAX_COLUMNS + 1), f"X has {MAX_COLUMNS + 1} columns", id="X-columns"),
        pytest.param(
            "X = [[1, 0], [0, 1]]\nW_V = [["
            + ", ".join(["1"] * 17)
            + "], ["
            + ", ".join(["0"] * 17)
            + "]]\n",
            "W_V has 17 columns",
            id="W_V-columns",
        ),
        pytest.param(
            "X = [[1, 0], [0, 1]]\nX_kv = [" + ", ".join(["[1, 0]"] * 17) + "]\n",
            "X_kv has 17 tokens",
            id="X_kv-tokens",
        ),
        pytest.param(
            "X = [[1, 0], [0, 1]]\n" + "[[heads]]\nW_Q = [[1], [0]]\n" * 9, "the spec has 9 heads", id="heads"
        ),
    ],
)
def test_each_limit(spec_text, problem):
    with pytest.raises(DerivationTooLargeError, match="^" + problem):
        check_size(parse_spec(spec_text, source=None))


def test_at_the_limit_it_derives(monkeypatch):
    spec = parse_spec(_spec_text(MAX_TOKENS, MAX_COLUMNS), source=None)
    check_size(spec)  # no error at exactly the limit


def test_full_forces_the_whole_derivation(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(derivation, "MAX_TOKENS", 2)
    path = tmp_path / "three.toml"
    path.write_text("X = [[1, 0], [0, 1], [1, 1]]\n", encoding="utf-8")
    assert main(["derive", str(path)]) == 2
    assert "X has 3 tokens, more than the 2" in capsys.readouterr().err
    assert main(["derive", str(path), "--full"]) == 0
    assert "0.2483" in capsys.readouterr().out


def test_an_attention_object_is_measured_too():
    att = attention([[1, 0]] * (MAX_TOKENS + 1))
    with pytest.raises(DerivationTooLargeError, match=f"^X has {MAX_TOKENS + 1} tokens"):
        derive(att)


def test_the_importance_section_is_left_out_above_3_tokens_or_1_head_and_says_how_to_include_it():
    from symattn.derivation import derive

    root = Path(__file__).resolve().parent.parent / "derivations"
    for name, why in (("causal", "more than 3 tokens"), ("two_heads", "more than one head")):
        md = derive(root / f"{name}.toml").to_markdown()
        assert (
            "How important is each token?' is left out" in md
            or "How important is each token?' are left out" in md
        )
        assert why in md
        assert "## " + "How important" not in md and "### " + "How important" not in md
        full = derive(root / f"{name}.toml", sections="all").to_markdown()
        assert "How important is each token?" in full and "is left out" not in full
        zh = derive(root / f"{name}.toml", lang="zh").to_markdown()
        assert "“每个词元有多重要？”" in zh and "略去了" in zh
    small = derive(root / "reference.toml").to_markdown()  # 3 tokens, one head: included
    assert "How important is each token?" in small and "is left out" not in small


def test_sections_choose_what_is_included(tmp_path):
    from symattn.cli import main
    from symattn.derivation import derive
    from symattn.errors import InputError

    root = Path(__file__).resolve().parent.parent / "derivations"
    bare = derive(root / "reference.toml", sections=[]).to_markdown()
    assert "What each output vector is made of" not in bare and "How important" not in bare
    spec = tmp_path / "four.toml"
    spec.write_text(
        (root / "causal.toml").read_text(encoding="utf-8") + '\nsections = ["all"]\n', encoding="utf-8"
    )
    assert "How important is each token?" in derive(spec).to_markdown()  # the spec's key
    assert "How important" not in derive(spec, sections="analysis").to_markdown()  # the call wins
    with pytest.raises(InputError, match="unknown section 'bogus'"):
        derive(spec, sections="bogus")
    assert main(["derive", str(spec), "--sections", "analysis", "-o", str(tmp_path / "out.md")]) == 0
    assert "How important" not in (tmp_path / "out.md").read_text(encoding="utf-8")
