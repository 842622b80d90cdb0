"""A project's settings for ``verify`` and ``fix``: ``[tool.symattn]`` in ``pyproject.toml``,
or the top level of ``.symattn.toml``, as ruff reads ``[tool.ruff]``.

The settings are those of the first of these files found from the working directory upward
(``.symattn.toml`` first in each directory; a ``pyproject.toml`` without ``[tool.symattn]``
is passed over).  Options given on the command line win.

.. code-block:: toml

    [tool.symattn]
    exclude = ["drafts/**", "notes/common-mistakes.md"]  # globs, relative to the file's directory
    read = "latex,code"                                  # verify --read
    lang = "zh"                                          # the report's language
    strict = true                                        # verify --strict
    timeout = 5                                          # seconds per formula
    budget = 120                                         # seconds per document

A setting of the wrong type is an error of one line naming the file and the key (exit 2).
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symattn.errors import InputError

__all__ = ["Settings", "find_settings"]

#: A settings file larger than this is refused (they are a few lines).
MAX_SETTINGS_BYTES = 1 << 20
_KEYS = {"exclude", "read", "lang", "strict", "timeout", "budget"}


@dataclass(frozen=True)
class Settings:
    """The settings of one project (none: every field at its default)."""

    path: Path | None = None
    exclude: tuple[str, ...] = ()
    read: str | None = None
    lang: str | None = None
    strict: bool = False
    timeout: float | None = None
    budget: float | None = None
    root: Path = field(default_factory=Path.cwd)

    def excludes(self, document: str) -> bool:
        """Whether ``document`` (a path as given) matches an ``exclude`` glob, relative to the
        settings file's directory (``drafts/**``), or by its name alone (``*.draft.md``)."""
        if not self.exclude or document == "-":
            return False
        try:
            relative = Path(os.path.abspath(document)).relative_to(self.root).as_posix()
        except ValueError:
            relative = Path(document).as_posix()
        name = Path(document).name
        return any(
            fnmatch.fnmatchcase(relative, glob)
            or fnmatch.fnmatchcase(name, glob)
            or (glob.endswith("/**") and (relative + "/").startswith(glob[:-2]))
            for glob in self.exclude
        )


def _table(path: Path) -> dict[str, Any] | None:
    if path.stat().st_size > MAX_SETTINGS_BYTES:
        raise InputError(f"{path}: larger than {MAX_SETTINGS_BYTES} bytes; not read as settings")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: not TOML ({error})") from None
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("symattn") if isinstance(tool, dict) else None
        return table if isinstance(table, dict) else None
    return data


def _checked(path: Path, table: dict[str, Any]) -> Settings:
    where = f"{path}: [tool.symattn]" if path.name == "pyproject.toml" else str(path)
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise InputError(f"{where}: unknown setting {unknown[0]!r} (settings: {', '.join(sorted(_KEYS))})")
    exclude = table.get("exclude", [])
    if not (isinstance(exclude, list) and all(isinstance(g, str) for g in exclude)):
        raise InputError(f"{where}: exclude must be a list of glob strings")
    for key in ("read", "lang"):
        if key in table and not isinstance(table[key], str):
            raise InputError(f"{where}: {key} must be a string")
    if table.get("lang", "en") not in ("en", "zh"):
        raise InputError(f"{where}: lang must be 'en' or 'zh'")
    if "strict" in table and not isinstance(table["strict"], bool):
        raise InputError(f"{where}: strict must be true or false")
    for key in ("timeout", "budget"):
        value = table.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or value <= 0
        ):
            raise InputError(f"{where}: {key} must be a positive number of seconds")
    return Settings(
        path=path,
        exclude=tuple(exclude),
        read=table.get("read"),
        lang=table.get("lang"),
        strict=table.get("strict", False),
        timeout=table.get("timeout"),
        budget=table.get("budget"),
        root=path.parent,
    )


def find_settings(start: Path | None = None) -> Settings:
    """The settings of the project that holds ``start`` (default: the working directory)."""
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        for name in (".symattn.toml", "pyproject.toml"):
            candidate = directory / name
            if candidate.is_file():
                table = _table(candidate)
                if table is not None:
                    return _checked(candidate, table)
    return Settings()
