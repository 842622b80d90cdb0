"""The ``symattn`` MkDocs plugin: verify every page's numbers at build time.

Add it to ``mkdocs.yml``::

    plugins:
      - symattn

Each Markdown page's source file is verified by the same code as
``symattn verify`` (:func:`symattn.verify.many.verify_one`), so lines and
columns are those of the file, front matter included.  Every wrong number is
logged as a warning ``page:line:col: claimed X, true Y (kind)``, so
``mkdocs build --strict`` fails on it; a page that cannot be verified is a
warning too.  The page itself is not changed.

Options: ``enabled`` (default true) turns the check off, e.g.
``enabled: !ENV [SYMATTN_VERIFY, true]``.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.plugins import BasePlugin, get_plugin_logger

from symattn.verify.formats import message
from symattn.verify.many import verify_one

__all__ = ["SymattnConfig", "SymattnPlugin"]

log = get_plugin_logger("symattn")


class SymattnConfig(Config):
    """The plugin's options."""

    enabled = config_options.Type(bool, default=True)


class SymattnPlugin(BasePlugin[SymattnConfig]):
    """Log each wrong number of a page as a warning (``mkdocs build --strict`` fails)."""

    def on_page_markdown(self, markdown: str, /, *, page: Any, config: Any, files: Any) -> str | None:
        if not self.config.enabled or not page.file.abs_src_path:
            return markdown
        name = page.file.src_path
        result = verify_one(page.file.abs_src_path)
        if result.report is None:
            log.warning(f"{name}: cannot be verified: {result.error}")
            return markdown
        for finding in result.report.wrong:
            log.warning(f"{name}:{finding.line}:{finding.column}: {message(finding)}")
        return markdown
