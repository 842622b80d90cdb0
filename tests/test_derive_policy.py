"""derive's size policy: refuse above the documented size before any work, unless --full."""

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
