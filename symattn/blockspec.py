"""BlockSpec: a transformer block (positions, layers, a final linear layer) read from TOML.

A spec with ``[positional]`` or ``[[layers]]`` is a block spec
(:func:`symattn.spec.parse_spec` hands it here); docs/spec.md gives the format.
Every key is checked before anything is computed (unknown keys, types, the
activation, the norm's placement and kind), and errors raised while computing
(an odd d_model for sinusoidal positions, ε ≤ 0, a bias of the wrong length,
shapes that do not fit) are prefixed with ``file:line`` of the key they name,
searched inside the ``[[layers]]`` table they belong to.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from symattn import registry
from symattn.errors import SpecError, SymattnError, UnknownKeyError
from symattn.spec import _check_claim_matrix, _mask_entry

__all__ = ["BlockSpec", "parse_block"]

_TOP = ("title", "X", "memory", "positional", "layers", "unembed", "claims")
_POSITIONAL = ("kind", "base", "start", "layout", "P")
_POSITIONAL_KINDS = ("sinusoidal", "learned")
_LAYER = {
    "encoder": ("kind", "attention", "norm", "ffn"),
    "decoder": ("kind", "self_attention", "cross_attention", "norm", "ffn"),
}
_ATTENTION = {
    "attention": ("heads", "kv_heads", "W_O", "scale", "temperature", "mask", "rope"),
    "self_attention": ("heads", "kv_heads", "W_O", "scale", "rope"),
    "cross_attention": ("heads", "W_O"),
}
_ROPE = ("base", "start", "layout")
_NORM = ("placement", "kind", "eps", "gamma_1", "beta_1", "gamma_2", "beta_2", "gamma_3", "beta_3")
_FFN = ("activation", "W_1", "b_1", "W_2", "b_2", "W_3", "b_3")
_UNEMBED = ("W_U", "b_U")


@dataclass(frozen=True)
class BlockSpec:
    """A transformer block as data: the arguments of :func:`symattn.transformer`, and claims.

    Attributes:
        X: the token embeddings, as read.
        layers: one mapping per layer, the keyword arguments of
            :func:`~symattn.block.encoder_layer` or :func:`~symattn.block.decoder_layer`
            (with ``"kind"``).
        positional: None, a mapping of :func:`~symattn.block.positional_encoding`
            options with ``"kind": "sinusoidal"``, or a learned matrix.
        unembed: (W_U, b_U) or None.
        memory: the encoder output decoder layers attend to, or None.
        stage_names: every stage in order, heads included ("layer1.attention.head1.weights").
        claims: stage name → claimed matrix of printed numbers.
    """

    X: Any
    layers: tuple[dict[str, Any], ...]
    stage_names: tuple[str, ...]
    positional: Any = None
    unembed: tuple[Any, Any] | None = None
    memory: Any = None
    claims: dict[str, Any] = field(default_factory=dict)
    title: str | None = None
    source: str | None = None
    text: str = field(default="", compare=False, repr=False)

    def run(self):
        """Compute the block: a :class:`~symattn.block.Transformer` with every stage exact.

        Raises:
            SymattnError: as the block's stages, prefixed with the spec's ``file:line``.
        """
        from symattn.block import transformer

        with self.errors_located():
            return transformer(
                self.X,
                layers=self.layers,
                positional=self.positional,
                unembed=self.unembed,
                memory=self.memory,
            )

    @property
    def stack(self) -> dict[str, Any]:
        """The keyword arguments of :func:`symattn.transformer` (and :func:`symattn.blockfast.transformer_balls`)."""
        return {
            "layers": self.layers,
            "positional": self.positional,
            "unembed": self.unembed,
            "memory": self.memory,
        }

    def check(self, result: Any = None) -> list:
        """Each claimed stage compared entry by entry, in stage order (a list of
        :class:`~symattn.pipeline.Comparison`)."""
        from symattn.pipeline import compare_matrix

        result = self.run() if result is None else result
        with self.errors_located():
            return [
                compare_matrix(name, result.matrix(name), self.claims[name])
                for name in self.stage_names
                if name in self.claims
            ]

    @contextmanager
    def errors_located(self) -> Iterator[None]:
        """Prefix a SymattnError raised inside with ``file:line`` of the key it names."""
        try:
            yield
        except SymattnError as error:
            message = str(error)
            if self.source is None or message.startswith(f"{self.source}:"):
                raise
            line = _line_of_message(self.text, message)
            place = f"{self.source}:{line}" if line else self.source
            raise type(error)(f"{place}: {message}") from None


# --- where a key is --------------------------------------------------------------------------


def _headers(text: str, name: str) -> list[int]:
    """Offsets of each ``[[name]]`` (or ``[name]``) header."""
    return [m.start() for m in re.finditer(rf"^[ \t]*\[\[?{re.escape(name)}\]\]?[ \t]*(#.*)?$", text, re.M)]


def _offset_line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _key_line(text: str, key: str, start: int = 0, end: int | None = None) -> int | None:
    match = re.compile(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*=", re.M).search(
        text, start, len(text) if end is None else end
    )
    return _offset_line(text, match.start()) if match else None


def _layer_range(text: str, k: int) -> tuple[int, int] | None:
    """The text of the k-th (1-based) ``[[layers]]`` table and its sub-tables."""
    starts = _headers(text, "layers")
    if not 1 <= k <= len(starts):
        return None
    # the next top-level table that is not a layer's sub-table ends it
    following = [m.start() for m in re.finditer(r"^[ \t]*\[\[?(?!\[|layers[\].])[^\]]+\]\]?", text, re.M)]
    ends = [s for s in [*starts[k:], *following] if s > starts[k - 1]]
    return starts[k - 1], min(ends, default=len(text))


def _line_of_message(text: str, message: str) -> int | None:
    """The line of the key an error message starts with (``layers[2].ffn.b_1: …``, ``b_1 has …``)."""
    match = re.match(r"layers\[(\d+)\](?:\.\w+)*?(?:\.(\w+))?:\s*(\w+)?", message)
    if match:
        span = _layer_range(text, int(match.group(1)))
        if span is None:
            return None
        for key in (match.group(2), match.group(3)):
            if key and (line := _key_line(text, key, *span)):
                return line
        return _offset_line(text, span[0])
    if message.startswith(("positional", "unembed")):
        table = "positional" if message.startswith("positional") else "unembed"
        headers = _headers(text, table)
        key = re.match(rf"{table}(?:\.(\w+))?:\s*(\w+)?", message)
        for name in (key.group(1), key.group(2)) if key else ():
            if name and headers and (line := _key_line(text, name, headers[0])):
                return line
        return _offset_line(text, headers[0]) if headers else _key_line(text, table)
    named = re.match(r"(?:claims\.)?([\w.]+?)[\[:\s]", message)
    return _claim_line(text, named.group(1)) if named else None


def _claim_line(text: str, key: str) -> int | None:
    """The line of a (possibly dotted) key: written whole and quoted, or its last part."""
    return _key_line(text, f'"{key}"') or _key_line(text, key.rpartition(".")[2])


# --- reading -------------------------------------------------------------------------------


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source

    def place(
        self,
        key: str | None = None,
        layer: int | None = None,
        section: str | None = None,
        sub: str | None = None,
    ) -> str:
        """``file:line`` of ``key`` (inside layer ``layer``'s tables, from its ``[layers.sub]``
        table on, or inside ``[section]``), or of the table itself."""
        line = None
        if layer is not None:
            span = _layer_range(self.text, layer)
            if span is not None:
                start, end = span
                if sub is not None:
                    header = re.compile(rf"^[ \t]*\[\[?layers\.{sub}[\].]", re.M).search(
                        self.text, start, end
                    )
                    start = header.start() if header else start
                line = (_key_line(self.text, key, start, end) if key else None) or _offset_line(
                    self.text, start
                )
        elif section is not None:
            headers = _headers(self.text, section)
            if headers:
                line = (_key_line(self.text, key, headers[0]) if key else None) or _offset_line(
                    self.text, headers[0]
                )
        elif key is not None:
            line = _key_line(self.text, key)
        return f"{self.source}:{line}" if line else self.source

    def claim_place(self, key: str) -> str:
        line = _claim_line(self.text, key)
        return f"{self.source}:{line}" if line else self.source

    def keys(self, table: Any, allowed: tuple[str, ...], what: str, **where: Any) -> dict:
        if not isinstance(table, dict):
            raise SpecError(f"{self.place(**where)}: {what} must be a table")
        for key in table:
            if key not in allowed:
                raise UnknownKeyError(
                    f"{self.place(key=key, **where)}: unknown key {key!r} in {what} "
                    f"(known keys: {', '.join(allowed)})"
                )
        return table

    def choice(self, value: Any, allowed: tuple[str, ...], field_name: str, key: str, **where: Any) -> str:
        if value not in allowed:
            raise SpecError(
                f"{self.place(key=key, **where)}: {field_name}: unknown {key} {value!r} "
                f"(expected one of {', '.join(allowed)})"
            )
        return value

    def matrix(self, value: Any, field_name: str, key: str, **where: Any) -> Any:
        if not isinstance(value, list) or not value or not all(isinstance(row, list) for row in value):
            raise SpecError(f"{self.place(key=key, **where)}: {field_name} must be a matrix such as [[1, 0]]")
        return value


def _flatten(claims: dict, prefix: str = "") -> dict[str, Any]:
    """``[claims.layer1.attention.head1] weights = …`` → ``"layer1.attention.head1.weights"``."""
    flat: dict[str, Any] = {}
    for key, value in claims.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def _heads(read: _Reader, table: dict, name: str, k: int) -> tuple[list, list | None]:
    """The (W_Q, W_K, W_V) heads, or with kv_heads the W_Q of each query head and the (W_K, W_V) pairs."""
    where = {"layer": k}
    heads = table.get("heads")
    if not isinstance(heads, list) or not heads or not all(isinstance(h, dict) for h in heads):
        raise SpecError(
            f"{read.place(key='heads', **where)}: layers[{k}].{name}.heads must be [[…heads]] tables"
        )
    kv = table.get("kv_heads")
    if kv is None:
        for h in heads:
            read.keys(h, ("W_Q", "W_K", "W_V"), f"layers[{k}].{name}.heads", **where)
        return [(h.get("W_Q"), h.get("W_K"), h.get("W_V")) for h in heads], None
    if not isinstance(kv, list) or not kv or not all(isinstance(h, dict) for h in kv):
        raise SpecError(f"{read.place(key='kv_heads', **where)}: layers[{k}].{name}.kv_heads must be tables")
    for h in heads:
        read.keys(h, ("W_Q",), f"layers[{k}].{name}.heads (with kv_heads, W_K and W_V are shared)", **where)
    for h in kv:
        read.keys(h, ("W_K", "W_V"), f"layers[{k}].{name}.kv_heads", **where)
    return [h.get("W_Q") for h in heads], [(h.get("W_K"), h.get("W_V")) for h in kv]


def _layer(read: _Reader, table: Any, k: int, has_memory: bool) -> tuple[dict[str, Any], tuple]:
    from symattn.block import ACTIVATIONS, NORMALIZATIONS, NORMS

    where = {"layer": k}
    if not isinstance(table, dict):
        raise SpecError(f"{read.place(**where)}: layers[{k}] must be a [[layers]] table")
    kind = read.choice(
        table.get("kind", "encoder"), ("encoder", "decoder"), f"layers[{k}].kind", "kind", **where
    )
    read.keys(table, _LAYER[kind], f"layers[{k}] ({kind})", **where)
    norm = read.keys(table.get("norm", {}), _NORM, f"layers[{k}].norm", sub="norm", **where)
    ffn = (
        read.keys(table.get("ffn"), _FFN, f"layers[{k}].ffn", sub="ffn", **where) if "ffn" in table else None
    )
    if ffn is None:
        raise SpecError(f"{read.place(**where)}: layers[{k}] has no [layers.ffn] table (W_1, b_1, W_2, b_2)")
    activation = read.choice(
        ffn.get("activation", "relu"),
        ACTIVATIONS,
        f"layers[{k}].ffn.activation",
        "activation",
        sub="ffn",
        **where,
    )
    placement = read.choice(
        norm.get("placement", "post"), NORMS, f"layers[{k}].norm.placement", "placement", sub="norm", **where
    )
    normalization = read.choice(
        norm.get("kind", "layer_norm"), NORMALIZATIONS, f"layers[{k}].norm.kind", "kind", sub="norm", **where
    )
    for key in ("W_1", "W_2"):
        if key not in ffn:
            raise SpecError(f"{read.place(sub='ffn', **where)}: layers[{k}].ffn has no {key}")
        read.matrix(ffn[key], f"layers[{k}].ffn.{key}", key, **where)
    parts = [ffn.get(key) for key in ("W_1", "b_1", "W_2", "b_2")]
    if "W_3" in ffn or "b_3" in ffn:
        parts += [ffn.get("W_3"), ffn.get("b_3")]
    options: dict[str, Any] = {
        "kind": kind,
        "ffn": tuple(parts),
        "activation": activation,
        "norm": placement,
        "normalization": normalization,
    }
    if "eps" in norm:
        options["eps"] = norm["eps"]
    count = 2 if kind == "encoder" else 3
    for n in range(1, 4):
        gamma, beta = norm.get(f"gamma_{n}"), norm.get(f"beta_{n}")
        if n > count and (gamma is not None or beta is not None):
            raise UnknownKeyError(
                f"{read.place(key=f'gamma_{n}' if gamma is not None else f'beta_{n}', **where)}: "
                f"layers[{k}].norm: an encoder layer has two norms (gamma_1/beta_1, gamma_2/beta_2)"
            )
        if gamma is not None or beta is not None:
            options[f"ln_{n}"] = (
                (gamma, beta) if normalization == "layer_norm" or beta is not None else (gamma,)
            )
    blocks = _attention_options(read, table, kind, k, has_memory=has_memory, options=options)
    return options, (kind, placement, activation, blocks)


def _attention_options(
    read: _Reader, table: dict, kind: str, k: int, *, has_memory: bool, options: dict[str, Any]
) -> list[tuple[str, int]]:
    """Add a layer's attention arguments to ``options``; return (attention stage, heads) of each block."""
    where = {"layer": k}
    blocks = []
    if kind == "encoder":
        attention = read.keys(
            table.get("attention"), _ATTENTION["attention"], f"layers[{k}].attention", **where
        )
        heads, kv = _heads(read, attention, "attention", k)
        options.update(heads=heads, W_O=attention.get("W_O"))
        if kv is not None:
            options["kv_heads"] = kv
        options.update({key: attention[key] for key in ("scale", "temperature", "mask") if key in attention})
        if "rope" in attention:
            options["rope"] = _rope(read, attention["rope"], f"layers[{k}].attention.rope", k)
        if isinstance(options.get("mask"), list):
            options["mask"] = [[_mask_entry(v) for v in row] for row in options["mask"]]
        blocks.append(("attention", len(heads)))
    else:
        if not has_memory:
            raise SpecError(
                f"{read.place(**where)}: layers[{k}] is a decoder and needs memory = [[…]] (the encoder output)"
            )
        own = read.keys(
            table.get("self_attention"), _ATTENTION["self_attention"], f"layers[{k}].self_attention", **where
        )
        cross = read.keys(
            table.get("cross_attention"),
            _ATTENTION["cross_attention"],
            f"layers[{k}].cross_attention",
            **where,
        )
        heads, kv = _heads(read, own, "self_attention", k)
        cross_heads, _ = _heads(read, cross, "cross_attention", k)
        options.update(
            self_heads=heads, self_W_O=own.get("W_O"), cross_heads=cross_heads, cross_W_O=cross.get("W_O")
        )
        if kv is not None:
            options["kv_heads"] = kv
        if "scale" in own:
            options["scale"] = own["scale"]
        if "rope" in own:
            options["rope"] = _rope(read, own["rope"], f"layers[{k}].self_attention.rope", k)
        blocks += [("self_attention", len(heads)), ("cross_attention", len(cross_heads))]
    return blocks


def _rope(read: _Reader, table: Any, field_name: str, k: int) -> dict[str, Any]:
    """``rope = { base = 10000, start = 0, layout = "interleaved" }``: RoPE on the queries and keys."""
    from symattn.block import LAYOUTS

    where = {"layer": k}
    if not isinstance(table, dict):
        raise SpecError(
            f"{read.place(key='rope', **where)}: {field_name} must be a table such as "
            f"{{ base = 10000 }} (base, start, layout), not {table!r}"
        )
    for key in table:
        if key not in _ROPE:
            raise UnknownKeyError(
                f"{read.place(key='rope', **where)}: unknown key {key!r} in {field_name} "
                f"(known keys: {', '.join(_ROPE)})"
            )
    options = dict(table)
    if "layout" in options and options["layout"] not in LAYOUTS:
        raise SpecError(
            f"{read.place(key='rope', **where)}: {field_name}.layout: unknown layout {options['layout']!r} "
            f"(expected one of {', '.join(LAYOUTS)})"
        )
    start = options.get("start", 0)
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        raise SpecError(
            f"{read.place(key='rope', **where)}: {field_name}.start must be an integer ≥ 0 "
            f"(the position of the first token), not {start!r}"
        )
    return options


def _positional(read: _Reader, table: Any) -> Any:
    from symattn.block import LAYOUTS

    where = {"section": "positional"}
    read.keys(table, _POSITIONAL, "[positional]", **where)
    kind = read.choice(table.get("kind", "sinusoidal"), _POSITIONAL_KINDS, "positional.kind", "kind", **where)
    if kind == "learned":
        for key in ("base", "start", "layout"):
            if key in table:
                raise SpecError(
                    f"{read.place(key=key, **where)}: positional.{key} belongs to sinusoidal positions"
                )
        if "P" not in table:
            raise SpecError(f"{read.place(**where)}: learned positions need P = [[…]] (one row per token)")
        return read.matrix(table["P"], "positional.P", "P", **where)
    if "P" in table:
        raise SpecError(f'{read.place(key="P", **where)}: positional.P needs kind = "learned"')
    options: dict[str, Any] = {"kind": "sinusoidal"}
    if "layout" in table:
        options["layout"] = read.choice(table["layout"], LAYOUTS, "positional.layout", "layout", **where)
    for key in ("base", "start"):
        if key in table:
            options[key] = table[key]
    return options


def parse_block(data: dict, text: str, source: str) -> BlockSpec:
    """A :class:`BlockSpec` from parsed TOML (see :func:`symattn.spec.parse_spec`).

    Raises:
        UnknownKeyError: a key symattn does not know (naming the table).
        SpecError: a missing or mistyped value, an unknown activation, norm or layout.
    """
    read = _Reader(text, source)
    for key in data:
        if key not in _TOP:
            raise UnknownKeyError(
                f"{read.place(key=key)}: unknown key {key!r} in a block spec (known keys: {', '.join(_TOP)})"
            )
    if "X" not in data:
        raise SpecError(f"{source}: the spec has no X (the token embeddings)")
    read.matrix(data["X"], "X", "X")
    positional = _positional(read, data["positional"]) if "positional" in data else None
    layers_data = data.get("layers", [])
    if not isinstance(layers_data, list) or not layers_data:
        raise SpecError(f"{read.place(key='layers')}: a block spec needs at least one [[layers]] table")
    memory = data.get("memory")
    if memory is not None:
        read.matrix(memory, "memory", "memory")
    layers, shapes = [], []
    for k, table in enumerate(layers_data, start=1):
        options, shape = _layer(read, table, k, memory is not None)
        layers.append(options)
        shapes.append(shape)
    unembed = None
    if "unembed" in data:
        table = read.keys(data["unembed"], _UNEMBED, "[unembed]", section="unembed")
        if "W_U" not in table:
            raise SpecError(f"{read.place(section='unembed')}: [unembed] needs W_U (and optionally b_U)")
        unembed = (read.matrix(table["W_U"], "unembed.W_U", "W_U", section="unembed"), table.get("b_U"))
    names = registry.transformer_stage_names(
        shapes, positional=positional is not None, unembed=unembed is not None
    )
    heads = [
        f"layer{k}.{block}.{registry.head_name(h)}"
        for k, (_, _, _, blocks) in enumerate(shapes, start=1)
        for block, count in blocks
        for h in range(1, count + 1)
    ]
    claims_data = data.get("claims", {})
    if not isinstance(claims_data, dict):
        raise SpecError(f"{read.place(key='claims')}: claims must be a [claims] table")
    claims = _flatten(claims_data)
    allowed = registry.block_claim_keys(names, heads)
    for key, matrix in claims.items():
        if key not in allowed:
            shown = ", ".join(allowed[:8]) + (", …" if len(allowed) > 8 else "")
            raise UnknownKeyError(
                f"{read.claim_place(key)}: claims.{key} names no stage of this block (stages: {shown})"
            )
        _check_claim_matrix(key, matrix, read.claim_place(key))
    title = data.get("title")
    if title is not None and not isinstance(title, str):
        raise SpecError(f"{read.place(key='title')}: title must be a string")
    return BlockSpec(
        X=data["X"],
        layers=tuple(layers),
        stage_names=names,
        positional=positional,
        unembed=unembed,
        memory=memory,
        claims=claims,
        title=title,
        source=source,
        text=text,
    )
