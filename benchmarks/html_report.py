"""The HTML report of a 300-formula document: its size, and how long headless Chromium takes to
render it (every formula through KaTeX, every mark placed).

    python benchmarks/html_report.py            # print the section
    python benchmarks/html_report.py --record   # also write it into benchmarks/RESULTS.md

The document is benchmarks/verify_mixed.py's mixed-notation one (300+ formulas).  The render
time is Chromium's own: the page records ``performance.now()`` when its script has rendered
every formula (``data-render-ms`` on ``<body>``), read back from the DOM; the median of RUNS.
Goals (issue 28): at most 2 MB, rendered in at most 3 s.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.results import write_section  # noqa: E402
from benchmarks.verify_mixed import document  # noqa: E402

BEGIN, END = "<!-- html-report: begin -->", "<!-- html-report: end -->"
RUNS = 3


def measure() -> dict[str, float]:
    from symattn.cli import main

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Chromium is needed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        doc = Path(tmp) / "mixed.md"
        doc.write_text(document(), encoding="utf-8")
        page = Path(tmp) / "mixed.html"
        start = time.perf_counter()
        main(["verify", str(doc), "--format", "html", "-o", str(page)])
        written = time.perf_counter() - start
        from symattn.verify.readers import find_math

        formulas = sum(
            1 for span in find_math(doc.read_text(encoding="utf-8"), tex=False) if span.reader != "scope"
        )
        math = len(re.findall(r'class="sa-math', page.read_text(encoding="utf-8")))
        marks = len(re.findall(r"\ue000", page.read_text(encoding="utf-8")))
        renders, walls = [], []
        for run in range(RUNS):
            start = time.perf_counter()
            dom = subprocess.run(
                [
                    chromium,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    f"--user-data-dir={tmp}/profile{run}",
                    "--dump-dom",
                    page.as_uri(),
                ],
                capture_output=True,
                text=True,
                timeout=120,
                check=True,
            ).stdout
            walls.append(time.perf_counter() - start)
            found = re.search(r'data-render-ms="([\d.]+)"', dom)
            errors = re.search(r'data-katex-errors="(\d+)"', dom)
            if found is None or errors is None or errors.group(1) != "0":
                raise SystemExit("the page did not render every formula")
            renders.append(float(found.group(1)) / 1000)
        return {
            "bytes": page.stat().st_size,
            "formulas": formulas,
            "math": math,
            "marks": marks,
            "written": written,
            "render": statistics.median(renders),
            "wall": statistics.median(walls),
        }


def section(figures: dict[str, float]) -> str:
    size = figures["bytes"] / 1e6
    return "\n".join(
        [
            BEGIN,
            "## The HTML report of a 300-formula document (issue 28)",
            "",
            f"Recorded by `python benchmarks/html_report.py --record` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
            f"load average (1 min) {os.getloadavg()[0]:.2f}.  benchmarks/verify_mixed.py's document: "
            f"{figures['formulas']:.0f} formulas as verify reads them (LaTeX, code, plain text, tables), "
            f"{figures['math']:.0f} math blocks rendered by KaTeX in the page, {figures['marks']:.0f} numbers marked.",
            "",
            "| measure | value | goal |",
            "|---|---|---|",
            f"| size of the self-contained file | {size:.2f} MB | ≤ 2 MB: {'met' if size <= 2 else 'not met'} |",
            f"| render in headless Chromium (the page's own clock, median of {RUNS}) | {figures['render']:.2f} s | "
            f"≤ 3 s: {'met' if figures['render'] <= 3 else 'not met'} |",
            f"| Chromium started, page loaded and rendered, DOM dumped (wall) | {figures['wall']:.2f} s | – |",
            f"| `symattn verify --format html` writing it | {figures['written']:.2f} s | – |",
            "",
            END,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="write the section into benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    text = section(measure())
    print(text)
    if args.record:
        write_section(text, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
