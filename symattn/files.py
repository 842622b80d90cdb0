"""Writing output files: all or nothing.

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
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

__all__ = ["TEMP_SUFFIX", "stale_temporaries", "write_atomically"]

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
