"""symattn: transformer attention derived exactly, and documents' numbers checked.

    >>> import symattn
    >>> att = symattn.attention([[1, 0], [0, 1], [1, 1]])
    >>> att.decimals("weights", 4)[2]
    ['0.2483', '0.2483', '0.5035']

The public names are loaded lazily, so ``import symattn`` (and the CLI's
``--help``) does not pay for importing SymPy.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "attention": "symattn.pipeline",
    "multihead": "symattn.pipeline",
    "Attention": "symattn.pipeline",
    "MultiHead": "symattn.pipeline",
    "load_spec": "symattn.spec",
    "AttentionSpec": "symattn.spec",
    "derive": "symattn.derivation",
    "Derivation": "symattn.derivation",
    "verify_document": "symattn.verify",
    "verify_text": "symattn.verify",
    "SymattnError": "symattn.errors",
    "certified_decimal": "symattn.exact",
    "to_exact": "symattn.exact",
    "examples": "symattn.examples",
    "oracle": "symattn.oracle",
    "positional_encoding": "symattn.block",
    "rope": "symattn.block",
    "residual": "symattn.block",
    "layer_norm": "symattn.block",
    "rms_norm": "symattn.block",
    "feed_forward": "symattn.block",
    "grouped_query_attention": "symattn.block",
    "encoder_layer": "symattn.block",
    "decoder_layer": "symattn.block",
    "transformer": "symattn.block",
    "Layer": "symattn.block",
    "Transformer": "symattn.block",
    "rollout": "symattn.flow",
    "attention_flow": "symattn.flow",
}

__all__ = [
    "Attention",
    "AttentionSpec",
    "Derivation",
    "Layer",
    "MultiHead",
    "SymattnError",
    "Transformer",
    "attention",
    "attention_flow",
    "certified_decimal",
    "decoder_layer",
    "derive",
    "encoder_layer",
    "examples",
    "feed_forward",
    "grouped_query_attention",
    "layer_norm",
    "load_spec",
    "multihead",
    "oracle",
    "positional_encoding",
    "residual",
    "rms_norm",
    "rollout",
    "rope",
    "to_exact",
    "transformer",
    "verify_document",
    "verify_text",
]


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'symattn' has no attribute {name!r}")
    module = importlib.import_module(module_name)
    value = module if module_name.endswith(name) else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
