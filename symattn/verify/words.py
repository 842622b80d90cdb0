"""The words of the explanation: what documents write about their numbers, in English and
Chinese.  Words are priors and statements, never switches of a convention; this table is the
one place a new phrase goes."""

from __future__ import annotations

import functools
import re
from fractions import Fraction

__all__ = [
    "NODE_WORDS",
    "NOT_COMPUTED",
    "OP_WORDS",
    "PARAMETER_WORDS",
    "ROLE_WORDS",
    "not_computed",
    "stated_values",
]

#: A statement that the numbers after it were not computed by the formula (made up, assumed,
#: given for illustration): they are givens of the example, not claims about its results.
NOT_COMPUTED = re.compile(
    r"made[- ]up|\bassum(?:e|ed|ing) (?:the )?(?:values|results|numbers|outputs?)|"
    r"\bhypothetical (?:values|numbers|results|outputs?)|\bnot (?:actually )?computed|"
    r"\bnot (?:the )?(?:real|actual|true) (?:output|result|values?)|\bfor illustration only|"
    r"\bplaceholder (?:values|numbers)|"
    r"假设的(?:结果|值|数值|输出)|假定的(?:结果|值|数值)|示意(?:值|数值|数字)|"
    r"(?:并)?不是(?:公式的)?真实(?:输出|结果|值)|随便(?:取|写|编)",
    re.IGNORECASE,
)

#: A line that ends a statement's reach: a heading or a rule.
_BREAK = re.compile(r"\s*(?:#{1,6}\s|---+\s*$|\*\*\*+\s*$|\\(?:sub)*section\b)")

#: Lines a statement reaches back from the block it speaks of.
_REACH = 12
#: An operation written out before an "=" (``x0 + PE(0) =``, ``H = X + PE =``): what follows it
#: is computed, whatever was said before.
_OPERATION = re.compile(r"(?:[+*/@\u00b7\u00d7]|\\cdot|\\times|\\odot| - )[^=\n]*=")


def not_computed(lines: list[str], line: int) -> bool:
    """Whether the text says the block starting at ``line`` (1-based) was not computed: a
    statement in the lines before it, within its section, or on its own line before it."""
    for index in range(line - 1, max(-1, line - 1 - _REACH), -1):
        text = lines[index] if index < len(lines) else ""
        if NOT_COMPUTED.search(text):
            return True
        if _OPERATION.search(text) or (index < line - 1 and (_BREAK.match(text) or _prose(text))):
            return False
    return False


def _prose(text: str) -> bool:
    """A sentence of its own (8 words, or 20 Chinese characters): a statement before it speaks
    of what it came before, not of what this sentence introduces.  A short label
    (``**K（键）:**``) is not one."""
    plain = re.sub(r"\$[^$]*\$|`[^`]*`|\\[A-Za-z]+", " ", text)
    return len(re.findall(r"[A-Za-z]{2,}", plain)) >= 8 or len(re.findall(r"[\u4e00-\u9fff]", plain)) >= 20


#: The names documents give the result of each declared operation (:data:`symattn.registry.OPS`):
#: priors, never switches.
OP_WORDS: dict[str, tuple[str, ...]] = {
    "A·B": ("hidden", "projection", "linear", "h"),
    "A·Bᵀ": ("scores", "score"),
    "A+B": ("residual", "sum", "add", "残差"),
    "A·W+b": ("hidden", "linear", "ffn", "h", "output"),
    "γ⊙x+β": ("gamma", "beta", "affine", "y", "output", "缩放"),
    "ReLU": ("relu", "activated", "激活"),
    "GELU": ("gelu", "activated", "激活"),
    "SiLU": ("silu", "swish"),
    "softmax": ("softmax", "probs", "weights", "probabilities", "概率"),
    "LayerNorm": ("layernorm", "ln", "norm", "normalized", "normed", "归一化"),
    "RMSNorm": ("rmsnorm", "rms", "norm", "normalized"),
    "exp": ("exp", "exps", "exponentials", "numerators", "指数"),
    "x ÷ √d_k": ("scaled", "缩放"),
    "x − max": ("shifted", "stable", "减后", "减去最大值"),
    "x ÷ sum": ("normalized", "normalised", "probs", "probabilities", "归一化", "概率"),
    "x − mean": ("centered", "centred", "diff"),
    "(x − μ)/σ": ("normalized", "normalised", "norm", "standardized", "归一化"),
    "mean": ("mean", "mu", "均值"),
    "variance": ("var", "variance", "方差"),
    "std": ("std", "sigma", "标准差"),
}


#: The names documents give each node of the explanation's graphs
#: (:data:`symattn.registry.GRAPHS`): priors that break ties between nodes, never switches.
NODE_WORDS: dict[str, tuple[str, ...]] = {
    "Q": ("q", "query", "queries", "querys"),
    "K": ("k", "key", "keys"),
    "V": ("v", "value", "values"),
    "S": ("score", "scores", "qk", "logits"),
    "B": ("bias", "alibi", "penalty", "\u504f\u7f6e"),
    "T": ("scaled", "biased"),
    "A": ("a", "weight", "weights", "attn", "attention", "softmax", "prob", "probs", "alpha"),
    "O": ("o", "output", "outputs", "out", "z", "context", "result"),
    "z/T": ("scaled", "logits"),
    "softmax(z/T)": ("p", "prob", "probs", "probability", "softmax"),
}

#: The names documents give the roles of given blocks (priors for which block is which).
ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "X": ("x", "input", "inputs", "embedding", "embeddings", "emb", "e", "h"),
    "W_Q": ("wq", "wquery", "queryweight", "queryweights"),
    "W_K": ("wk", "wkey", "keyweight", "keyweights"),
    "W_V": ("wv", "wvalue", "valueweight", "valueweights"),
    "Q": ("q", "query", "queries", "querys"),
    "K": ("k", "key", "keys"),
    "V": ("v", "value", "values"),
}

#: How a document states a parameter's value: a word, then ``=``, ``:``, ``@``, ``of`` or ``为``,
#: then the number (``T = 0.5``, ``temperature 0.7``, ``温度为 2``, ``logits / 0.5``).
PARAMETER_WORDS: dict[str, tuple[str, ...]] = {
    "temperature": ("T", "\\tau", "\u03c4", "temperature", "\u6e29\u5ea6", "logits /", "logit /"),
    "m": ("m", "slope", "\u659c\u7387"),
    "d_k": ("d_k", "d_{k}", "dk"),
    # the model width, for a row printed cut short (``[0.841, 0.540, ...]`` of a d = 512 encoding)
    "d_model": ("d_model", "d_{model}", "d_{\\text{model}}", "d"),
}

_VALUE = r"\s*(?:=|@|:|\u4e3a|of)?\s*(\d{1,3}(?:\.\d{1,4})?)(?!\d|\.\d)"  # "d = 8." ends a sentence


@functools.cache
def _parameter_pattern(name: str) -> re.Pattern[str]:
    words = sorted(PARAMETER_WORDS[name], key=len, reverse=True)
    spelled = "|".join(r"\s*".join(map(re.escape, w.split())) for w in words)
    return re.compile(rf"(?<![A-Za-z0-9_\\])(?:{spelled}){_VALUE}")


def stated_values(text: str, name: str, most: int) -> list[Fraction]:
    """The positive values the text states for parameter ``name``, in order, at most ``most``."""
    found: list[Fraction] = []
    if name not in PARAMETER_WORDS:
        return found
    for match in _parameter_pattern(name).finditer(text):
        value = Fraction(match.group(1))
        if value > 0 and value not in found:
            found.append(value)
        if len(found) >= most:
            break
    return found
