"""A lone CR breaks a line exactly as LF does: CR-only and CRLF documents are read as their LF twins."""

from __future__ import annotations

import json

import pytest

from symattn import cli
from symattn.files import LineEndings, split_line_endings
from symattn.verify import VerifyOptions, verify_document, verify_text
from symattn.verify.many import verify_one

OPTIONS = VerifyOptions(use_worker=False)

MARKDOWN = """# Attention

Let $d_k = 2$ and

$$b = 1 + 1 = 3$$

The weights are 0.5 and 0.5, so 1 + 1 = 3 here.

| token | weight |
|---|---|
| x1 | 0.25 |

```python
>>> 2 * 3
7
```

$$
\\frac{1}{2} + \\frac{1}{4} = 0.8
$$
"""

LATEX = """\\documentclass{article}
\\begin{document}
% a comment
Here $a = 2 + 2 = 5$ and
\\begin{equation}
  b = \\frac{1}{3} \\approx 0.34
\\end{equation}
\\end{document}
"""


def _key(report):
    return [(f.line, f.column, f.claimed, str(f.status), str(f.kind)) for f in report.findings]


@pytest.mark.parametrize("ending", ["\r", "\r\n"], ids=["cr", "crlf"])
@pytest.mark.parametrize(("document", "is_tex"), [(MARKDOWN, False), (LATEX, True)], ids=["md", "tex"])
def test_cr_and_crlf_give_the_findings_of_the_lf_twin(document, is_tex, ending):
    twin = _key(verify_text(document, tex=is_tex, options=OPTIONS))
    assert any(status == "wrong" for *_, status, _ in twin)  # the twin has wrong numbers to find
    assert _key(verify_text(document.replace("\n", ending), tex=is_tex, options=OPTIONS)) == twin


def test_mixed_line_breaks_give_the_findings_of_the_lf_twin():
    lines = MARKDOWN.split("\n")
    breaks = ["\r", "\r\n", "\n"]
    mixed = "".join(line + breaks[k % 3] for k, line in enumerate(lines[:-1])) + lines[-1]
    assert _key(verify_text(mixed, options=OPTIONS)) == _key(verify_text(MARKDOWN, options=OPTIONS))


@pytest.mark.parametrize("ending", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_files_with_cr_read_as_lf_through_the_cli(tmp_path, capsys, ending):
    lf, other = tmp_path / "lf.md", tmp_path / "other.md"
    lf.write_bytes(MARKDOWN.encode())
    other.write_bytes(MARKDOWN.replace("\n", ending).encode())
    assert _key(verify_document(other, OPTIONS)) == _key(verify_document(lf, OPTIONS))
    assert cli.main(["verify", "--format", "json", str(lf)]) == 1
    expected = json.loads(capsys.readouterr().out)["findings"]
    assert cli.main(["verify", "--format", "json", str(other)]) == 1
    assert json.loads(capsys.readouterr().out)["findings"] == expected
    result = verify_one(str(other), OPTIONS)
    assert result.text == MARKDOWN  # what formats and fix plans read lines from


def test_split_line_endings_and_restore():
    assert split_line_endings("a\nb") == ("a\nb", LineEndings())
    assert split_line_endings("a\rb\r") == ("a\nb\n", LineEndings("\r"))
    assert split_line_endings("a\r\nb\r\n") == ("a\nb\n", LineEndings("\r\n"))
    text = "a\r\nb\rc\nd\r\r\ne"
    lf, endings = split_line_endings(text)
    assert lf == "a\nb\nc\nd\n\ne" and endings.style is None
    assert endings.restore(lf) == text
    assert endings.restore(lf.replace("b", "0.25")) == text.replace("b", "0.25")  # a literal replaced
    for style in ("\n", "\r", "\r\n"):
        original = f"x = 1{style}y = 0.5{style}"
        lf, endings = split_line_endings(original)
        assert endings.restore(lf) == original
