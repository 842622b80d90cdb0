"""``symattn verify --format html``: the document, rendered, with its numbers marked in place.

The browser tests run the real thing: Debian's Chromium, headless, on the report file, with
every network request refused.  They check the DOM the page builds (marks, links, KaTeX
errors), the console, and the network log, and keep a screenshot as a CI artifact
(``$SYMATTN_ARTIFACTS``, default ``build/artifacts``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from symattn.cli import main

ROOT = Path(__file__).resolve().parent.parent
# the team's seed document (../shared/seed), kept in tests/data so a fresh clone runs these tests too
SEED = Path(__file__).parent / "data" / "seed_000_353ac04a18db8a6f.txt"
DERIVATIONS = sorted((ROOT / "derivations").glob("*.md"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"), reason="Chromium is not installed (.ci/run installs it)"
)


def _report(tmp_path: Path, doc: Path, *args: str) -> Path:
    if not doc.exists():
        pytest.skip(f"{doc} is not present in this checkout")
    out = tmp_path / (doc.stem + ".html")
    code = main(["verify", str(doc), "--format", "html", "-o", str(out), *args])
    assert code in (0, 1)
    return out


def _browse(
    page: Path, tmp_path: Path, *, screenshot: Path | None = None, fragment: str = ""
) -> tuple[str, str, str]:
    """(the DOM after the page's scripts ran, Chromium's log, its network log)."""
    assert CHROMIUM is not None, "Chromium is needed here (.ci/run installs it)"
    netlog = tmp_path / f"{page.stem}.netlog.json"
    common = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND",  # no request can reach anything
        "--proxy-server=127.0.0.1:9",
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=10000",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(
        [*common, f"--log-net-log={netlog}", "--dump-dom", page.as_uri() + fragment],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    if screenshot is not None:
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                *common,
                "--hide-scrollbars",
                "--window-size=1300,1600",
                f"--screenshot={screenshot}",
                page.as_uri(),
            ],
            capture_output=True,
            timeout=120,
            check=True,
        )
    return dom.stdout, dom.stderr, netlog.read_text(encoding="utf-8") if netlog.exists() else ""


#: Chromium's own services (update checks, time, dictionaries, sign-in), not the page's loads.
_BROWSER_SERVICES = re.compile(
    r"^https?://[^/]*\b(?:google\.com|googleapis\.com|gvt1\.com|gstatic\.com)(?::\d+)?/"
)


def _requests(netlog: str) -> list[str]:
    """The URLs the page asked for: every request but its own file and the browser's services."""
    urls = set(re.findall(r'"url":"([^"]+)"', netlog))
    return sorted(
        u for u in urls if not u.startswith(("file:", "data:", "about:")) and not _BROWSER_SERVICES.match(u)
    )


def _console_errors(log: str) -> list[str]:
    return [
        line for line in log.splitlines() if "CONSOLE" in line and ("Error" in line or "Uncaught" in line)
    ]


def test_the_report_is_one_self_contained_file(tmp_path: Path) -> None:
    page = _report(tmp_path, SEED).read_text(encoding="utf-8")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r'\s(?:src|href)="(?:https?:)?//', page)  # nothing from a CDN
    assert "url(fonts/" not in page and "data:font/woff2;base64," in page
    assert page.count("<script") == 3  # the findings (JSON), KaTeX, the page's own script


def test_the_document_cannot_run_or_load_anything(tmp_path: Path) -> None:
    doc = tmp_path / "evil.md"
    doc.write_text(
        "# Attack\n\n"
        "<script>alert(1)</script>\n\n"
        'text <img src="x" onerror="alert(2)"> and <a href="javascript:alert(3)">link</a>\n\n'
        "[click](javascript:alert(4)) and ![pic](https://example.com/a.png)\n\n"
        '<iframe src="https://example.com"></iframe>\n\n'
        "$$X = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad \\href{javascript:alert(5)}{x}$$\n\n"
        "$$x = 1 + 1 = 3$$\n",
        encoding="utf-8",
    )
    page = _report(tmp_path, doc).read_text(encoding="utf-8")
    scripts = re.findall(r"<script[^>]*>", page)
    page = page.split("<script", 1)[0]  # the document as rendered (KaTeX's own code mentions <img)
    assert len(scripts) == 3 and "alert(1)</script>" not in page
    assert not re.search(r"<img\b", page) and not re.search(r"<iframe\b", page)
    assert not re.search(r"<[a-z][^>]*\son\w+\s*=", page, re.I)  # no event handler in any tag
    assert not re.search(r'href="javascript:', page, re.I)
    assert "https://example.com/a.png" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown as text


@needs_chromium
def test_the_seed_report_in_a_real_browser(tmp_path: Path) -> None:
    page = _report(tmp_path, SEED)
    artifacts = Path(os.environ.get("SYMATTN_ARTIFACTS", ROOT / "build" / "artifacts"))
    dom, log, netlog = _browse(page, tmp_path, screenshot=artifacts / "seed-report.png")
    assert 'data-katex-errors="0"' in dom
    assert len(re.findall(r'class="[^"]*\bsa-wrong\b', dom)) == 3
    carried = re.findall(r'class="[^"]*\bsa-carried\b', dom)
    assert len(carried) >= 19
    assert len(re.findall(r'class="[^"]*\bsa-ok\b', dom)) >= 100  # quiet until the toggle shows them
    data = json.loads(
        re.search(r'<script type="application/json" id="sa-data">(.*?)</script>', dom, re.S).group(1)
    )
    assert {f["carried_from"] for f in data["findings"] if f["css"] == "carried"} == {41}
    assert 'id="line-41"' in dom  # "carried from line 41" has a target
    assert re.search(r'<a href="#f\d+">41:61 0\.3 → 0\.2483', dom)  # the panel's root, linked to its place
    assert _console_errors(log) == []
    assert _requests(netlog) == []
    assert (artifacts / "seed-report.png").stat().st_size > 10_000
    # a link to a number focuses it and shows its finding: the true value, the exact form in
    # KaTeX, the kind, the fix; a carried one links to the line it is carried from
    places = {(f["line"], f["column"]): k for k, f in enumerate(data["findings"])}
    for (line, column), expected in (
        ((41, 61), "symattn fix would write: <code>0.2</code>"),
        ((47, 76), 'href="#line-41"'),
    ):
        dom, _log, _net = _browse(page, tmp_path, fragment=f"#f{places[(line, column)]}")
        tip = re.search(r'<div id="sa-tip"[^>]*display: block[^>]*>(.*?)</div>\s*<script', dom, re.S)
        assert tip is not None, (line, column)
        assert "true value: 0.2483" in tip.group(1) and 'class="katex"' in tip.group(1)
        assert expected in tip.group(1)


@needs_chromium
def test_every_derivation_renders_every_formula(tmp_path: Path) -> None:
    assert DERIVATIONS
    for doc in DERIVATIONS:
        page = _report(tmp_path, doc)
        dom, log, netlog = _browse(page, tmp_path)
        assert 'data-katex-errors="0"' in dom, doc.name
        assert _console_errors(log) == [], doc.name
        assert _requests(netlog) == [], doc.name


def test_the_report_speaks_chinese(tmp_path: Path) -> None:
    page = _report(tmp_path, SEED, "--lang", "zh").read_text(encoding="utf-8")
    assert "个数字" in page and "发现" in page and 'lang="zh"' in page


def test_html_takes_one_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.md"
    other.write_text("$$1 + 1 = 2$$\n", encoding="utf-8")
    assert main(["verify", str(SEED), str(other), "--format", "html"]) == 2
    assert "one document" in capsys.readouterr().err
