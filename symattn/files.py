"""Writing output files: all or nothing; and reading line breaks.

:func:`write_atomically` writes a temporary file next to the target and
renames it over the target, so a reader sees the old file or the new one,
never a part.  Its rules:

- A new file gets the mode a plain ``open(path, "w")`` would give it (0666
  less the umask); a file being replaced keeps its mode.
- A symlink given as the target is followed: the file it points to is
  replaced (in its own folder) and the link stays a link.
- The temporary file is named ``.NAME.PID.RANDOM.symattn-tmp`` (NAME the
  target's name, PID the writing process), so it is easy to find.  One left
  behind by a process that was killed mid-write (its PID no longer runs) is
  removed the next time the same target is written.

:func:`split_line_endings` gives a document's text with ``\n`` line breaks and
how the original broke its lines (CRLF, a lone CR, or mixed), which
:meth:`LineEndings.restore` puts back.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

__all__ = ["TEMP_SUFFIX", "LineEndings", "split_line_endings", "stale_temporaries", "write_atomically"]

#: The suffix of every temporary file symattn writes.
TEMP_SUFFIX = ".symattn-tmp"


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. PermissionError: it runs, as another user
        return True
    return True


def stale_temporaries(path: str | Path) -> list[Path]:
    """The temporary files of ``path`` left by writers that no longer run."""
    path = Path(path)
    stale = []
    for temp in path.parent.glob(f".{path.name}.*{TEMP_SUFFIX}"):
        middle = temp.name[len(path.name) + 2 : -len(TEMP_SUFFIX)]  # PID.RANDOM
        pid_text = middle.split(".", 1)[0]
        if pid_text.isdigit() and not _running(int(pid_text)):
            stale.append(temp)
    return sorted(stale)


def write_atomically(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8; or ``bytes`` as they are) to ``path`` via a temporary file and a rename.

    A failure leaves neither a partial file nor the temporary file behind.  See
    the module docstring for modes, symlinks and temporary names.
    """
    target = Path(os.path.realpath(path))  # a symlink is followed, and stays a link
    for temp in stale_temporaries(target):
        with contextlib.suppress(OSError):
            temp.unlink()
    try:
        mode: int | None = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = None
    temp = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        if isinstance(text, bytes):
            handle = os.fdopen(fd, "wb")
        else:
            handle = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        with handle:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), mode)
            handle.write(text)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class LineEndings:
    """How a text ended its lines, so that text read with ``\\n`` alone can be written back alike.

    Attributes:
        style: ``"\\n"``, ``"\\r\\n"`` or ``"\\r"`` when every line break of the text was that
            one (also ``"\\n"`` for a text without line breaks); None when they were mixed.
        breaks: the line breaks in order when they were mixed, else empty.
    """

    style: str | None = "\n"
    breaks: tuple[str, ...] = ()

    def restore(self, text: str) -> str:
        """``text`` (line breaks ``\\n``) with the original line breaks.

        Mixed breaks are put back in order when ``text`` has as many line breaks as the
        original (replacing literals keeps them); otherwise every break becomes the one
        the original used most.
        """
        if self.style is not None:
            return text if self.style == "\n" else text.replace("\n", self.style)
        lines = text.split("\n")
        if len(lines) == len(self.breaks) + 1:
            return "".join(itertools.chain.from_iterable(zip(lines, (*self.breaks, ""), strict=True)))
        common = max(set(self.breaks), key=self.breaks.count)
        return text.replace("\n", common)


_BREAK = re.compile(r"\r\n?|\n")


def split_line_endings(text: str) -> tuple[str, LineEndings]:
    """``text`` with every line break (``\\r\\n``, a lone ``\\r``, ``\\n``) written ``\\n``, and
    how it broke its lines (:class:`LineEndings`, whose ``restore`` undoes it).

    The one place where ``symattn verify`` and ``symattn fix`` read line breaks: a
    lone CR is a line break exactly as LF is, so lines and columns (1-based, in
    characters) are the same in the text returned and in the original; only offsets
    differ (by one per CRLF before them).

    >>> split_line_endings("a\\rb\\rc")
    ('a\\nb\\nc', LineEndings(style='\\r', breaks=()))
    >>> lf, endings = split_line_endings("a\\r\\nb\\nc")
    >>> endings.restore(lf.replace("b", "B"))
    'a\\r\\nB\\nc'
    """
    if "\r" not in text:
        return text, LineEndings()
    breaks = _BREAK.findall(text)
    kinds = set(breaks)
    lf = _BREAK.sub("\n", text)
    if len(kinds) == 1:
        return lf, LineEndings(next(iter(kinds)))
    return lf, LineEndings(None, tuple(breaks))
