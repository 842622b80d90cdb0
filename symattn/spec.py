"""AttentionSpec: an attention problem as data, read from TOML.

TOML floats are read from their decimal text (``parse_float``), so ``0.1`` is
1/10 and a claim ``0.40`` keeps its two places; no binary float is made.
The format is documented in README.md.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symattn import registry
from symattn.errors import (
    InputError,
    MissingFileError,
    NotTextError,
    SpecError,
    SpecSyntaxError,
    UnknownKeyError,
)

if TYPE_CHECKING:
    from symattn.blockspec import BlockSpec

__all__ = ["AttentionSpec", "BlockSpec", "load_spec", "parse_spec"]

_TOP_KEYS = (
    "title",
    "labels",
    "kv_labels",
    "X",
    "X_kv",
    "W_Q",
    "W_K",
    "W_V",
    "scale",
    "temperature",
    "mask",
    "heads",
    "W_O",
    "claims",
    "sections",
)
_HEAD_KEYS = ("W_Q", "W_K", "W_V")
_CLAIM_KEYS = registry.attention_claim_keys()
#: A block spec (symattn.block): positions, layers, an optional final linear layer.
_BLOCK_KEYS = ("title", "X", "memory", "positional", "layers", "unembed", "claims")


class DecimalText(str):
    """A TOML float kept as the text it was written with (``1_000.5`` -> ``1000.5``)."""

    def __new__(cls, text: str) -> DecimalText:
        return super().__new__(cls, text.replace("_", ""))


@dataclass(frozen=True)
class AttentionSpec:
    """An attention problem: inputs, options, and numbers a document claimed.

    Matrices hold the values as read (ints, strings, :class:`DecimalText`);
    :meth:`run` turns them into exact values.
    """

    X: Any
    W_Q: Any = None
    W_K: Any = None
    W_V: Any = None
    X_kv: Any = None
    scale: Any = "sqrt_dk"
    temperature: Any = 1
    mask: Any = None
    labels: tuple[str, ...] | None = None
    kv_labels: tuple[str, ...] | None = None
    heads: tuple[tuple[Any, Any, Any], ...] | None = None
    W_O: Any = None
    claims: dict[str, Any] = field(default_factory=dict)
    title: str | None = None
    source: str | None = None
    key_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    sections: tuple[str, ...] | None = None  # what derive includes (derivation.SECTIONS); None: by size

    @property
    def options(self) -> dict[str, Any]:
        """Keyword options shared by :func:`attention` and :func:`multihead`."""
        return {
            "X_kv": self.X_kv,
            "scale": self.scale,
            "mask": self.mask,
            "temperature": self.temperature,
            "labels": self.labels,
            "kv_labels": self.kv_labels,
        }

    def run(self):
        """Compute the attention this spec describes.

        Returns:
            An :class:`~symattn.pipeline.Attention`, or a
            :class:`~symattn.pipeline.MultiHead` when the spec has heads.

        Raises:
            SymattnError: as :func:`~symattn.pipeline.attention`, with the
                spec's file named in the message.
        """
        from symattn.pipeline import attention, multihead

        with self.errors_located():
            if self.heads is not None:
                return multihead(self.X, self.heads, self.W_O, **self.options)
            return attention(self.X, self.W_Q, self.W_K, self.W_V, **self.options)

    @contextmanager
    def errors_located(self) -> Iterator[None]:
        """Prefix a SymattnError raised inside with the spec's ``file:line``.

        The line is the one of the key the message starts with (``X[2,1]: ...``,
        ``claims.weights ...``), or the file alone.
        """
        from symattn.errors import SymattnError

        try:
            yield
        except SymattnError as error:
            if self.source is None or str(error).startswith(f"{self.source}:"):
                raise
            named = re.match(r"(?:claims\.(?:head\d+\.)?)?(\w+)[\[:\s]", str(error))
            line = self.key_lines.get(named.group(1)) if named else None
            place = f"{self.source}:{line}" if line else self.source
            raise type(error)(f"{place}: {error}") from None


def _line_of(text: str, key: str) -> int | None:
    match = re.search(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _where(source: str, text: str, key: str) -> str:
    line = _line_of(text, key)
    return f"{source}:{line}" if line else source


def _check_keys(table: dict, allowed: tuple[str, ...], source: str, text: str, what: str) -> None:
    for key in table:
        if key not in allowed:
            raise UnknownKeyError(
                f"{_where(source, text, key)}: unknown key {key!r} in {what} "
                f"(known keys: {', '.join(allowed)})"
            )


def _labels(value: Any, key: str, source: str, text: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError(f"{_where(source, text, key)}: {key} must be a list of strings")
    return tuple(value)


def parse_spec(text: str, source: str = "<spec>") -> AttentionSpec | BlockSpec:
    """Read a spec from TOML text: attention, or with ``[[layers]]`` or ``[positional]`` a
    transformer block (:class:`~symattn.blockspec.BlockSpec`).

    Raises:
        SpecSyntaxError: invalid TOML, naming ``source:line``.
        UnknownKeyError: a key symattn does not know.
        SpecError: a missing X, or a value of the wrong type.
    """
    try:
        data = tomllib.loads(text, parse_float=DecimalText)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if match:
            place = f"{source}:{match.group(1)}"
        else:  # "(at end of document)": the last line that holds anything
            place = f"{source}:{max(1, text.rstrip().count(chr(10)) + 1)}"
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) if match else message
        raise SpecSyntaxError(f"{place}: invalid TOML: {reason}") from None
    if "layers" in data or "positional" in data:
        from symattn.blockspec import parse_block

        return parse_block(data, text, source)
    _check_keys(data, _TOP_KEYS, source, text, "the spec")
    if "X" not in data:
        raise SpecError(f"{source}: the spec has no X (the input matrix)")
    heads = None
    if "heads" in data:
        if not isinstance(data["heads"], list) or not data["heads"]:
            raise SpecError(f"{_where(source, text, 'heads')}: heads must be a list of [[heads]] tables")
        for key in _HEAD_KEYS:
            if key in data:
                raise SpecError(
                    f"{_where(source, text, key)}: {key} belongs inside [[heads]] when heads are given"
                )
        heads = []
        for head in data["heads"]:
            if not isinstance(head, dict):
                raise SpecError(f"{_where(source, text, 'heads')}: each head must be a [[heads]] table")
            _check_keys(head, _HEAD_KEYS, source, text, "a [[heads]] table")
            heads.append(tuple(head.get(key) for key in _HEAD_KEYS))
        heads = tuple(heads)
    elif "W_O" in data:
        raise SpecError(f"{_where(source, text, 'W_O')}: W_O needs [[heads]]")
    claims = data.get("claims", {})
    if not isinstance(claims, dict):
        raise SpecError(f"{_where(source, text, 'claims')}: claims must be a [claims] table")
    claims = _flatten_head_claims(claims)
    allowed = _CLAIM_KEYS if heads is None else registry.multihead_claim_keys(len(heads))
    _check_keys(claims, allowed, source, text, "[claims]")
    for key, matrix in claims.items():
        _check_claim_matrix(key, matrix, _where(source, text, key.rpartition(".")[2]))
    mask = data.get("mask")
    if isinstance(mask, list):
        mask = [[_mask_entry(v) for v in row] if isinstance(row, list) else row for row in mask]
    title = data.get("title")
    if title is not None and not isinstance(title, str):
        raise SpecError(f"{_where(source, text, 'title')}: title must be a string")
    sections = data.get("sections")
    if sections is not None:
        from symattn.derivation import SECTIONS

        if not (isinstance(sections, list) and all(s in (*SECTIONS, "all") for s in sections)):
            raise SpecError(
                f"{_where(source, text, 'sections')}: sections must be a list of {', '.join((*SECTIONS, 'all'))}"
            )
        sections = tuple(sections)
    return AttentionSpec(
        X=data["X"],
        W_Q=data.get("W_Q"),
        W_K=data.get("W_K"),
        W_V=data.get("W_V"),
        X_kv=data.get("X_kv"),
        scale=data.get("scale", "sqrt_dk"),
        temperature=data.get("temperature", 1),
        mask=mask,
        labels=_labels(data.get("labels"), "labels", source, text),
        kv_labels=_labels(data.get("kv_labels"), "kv_labels", source, text),
        heads=heads,
        W_O=data.get("W_O"),
        claims=dict(claims),
        title=title,
        sections=sections,
        source=source,
        key_lines={
            key: line
            for key in [*data, *(k.rpartition(".")[2] for k in claims)]
            if (line := _line_of(text, key)) is not None
        },
    )


def _check_claim_matrix(key: str, matrix: Any, place: str) -> None:
    """Claims are matrices of printed numbers: rows of equal length."""
    from symattn.exact import parse_claim

    if not isinstance(matrix, list) or not matrix or not all(isinstance(row, list) for row in matrix):
        raise SpecError(f"{place}: claims.{key} must be a matrix such as [[0.4, 0.6]]")
    for i, row in enumerate(matrix, start=1):
        if len(row) != len(matrix[0]):
            raise SpecError(
                f"{place}: claims.{key}: row {i} has {len(row)} entries but row 1 has {len(matrix[0])}"
            )
        for j, value in enumerate(row, start=1):
            try:
                parse_claim(str(value))
            except InputError as error:
                raise SpecError(f"{place}: claims.{key}[{i},{j}]: {error}") from None


def _flatten_head_claims(claims: dict) -> dict:
    """``[claims.head1] weights = ...`` (or ``head1.weights = ...``) -> ``"head1.weights"``."""
    flat = {}
    for key, value in claims.items():
        if isinstance(value, dict):
            for stage, matrix in value.items():
                flat[f"{key}.{stage}"] = matrix
        else:
            flat[key] = value
    return flat


def _mask_entry(value: Any) -> Any:
    # TOML writes -inf as a float; keep it as the text "-inf" for the grammar.
    return str(value) if isinstance(value, DecimalText) else value


def load_spec(path: str | Path) -> AttentionSpec | BlockSpec:
    """Read a TOML spec file.

    Args:
        path: the spec's path.

    Returns:
        An :class:`AttentionSpec`, or a :class:`~symattn.blockspec.BlockSpec` for a block.

    Raises:
        MissingFileError: the file does not exist.
        NotTextError: the file is not UTF-8 text.
        SpecSyntaxError, UnknownKeyError, SpecError: see :func:`parse_spec`.

    >>> spec = load_spec("derivations/reference.toml")  # doctest: +SKIP
    """
    path = Path(path)
    if path.is_dir():
        raise MissingFileError(f"{path}: is a directory, not a spec file")
    if not path.is_file():
        raise MissingFileError(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise NotTextError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from None
    return parse_spec(text, str(path))


def __getattr__(name: str) -> Any:
    if name == "BlockSpec":  # defined in symattn.blockspec, which imports this module
        from symattn.blockspec import BlockSpec

        return BlockSpec
    raise AttributeError(name)
