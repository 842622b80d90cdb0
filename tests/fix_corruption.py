"""Run ``fix`` (safe and ``--unsafe-fixes``) on corpus documents and report what it must never do.

Used by tests/test_fix_safety.py, one process per shard (verify starts worker processes of its
own, which a pool's daemonic worker could not).  For each document whose expectations
(``NAME.expect.toml``) list its wrong numbers:

* an edit of a number the expectations do not list as wrong is a corruption;
* anything but number tokens changing is a corruption;
* a second ``fix`` on the fixed text that changes anything breaks the fixed point.

    python tests/fix_corruption.py DOC [DOC ...]   # one JSON line per document
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

#: A number token as fix may write it: digits, a decimal point or comma, a sign.
_NUMBER = re.compile(r"[-\u2212]?\d+(?:(?:\.|,|\{,\})\d+)?(?:[eE][-+]?\d+)?")


def expectation(doc: Path) -> Path:
    return doc.with_name(doc.name.rsplit(".", 1)[0] + ".expect.toml")


def _cached_verify():
    """verify_text memoised on the text: the last round of a fix verifies the fixed text, so the
    second run's first round (and the unsafe run's first) costs nothing."""
    import symattn.verify as package

    original = package.verify_text
    cache: dict = {}

    def verify_text(text, **kwargs):
        key = (text, kwargs.get("tex", False))
        if key not in cache:
            cache[key] = original(text, **kwargs)
        return cache[key]

    package.verify_text = verify_text


def check(doc: Path) -> dict:
    from symattn.fix import fix_text

    text = doc.read_text(encoding="utf-8")
    tex = doc.suffix == ".tex"
    expect = tomllib.loads(expectation(doc).read_text(encoding="utf-8"))
    wrong = [(f["line"], f.get("column"), f["claimed"]) for f in expect.get("finding", [])]
    problems: list[str] = []
    edits = 0
    for unsafe in (False, True):
        mode = "--unsafe-fixes" if unsafe else "safe"
        first = fix_text(text, name=str(doc), tex=tex, unsafe=unsafe)
        edits += len(first.edits)
        # positions of the edits are those of the text each round saw: map them by line and literal
        for edit in first.edits:
            if not any(line == edit.line and edit.old == claimed for line, _column, claimed in wrong):
                problems.append(f"{mode}: edited a number not listed as wrong: {edit.describe()}")
        before, after = text.splitlines(), first.fixed.splitlines()
        if len(before) != len(after) or any(
            _NUMBER.sub("#", a) != _NUMBER.sub("#", b) for a, b in zip(before, after, strict=True)
        ):
            problems.append(f"{mode}: more than number tokens changed")
        second = fix_text(first.fixed, name=str(doc), tex=tex, unsafe=unsafe)
        if second.changed:
            problems.append(f"{mode}: a second run changed {[e.describe() for e in second.edits]}")
    return {"doc": str(doc), "edits": edits, "problems": problems}


def main(argv: list[str]) -> int:
    _cached_verify()
    for name in argv:
        print(json.dumps(check(Path(name)), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
