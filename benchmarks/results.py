"""One writer for benchmarks/RESULTS.md: each benchmark's section between its own markers."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def write_section(section: str, begin: str, end: str, path: Path = RESULTS) -> None:
    """Put ``section`` (which holds its ``begin`` and ``end`` markers) in place of the text
    between those markers, or append it the first time; every other section is kept."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + section + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")
