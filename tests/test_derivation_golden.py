"""Golden files: whole generated documents, compared byte for byte.

After an intended change, rewrite them with
``SYMATTN_UPDATE_GOLDEN=1 python -m pytest tests/test_derivation_golden.py``
and read the diff before committing.
"""

import os
from pathlib import Path

import pytest

from symattn import examples
from symattn.derivation import derive

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
GOLDEN = TESTS / "golden"


def _source(name: str):
    return examples.reference() if name == "reference" else ROOT / "derivations" / f"{name}.toml"


def _render(name: str, lang: str, fmt: str) -> str:
    derivation = derive(_source(name), lang=lang)
    return {"md": derivation.to_markdown, "tex": derivation.to_latex, "json": derivation.to_json}[fmt]()


CASES = [
    ("reference", "en", "md"),
    ("reference", "zh", "md"),
    ("reference", "en", "tex"),
    ("reference", "en", "json"),
    ("causal", "zh", "tex"),
    ("cross", "en", "md"),
    ("symbolic", "zh", "md"),
    ("two_heads", "en", "tex"),
]


@pytest.mark.parametrize(("name", "lang", "fmt"), CASES, ids=[f"{n}.{lang}.{fmt}" for n, lang, fmt in CASES])
def test_golden(name, lang, fmt):
    path = GOLDEN / f"{name}.{lang}.{fmt}"
    text = _render(name, lang, fmt)
    if os.environ.get("SYMATTN_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.read_text(encoding="utf-8") == text
