"""The ``symattn`` MkDocs plugin: verify every page's numbers at build time.

Add it to ``mkdocs.yml``::

    plugins:
      - symattn

The Markdown source files of all pages are verified once per build, side by
side, by the same code as ``symattn verify`` (:func:`symattn.verify.many.verify_paths`),
so lines and columns are those of the files, front matter included.  Each
wrong number is logged as a warning ``page:line:col: claimed X, true Y (kind)``
when its page is built, so ``mkdocs build --strict`` fails on it; a page that
cannot be verified is a warning too.  Pages are not changed.

Options: ``enabled`` (default true) turns the check off, e.g.
``enabled: !ENV [SYMATTN_VERIFY, true]``; ``jobs`` (default: the CPUs) is
``symattn verify -j``; ``exclude`` (globs, relative to ``docs_dir``) leaves pages out;
``read`` is ``symattn verify --read``; ``marks`` (default false), for a preview build, marks
each wrong number in the built page: in prose a ``<mark class="symattn-wrong">`` (or
``symattn-carried``) whose title gives the true value and the kind, in math the literal
coloured with ``{\\color{…}…}``, which MathJax and KaTeX both render; numbers in code are
left as they are.  The project's settings (``[tool.symattn]`` in
``pyproject.toml`` or ``.symattn.toml``, found from ``mkdocs.yml``'s directory up; see
:mod:`symattn.settings`) apply where these are not given, and ``<!-- symattn: ignore -->``
comments in a page are honoured as by ``symattn verify``.
"""

from __future__ import annotations

import fnmatch
import html
import re
from pathlib import Path
from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.plugins import BasePlugin, get_plugin_logger

from symattn.settings import find_settings
from symattn.verify import VerifyOptions
from symattn.verify.formats import message
from symattn.verify.many import FileResult, verify_one, verify_paths
from symattn.verify.readers import ReadConfig

__all__ = ["SymattnConfig", "SymattnPlugin"]

log = get_plugin_logger("symattn")


class SymattnConfig(Config):
    """The plugin's options."""

    enabled = config_options.Type(bool, default=True)
    jobs = config_options.Optional(config_options.Type(int))
    exclude = config_options.ListOfItems(config_options.Type(str), default=[])
    read = config_options.Optional(config_options.Type(str))
    marks = config_options.Type(bool, default=False)


class SymattnPlugin(BasePlugin[SymattnConfig]):
    """Log each wrong number of a page as a warning (``mkdocs build --strict`` fails)."""

    def __init__(self) -> None:
        self.results: dict[str, FileResult] = {}
        self.excluded: set[str] = set()
        self.options = VerifyOptions()

    def on_files(self, files: Any, /, *, config: Any) -> Any:
        """Verify every Markdown page of the build at once (a pool of ``jobs``)."""
        self.results = {}
        if not self.config.enabled:
            return files
        settings = find_settings(Path(config.config_file_path or ".").parent)
        read = self.config.read or settings.read
        self.options = VerifyOptions(read=ReadConfig.parse(read)) if read else VerifyOptions()
        self.excluded = {
            f.abs_src_path
            for f in files.documentation_pages()
            if f.abs_src_path
            and (
                any(fnmatch.fnmatchcase(f.src_uri, glob) for glob in self.config.exclude)
                or settings.excludes(f.abs_src_path)
            )
        }
        paths = [f.abs_src_path for f in files.documentation_pages() if f.abs_src_path]
        paths = [p for p in paths if p not in self.excluded]
        jobs = self.config.jobs
        for result in verify_paths(paths, jobs=None if jobs is None else max(1, jobs), options=self.options):
            self.results[result.path] = result
        return files

    def on_page_markdown(self, markdown: str, /, *, page: Any, config: Any, files: Any) -> str | None:
        """Log the wrong numbers of this page."""
        path = page.file.abs_src_path
        if not self.config.enabled or not path or path in self.excluded:
            return markdown
        result = self.results.pop(path, None) or verify_one(path, self.options)  # added by another plugin
        name = page.file.src_path
        if result.report is None:
            log.warning(f"{name}: cannot be verified: {result.error}")
            return markdown
        for finding in result.report.wrong:
            log.warning(f"{name}:{finding.line}:{finding.column}: {message(finding)}")
        if self.config.marks and result.text is not None:
            return _marked(markdown, result.text, list(result.report.wrong))
        return markdown


#: Regions of a page's Markdown: fenced code, inline code, display and inline math.
_REGIONS = re.compile(
    r"(?P<fence>^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\2[ \t]*$)|(?P<code>`+[^`\n]*`+)"
    r"|(?P<math>\$\$.*?\$\$|\\\[.*?\\\]|\\\(.*?\\\)|(?<![\\$])\$[^$\n]+\$)",
    re.S | re.M,
)


def _marked(markdown: str, source: str, wrong: list) -> str:
    """``markdown`` (the page's text after MkDocs took its front matter off) with each wrong
    number marked where it stands: ``<mark>`` in prose, ``{\\color{…}…}`` in math, nothing
    in code.  Findings are placed by their line and column in ``source`` (the file)."""
    start = source.find(markdown)
    if start < 0 or not wrong:
        return markdown
    line_starts = [0, *(m.end() for m in re.finditer("\n", source))]
    regions = [(m.start(), m.end(), m.lastgroup) for m in _REGIONS.finditer(markdown)]  # in order

    def region(at: int) -> str:
        for a, b, kind in regions:
            if a <= at < b:
                return kind or ""
            if a > at:
                break
        return "prose"

    edits = []
    for finding in wrong:
        if not 1 <= finding.line <= len(line_starts):
            continue
        at = line_starts[finding.line - 1] + finding.column - 1 - start
        if at < 0 or markdown[at : at + len(finding.claimed)] != finding.claimed:
            continue
        carried = finding.kind in ("carried", "rounding-carried")
        where = region(at)
        if where == "math":
            colour = "#b07000" if carried else "#d00000"
            edits.append((at, len(finding.claimed), f"{{\\color{{{colour}}}{finding.claimed}}}"))
        elif where == "prose":
            title = html.escape(message(finding), quote=True)
            css = "symattn-carried" if carried else "symattn-wrong"
            edits.append(
                (at, len(finding.claimed), f'<mark class="{css}" title="{title}">{finding.claimed}</mark>')
            )
    for at, length, text in sorted(edits, reverse=True):
        markdown = markdown[:at] + text + markdown[at + length :]
    return markdown
