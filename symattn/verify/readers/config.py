"""Which readers run: a frozen configuration, chosen by ``verify --read``."""

from __future__ import annotations

from dataclasses import dataclass, fields

from symattn.errors import InputError

__all__ = ["READERS", "ReadConfig"]

#: Every reader, in the order ``--read`` lists them.
READERS = ("latex", "code", "text", "tables", "images")


@dataclass(frozen=True)
class ReadConfig:
    """Readers switched on (all by default).

    Attributes:
        latex: ``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``, environments, math in HTML blocks.
        code: code spans and blocks: arithmetic lines, Python programs, printouts.
        text: plain-text and Unicode math in prose and list items.
        tables: Markdown pipe tables and HTML tables of numbers.
        images: LaTeX in image URLs (codecogs, Zhihu, ...).
    """

    latex: bool = True
    code: bool = True
    text: bool = True
    tables: bool = True
    images: bool = True

    @classmethod
    def parse(cls, names: str) -> ReadConfig:
        """``"latex,code"`` -> only those readers.

        Raises:
            InputError: an unknown reader name.
        """
        chosen = {n.strip() for n in names.split(",") if n.strip()}
        unknown = chosen - set(READERS)
        if unknown:
            raise InputError(
                f"--read: unknown reader {', '.join(sorted(unknown))} (readers: {', '.join(READERS)})"
            )
        return cls(**{f.name: f.name in chosen for f in fields(cls)})

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self) if getattr(self, f.name))
